package settings

import (
	"encoding/json"
	"fmt"
	"strconv"
)

// Install returns the settings document data with magehook's entries
// replaced by entries and worktree.baseRef set to "head", every other key
// and foreign hook kept. root is the checkout whose entries are magehook's.
func Install(data []byte, entries []Entry, root string) ([]byte, error) {
	top, hooks, err := load(data)
	if err != nil {
		return nil, err
	}
	if hooks == nil && len(entries) > 0 {
		hooks = &Object{}
		top.Set("hooks", hooks)
	}
	removeOurs(hooks, root)
	for _, e := range entries {
		list, _ := hooks.Get(e.Event)
		groups, _ := list.([]any)
		hooks.Set(e.Event, append(groups, e.group()))
	}
	wt, ok := top.Get("worktree")
	if !ok {
		wt = &Object{}
		top.Set("worktree", wt)
	}
	wt.(*Object).Set("baseRef", "head")
	return Encode(top, true), nil
}

// Uninstall returns data without magehook's entries. Groups, event keys
// and a hooks object that become empty are removed; everything else stays,
// worktree.baseRef included (it may be the user's own choice).
func Uninstall(data []byte, root string) ([]byte, error) {
	top, hooks, err := load(data)
	if err != nil {
		return nil, err
	}
	if removeOurs(hooks, root) && len(hooks.Members) == 0 {
		top.Delete("hooks")
	}
	return Encode(top, true), nil
}

func (e Entry) group() *Object {
	handler := &Object{Members: []Member{
		{Key: "type", Value: "command"},
		{Key: "command", Value: e.Command},
		{Key: "timeout", Value: json.Number(strconv.Itoa(e.Timeout))},
	}}
	g := &Object{}
	if e.Matcher != "" {
		g.Set("matcher", e.Matcher)
	}
	g.Set("hooks", []any{handler})
	return g
}

// Load parses a settings document and checks its shape as every writer
// does; hooks is nil when the document has none.
func Load(data []byte) (top, hooks *Object, err error) { return load(data) }

// load parses a settings document and checks the shape of everything a
// writer walks: the top level, hooks, each event's list, each group, each
// group's hooks, and worktree. hooks is nil when absent.
func load(data []byte) (*Object, *Object, error) {
	tree, err := Parse(data)
	if err != nil {
		return nil, nil, err
	}
	top, ok := tree.(*Object)
	if !ok {
		return nil, nil, &ParseError{Msg: "the top level is " + typeName(tree) + ", not an object; a settings file is one JSON object: fix it by hand"}
	}
	if wt, ok := top.Get("worktree"); ok {
		if _, isObj := wt.(*Object); !isObj {
			return nil, nil, &ParseError{Msg: "worktree is " + typeName(wt) + ", not an object; make it an object (" + `{"baseRef": "head"}` + ") or remove the key"}
		}
	}
	h, ok := top.Get("hooks")
	if !ok {
		return top, nil, nil
	}
	hooks, isObj := h.(*Object)
	if !isObj {
		return nil, nil, &ParseError{Msg: "hooks is " + typeName(h) + ", not an object; make it an object of event names ({} for none) or remove the key"}
	}
	if err := checkHooks(hooks, "hooks"); err != nil {
		return nil, nil, err
	}
	return top, hooks, nil
}

func checkHooks(hooks *Object, where string) error {
	for _, m := range hooks.Members {
		groups, ok := m.Value.([]any)
		if !ok {
			return &ParseError{Msg: fmt.Sprintf("%s.%s is %s, not an array of matcher groups; make it an array ([] for none) or remove the key", where, m.Key, typeName(m.Value))}
		}
		for i, g := range groups {
			group, ok := g.(*Object)
			if !ok {
				return &ParseError{Msg: fmt.Sprintf("%s.%s[%d] is %s, not a matcher group object; make it {\"matcher\": ..., \"hooks\": [...]} or remove it", where, m.Key, i, typeName(g))}
			}
			if hs, ok := group.Get("hooks"); ok {
				if _, isArr := hs.([]any); !isArr {
					return &ParseError{Msg: fmt.Sprintf("%s.%s[%d].hooks is %s, not an array; make it an array of handlers ([] for none) or remove the key", where, m.Key, i, typeName(hs))}
				}
			}
		}
	}
	return nil
}

// removeOurs deletes magehook's handlers, then the groups and event keys
// that this left empty. It reports whether it removed anything.
func removeOurs(hooks *Object, root string) bool {
	if hooks == nil {
		return false
	}
	removed := false
	var events []Member
	for _, m := range hooks.Members {
		groups := m.Value.([]any)
		var kept []any
		eventChanged := false
		for _, g := range groups {
			group := g.(*Object)
			hs, ok := group.Get("hooks")
			if !ok {
				kept = append(kept, g)
				continue
			}
			list := hs.([]any)
			var keep []any
			for _, h := range list {
				if obj, ok := h.(*Object); ok && IsOurs(obj, root) {
					continue
				}
				keep = append(keep, h)
			}
			if len(keep) == len(list) {
				kept = append(kept, g)
				continue
			}
			removed, eventChanged = true, true
			if len(keep) > 0 {
				group.Set("hooks", keep)
				kept = append(kept, g)
			}
		}
		if eventChanged && len(kept) == 0 {
			continue
		}
		if eventChanged {
			m.Value = kept
		}
		events = append(events, m)
	}
	hooks.Members = events
	return removed
}
