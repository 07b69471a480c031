package settings

import (
	"bytes"
	"fmt"
	"sort"

	"github.com/magehook/magehook/pkg/jsontree"
	"github.com/magehook/magehook/pkg/regfile"
)

// LocalKey is the top-level key of a runtime settings file that declares
// intentional machine-local hooks, shaped like hooks (seed 002).
const LocalKey = "_hooks_local"

// ReconcileSchema versions the JSON report.
const ReconcileSchema = "magehook-reconcile/1"

// Change is one line of a reconcile report.
type Change struct {
	// Action is added, updated, removed, reordered, regrouped, local or
	// undeclared.
	Action  string `json:"action"`
	Event   string `json:"event"`
	Matcher string `json:"matcher"`
	// Hook names the handler (its command, url or prompt); empty for a
	// reordered group.
	Hook string `json:"hook,omitempty"`
}

// Drift reports whether the change means the runtime differs from the
// declaration (local and undeclared hooks are reported, not drift).
func (c Change) Drift() bool {
	switch c.Action {
	case "added", "updated", "removed", "reordered", "regrouped":
		return true
	}
	return false
}

func (c Change) String() string {
	s := fmt.Sprintf("%s %s [%s]", c.Action, c.Event, c.Matcher)
	if c.Hook != "" {
		s += " " + c.Hook
	}
	switch c.Action {
	case "local":
		s += " (intentional local hook, from " + LocalKey + ")"
	case "undeclared":
		s += " (declared nowhere: add it to the source, move it under " + LocalKey + ", or apply with -prune)"
	}
	return s
}

// Plan is the outcome of reconciling a runtime settings file on a source.
type Plan struct {
	Changes []Change
	// Next is the runtime file as apply writes it (nil when converged).
	Next []byte
}

// Converged reports whether nothing would be written.
func (p Plan) Converged() bool { return p.Next == nil }

// Reconcile computes how to converge runtime (the settings file Claude Code
// reads) on source (a declared, version-controlled settings file). Only
// the runtime's hooks key changes; every other key is kept in its order.
// The source is authoritative per (event, matcher) group: each group's
// handlers and their order are rewritten to match. Hooks under the
// runtime's _hooks_local are merged over the source and never dropped.
// Runtime hooks declared in neither are kept (reported undeclared), or
// removed when prune is set.
func Reconcile(source, runtime []byte, prune bool) (Plan, error) {
	_, srcHooks, err := load(source)
	if err != nil {
		return Plan{}, fmt.Errorf("source: %w", err)
	}
	top, curHooks, err := load(runtime)
	if err != nil {
		return Plan{}, fmt.Errorf("runtime: %w", err)
	}
	var localHooks *Object
	if lv, ok := top.Get(LocalKey); ok {
		lo, isObj := lv.(*Object)
		if !isObj {
			return Plan{}, &ParseError{Msg: LocalKey + " is " + typeName(lv) + ", not an object"}
		}
		if err := checkHooks(lo, LocalKey); err != nil {
			return Plan{}, err
		}
		localHooks = lo
	}

	desired := collect(srcHooks)
	current := collect(curHooks)
	var changes []Change
	for _, k := range collect(localHooks).keys {
		for _, h := range collect(localHooks).groups[k] {
			if desired.add(k, h) {
				changes = append(changes, Change{"local", k.event, k.matcher, hookName(h)})
			}
		}
	}
	for _, k := range current.keys {
		for _, h := range current.groups[k] {
			if desired.has(k, h) {
				continue
			}
			if prune {
				continue // reported as removed below
			}
			desired.add(k, h)
			changes = append(changes, Change{"undeclared", k.event, k.matcher, hookName(h)})
		}
	}

	keys := append([]groupKey(nil), desired.keys...)
	for _, k := range current.keys {
		if _, ok := desired.groups[k]; !ok {
			keys = append(keys, k)
		}
	}
	drift := false
	for _, k := range keys {
		want, have := desired.groups[k], current.groups[k]
		for _, h := range want {
			if i := indexOf(have, h); i < 0 {
				changes = append(changes, Change{"added", k.event, k.matcher, hookName(h)})
				drift = true
			} else if !bytes.Equal(Encode(have[i], true), Encode(h, true)) {
				changes = append(changes, Change{"updated", k.event, k.matcher, hookName(h)})
				drift = true
			}
		}
		for _, h := range have {
			if indexOf(want, h) < 0 {
				changes = append(changes, Change{"removed", k.event, k.matcher, hookName(h)})
				drift = true
			}
		}
		if sameSet(want, have) && !sameOrder(want, have) {
			changes = append(changes, Change{"reordered", k.event, k.matcher, ""})
			drift = true
		}
	}
	// Same hooks in the same order can still sit in differently split or
	// ordered groups; the declaration's layout wins.
	events := append([]string(nil), desired.events...)
	for _, e := range current.events {
		if !contains(events, e) {
			events = append(events, e)
		}
	}
	for _, e := range events {
		if !bytes.Equal(Encode(desired.eventValue(e), true), Encode(current.eventValue(e), true)) && !eventDrifted(changes, e) {
			changes = append(changes, Change{"regrouped", e, "", ""})
			drift = true
		}
	}
	if !drift {
		return Plan{Changes: changes}, nil
	}
	top.Set("hooks", desired.object())
	return Plan{Changes: changes, Next: Encode(top, false)}, nil
}

