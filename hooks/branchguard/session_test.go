package branchguard_test

import (
	"strings"
	"testing"

	"github.com/magehook/magehook/hooks/branchguard"
	"github.com/magehook/magehook/internal/gittest"
	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/hooktest"
)

var withSession = []hook.Handler{branchguard.Handler, branchguard.SessionHandler}

// A session that starts on a protected branch is told so, and how to work,
// before its first edit; one in a worktree on its own branch is told
// nothing.
func TestSessionStartSaysTheRule(t *testing.T) {
	root, feature := setup(t)
	out := hooktest.Run(t, withSession, root, "SessionStart", "SessionStart/startup", nil)
	for _, want := range []string{"additionalContext", "on branch main", "branchguard", "EnterWorktree", "claude --worktree", "go tool mage worktree:create <name>"} {
		if out.Code != 0 || !strings.Contains(out.Stdout, want) {
			t.Errorf("session start on main: want %q in %+v", want, out)
		}
	}
	out = hooktest.Run(t, withSession, feature, "SessionStart", "SessionStart/startup", nil)
	if out.Code != 0 || strings.Contains(out.Stdout, "branchguard") {
		t.Errorf("session start in a worktree on feat: %+v", out)
	}
}

// Only where branchguard is on, and not warn-only; the branch policy's own
// list decides (guard.protect), and another harness gets its own words.
func TestSessionStartOnlyWhereBranchguardProtects(t *testing.T) {
	for name, rc := range map[string]string{
		"not enabled": "hook.enable cmdguard\n",
		"warn-only":   "hook.enable branchguard\nhook.warn branchguard\n",
		"other list":  "hook.enable branchguard\nguard.protect release\n",
	} {
		root := gittest.Repo(t, map[string]string{".toolingrc": rc})
		handlers := append([]hook.Handler{}, withSession...)
		if name == "not enabled" {
			handlers = append(handlers, hook.Handler{Name: "cmdguard", Events: []string{"PreToolUse"}, Policy: hook.Gatekeeper, Run: func(*hook.Call) (hook.Result, error) { return hook.Result{}, nil }})
		}
		out := hooktest.Run(t, handlers, root, "SessionStart", "SessionStart/startup", nil)
		if out.Code != 0 || strings.Contains(out.Stdout, "branchguard") {
			t.Errorf("%s: %+v", name, out)
		}
	}
	root, _ := setup(t)
	out := hooktest.RunHarness(t, withSession, "codex", "SessionStart", hooktest.HarnessFixture(t, "codex/SessionStart", map[string]any{"cwd": root}))
	if out.Code != 0 || !strings.Contains(out.Stdout, "on branch main") || strings.Contains(out.Stdout, "EnterWorktree") {
		t.Errorf("codex session start on main: %+v", out)
	}
}
