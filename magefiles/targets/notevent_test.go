package targets

import (
	"bytes"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/magehook/magehook/pkg/hook"
)

// HOOK-EVENTS-1: a word that is not an event is a usage error that names
// it and lists every event; a hook: target that is no event, Mage's own
// options and other targets are left to Mage.
func TestNotAnEvent(t *testing.T) {
	none := func(string) string { return "" }
	for _, c := range []struct {
		args []string
		word string // the word named; none when Mage runs the command line
	}{
		{[]string{"magehook", "hook:noSuchEvent"}, `"noSuchEvent"`},
		{[]string{"magehook", "HOOK:bogus", "-harness=codex"}, `"bogus"`},
		{[]string{"magehook", "hook:sessionstarts"}, `"sessionstarts"`},
		{[]string{"magehook", "hook:"}, `""`},
		{[]string{"magehook", "-v", "hook:nope"}, `"nope"`},
		{[]string{"magehook", "-t", "5m", "hook:nope"}, `"nope"`},
		{[]string{"magehook", "-t=5m", "--v", "hook:nope"}, `"nope"`},
		{[]string{"magehook", "--", "hook:nope"}, `"nope"`},
		{[]string{"magehook", "-h", "hook:nope"}, `"nope"`},
		// Left to Mage:
		{[]string{"magehook"}, ""},
		{[]string{"magehook", "hook:sessionStart"}, ""},
		{[]string{"magehook", "hook:PRETOOLUSE"}, ""},
		{[]string{"magehook", "hook:install"}, ""},
		{[]string{"magehook", "hook:Version"}, ""},
		{[]string{"magehook", "worktree:nope"}, ""},
		{[]string{"magehook", "hookx"}, ""},
		{[]string{"magehook", "-l", "hook:nope"}, ""},
		{[]string{"magehook", "-bogus", "hook:nope"}, ""},
		{[]string{"magehook", "-t", "5m"}, ""},
		{[]string{"magehook", "hook:list", "hook:nope"}, ""},
	} {
		var stderr bytes.Buffer
		code, ok := notAnEvent(c.args, none, &stderr)
		if ok != (c.word != "") {
			t.Errorf("%q answered = %v, want %v (%q)", c.args, ok, c.word != "", stderr.String())
			continue
		}
		if !ok {
			if stderr.Len() != 0 {
				t.Errorf("%q wrote %q", c.args, stderr.String())
			}
			continue
		}
		msg := stderr.String()
		if code != hook.ExitBlock || strings.Count(msg, "\n") != 1 || !strings.Contains(msg, c.word+" is not an event") {
			t.Errorf("%q: exit %d, %q", c.args, code, msg)
		}
		for _, ev := range hook.Events() {
			if !strings.Contains(msg, ev.Target) {
				t.Errorf("%q: the usage does not list %s: %q", c.args, ev.Target, msg)
			}
		}
	}
	list := func(k string) string {
		if k == "MAGEFILE_LIST" {
			return "1"
		}
		return ""
	}
	if _, ok := notAnEvent([]string{"magehook", "hook:nope"}, list, &bytes.Buffer{}); ok {
		t.Error("MAGEFILE_LIST=1 lists the targets, as -l does")
	}
}

// TestHookCommandsAreTheNamespace: every method of Hook is an event's
// target or one of hookCommands, and every one of hookCommands is a
// method, so no target of the namespace is taken for an unknown event.
func TestHookCommandsAreTheNamespace(t *testing.T) {
	typ := reflect.TypeOf(Hook{})
	var methods []string
	for i := range typ.NumMethod() {
		name := strings.ToLower(typ.Method(i).Name)
		if _, ok := hook.LookupTarget(name); !ok {
			methods = append(methods, name)
		}
	}
	if !slices.Equal(methods, hookCommands) {
		t.Errorf("the hook: targets that answer no event are %q; hookCommands holds %q", methods, hookCommands)
	}
}