type groupKey struct{ event, matcher string }

// groupSet is a hooks object as ordered (event, matcher) groups of handlers.
type groupSet struct {
	keys   []groupKey
	groups map[groupKey][]*Object
	events []string
}

func collect(hooks *Object) *groupSet {
	s := &groupSet{groups: map[groupKey][]*Object{}}
	if hooks == nil {
		return s
	}
	for _, m := range hooks.Members {
		for _, g := range m.Value.([]any) {
			group := g.(*Object)
			mv, _ := group.Get("matcher")
			matcher, _ := mv.(string)
			k := groupKey{m.Key, matcher}
			s.touch(k)
			hs, _ := group.Get("hooks")
			list, _ := hs.([]any)
			for _, h := range list {
				if obj, ok := h.(*Object); ok {
					s.groups[k] = append(s.groups[k], obj)
				}
			}
		}
	}
	return s
}

func (s *groupSet) touch(k groupKey) {
	if _, ok := s.groups[k]; ok {
		return
	}
	s.groups[k] = nil
	s.keys = append(s.keys, k)
	for _, e := range s.events {
		if e == k.event {
			return
		}
	}
	s.events = append(s.events, k.event)
}

func (s *groupSet) has(k groupKey, h *Object) bool { return indexOf(s.groups[k], h) >= 0 }

// add appends h to its group unless the group already holds that hook.
func (s *groupSet) add(k groupKey, h *Object) bool {
	if s.has(k, h) {
		return false
	}
	s.touch(k)
	s.groups[k] = append(s.groups[k], h)
	return true
}

func (s *groupSet) object() *Object {
	out := &Object{}
	for _, e := range s.events {
		if groups := s.eventValue(e); len(groups) > 0 {
			out.Set(e, groups)
		}
	}
	return out
}

