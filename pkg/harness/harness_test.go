package harness_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/magehook/magehook/pkg/harness"
	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/hooktest"
	"github.com/magehook/magehook/pkg/payload"
)

func normalize(t *testing.T, harness_, fixture, event string) *payload.Payload {
	t.Helper()
	h, _ := harness.Lookup(harness_)
	data, err := h.Normalize(hooktest.HarnessFixture(t, fixture, nil), event)
	if err != nil {
		t.Fatal(err)
	}
	p, err := payload.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestNormalize(t *testing.T) {
	// Copilot CLI 1.0.102: PermissionRequest arrives camelCase, with its
	// own tool names, under the PascalCase key.
	p := normalize(t, "copilot", "copilot/PermissionRequest-bash", "PermissionRequest")
	if p.SessionID == "" || p.ToolName != "Bash" || p.HookEventName != "PermissionRequest" {
		t.Errorf("copilot camelCase PermissionRequest: %+v", p)
	}
	if cmd, _ := p.InputString("command"); !strings.Contains(cmd, "no-such-dir") {
		t.Errorf("toolInput became tool_input: %q", cmd)
	}
	p = normalize(t, "copilot", "copilot/PermissionRequest-edit", "PermissionRequest")
	if path, ok := p.EditedPath(); p.ToolName != "Edit" || !ok || !strings.HasSuffix(path, "/README.md") {
		t.Errorf("copilot edit PermissionRequest: %s %q", p.ToolName, path)
	}
	// Its arguments keep Copilot's names under Claude's tool names.
	p = normalize(t, "copilot", "copilot/PreToolUse-edit", "PreToolUse")
	if path, ok := p.EditedPath(); p.ToolName != "Edit" || !ok || !strings.HasSuffix(path, "/README.md") {
		t.Errorf("copilot Edit {path, old_str, new_str}: %s %q", p.ToolName, path)
	}
	if s, _ := p.InputString("old_string"); s != "# consumer" {
		t.Errorf("old_str became old_string: %q", s)
	}
	p = normalize(t, "copilot", "copilot/PreToolUse-create", "PreToolUse")
	if path, ok := p.EditedPath(); p.ToolName != "Write" || !ok || !strings.HasSuffix(path, "/NEW.md") {
		t.Errorf("copilot create {path, file_text}: %s %q", p.ToolName, path)
	}
	if s, _ := p.InputString("content"); s != "new\n" {
		t.Errorf("file_text became content: %q", s)
	}
	// A failing shell command is result_type success; its exit code is at
	// the end of the text.
	p = normalize(t, "copilot", "copilot/PostToolUse-bash-failed", "PostToolUse")
	if p.Succeeded() || !strings.Contains(string(p.ToolResponse), "exit code 3") {
		t.Errorf("a command that exited 3 must read as a failure: %s", p.ToolResponse)
	}
	p = normalize(t, "copilot", "copilot/SessionStart", "SessionStart")
	if p.Source != "startup" {
		t.Errorf("Copilot's source new is a startup: %q", p.Source)
	}
	p = normalize(t, "cursor", "cursor/preToolUse-shell", "PreToolUse")
	if p.SessionID != "cursor-conv-1" || p.CWD != "/home/user/my-project" || p.ToolName != "Bash" {
		t.Errorf("cursor: %+v", p)
	}
	p = normalize(t, "cursor", "cursor/stop", "Stop")
	if p.StopHookActive {
		t.Error("cursor stop with loop_count 0 is not a repeat")
	}
	p = normalize(t, "gemini", "gemini/BeforeTool-shell", "PreToolUse")
	if p.ToolName != "Bash" || p.HookEventName != "PreToolUse" {
		t.Errorf("gemini: %+v", p)
	}
	p = normalize(t, "gemini", "gemini/AfterTool-shell-failed", "PostToolUse")
	if p.Succeeded() {
		t.Error("a failing shell command (Exit Code: 3 in llmContent, no error) must read as a failure")
	}
	p = normalize(t, "gemini", "gemini/AfterTool-replace", "PostToolUse")
	if !p.Succeeded() || p.ToolName != "Edit" {
		t.Errorf("a replace that worked is a successful Edit: %s %s", p.ToolName, p.ToolResponse)
	}
	p = normalize(t, "gemini", "gemini/AfterAgent", "Stop")
	if p.LastAssistantMessage != "finished" {
		t.Errorf("prompt_response: %q", p.LastAssistantMessage)
	}
	p = normalize(t, "codex", "codex/PreToolUse-apply_patch", "PreToolUse")
	if path, ok := p.EditedPath(); p.ToolName != "Edit" || !ok || path != "../README.md" {
		t.Errorf("codex apply_patch: %s %q", p.ToolName, path)
	}
	var in struct {
		FilePaths []string `json:"file_paths"`
	}
	json.Unmarshal(p.ToolInput, &in)
	if strings.Join(in.FilePaths, " ") != "../README.md ../NEW.md" {
		t.Errorf("apply_patch names every file it touches: %q", in.FilePaths)
	}
	// Codex 0.169.0 sends PostToolUse's tool_response as a string: the
	// patch's "Exit code: N" header, a shell command's bare output.
	p = normalize(t, "codex", "codex/PostToolUse-apply_patch", "PostToolUse")
	if !p.Succeeded() {
		t.Errorf("an apply_patch with exit code 0 succeeded: %s", p.ToolResponse)
	}
	p = normalize(t, "codex", "codex/PostToolUse-bash-failed", "PostToolUse")
	if !strings.HasPrefix(string(p.ToolResponse), `"ls: cannot access`) {
		t.Errorf("a shell command's output (Codex sends no exit code for it) stays the string it was: %s", p.ToolResponse)
	}
}

// TestOpenCodeApplyPatch: OpenCode offers gpt-5 models apply_patch
// ({patchText}); the plugin passes it through and the binary makes it an
// Edit of every file of the patch.
func TestOpenCodeApplyPatch(t *testing.T) {
	in := hooktest.HarnessFixture(t, "opencode/PreToolUse-bash", map[string]any{"tool_name": "apply_patch",
		"tool_input": map[string]any{"patchText": "*** Begin Patch\n*** Update File: README.md\n@@\n-a\n+b\n*** Add File: docs/NEW.md\n+x\n*** End Patch\n"}})
	h, _ := harness.Lookup("opencode")
	data, err := h.Normalize(in, "PreToolUse")
	if err != nil {
		t.Fatal(err)
	}
	p, err := payload.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	if p.ToolName != "Edit" || strings.Join(p.EditedPaths(), " ") != "README.md docs/NEW.md" {
		t.Errorf("apply_patch: %s %q", p.ToolName, p.EditedPaths())
	}
}

func TestPatchFiles(t *testing.T) {
	patch := "*** Begin Patch\n*** Update File: a.go\n*** Move to: b.go\n@@\n-x\n+y\n*** Delete File: c.go\n*** Add File: d/e.go\n+z\n*** Update File: a.go\n*** End Patch\n"
	if got := strings.Join(payload.PatchFiles(patch), " "); got != "a.go b.go c.go d/e.go" {
		t.Errorf("PatchFiles = %q", got)
	}
}

func TestDialects(t *testing.T) {
	pre := hook.MustLookup("PreToolUse")
	stop := hook.MustLookup("Stop")
	start := hook.MustLookup("SessionStart")
	h := func(name string) *harness.Harness { x, _ := harness.Lookup(name); return x }
	tests := []struct {
		name   string
		ev     hook.Event
		r      hook.Result
		h      string
		stdout string
	}{
		{"codex never gets an ask", pre, hook.Ask("sure?"), "codex", ""},
		{"codex never gets continue on a tool event", pre, hook.Result{Halt: true, HaltReason: "x", Decision: hook.DecisionDeny, Reason: "no"}, "codex",
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}`},
		{"codex gets Claude's stop block", stop, hook.Deny("tests fail"), "codex", `{"decision":"block","reason":"tests fail"}`},
		{"cursor stop is a follow-up", stop, hook.Deny("tests fail"), "cursor", `{"followup_message":"tests fail"}`},
		{"cursor context", start, hook.Context("Monday"), "cursor", `{"additional_context":"Monday"}`},
		{"cursor ask", pre, hook.Ask("sure?"), "cursor", `{"permission":"ask","user_message":"sure?"}`},
		{"gemini deny", pre, hook.Deny("no"), "gemini", `{"decision":"deny","reason":"no"}`},
		{"gemini stop", stop, hook.Deny("tests fail"), "gemini", `{"decision":"deny","reason":"tests fail"}`},
		{"gemini context names its own event", start, hook.Context("Monday"), "gemini",
			`{"hookSpecificOutput":{"additionalContext":"Monday","hookEventName":"SessionStart"}}`},
		{"gemini rewrites input by merge", pre, hook.Result{Decision: hook.DecisionAllow, UpdatedInput: json.RawMessage(`{"command":"ls"}`)}, "gemini",
			`{"decision":"allow","hookSpecificOutput":{"hookEventName":"BeforeTool","tool_input":{"command":"ls"}}}`},
		{"copilot flat context", start, hook.Context("Monday"), "copilot", `{"additionalContext":"Monday"}`},
	}
	for _, tt := range tests {
		a := h(tt.h).Render(tt.ev, tt.r)
		if got := strings.TrimSuffix(string(a.Stdout), "\n"); got != tt.stdout {
			t.Errorf("%s:\n got %s\nwant %s", tt.name, got, tt.stdout)
		}
	}
}

func TestHarnessFlagIsNotAnExtraArgument(t *testing.T) {
	if extra := hook.ExtraArgs([]string{"bin", "hook:preToolUse", "-harness=codex"}, "hook:preToolUse"); len(extra) != 0 {
		t.Errorf("extra %q", extra)
	}
	if extra := hook.ExtraArgs([]string{"bin", "hook:preToolUse", "-harness=codex", "x"}, "hook:preToolUse"); len(extra) != 1 {
		t.Errorf("extra %q", extra)
	}
}

// TestWorkDirFieldsAreMapped: a harness's own working-directory field
// reaches payload.WorkDir as tool_input.workdir; a field another harness
// uses means nothing in a Claude Code payload (the model could otherwise
// name a directory the command does not run in).
func TestWorkDirFieldsAreMapped(t *testing.T) {
	gemini, _ := harness.Lookup("gemini")
	out, err := gemini.Normalize([]byte(`{"cwd":"/r/sub","tool_name":"run_shell_command","tool_input":{"command":"ls","dir_path":"/r"}}`), "PreToolUse")
	if err != nil {
		t.Fatal(err)
	}
	p, err := payload.Parse(out)
	if err != nil {
		t.Fatal(err)
	}
	if got := p.WorkDir("/home"); got != "/r" {
		t.Errorf("gemini dir_path: WorkDir %q, want /r (%s)", got, out)
	}
	claude, _ := payload.Parse([]byte(`{"cwd":"/r/sub","tool_name":"Bash","tool_input":{"command":"ls","dir_path":"/r"}}`))
	if got := claude.WorkDir("/home"); got != "/r/sub" {
		t.Errorf("claude with a dir_path: WorkDir %q, want the cwd", got)
	}
}

// TestCopilotAnswersAreFlat: Copilot reads the decision, the input
// rewrite (modifiedArgs) and the context at the top level.
func TestCopilotAnswersAreFlat(t *testing.T) {
	copilot, _ := harness.Lookup("copilot")
	for _, tt := range []struct {
		event  string
		result hook.Result
		want   string
	}{
		{"PreToolUse", hook.Deny("protected branch"), `{"permissionDecision":"deny","permissionDecisionReason":"protected branch"}`},
		{"PreToolUse", hook.Result{Decision: hook.DecisionAllow, UpdatedInput: json.RawMessage(`{"command":"ls"}`)}, `{"modifiedArgs":{"command":"ls"},"permissionDecision":"allow"}`},
		{"SessionStart", hook.Context("Today is Monday."), `{"additionalContext":"Today is Monday."}`},
		{"PermissionRequest", hook.Result{Decision: hook.DecisionDeny, Reason: "no", Interrupt: true}, `{"behavior":"deny","interrupt":true,"message":"no"}`},
		{"Stop", hook.Deny("tests fail"), `{"decision":"block","reason":"tests fail"}`},
	} {
		a := copilot.Render(hook.MustLookup(tt.event), tt.result)
		if got := strings.TrimSpace(string(a.Stdout)); got != tt.want {
			t.Errorf("%s: %s, want %s", tt.event, got, tt.want)
		}
	}
}

// TestClineDenyKeepsTheTask: a deny of one of Cline's own tools nulls the
// call's input (the tool's schema check fails it) and hands the reason to
// the model as context, with any other context after it; a deny of a tool
// that may not check its input (an MCP server's), or one that names no
// tool (the fail-closed answer), cancels the task.
func TestClineDenyKeepsTheTask(t *testing.T) {
	cline, _ := harness.Lookup("cline")
	withTool := func(r hook.Result, tool string) hook.Result { r.Tool = tool; return r }
	for _, tt := range []struct {
		result hook.Result
		want   string
	}{
		{withTool(hook.Deny("protected branch main"), "Bash"),
			`{"contextModification":"magehook blocked this Bash call; it did not run (its input was replaced, so the tool reports invalid input): protected branch main","overrideInput":null}`},
		{withTool(hook.Result{Decision: hook.DecisionDeny, Reason: "no", Context: "see CONTRIBUTING"}, "Write"),
			`{"contextModification":"magehook blocked this Write call; it did not run (its input was replaced, so the tool reports invalid input): no\n\nsee CONTRIBUTING","overrideInput":null}`},
		{withTool(hook.Deny("no"), "mcp__files__write"), `{"cancel":true,"errorMessage":"no"}`},
		{hook.Deny("no"), `{"cancel":true,"errorMessage":"no"}`},
	} {
		a := cline.Render(hook.MustLookup("PreToolUse"), tt.result)
		if got := strings.TrimSpace(string(a.Stdout)); got != tt.want {
			t.Errorf("%s: %s, want %s", tt.result.Tool, got, tt.want)
		}
	}
}

// TestClaudeFactsAreProperties: what the hooks say differently to Claude
// Code comes from its harness value: the EnterWorktree tool in the
// session note, MCP responses read as text, hook.ClaudeCode as its
// protocol; another harness gets none of them.
func TestClaudeFactsAreProperties(t *testing.T) {
	create := "go tool mage worktree:create <name>"
	for _, tt := range []struct {
		name     string
		enter    bool
		mcpText  bool
		protocol bool
	}{
		{"", true, true, true}, {"claude", true, true, true}, {"codex", false, false, false}, {"cline", false, false, false}, {"nosuch", false, false, false},
	} {
		way := harness.SessionWayOutOf(tt.name, create)
		if strings.Contains(way, "EnterWorktree") != tt.enter || !strings.HasSuffix(way, create+" and work in the directory it prints") {
			t.Errorf("%q: session way out %q", tt.name, way)
		}
		if harness.MCPTextResponseOf(tt.name) != tt.mcpText {
			t.Errorf("%q: MCPTextResponseOf = %v", tt.name, !tt.mcpText)
		}
		p, ok := harness.Hook(tt.name)
		if ok && (p == hook.ClaudeCode) != tt.protocol {
			t.Errorf("%q: Hook gives %v", tt.name, p)
		}
	}
}
