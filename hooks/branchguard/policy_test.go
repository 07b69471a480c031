package branchguard_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/magehook/magehook/internal/gittest"
	"github.com/magehook/magehook/pkg/hooktest"
)

func bashIn(t *testing.T, cwd, command string) hooktest.Outcome {
	t.Helper()
	return hooktest.Run(t, handlers, cwd, "PreToolUse", "PreToolUse/bash", map[string]any{"tool_input": map[string]any{"command": command}})
}

func editIn(t *testing.T, cwd, path string) hooktest.Outcome {
	t.Helper()
	return hooktest.Run(t, handlers, cwd, "PreToolUse", "PreToolUse/edit", map[string]any{"tool_name": "Edit",
		"tool_input": map[string]any{"file_path": path, "old_string": "a", "new_string": "b"}})
}

// A command that reaches another repository is judged by that
// repository's policy, its main checkout's .toolingrc (issue 29.1): from
// a checkout without branchguard, git -C, cd, GIT_DIR, --git-dir and an
// edit into a checkout that enables it are denied; from a protected
// checkout, a scratch repository without gates is the agent's to change;
// the target's guard.protect and hook.warn are its own, and the caller's
// hook.warn does not weaken the target's gate.
func TestAnotherRepositorysPolicyGovernsIt(t *testing.T) {
	gated := gittest.Repo(t, map[string]string{".toolingrc": "hook.enable branchguard\n", "README.md": "a\n"})
	open := gittest.Repo(t, map[string]string{".toolingrc": "state.dir .magehook\n", "README.md": "a\n"})
	scratch := gittest.Repo(t, map[string]string{"README.md": "a\n"})
	protected := gittest.Repo(t, map[string]string{".toolingrc": "hook.enable branchguard\n", "README.md": "a\n"})

	t.Run("from a checkout without the gate", func(t *testing.T) {
		for _, cmd := range []string{
			"git -C " + gated + " commit --allow-empty -m x",
			"cd " + gated + " && git commit --allow-empty -m x",
			"GIT_DIR=" + gated + "/.git GIT_WORK_TREE=" + gated + " git commit --allow-empty -m x",
			"git --git-dir=" + gated + "/.git update-ref refs/heads/main HEAD~0",
			"git -C " + gated + " push origin HEAD:main",
		} {
			deny(t, bashIn(t, open, cmd), "main")
		}
		deny(t, editIn(t, open, filepath.Join(gated, "README.md")), "on the protected branch main")
		// Its own work, and a scratch repository's, go on.
		allow(t, bashIn(t, open, "git commit --allow-empty -m x && git -C "+scratch+" commit --allow-empty -m x"))
		allow(t, editIn(t, open, filepath.Join(open, "README.md")))
		allow(t, bashIn(t, open, "git -C "+gated+" status && git -C "+gated+" log -1"))
	})
	t.Run("from a protected checkout", func(t *testing.T) {
		allow(t, bashIn(t, protected, "git -C "+scratch+" commit --allow-empty -m x"))
		allow(t, bashIn(t, protected, "cd "+scratch+" && git commit --allow-empty -m x && git update-ref refs/heads/main HEAD"))
		allow(t, editIn(t, protected, filepath.Join(scratch, "README.md")))
		allow(t, bashIn(t, protected, "git -C "+open+" commit --allow-empty -m x"))
		deny(t, bashIn(t, protected, "git -C "+gated+" commit --allow-empty -m x"), "main")
		// The caller's own main stays protected.
		deny(t, bashIn(t, protected, "git commit --allow-empty -m x"), "main")
	})
	t.Run("the target's guard.protect and hook.warn", func(t *testing.T) {
		release := gittest.Repo(t, map[string]string{".toolingrc": "hook.enable branchguard\nguard.protect release\n", "README.md": "a\n"})
		allow(t, bashIn(t, protected, "git -C "+release+" commit --allow-empty -m x"))
		deny(t, bashIn(t, protected, "git -C "+release+" branch -f release HEAD"), "release")
		warned := gittest.Repo(t, map[string]string{".toolingrc": "hook.enable branchguard\nhook.warn branchguard\n", "README.md": "a\n"})
		out := bashIn(t, open, "git -C "+warned+" commit --allow-empty -m x")
		if strings.Contains(out.Stdout, `"permissionDecision":"deny"`) || !strings.Contains(out.Stdout, "warn-only") {
			t.Errorf("a target that warns: %+v", out)
		}
	})
	t.Run("the caller's hook.warn does not weaken the target's gate", func(t *testing.T) {
		lax := gittest.Repo(t, map[string]string{".toolingrc": "hook.enable branchguard\nhook.warn branchguard\n", "README.md": "a\n"})
		deny(t, bashIn(t, lax, "git -C "+gated+" commit --allow-empty -m x"), "main")
		out := bashIn(t, lax, "git commit --allow-empty -m x")
		if strings.Contains(out.Stdout, `"permissionDecision":"deny"`) || !strings.Contains(out.Stdout, "warn-only") {
			t.Errorf("the caller's own warn-only gate: %+v", out)
		}
	})
}
