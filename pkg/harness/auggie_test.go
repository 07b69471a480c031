package harness_test

import (
	"strings"
	"testing"

	"github.com/magehook/magehook/pkg/harness"
	"github.com/magehook/magehook/pkg/hook"
)

// TestAuggiePayloads reads payloads built as Auggie 0.36.0 builds them
// (testdata/harness/auggie; no Auggie runs offline): conversation_id is
// the session, workspace_roots[0] the checkout, the tools and their
// arguments get Claude Code's names, tool_error is a failure, and
// PromptSubmit is UserPromptSubmit.
func TestAuggiePayloads(t *testing.T) {
	p := normalize(t, "auggie", "auggie/PreToolUse-launch-process", "PreToolUse")
	if cmd, _ := p.InputString("command"); p.ToolName != "Bash" || p.SessionID != "5b0e6f0c-auggie-conv" || p.CWD != "/home/user/my-project" || !strings.HasPrefix(cmd, "git commit") {
		t.Errorf("launch-process: %+v %q", p, cmd)
	}
	if got := p.WorkDir("/home"); got != "/home/user/my-project" {
		t.Errorf("launch-process cwd is the command's directory: %q", got)
	}
	p = normalize(t, "auggie", "auggie/PreToolUse-str-replace-editor", "PreToolUse")
	if path, ok := p.EditedPath(); p.ToolName != "Edit" || !ok || path != "README.md" {
		t.Errorf("str-replace-editor: %s %q", p.ToolName, path)
	}
	if s, _ := p.InputString("old_string"); s != "# consumer" {
		t.Errorf("old_str_1 became old_string: %q", s)
	}
	p = normalize(t, "auggie", "auggie/PreToolUse-save-file", "PreToolUse")
	if s, _ := p.InputString("content"); p.ToolName != "Write" || s != "new\n" {
		t.Errorf("save-file: %s %q", p.ToolName, s)
	}
	p = normalize(t, "auggie", "auggie/PostToolUse-launch-process", "PostToolUse")
	if p.Succeeded() {
		t.Errorf("a call with a tool_error failed: %s", p.ToolResponse)
	}
	p = normalize(t, "auggie", "auggie/PromptSubmit", "UserPromptSubmit")
	if p.Prompt != "do the work" || p.HookEventName != "UserPromptSubmit" {
		t.Errorf("PromptSubmit: %+v", p)
	}
}

// TestAuggieAnswersNameItsEvents: Auggie's parser switches on
// hookSpecificOutput.hookEventName, so the prompt's context is named
// PromptSubmit; a tool deny is Claude Code's.
func TestAuggieAnswersNameItsEvents(t *testing.T) {
	a, _ := harness.Lookup("auggie")
	for _, tt := range []struct {
		event  string
		result hook.Result
		want   string
	}{
		{"UserPromptSubmit", hook.Context("Today is Monday."), `{"hookSpecificOutput":{"additionalContext":"Today is Monday.","hookEventName":"PromptSubmit"}}`},
		{"PreToolUse", hook.Deny("protected branch"), `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"protected branch"}}`},
		{"Stop", hook.Deny("tests fail"), `{"decision":"block","reason":"tests fail"}`},
	} {
		got := strings.TrimSpace(string(a.Render(hook.MustLookup(tt.event), tt.result).Stdout))
		if got != tt.want {
			t.Errorf("%s: %s, want %s", tt.event, got, tt.want)
		}
	}
	if ev, ok := a.NativeEvent("UserPromptSubmit"); !ok || ev != "PromptSubmit" {
		t.Errorf("UserPromptSubmit is %q", ev)
	}
}
