package settings_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/magehook/magehook/hooks"
	"github.com/magehook/magehook/pkg/harness"
	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/settings"
	"github.com/magehook/magehook/pkg/toolingrc"
)

// eventBytes are the encoded values of a harness file's hooks object, by
// key: what a client hashes or reviews an entry by.
func eventBytes(t *testing.T, path string) map[string]string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	tree, err := settings.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	top := tree.(*settings.Object)
	hv, _ := top.Get("hooks")
	out := map[string]string{}
	if obj, ok := hv.(*settings.Object); ok {
		for _, m := range obj.Members {
			out[m.Key] = string(settings.Encode(m.Value, true))
		}
	}
	return out
}

// TestEntriesStayWhenAnotherHandlerChanges enables and disables each
// catalogue handler in turn, alone and on top of every other one, in every
// harness's file: each event entry none of the handlers whose enablement
// changed (the implied ones included) subscribes to stays byte for byte
// as it was — its command, timeout and place, so Codex's trust hash and
// position still match. Enabling stopguard once changed SessionStart's
// timeout and command (its 600 s applied to every event it answers).
func TestEntriesStayWhenAnotherHandlerChanges(t *testing.T) {
	all := hooks.All()
	var names []string
	for _, h := range all {
		if !h.Implied {
			names = append(names, h.Name)
		}
	}
	for _, h := range harness.All() {
		if h.Layout == harness.Plugin {
			continue // one program written whole; no entry is reviewed apart
		}
		for _, toggled := range names {
			var others []string
			for _, n := range names {
				if n != toggled {
					others = append(others, "hook.enable "+n)
				}
			}
			for _, base := range [][]string{nil, others} {
				without := checkout(t, base...)
				with := checkout(t, append(append([]string{}, base...), "hook.enable "+toggled)...)
				before := installed(t, without, all, h)
				after := installed(t, with, all, h)
				changed := changedEvents(t, without, with, all)
				for key, b := range before {
					a, ok := after[key]
					common, _ := h.CommonEvent(key)
					if !ok || changed[common] {
						continue
					}
					if a != b {
						t.Errorf("%s: enabling %s (base of %d) changed the %s entry, which it does not answer:\nbefore %s\nafter  %s",
							h.Name, toggled, len(base), key, b, a)
					}
				}
			}
		}
	}
}

// installed installs cfg's entries for h and returns its file's events.
func installed(t *testing.T, cfg *toolingrc.Config, all []hook.Handler, h *harness.Harness) map[string]string {
	t.Helper()
	in := settings.Installer{Config: cfg, Handlers: all, Harness: h}
	if _, err := in.Install(); err != nil {
		t.Fatalf("%s: %v", h.Name, err)
	}
	if h.Layout == harness.Scripts {
		out := map[string]string{}
		for _, n := range h.Events() {
			if b, err := os.ReadFile(filepath.Join(cfg.Root(), settings.ScriptPath(h, n.Native))); err == nil {
				out[n.Native] = string(b)
			}
		}
		return out
	}
	return eventBytes(t, in.Path())
}

// changedEvents are the events of the handlers enabled in one
// configuration and not the other.
func changedEvents(t *testing.T, a, b *toolingrc.Config, all []hook.Handler) map[string]bool {
	t.Helper()
	ea, err := hook.Enabled(a, all)
	if err != nil {
		t.Fatal(err)
	}
	eb, err := hook.Enabled(b, all)
	if err != nil {
		t.Fatal(err)
	}
	in := func(list []hook.Handler, name string) bool {
		for _, h := range list {
			if h.Name == name {
				return true
			}
		}
		return false
	}
	out := map[string]bool{}
	for _, pair := range [][2][]hook.Handler{{ea, eb}, {eb, ea}} {
		for _, h := range pair[0] {
			if !in(pair[1], h.Name) {
				for _, e := range h.Events {
					out[e] = true
				}
			}
		}
	}
	return out
}

// TestStopguardKeepsSessionStart is the defect itself, in every harness
// that has both events: SessionStart's entry is the same with stopguard
// enabled as without.
func TestStopguardKeepsSessionStart(t *testing.T) {
	all := hooks.All()
	for _, h := range harness.All() {
		native, ok := h.NativeEvent("SessionStart")
		if !ok || h.Layout == harness.Plugin {
			continue
		}
		before := installed(t, checkout(t, "hook.enable sessionclock"), all, h)[native]
		after := installed(t, checkout(t, "hook.enable sessionclock", "hook.enable stopguard"), all, h)[native]
		if before == "" || before != after {
			t.Errorf("%s: stopguard changed %s:\nbefore %s\nafter  %s", h.Name, native, before, after)
		}
	}
}

// TestHandlerAskingTooLongIsRefused: a handler whose Timeout no entry of
// its events allows is a configuration error naming it.
func TestHandlerAskingTooLongIsRefused(t *testing.T) {
	slow := hook.Handler{Name: "slow", Purpose: "p", Events: []string{"PreToolUse"}, Policy: hook.Observer, Timeout: 120,
		Run: func(*hook.Call) (hook.Result, error) { return hook.Result{}, nil }}
	cfg := checkout(t, "hook.enable slow")
	_, err := settings.Entries(cfg, []hook.Handler{slow}, settings.Project)
	if err == nil || !strings.Contains(err.Error(), "handler slow asks for 120 s") {
		t.Fatalf("got %v", err)
	}
}
