package settings

import (
	"fmt"

	"github.com/magehook/magehook/pkg/harness"
)

// Install returns the Claude Code settings document data with magehook's
// entries replaced by entries and worktree.baseRef set to "head", every
// other key and foreign hook kept, our groups where they were (see Edit).
func Install(data []byte, entries []Entry, own Owner) ([]byte, error) {
	return Edit(data, claudeHarness(), own, entries)
}

// Uninstall returns data without magehook's entries. Groups, event keys
// and a hooks object that become empty are removed; everything else stays,
// worktree.baseRef included (it may be the user's own choice).
func Uninstall(data []byte, own Owner) ([]byte, error) {
	return Edit(data, claudeHarness(), own, nil)
}

func claudeHarness() *harness.Harness {
	h, _ := harness.Lookup("claude")
	return h
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
