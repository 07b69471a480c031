package branchguard_test

import (
	"strings"
	"testing"

	"github.com/magehook/magehook/hooks/branchguard"
	"github.com/magehook/magehook/hooks/noverify"
	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/hooktest"
)

// TestExpansionsBashMakesFirst: the words a gate judges are the ones bash
// runs after brace expansion and "$@", on main as anywhere: git
// {commit,} -m x is a commit, and so is "$@" holding one.
func TestExpansionsBashMakesFirst(t *testing.T) {
	gates := []hook.Handler{branchguard.Handler, noverify.Handler}
	root, feature := setup(t, "hook.enable noverify")
	for _, tt := range []struct {
		cmd, cwd string
		denied   bool
	}{
		{"git {commit,} --allow-empty -m x", root, true},
		{"git {commit,--allow-empty} -m x", root, true},
		{`sh -c '"$@"' _ git commit --allow-empty -m x`, root, true},
		{`set -- git commit --allow-empty -m x; "$@"`, root, true},
		{`set -- x git commit -m x; shift; "${@}"`, root, true},
		{`f() { git "$@"; }; f commit --allow-empty -m x`, root, true},
		{`sh -c 'git "$@"' sh update-ref refs/heads/main feat`, root, true},
		{"git commit {--no-verify,} -m x", feature, true},
		{"echo {a,b}.go && ls src/{a,b}.go", root, false},
		{`set -- status --short; git "$@"`, root, false},
		{"git {commit,} --allow-empty -m x", feature, false},
	} {
		out := hooktest.Run(t, gates, root, "PreToolUse", "PreToolUse/bash", map[string]any{"tool_input.command": tt.cmd, "cwd": tt.cwd})
		if got := strings.Contains(out.Stdout, `"deny"`); got != tt.denied || out.Code != 0 {
			t.Errorf("%q in %s: denied %v, want %v (%+v)", tt.cmd, tt.cwd, got, tt.denied, out)
		}
	}
}
