package targets

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/magehook/magehook/pkg/hook"
)

// mageList is Mage's -l of a binary with every method of Hook as a target.
func mageList() string {
	var b strings.Builder
	b.WriteString("Targets:\n")
	typ := reflect.TypeOf(Hook{})
	for i := range typ.NumMethod() {
		name := typ.Method(i).Name
		fmt.Fprintf(&b, "  hook:%s    does something.\n", strings.ToLower(name[:1])+name[1:])
	}
	b.WriteString("  worktree:create    makes a worktree.\n")
	return b.String()
}

// HOOK-EVENTS-1: a word that is not an event is a usage error that names
// it and lists every event; a hook: target that is no event (any method of
// Hook, as -l lists it), Mage's own options and other targets are left to
// Mage.
func TestNotAnEvent(t *testing.T) {
	none := func(string) string { return "" }
	list := func() (string, bool) { return mageList(), true }
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
		{[]string{"magehook", "hook:check"}, ""},
		{[]string{"magehook", "worktree:nope"}, ""},
		{[]string{"magehook", "hookx"}, ""},
		{[]string{"magehook", "-l", "hook:nope"}, ""},
		{[]string{"magehook", "-bogus", "hook:nope"}, ""},
		{[]string{"magehook", "-t", "5m"}, ""},
		{[]string{"magehook", "hook:list", "hook:nope"}, ""},
	} {
		var stderr bytes.Buffer
		code, ok := notAnEvent(c.args, none, &stderr, list)
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
	listEnv := func(k string) string {
		if k == "MAGEFILE_LIST" {
			return "1"
		}
		return ""
	}
	if _, ok := notAnEvent([]string{"magehook", "hook:nope"}, listEnv, &bytes.Buffer{}, list); ok {
		t.Error("MAGEFILE_LIST=1 lists the targets, as -l does")
	}
	unreadable := func() (string, bool) { return "", false }
	if _, ok := notAnEvent([]string{"magehook", "hook:nope"}, none, &bytes.Buffer{}, unreadable); ok {
		t.Error("without the binary's own list, Mage must answer")
	}
}

// TestEveryHookTargetIsLeftToMage: no method of Hook is taken for an
// unknown event, events and commands alike.
func TestEveryHookTargetIsLeftToMage(t *testing.T) {
	list := func() (string, bool) { return mageList(), true }
	typ := reflect.TypeOf(Hook{})
	for i := range typ.NumMethod() {
		target := "hook:" + typ.Method(i).Name
		var stderr bytes.Buffer
		if _, ok := notAnEvent([]string{"magehook", target}, func(string) string { return "" }, &stderr, list); ok {
			t.Errorf("%s was answered as no event: %s", target, stderr.String())
		}
	}
}
