package settings

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/magehook/magehook/pkg/harness"
)

// Edit returns a harness configuration document with magehook's entries
// replaced by entries (none: uninstall), every other key and foreign
// entry kept. An entry of ours stays where it is: a re-install rewrites a
// group of ours in place and appends only what is new, because Codex keys
// the trust a user gave a hook by its position (<file>:<event>:<group>:
// <index>) and a moved hook would need a new review. Install also sets the
// harness's Settings; uninstall leaves them.
func Edit(data []byte, h *harness.Harness, own Owner, entries []Entry) ([]byte, error) {
	var top *Object
	if h.IsClaude() {
		t, _, err := load(data)
		if err != nil {
			return nil, err
		}
		top = t
	} else {
		tree, err := Parse(data)
		if err != nil {
			return nil, err
		}
		t, ok := tree.(*Object)
		if !ok {
			return nil, &ParseError{Msg: "the top level is " + typeName(tree) + ", not an object"}
		}
		top = t
	}
	hv, present := top.Get("hooks")
	if !present && len(entries) == 0 {
		return Encode(top, true), nil
	}
	hooks, ok := hv.(*Object)
	if present && !ok {
		return nil, &ParseError{Msg: "hooks is " + typeName(hv) + ", not an object"}
	}
	if !present {
		hooks = &Object{}
		top.Set("hooks", hooks)
	}
	byEvent := map[string]Entry{}
	for _, e := range entries {
		byEvent[e.Native] = e
	}
	placed := map[string]bool{}
	var kept []Member
	for _, m := range hooks.Members {
		if !h.IsEventKey(m.Key) {
			kept = append(kept, m)
			continue
		}
		list, ok := m.Value.([]any)
		if !ok {
			return nil, &ParseError{Msg: fmt.Sprintf("hooks.%s is %s, not an array", m.Key, typeName(m.Value))}
		}
		want, declared := byEvent[m.Key]
		out, changed, err := editList(list, m.Key, h, own, want, declared && !placed[m.Key])
		if err != nil {
			return nil, err
		}
		if declared && changed.placed {
			placed[m.Key] = true
		}
		if !changed.any {
			kept = append(kept, m)
			continue
		}
		if len(out) == 0 {
			continue
		}
		m.Value = out
		kept = append(kept, m)
	}
	hooks.Members = kept
	for _, e := range entries {
		if placed[e.Native] {
			continue
		}
		list, _ := hooks.Get(e.Native)
		items, _ := list.([]any)
		hooks.Set(e.Native, append(items, item(h, e)))
		placed[e.Native] = true
	}
	if len(hooks.Members) == 0 && len(entries) == 0 {
		top.Delete("hooks")
	}
	if len(entries) > 0 {
		for _, s := range h.Settings {
			if err := setPath(top, s.Path, s.Value); err != nil {
				return nil, err
			}
		}
	}
	return Encode(top, true), nil
}

type listChange struct{ any, placed bool }

// editList removes our entries from one event's list, putting want (when
// put) where the first pure group (or flat entry) of ours was.
func editList(list []any, key string, h *harness.Harness, own Owner, want Entry, put bool) ([]any, listChange, error) {
	var out []any
	var ch listChange
	for i, it := range list {
		obj, ok := it.(*Object)
		if !ok {
			return nil, ch, &ParseError{Msg: fmt.Sprintf("hooks.%s[%d] is %s, not an object", key, i, typeName(it))}
		}
		if h.Layout == harness.Flat {
			if !own.Owns(obj) {
				out = append(out, obj)
				continue
			}
			ch.any = true
			if put && !ch.placed {
				ch.placed = true
				out = append(out, item(h, want)) // rewritten where it was
			}
			continue
		}
		hs, has := obj.Get("hooks")
		if !has {
			out = append(out, obj)
			continue
		}
		inner, ok := hs.([]any)
		if !ok {
			return nil, ch, &ParseError{Msg: fmt.Sprintf("hooks.%s[%d].hooks is %s, not an array", key, i, typeName(hs))}
		}
		var keep []any
		for _, x := range inner {
			if xo, ok := x.(*Object); ok && own.Owns(xo) {
				continue
			}
			keep = append(keep, x)
		}
		if len(keep) == len(inner) {
			out = append(out, obj)
			continue
		}
		ch.any = true
		switch {
		case len(keep) == 0 && put && !ch.placed:
			ch.placed = true
			out = append(out, item(h, want)) // our group, rewritten where it was
		case len(keep) > 0:
			obj.Set("hooks", keep)
			out = append(out, obj)
		}
	}
	return out, ch, nil
}

