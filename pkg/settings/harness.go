package settings

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/toolingrc"
)

// HarnessFile is the configuration file a harness reads, relative to the
// checkout root.
func HarnessFile(harness string) string {
	switch harness {
	case "codex":
		return filepath.Join(".codex", "hooks.json")
	case "copilot":
		return filepath.Join(".github", "hooks", "magehook.json")
	case "cursor":
		return filepath.Join(".cursor", "hooks.json")
	case "gemini":
		return filepath.Join(".gemini", "settings.json")
	case "opencode":
		return filepath.Join(".opencode", "plugins", "magehook.js")
	}
	return filepath.Join(".claude", "settings.json")
}

// harnessCommand is the binary invocation of a harness's entries. Codex,
// Copilot and Cursor give hooks no project directory variable, so the
// command finds the main checkout from git (a linked worktree's own
// checkout holds no bin/); Gemini gives GEMINI_PROJECT_DIR.
func harnessCommand(binary, harness string) string {
	rel := shellQuoteInner(filepath.ToSlash(binary))
	if harness == "gemini" {
		return `"$GEMINI_PROJECT_DIR/` + rel + `"`
	}
	return `"$(dirname "$(git rev-parse --path-format=absolute --git-common-dir)")/` + rel + `"`
}

// EntriesFor returns the entries install writes for a harness: the same
// events as Claude Code's (those the harness has), under its event names,
// with matchers on its tool names, and commands that name the harness.
func EntriesFor(cfg *toolingrc.Config, handlers []hook.Handler, h hook.Harness) ([]Entry, error) {
	common, err := Entries(cfg, handlers, Project)
	if err != nil || h.Name == "claude" {
		return common, err
	}
	bin, err := cfg.Get(toolingrc.KeyHookBinary)
	if err != nil {
		return nil, err
	}
	var out []Entry
	for _, e := range common {
		native, ok := h.NativeEvent(e.Event)
		if !ok {
			continue
		}
		ev, _ := hook.Lookup(e.Event)
		e.Native = native
		e.Command = harnessCommand(bin.String(), h.Name) + " hook:" + ev.Target + " -harness=" + h.Name
		if ev.MatcherField == "tool_name" {
			e.Matcher = nativeMatcher(e.Matcher, h)
		}
		out = append(out, e)
	}
	return out, nil
}

// nativeMatcher maps a Claude-format tool matcher onto a harness's tool
// names. A regular expression cannot be mapped and becomes no matcher: the
// dispatcher applies each handler's own matcher after the payload is
// mapped, so matching more is safe.
func nativeMatcher(m string, h hook.Harness) string {
	if m == "" || h.Tools == nil || h.Name == "copilot" {
		return m // Copilot applies Claude-format matchers to PascalCase events
	}
	names, ok := hook.ExactNames(m)
	if !ok {
		return ""
	}
	native := h.NativeTools(names)
	if h.Name == "gemini" {
		return "^(" + strings.Join(native, "|") + ")$"
	}
	return strings.Join(native, "|")
}

// ownedBy reports whether a harness entry (or, for the grouped shapes, a
// group's handler) is magehook's: its command runs a hook: target with
// -harness=<name>.
func ownedBy(harness string) func(*Object) bool {
	return func(o *Object) bool {
		for _, key := range []string{"command", "bash"} {
			v, _ := o.Get(key)
			s, _ := v.(string)
			if strings.Contains(s, " hook:") && strings.HasSuffix(strings.TrimSpace(s), " -harness="+harness) {
				return true
			}
		}
		return false
	}
}

// InstallHarness writes a harness's entries into its configuration
// document, keeping everything else, as Install does for Claude Code.
func InstallHarness(data []byte, h hook.Harness, entries []Entry) ([]byte, error) {
	return editHarness(data, h, entries)
}

// UninstallHarness removes magehook's entries from a harness's document.
func UninstallHarness(data []byte, h hook.Harness) ([]byte, error) {
	return editHarness(data, h, nil)
}

