package branchguard_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/magehook/magehook/pkg/hooktest"
)

// TestEveryHarnessGetsTheSameDenial: the same guard denies the same
// command (git push on main) under every harness, in that harness's shape.
func TestEveryHarnessGetsTheSameDenial(t *testing.T) {
	root, _ := setup(t)
	tests := []struct {
		harness, fixture string
		cwd              map[string]any
		want             string
	}{
		{"codex", "codex/PreToolUse-bash", map[string]any{"cwd": root, "tool_input": map[string]any{"command": "git push origin main"}},
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"Blocked by the repository's branch policy (branchguard): git push would update main`},
		{"copilot", "copilot/PreToolUse-bash", map[string]any{"cwd": root, "tool_input": map[string]any{"command": "git push origin main"}},
			`{"permissionDecision":"deny","permissionDecisionReason":"Blocked by the repository's branch policy (branchguard): git push would update main`},
		{"cursor", "cursor/preToolUse-shell", map[string]any{"workspace_roots": []string{root}},
			`{"agent_message":"Blocked by the repository's branch policy (branchguard): git push would update main`},
		{"gemini", "gemini/BeforeTool-shell", map[string]any{"cwd": root, "tool_input": map[string]any{"command": "git push origin main"}},
			`{"decision":"deny","reason":"Blocked by the repository's branch policy (branchguard): git push would update main`},
		{"droid", "droid/PreToolUse-execute", map[string]any{"cwd": root, "tool_input": map[string]any{"command": "git push origin main", "riskLevel": "low", "riskLevelReason": "x"}},
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"Blocked by the repository's branch policy (branchguard): git push would update main`},
		{"auggie", "auggie/PreToolUse-launch-process", map[string]any{"workspace_roots": []string{root}, "tool_input": map[string]any{"command": "git push origin main", "cwd": root}},
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"Blocked by the repository's branch policy (branchguard): git push would update main`},
		{"opencode", "opencode/PreToolUse-bash", map[string]any{"cwd": root},
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"Blocked by the repository's branch policy (branchguard): git push would update main`},
	}
	for _, tt := range tests {
		out := hooktest.RunHarness(t, handlers, tt.harness, "PreToolUse", hooktest.HarnessFixture(t, tt.fixture, tt.cwd))
		if out.Code != 0 || !strings.HasPrefix(out.Stdout, tt.want) {
			t.Errorf("%s (%s):\n got %+v\nwant prefix %s", tt.harness, tt.fixture, out, tt.want)
		}
		if tt.harness == "cursor" && !strings.Contains(out.Stdout, `"permission":"deny"`) {
			t.Errorf("cursor: %s", out.Stdout)
		}
	}
}

func TestCodexPatchIsAnEdit(t *testing.T) {
	root, feature := setup(t)
	// The captured patch edits ../README.md and adds ../NEW.md from sub/.
	out := hooktest.RunHarness(t, handlers, "codex", "PreToolUse", hooktest.HarnessFixture(t, "codex/PreToolUse-apply_patch", map[string]any{"cwd": filepath.Join(root, "sub")}))
	if !strings.Contains(out.Stdout, `"permissionDecision":"deny"`) || !strings.Contains(out.Stdout, "README.md") {
		t.Errorf("a patch on main: %+v", out)
	}
	out = hooktest.RunHarness(t, handlers, "codex", "PreToolUse", hooktest.HarnessFixture(t, "codex/PreToolUse-apply_patch", map[string]any{"cwd": filepath.Join(feature, "sub")}))
	if out.Stdout != "" || out.Code != 0 {
		t.Errorf("a patch in a worktree: %+v", out)
	}
}

// TestHarnessDirectoryArguments: the tool's own working-directory argument
// (Gemini's dir_path, OpenCode's and Codex's workdir, relative to the cwd
// or absolute) is where the command runs, not the session's cwd.
func TestHarnessDirectoryArguments(t *testing.T) {
	root, feature := setup(t)
	tests := []struct {
		harness, fixture, field, dir string
		denied                       bool
	}{
		{"gemini", "gemini/BeforeTool-shell", "dir_path", root, true},
		{"gemini", "gemini/BeforeTool-shell", "dir_path", feature, false},
		{"opencode", "opencode/PreToolUse-bash", "workdir", root, true},
		{"opencode", "opencode/PreToolUse-bash", "workdir", "../../..", true},
		{"codex", "codex/PreToolUse-bash", "workdir", root, true},
		{"codex", "codex/PreToolUse-bash", "workdir", ".", false},
	}
	for _, tt := range tests {
		cwd := feature
		input := map[string]any{"command": "git commit -m x", tt.field: tt.dir}
		out := hooktest.RunHarness(t, handlers, tt.harness, "PreToolUse", hooktest.HarnessFixture(t, tt.fixture, map[string]any{"cwd": cwd, "tool_input": input}))
		if got := strings.Contains(out.Stdout, "deny"); got != tt.denied || out.Code != 0 {
			t.Errorf("%s %s=%s: denied %v, want %v: %+v", tt.harness, tt.field, tt.dir, got, tt.denied, out)
		}
	}
}

// TestCopilotEditsAreJudgedByTheirPath: Copilot sends Edit and Write with
// its own argument names (path, old_str, file_text); the edit is denied on
// main and allowed on a branch, not blocked everywhere.
func TestCopilotEditsAreJudgedByTheirPath(t *testing.T) {
	root, feature := setup(t)
	for _, fixture := range []string{"copilot/PreToolUse-edit", "copilot/PreToolUse-create"} {
		for dir, deny := range map[string]bool{root: true, feature: false} {
			in := map[string]any{"path": filepath.Join(dir, "README.md"), "old_str": "a", "new_str": "b", "file_text": "x"}
			out := hooktest.RunHarness(t, handlers, "copilot", "PreToolUse", hooktest.HarnessFixture(t, fixture, map[string]any{"cwd": dir, "tool_input": in}))
			if got := strings.Contains(out.Stdout, `"permissionDecision":"deny"`); got != deny || out.Code != 0 {
				t.Errorf("%s in %s: deny %v, want %v: %+v", fixture, dir, got, deny, out)
			}
			if deny && !strings.Contains(out.Stdout, "worktree:create") {
				t.Errorf("%s: the way out: %s", fixture, out.Stdout)
			}
		}
	}
}
