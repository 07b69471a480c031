package branchguard_test

import (
	"strings"
	"testing"

	"github.com/magehook/magehook/internal/gittest"
	"github.com/magehook/magehook/pkg/hooktest"
)

// TestStashingAndDroppingTheUsersEdits: saving a protected checkout's
// uncommitted changes in a stash and dropping that entry again in the
// same command throws them away, in every spelling; a stash made where
// nothing was changed, one brought back, one made on a feature branch, and
// a drop of an entry the command did not make are ordinary.
func TestStashingAndDroppingTheUsersEdits(t *testing.T) {
	root, feature := setup(t)
	gittest.Write(t, root, map[string]string{"src/a.go": "package a\n\n// the user's edit\n"})
	gittest.Write(t, feature, map[string]string{"src/a.go": "package a\n\n// feature work\n"})
	for _, tt := range []struct {
		cmd, cwd string
		denied   bool
	}{
		{"git stash && git stash drop", root, true},
		{"git stash -q; git stash drop -q 'stash@{0}'", root, true},
		{"git stash push -m wip -- src && git stash clear", root, true},
		{"git stash save wip && git update-ref -d refs/stash", root, true},
		{"git stash && git reflog delete --rewrite 'stash@{0}'", root, true},
		{"git stash -u && git stash drop \"$WHICH\"", root, true},
		{"git -C " + root + " stash && git stash drop", feature, true},
		{"git stash && git stash pop", root, false},
		{"git stash && git switch -c wip && git stash pop", root, false},
		{"git stash && git stash drop 'stash@{1}'", root, false},
		{"git stash push -- README.md && git stash drop", root, false}, // nothing to save there
		{"git stash && git stash drop", feature, false},
		{"git stash list && git stash drop", root, false},
	} {
		out := hooktest.Run(t, handlers, root, "PreToolUse", "PreToolUse/bash", map[string]any{"tool_input.command": tt.cmd, "cwd": tt.cwd})
		got := strings.Contains(out.Stdout, `"deny"`)
		if got != tt.denied || out.Code != 0 {
			t.Errorf("%q in %s: denied %v, want %v (%+v)", tt.cmd, tt.cwd, got, tt.denied, out)
		}
		if tt.denied && !strings.Contains(out.Stdout, "src/a.go") {
			t.Errorf("%q: the deny should name the edits it loses: %s", tt.cmd, out.Stdout)
		}
	}
}
