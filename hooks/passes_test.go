package hooks_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/magehook/magehook/hooks"
	"github.com/magehook/magehook/internal/gittest"
	"github.com/magehook/magehook/pkg/hooktest"
)

// TestPassesAreNeverDenied keeps each gatekeeper's Passes true: the
// installed command lets those tools go on when the binary is missing
// (pkg/harness.CommandSpec.Passes), so the handler itself must never deny
// them — here on a protected branch, aimed at the files the gates guard
// most (.toolingrc, the settings, the hook binary, a file of the
// checkout).
func TestPassesAreNeverDenied(t *testing.T) {
	for _, h := range hooks.All() {
		if len(h.Passes) == 0 {
			continue
		}
		repo := gittest.Repo(t, map[string]string{".toolingrc": "hook.enable " + h.Name + "\n", "README.md": "x\n",
			".claude/settings.json": "{}\n"})
		for _, tool := range h.Passes {
			for _, target := range []string{".toolingrc", ".claude/settings.json", "bin/magehook", "README.md", "."} {
				path := filepath.Join(repo, target)
				input := map[string]any{"file_path": path, "path": path, "pattern": "*", "command": "cat " + path}
				out := hooktest.RunBytes(t, hooks.All(), "PreToolUse", []byte(payloadJSON(t, repo, tool, input)))
				if out.Code != 0 || strings.Contains(out.Stdout, `"deny"`) || strings.Contains(out.Stdout, `"block"`) {
					t.Errorf("%s declares it passes %s, but denied it on %s: exit %d, %s %s", h.Name, tool, target, out.Code, out.Stdout, out.Stderr)
				}
			}
		}
	}
}

func payloadJSON(t *testing.T, cwd, tool string, input map[string]any) string {
	t.Helper()
	data, err := json.Marshal(map[string]any{"session_id": "s", "cwd": cwd, "hook_event_name": "PreToolUse",
		"tool_name": tool, "tool_input": input})
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
