package ledger_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/magehook/magehook/hooks/ledger"
	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/hooktest"
)

var hs = []hook.Handler{ledger.Handler}

func lines(t *testing.T, root, session string) []ledger.Record {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, ".magehook", "ledger", session+".jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var out []ledger.Record
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var r ledger.Record
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatalf("%v: %s", err, l)
		}
		out = append(out, r)
	}
	return out
}

func TestEveryInvocationIsOneLine(t *testing.T) {
	root := hooktest.Checkout(t, "hook.enable ledger")
	// An Agent call as PostToolUse reports it: the PreToolUse fixture's
	// envelope and input, with no tool_response (success is then unknown).
	out := hooktest.Run(t, hs, root, "PostToolUse", "PreToolUse/agent", map[string]any{"hook_event_name": "PostToolUse"})
	if out.Code != 0 || out.Stdout != "" {
		t.Fatalf("%+v", out)
	}
	// A Skill call from a sub-agent; the result object is a captured one.
	hooktest.Run(t, hs, root, "PostToolUse", "PostToolUse/bash-success", map[string]any{
		"session_id": "abc123", "tool_name": "Skill", "tool_input": map[string]any{"skill": "code-review"}, "agent_id": "agent-1"})
	// A failed Task (Agent's old name).
	hooktest.Run(t, hs, root, "PostToolUseFailure", "PostToolUseFailure/bash", map[string]any{
		"session_id": "abc123", "tool_name": "Task", "tool_input": map[string]any{"subagent_type": "Plan", "description": "token=abcdef123456"}})
	// Not a skill or an agent: nothing.
	hooktest.Run(t, hs, root, "PostToolUse", "PostToolUse/bash-success", map[string]any{"session_id": "abc123"})

	got := lines(t, root, "abc123")
	if len(got) != 3 {
		t.Fatalf("%d lines, want 3: %+v", len(got), got)
	}
	a, s, f := got[0], got[1], got[2]
	if a.Schema != ledger.Schema || a.Tool != "Agent" || a.SubagentType != "Explore" || a.Description != "Find callers" || a.Success != nil || a.ToolUseID != "toolu_01ABC123" || a.Time != "2026-11-30T09:15:00Z" {
		t.Errorf("agent line: %+v", a)
	}
	if s.Tool != "Skill" || s.Skill != "code-review" || s.AgentID != "agent-1" || s.Success == nil || !*s.Success {
		t.Errorf("skill line: %+v", s)
	}
	if f.Tool != "Task" || f.Success == nil || *f.Success || strings.Contains(f.Description, "abcdef123456") {
		t.Errorf("failed task line (redacted): %+v", f)
	}
}

func TestParallelInvocationsLoseNothing(t *testing.T) {
	root := hooktest.Checkout(t, "hook.enable ledger")
	var wg sync.WaitGroup
	for i := 0; i < 16; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			hooktest.Run(t, hs, root, "PostToolUse", "PreToolUse/agent", map[string]any{"hook_event_name": "PostToolUse"})
		}()
	}
	wg.Wait()
	if n := len(lines(t, root, "abc123")); n != 16 {
		t.Errorf("%d lines, want 16", n)
	}
}

func TestAnUnwritableStateDirDoesNotStopTheSession(t *testing.T) {
	root := hooktest.Checkout(t, "hook.enable ledger", "state.dir state")
	os.WriteFile(filepath.Join(root, "state"), []byte("a file, not a directory"), 0o644)
	out := hooktest.Run(t, hs, root, "PostToolUse", "PreToolUse/agent", map[string]any{"hook_event_name": "PostToolUse"})
	if out.Code != 0 || out.Stdout != "" || !strings.Contains(out.Stderr, "ledger failed") {
		t.Errorf("%+v", out)
	}
}