func editHarness(data []byte, h hook.Harness, entries []Entry) ([]byte, error) {
	tree, err := Parse(data)
	if err != nil {
		return nil, err
	}
	top, ok := tree.(*Object)
	if !ok {
		return nil, &ParseError{Msg: "the top level is " + typeName(tree) + ", not an object"}
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
	owned := ownedBy(h.Name)
	flat := h.Name == "copilot" || h.Name == "cursor"
	isEvent := func(key string) bool {
		// Gemini keeps settings such as hooks.disabled next to the events.
		return h.Name != "gemini" || (key != "" && key[0] >= 'A' && key[0] <= 'Z')
	}
	removed := false
	var kept []Member
	for _, m := range hooks.Members {
		if !isEvent(m.Key) {
			kept = append(kept, m)
			continue
		}
		list, ok := m.Value.([]any)
		if !ok {
			return nil, &ParseError{Msg: fmt.Sprintf("hooks.%s is %s, not an array", m.Key, typeName(m.Value))}
		}
		var out []any
		changed := false
		for i, item := range list {
			obj, ok := item.(*Object)
			if !ok {
				return nil, &ParseError{Msg: fmt.Sprintf("hooks.%s[%d] is %s, not an object", m.Key, i, typeName(item))}
			}
			if flat {
				if owned(obj) {
					changed = true
					continue
				}
				out = append(out, obj)
				continue
			}
			hs, has := obj.Get("hooks")
			if !has {
				out = append(out, obj)
				continue
			}
			inner, ok := hs.([]any)
			if !ok {
				return nil, &ParseError{Msg: fmt.Sprintf("hooks.%s[%d].hooks is %s, not an array", m.Key, i, typeName(hs))}
			}
			var keep []any
			for _, x := range inner {
				if xo, ok := x.(*Object); ok && owned(xo) {
					continue
				}
				keep = append(keep, x)
			}
			if len(keep) == len(inner) {
				out = append(out, obj)
				continue
			}
			changed = true
			if len(keep) > 0 {
				obj.Set("hooks", keep)
				out = append(out, obj)
			}
		}
		if changed {
			removed = true
			if len(out) == 0 {
				continue
			}
			m.Value = out
		}
		kept = append(kept, m)
	}
	hooks.Members = kept
	sort.SliceStable(entries, func(i, j int) bool { return entries[i].Native < entries[j].Native })
	for _, e := range entries {
		list, _ := hooks.Get(e.Native)
		groups, _ := list.([]any)
		hooks.Set(e.Native, append(groups, harnessItem(h.Name, e)))
	}
	if removed && len(hooks.Members) == 0 && len(entries) == 0 {
		top.Delete("hooks")
	}
	if len(entries) > 0 {
		switch h.Name {
		case "copilot", "cursor":
			if _, ok := top.Get("version"); !ok {
				top.Set("version", json.Number("1"))
			}
		case "gemini":
			tv, ok := top.Get("tools")
			if !ok {
				tv = &Object{}
				top.Set("tools", tv)
			}
			tools, isObj := tv.(*Object)
			if !isObj {
				return nil, &ParseError{Msg: "tools is " + typeName(tv) + ", not an object"}
			}
			tools.Set("enableHooks", true)
		}
	}
	return Encode(top, true), nil
}

// harnessItem is one entry in a harness's own shape.
func harnessItem(harness string, e Entry) *Object {
	seconds := json.Number(strconv.Itoa(e.Timeout))
	switch harness {
	case "copilot":
		o := &Object{Members: []Member{{Key: "type", Value: "command"}, {Key: "bash", Value: e.Command}, {Key: "timeoutSec", Value: seconds}}}
		if e.Matcher != "" {
			o.Set("matcher", e.Matcher)
		}
		return o
	case "cursor":
		o := &Object{Members: []Member{{Key: "type", Value: "command"}, {Key: "command", Value: e.Command}, {Key: "timeout", Value: seconds}}}
		if e.Matcher != "" {
			o.Set("matcher", e.Matcher)
		}
		return o
	case "gemini":
		handler := &Object{Members: []Member{{Key: "type", Value: "command"}, {Key: "name", Value: "magehook"}, {Key: "command", Value: e.Command},
			{Key: "timeout", Value: json.Number(strconv.Itoa(e.Timeout * 1000))}}}
		g := &Object{}
		if e.Matcher != "" {
			g.Set("matcher", e.Matcher)
		}
		g.Set("hooks", []any{handler})
		return g
	}
	return e.group()
}

// OwnedEntries returns magehook's entries in a harness document, as Entry
// values (Event holds the native event name), for the doctor.
func OwnedEntries(data []byte, h hook.Harness) ([]Entry, error) {
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
	owned := ownedBy(h.Name)
	var out []Entry
	for _, m := range hooks.Members {
		list, _ := m.Value.([]any)
		for _, item := range list {
			obj, _ := item.(*Object)
			if obj == nil {
				continue
			}
			matcher, _ := obj.Get("matcher")
			ms, _ := matcher.(string)
			candidates := []*Object{obj}
			if hs, ok := obj.Get("hooks"); ok {
				candidates = nil
				inner, _ := hs.([]any)
				for _, x := range inner {
					if xo, ok := x.(*Object); ok {
						candidates = append(candidates, xo)
					}
				}
			}
			for _, c := range candidates {
				if !owned(c) {
					continue
				}
				e := Entry{Event: m.Key, Native: m.Key, Matcher: ms}
				for _, key := range []string{"command", "bash"} {
					if v, ok := c.Get(key); ok {
						e.Command, _ = v.(string)
					}
				}
				for _, key := range []string{"timeout", "timeoutSec"} {
					if v, ok := c.Get(key); ok {
						if n, ok := v.(json.Number); ok {
							t, _ := n.Int64()
							e.Timeout = int(t)
						}
					}
				}
				if h.Name == "gemini" {
					e.Timeout /= 1000
				}
				out = append(out, e)
			}
		}
	}
	return out, nil
}
