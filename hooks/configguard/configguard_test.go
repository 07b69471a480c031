package configguard_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/magehook/magehook/hooks/branchguard"
	"github.com/magehook/magehook/hooks/configguard"
	"github.com/magehook/magehook/internal/gittest"
	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/hooktest"
)

var handlers = []hook.Handler{branchguard.Handler, configguard.Handler}

// checkout is a repository on a feature branch (branchguard allows every
// edit there) enabling branchguard, so only configguard can deny.
func checkout(t *testing.T) string {
	root := gittest.Repo(t, map[string]string{".toolingrc": "hook.enable branchguard\n", "README.md": "x\n"})
	gittest.Git(t, root, "checkout", "-q", "-b", "feature")
	return root
}

func run(t *testing.T, root, tool string, input map[string]any) hooktest.Outcome {
	t.Helper()
	return hooktest.Run(t, handlers, root, "PreToolUse", "PreToolUse/edit", map[string]any{"tool_name": tool, "tool_input": input})
}

func denied(out hooktest.Outcome) bool {
	return strings.Contains(out.Stdout, `"permissionDecision":"deny"`)
}

func TestGuardedFiles(t *testing.T) {
	root := checkout(t)
	home := os.Getenv("HOME")
	for _, path := range []string{
		".toolingrc", "sub/.toolingrc", filepath.Join(home, ".toolingrc"),
		".claude/settings.json", ".claude/settings.local.json", filepath.Join(home, ".claude", "settings.json"),
		".codex/hooks.json", ".gemini/settings.json", ".github/hooks/magehook.json", ".github/hooks/x.json",
		".cursor/hooks.json", ".opencode/plugins/magehook.js", "bin/magehook",
		".factory/settings.json", ".factory/hooks.json", ".pi/extensions/magehook.js", ".pi/settings.json", ".augment/settings.json", ".augment/settings.local.json",
	} {
		if out := run(t, root, "Write", map[string]any{"file_path": path, "content": "x"}); !denied(out) || !strings.Contains(out.Stdout, "ask the user to make this change by hand") {
			t.Errorf("Write %s: %+v, want a deny", path, out)
		}
	}
	for _, path := range []string{"README.md", "src/settings.json", ".claude/agents/x.md", ".github/workflows/ci.yml", "bin/other"} {
		if out := run(t, root, "Write", map[string]any{"file_path": path, "content": "x"}); out.Code != 0 || out.Stdout != "" {
			t.Errorf("Write %s: %+v, want it allowed", path, out)
		}
	}
}

func TestOnlyWhereAGatekeeperIsEnabled(t *testing.T) {
	root := gittest.Repo(t, map[string]string{".toolingrc": "hook.enable sessionclock\n"})
	out := hooktest.Run(t, append(handlers, hook.Handler{Name: "sessionclock", Purpose: "x", Events: []string{"SessionStart"},
		Policy: hook.Observer, Run: func(*hook.Call) (hook.Result, error) { return hook.Result{}, nil }}),
		root, "PreToolUse", "PreToolUse/edit", map[string]any{"tool_name": "Write", "tool_input": map[string]any{"file_path": ".toolingrc"}})
	if out.Stdout != "" {
		t.Errorf("with only an observer enabled: %+v", out)
	}
}

func TestSymbolicLinks(t *testing.T) {
	root := checkout(t)
	outside := t.TempDir()
	os.MkdirAll(filepath.Join(root, "sub"), 0o755)
	if err := os.Symlink(filepath.Join(root, "sub"), filepath.Join(outside, "link")); err != nil {
		t.Skip(err)
	}
	os.Symlink(filepath.Join(root, ".toolingrc"), filepath.Join(outside, "rc"))
	for _, path := range []string{outside + "/link/../.toolingrc", outside + "/rc", outside + "/link/../.codex/hooks.json"} {
		if out := run(t, root, "Edit", map[string]any{"file_path": path}); !denied(out) || !strings.Contains(out.Stdout, "resolved through symbolic links") {
			t.Errorf("Edit %s: %+v", path, out)
		}
	}
}

func TestShellWrites(t *testing.T) {
	root := checkout(t)
	os.MkdirAll(filepath.Join(root, ".claude"), 0o755)
	os.WriteFile(filepath.Join(root, ".claude", "settings.json"), []byte("{}"), 0o644)
	for _, tt := range []struct {
		tool, command string
		deny          bool
	}{
		{"Bash", "echo x > .toolingrc", true},
		{"Bash", "sed -i s/a/b/ .claude/settings.json", true},
		{"Bash", "rm -rf .claude", true},
		{"Bash", "mv bin/magehook /tmp/x", true},
		{"Bash", "apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: .gemini/settings.json\n+{}\n*** End Patch\nEOF", true},
		{"Bash", "cat .toolingrc; echo ok > out.txt", false},
		{"Bash", "rm -rf build dist", false},
		{"PowerShell", "Set-Content -Path .toolingrc -Value x", true},
		{"PowerShell", "Remove-Item -Recurse .claude/settings.json", true},
		{"PowerShell", "Invoke-Expression 'rm .toolingrc'", true},
		{"PowerShell", "Get-Content .toolingrc | Out-File notes.txt", false},
	} {
		out := run(t, root, tt.tool, map[string]any{"command": tt.command})
		if denied(out) != tt.deny || out.Code != 0 {
			t.Errorf("%s %q: %+v, want deny %v", tt.tool, tt.command, out, tt.deny)
		}
	}
}

// The binary answering the call is guarded wherever it lives, and so is
// the main checkout's hook binary from a linked worktree.
func TestTheRunningBinaryAndTheMainCheckoutsAreGuarded(t *testing.T) {
	root := checkout(t)
	exe, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	if out := run(t, root, "Write", map[string]any{"file_path": exe}); !denied(out) || !strings.Contains(out.Stdout, "the hook binary") {
		t.Errorf("Write %s: %+v", exe, out)
	}
	wt := filepath.Join(t.TempDir(), "wt")
	gittest.Git(t, root, "worktree", "add", "-q", "-b", "topic", wt)
	os.WriteFile(filepath.Join(wt, ".toolingrc"), []byte("hook.enable branchguard\n"), 0o644)
	out := hooktest.Run(t, handlers, wt, "PreToolUse", "PreToolUse/edit", map[string]any{"tool_name": "Write",
		"tool_input": map[string]any{"file_path": filepath.Join(root, "bin", "magehook")}})
	if !denied(out) || !strings.Contains(out.Stdout, "the hook binary") {
		t.Errorf("the main checkout's binary from a linked worktree: %+v", out)
	}
}