// item is one entry in the harness's own shape: a matcher group holding
// one handler, or a flat entry.
func item(h *harness.Harness, e Entry) *Object {
	scale := h.TimeoutScale
	if scale == 0 {
		scale = 1
	}
	timeout := json.Number(strconv.Itoa(e.Timeout * scale))
	handler := &Object{Members: []Member{{Key: "type", Value: "command"}}}
	if h.HandlerName != "" {
		handler.Set("name", h.HandlerName)
	}
	handler.Set(h.CommandKey, e.Command)
	handler.Set(h.TimeoutKey, timeout)
	if h.Layout == harness.Flat {
		if e.Matcher != "" {
			handler.Set("matcher", e.Matcher)
		}
		return handler
	}
	g := &Object{}
	if e.Matcher != "" {
		g.Set("matcher", e.Matcher)
	}
	g.Set("hooks", []any{handler})
	return g
}

// setPath sets a dotted path of object keys, creating objects on the way
// and refusing to go through a value that is not one.
func setPath(top *Object, path string, value any) error {
	keys := strings.Split(path, ".")
	o := top
	for i, k := range keys[:len(keys)-1] {
		v, ok := o.Get(k)
		if !ok {
			v = &Object{}
			o.Set(k, v)
		}
		next, isObj := v.(*Object)
		if !isObj {
			return &ParseError{Msg: strings.Join(keys[:i+1], ".") + " is " + typeName(v) + ", not an object"}
		}
		o = next
	}
	last := keys[len(keys)-1]
	if _, exists := o.Get(last); exists && last == "version" {
		return nil // a file's own version stays
	}
	if n, ok := value.(int); ok {
		value = json.Number(strconv.Itoa(n))
	}
	o.Set(last, value)
	return nil
}

// OwnedEntries returns magehook's entries in a harness document, as Entry
// values (Event and Native hold the file's event key, Timeout is in
// seconds), in file order, with the group and index each sits at.
func OwnedEntries(data []byte, h *harness.Harness, own Owner) ([]Placed, error) {
	tree, err := Parse(data)
	if err != nil {
		return nil, err
	}
	top, ok := tree.(*Object)
	if !ok {
		return nil, &ParseError{Msg: "the top level is not an object"}
	}
	hv, _ := top.Get("hooks")
	hooks, _ := hv.(*Object)
	if hooks == nil {
		return nil, nil
	}
	scale := h.TimeoutScale
	if scale == 0 {
		scale = 1
	}
	var out []Placed
	for _, m := range hooks.Members {
		if !h.IsEventKey(m.Key) {
			continue
		}
		list, _ := m.Value.([]any)
		for gi, it := range list {
			obj, _ := it.(*Object)
			if obj == nil {
				continue
			}
			matcher, _ := obj.Get("matcher")
			ms, _ := matcher.(string)
			candidates := []*Object{obj}
			if h.Layout != harness.Flat {
				candidates = nil
				hs, _ := obj.Get("hooks")
				inner, _ := hs.([]any)
				for _, x := range inner {
					xo, _ := x.(*Object)
					candidates = append(candidates, xo)
				}
			}
			for hi, c := range candidates {
				if c == nil || !own.Owns(c) {
					continue
				}
				p := Placed{Entry: Entry{Event: m.Key, Native: m.Key, Matcher: ms}, Group: gi, Index: hi, Handler: c}
				if v, ok := c.Get(h.CommandKey); ok {
					p.Command, _ = v.(string)
				}
				if v, ok := c.Get(h.TimeoutKey); ok {
					if n, ok := v.(json.Number); ok {
						t, err := n.Int64()
						if err != nil {
							t = -1
						}
						p.Timeout = int(t) / scale
					}
				}
				out = append(out, p)
			}
		}
	}
	return out, nil
}

// Placed is an entry of ours as a file holds it.
type Placed struct {
	Entry
	// Group and Index are its position: the matcher group in the event's
	// list and the handler in the group (Index 0 for a flat entry).
	Group, Index int
	// Handler is the handler object itself.
	Handler *Object
}