// eventValue is one event's list of groups, as written.
func (s *groupSet) eventValue(e string) []any {
	groups := []any{}
	for _, k := range s.keys {
		if k.event != e || len(s.groups[k]) == 0 {
			continue
		}
		g := &Object{}
		if k.matcher != "" {
			g.Set("matcher", k.matcher)
		}
		list := make([]any, len(s.groups[k]))
		for i, h := range s.groups[k] {
			list[i] = h
		}
		g.Set("hooks", list)
		groups = append(groups, g)
	}
	return groups
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func eventDrifted(cs []Change, event string) bool {
	for _, c := range cs {
		if c.Event == event && c.Drift() {
			return true
		}
	}
	return false
}

// identity is what makes two handlers "the same hook": its type and what
// it runs. Other fields (timeout, statusMessage, ...) can be updated.
func identity(h *Object) string {
	t, _ := h.Get("type")
	ts, _ := t.(string)
	for _, key := range []string{"command", "url", "prompt", "tool"} {
		if v, ok := h.Get(key); ok {
			if s, ok := v.(string); ok {
				return ts + "\x00" + key + "\x00" + s + "\x00" + argsOf(h)
			}
		}
	}
	return ts + "\x00" + string(Encode(h, true))
}

func argsOf(h *Object) string {
	if a, ok := h.Get("args"); ok {
		return string(Encode(a, true))
	}
	return ""
}

func hookName(h *Object) string {
	for _, key := range []string{"command", "url", "prompt", "tool"} {
		if v, ok := h.Get(key); ok {
			if s, ok := v.(string); ok {
				return s
			}
		}
	}
	return string(bytes.TrimSpace(Encode(h, true)))
}

func indexOf(list []*Object, h *Object) int {
	id := identity(h)
	for i, x := range list {
		if identity(x) == id {
			return i
		}
	}
	return -1
}

func sameSet(a, b []*Object) bool {
	if len(a) != len(b) {
		return false
	}
	ids := map[string]int{}
	for _, h := range a {
		ids[identity(h)]++
	}
	for _, h := range b {
		ids[identity(h)]--
	}
	for _, n := range ids {
		if n != 0 {
			return false
		}
	}
	return true
}

func sameOrder(a, b []*Object) bool {
	for i := range a {
		if identity(a[i]) != identity(b[i]) {
			return false
		}
	}
	return true
}

// Reconciler plans or applies a reconcile between two files.
type Reconciler struct {
	Source, Runtime string
	Prune           bool
	// BackupDir receives the runtime file's previous bytes on apply.
	BackupDir string
}

// Plan reads both files and computes the plan. A runtime file that does
// not exist is empty.
func (r Reconciler) Plan() (Plan, error) {
	src, err := regfile.ReadFile(r.Source, jsontree.MaxBytes)
	if err != nil {
		return Plan{}, fmt.Errorf("source %s: %w", r.Source, err)
	}
	cur, _, err := read(r.Runtime)
	if err != nil {
		return Plan{}, fmt.Errorf("runtime %s: %w", r.Runtime, err)
	}
	p, err := Reconcile(src, cur, r.Prune)
	if err != nil {
		return Plan{}, fmt.Errorf("%s / %s: %w", r.Source, r.Runtime, err)
	}
	return p, nil
}

// Apply converges the runtime file, atomically and with a backup; a
// converged file is not written. It returns the plan it applied.
func (r Reconciler) Apply() (Plan, error) {
	src, err := regfile.ReadFile(r.Source, jsontree.MaxBytes)
	if err != nil {
		return Plan{}, fmt.Errorf("source %s: %w", r.Source, err)
	}
	var plan Plan
	_, err = Rewrite{
		Path:         r.Runtime,
		BackupDir:    r.BackupDir,
		BackupPrefix: BackupPrefix("runtime", r.Runtime),
		Edit: func(old []byte) ([]byte, error) {
			p, err := Reconcile(src, old, r.Prune)
			if err != nil {
				return nil, err
			}
			plan = p
			if p.Converged() {
				return old, nil
			}
			return p.Next, nil
		},
	}.Run()
	return plan, err
}

// SortChanges orders a report by event, matcher and action, for stable output.
func SortChanges(cs []Change) {
	sort.SliceStable(cs, func(i, j int) bool {
		if cs[i].Event != cs[j].Event {
			return cs[i].Event < cs[j].Event
		}
		return cs[i].Matcher < cs[j].Matcher
	})
}
