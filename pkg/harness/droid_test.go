package harness_test

import (
	"strings"
	"testing"

	"github.com/magehook/magehook/pkg/harness"
	"github.com/magehook/magehook/pkg/hooktest"
	"github.com/magehook/magehook/pkg/payload"
)

// TestDroidPayloads reads the payloads Factory Droid 0.225.2 sent
// (testdata/harness/droid, captured by internal/live): its tool names
// become Claude Code's, Edit's old_str and new_str Claude's argument
// names, and a shell result's "[Process exited with code N]" tells a
// success from a failure.
func TestDroidPayloads(t *testing.T) {
	p := normalize(t, "droid", "droid/PreToolUse-execute", "PreToolUse")
	if cmd, _ := p.InputString("command"); p.ToolName != "Bash" || !strings.HasPrefix(cmd, "git commit") {
		t.Errorf("Execute: %s %q", p.ToolName, cmd)
	}
	p = normalize(t, "droid", "droid/PreToolUse-edit", "PreToolUse")
	if path, ok := p.EditedPath(); p.ToolName != "Edit" || !ok || path != "/home/user/my-project/README.md" {
		t.Errorf("Edit: %s %q", p.ToolName, path)
	}
	if s, _ := p.InputString("old_string"); s != "# consumer" {
		t.Errorf("old_str became old_string: %q", s)
	}
	p = normalize(t, "droid", "droid/PreToolUse-create", "PreToolUse")
	if path, ok := p.EditedPath(); p.ToolName != "Write" || !ok || !strings.HasSuffix(path, "/NEW.md") {
		t.Errorf("Create: %s %q", p.ToolName, path)
	}
	p = normalize(t, "droid", "droid/PostToolUse-execute", "PostToolUse")
	if !p.Succeeded() {
		t.Errorf("a command that exited 0 succeeded: %s", p.ToolResponse)
	}
	p = normalize(t, "droid", "droid/PostToolUse-edit", "PostToolUse")
	if !p.Succeeded() {
		t.Errorf("an Edit whose result is the JSON text of a success succeeded: %s", p.ToolResponse)
	}
	// 0.225.2 fires no PostToolUse for a failed call; a result that says
	// it failed (the text Droid gives the model) reads as a failure.
	failed := hooktest.HarnessFixture(t, "droid/PostToolUse-execute-failed", nil)
	h, _ := harness.Lookup("droid")
	data, err := h.Normalize(failed, "PostToolUse")
	if err != nil {
		t.Fatal(err)
	}
	if p, err := payload.Parse(data); err != nil || p.Succeeded() {
		t.Errorf("a command that exited 3 must read as a failure: %v %s", err, data)
	}
	// ApplyPatch carries its patch in input.
	patch := hooktest.HarnessFixture(t, "droid/PreToolUse-edit", map[string]any{"tool_name": "ApplyPatch",
		"tool_input": map[string]any{"input": "*** Begin Patch\n*** Update File: /r/README.md\n@@\n-a\n+b\n*** End Patch\n"}})
	data, _ = h.Normalize(patch, "PreToolUse")
	if p, _ := payload.Parse(data); p == nil || p.ToolName != "Edit" || strings.Join(p.EditedPaths(), " ") != "/r/README.md" {
		t.Errorf("ApplyPatch: %s", data)
	}
}
