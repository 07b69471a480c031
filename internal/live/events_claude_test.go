package live_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/magehook/magehook/internal/live/modelserver"
	"github.com/magehook/magehook/pkg/hook"
)

// probeMagefile adds a handler that answers every event magehook knows
// with a JSON answer the event accepts (a system message, and context
// where the event takes it), so that every event a client fires is also
// an answer the client must parse and validate.
const probeMagefile = `//go:build mage

package main

import (
	"github.com/magehook/magehook/pkg/hook"

	//mage:import
	"github.com/magehook/magehook/magefiles/targets"
)

func init() {
	var all []string
	for _, e := range hook.Events() {
		all = append(all, e.Name)
	}
	targets.Local = append(targets.Local, hook.Handler{
		Name: "probe", Purpose: "answers every event (live contract suite)", Events: all, Policy: hook.Observer,
		Run: func(c *hook.Call) (hook.Result, error) {
			if c.Event.Output != hook.OutputJSON {
				return hook.Result{}, nil
			}
			r := hook.Result{SystemMessage: "probe " + c.Event.Name}
			if c.Event.Name == "PreModelSwitch" {
				// The table says decision block stops a switch: Claude
				// Code must take it as valid JSON and keep the model.
				r = hook.Deny("probe keeps the model")
			}
			// Context on Stop and SubagentStop sends the agent back to work.
			if c.Event.Context && c.Event.Name != "Stop" && c.Event.Name != "SubagentStop" {
				r.Context = "probe context " + c.Event.Name
			}
			return r, nil
		},
	})
}
`

// claudeOffline are the sessions that make Claude Code 2.1.328 fire its
// events offline, each with the events it must fire. Not here: ConfigChange
// and FileChanged (a file watcher: when it reports is a matter of timing),
// Notification (the TUI), TaskCreated and TaskCompleted (no task tool in
// -p sessions), TeammateIdle (agent teams), PermissionDenied (auto mode's
// classifier), Elicitation and ElicitationResult (an MCP server), and
// DirectoryAdded.
var claudeOffline = []struct {
	name, prompt string
	args         []string
	fires        []string
	// mayFire are events the session fires when the client waits for
	// their hooks, which it does not always do as a -p session exits.
	mayFire []string
	fails   bool
}{
	{name: "every-tool", prompt: "exercise the tools", fires: []string{"SessionStart", "InstructionsLoaded", "UserPromptSubmit", "PreToolUse", "PostToolUse",
		"PostToolUseFailure", "PostToolBatch", "SubagentStart", "SubagentStop", "CwdChanged", "WorktreeCreate", "WorktreeRemove", "MessageDisplay", "Stop", "SessionEnd"}},
	{name: "model-switch", prompt: "/model claude-haiku-4-5", fires: []string{"PreModelSwitch"}},
	{name: "compact", prompt: "/compact", args: []string{"--resume"}, fires: []string{"PreCompact", "PostCompact", "PostModelSwitch"}},
	{name: "slash-command", prompt: "/hello world", fires: []string{"UserPromptExpansion"}},
	{name: "permission", prompt: "ask first", args: []string{"--permission-mode", "default"}, fires: []string{"PermissionRequest"}},
	{name: "model-error", prompt: "fail now", mayFire: []string{"StopFailure"}, fails: true},
	{name: "init-only", prompt: "set up", args: []string{"--init-only"}, fires: []string{"Setup"}},
}

// TestClaudeEveryEvent runs the sessions above in one consumer whose probe
// handler answers every event: each event fires, magehook answers it, and
// Claude Code parses and validates every JSON answer ("Successfully parsed
// and validated hook JSON output") and logs no hook error. The added
// context of the tool events reaches the model.
func TestClaudeEveryEvent(t *testing.T) {
	cl := requireClient(t, "claude")
	t.Parallel()
	c := newConsumer(t, catalogue+"hook.enable probe\n")
	write(t, c.Dir, "magefiles/magefile.go", probeMagefile)
	write(t, c.Dir, "CLAUDE.md", "# instructions\nBe brief.\n")
	write(t, c.Dir, ".claude/commands/hello.md", "Say hello to $ARGUMENTS.\n")
	c.Git(t, "add", "-A")
	c.Git(t, "commit", "-q", "-m", "probe")
	c.installClaude(t)
	srv, err := modelserver.Start(
		modelserver.Script{Key: "subagent-key", Steps: []modelserver.Step{{Text: "sub done"}}},
		modelserver.Script{Key: "exercise the tools", Steps: []modelserver.Step{
			{Calls: []modelserver.Call{modelserver.Bash("echo ok")}},
			{Calls: []modelserver.Call{modelserver.Bash("exit 3")}},
			{Calls: []modelserver.Call{{Name: "Task", Input: map[string]any{"description": "probe", "prompt": "subagent-key: report", "subagent_type": "general-purpose"}}}},
			{Calls: []modelserver.Call{{Name: "Task", Input: map[string]any{"description": "isolated", "prompt": "subagent-key: isolated", "subagent_type": "general-purpose", "isolation": "worktree"}}}},
			{Calls: []modelserver.Call{modelserver.Bash("mkdir -p sub && cd sub && pwd")}},
			{Calls: []modelserver.Call{{Name: "EnterWorktree", Input: map[string]any{"name": "probe-wt"}}}},
			{Calls: []modelserver.Call{{Name: "ExitWorktree", Input: map[string]any{"action": "remove", "discard_changes": true}}}},
			{Text: "all done"},
		}},
		modelserver.Script{Key: "ask first", Steps: []modelserver.Step{{Calls: []modelserver.Call{modelserver.Bash("touch ../asked.txt") /* outside the checkout: branchguard denies writes into main */}}}},
		modelserver.Script{Key: "hello", Steps: []modelserver.Step{{Text: "hello"}}},
		modelserver.Script{Key: "fail now", Steps: []modelserver.Step{{Status: 400, Text: "scripted failure"}}},
	)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()

	var firstSession string
	seen := 0
	var all []Record
	fired := map[string]bool{}
	for _, sess := range claudeOffline {
		args := sess.args
		if len(args) > 0 && args[0] == "--resume" {
			args = []string{"--resume", firstSession}
		}
		start := time.Now()
		s := c.claude(t, cl, srv, c.Dir, sess.prompt, args...)
		t.Logf("%s: %.1fs", sess.name, time.Since(start).Seconds())
		if (s.Err != nil) != sess.fails {
			t.Errorf("%s: claude exited with %v\n%s", sess.name, s.Err, s.Stdout)
		}
		if firstSession == "" {
			firstSession = sessionID(s.Stdout)
		}
		records := c.Records(t)
		mine := records[seen:]
		seen = len(records)
		all = append(all, mine...)
		got := map[string]bool{}
		for _, r := range mine {
			got[r.Event] = true
			fired[r.Event] = true
		}
		for _, ev := range sess.fires {
			if !got[ev] {
				t.Errorf("%s: %s did not fire; fired %v", sess.name, ev, Fired(mine))
			}
		}
		runs := checkClaudeHooks(t, s, sess.mayFire...)
		answered := map[string]bool{}
		for _, r := range runs {
			ev := strings.SplitN(r.Event, ":", 2)[0]
			answered[ev] = true
			if slices.Contains(sess.mayFire, ev) {
				continue
			}
			if e, ok := hook.Lookup(ev); ok && e.Output == hook.OutputJSON && r.Outcome != "json" {
				t.Errorf("%s: magehook's %s answer was not parsed and validated as JSON (%s)", sess.name, r.Event, r.Outcome)
			}
		}
		for _, ev := range sess.mayFire {
			if !got[ev] {
				t.Logf("%s: %s did not fire this time (the client did not wait for its hooks)", sess.name, ev)
			}
		}
		for _, ev := range sess.fires {
			if !answered[ev] {
				t.Errorf("%s: magehook did not answer %s", sess.name, ev)
			}
		}
		capture(t, cl, c, sess.name, mine, runs)
	}
	for _, ev := range []string{"SessionStart", "UserPromptSubmit", "PostToolUse", "PostToolUseFailure", "PostToolBatch"} {
		if !srv.Reached("probe context " + ev) {
			t.Errorf("the context added on %s did not reach the model", ev)
		}
	}
	var missing []string
	for _, e := range hook.Events() {
		if !fired[e.Name] {
			missing = append(missing, e.Name)
		}
	}
	t.Logf("fired offline: %d of %d events; not fired: %s", len(fired), len(hook.Events()), strings.Join(missing, ", "))
	checkPayloads(t, all)
	// An isolated sub-agent's worktree: WorktreeCreate names it agent-<id>
	// and carries no agent_id; magehook must make it (a skipped answer,
	// exit 0 without a path, fails the creation).
	isolated := false
	for _, r := range Of(all, "WorktreeCreate") {
		if name, _ := r.Payload["name"].(string); strings.HasPrefix(name, "agent-") {
			isolated = true
			if _, ok := r.Payload["agent_id"]; ok {
				t.Logf("an isolated sub-agent's WorktreeCreate carries agent_id now: %s", r.Raw)
			}
		}
	}
	if !isolated {
		t.Errorf("no WorktreeCreate for the isolated sub-agent (name agent-<id>); fired %v", Fired(all))
	}
	ran := false
	for _, r := range srv.Scripted() {
		if r.Script == "subagent-key" && strings.Contains(string(r.Body), "subagent-key: isolated") {
			ran = true
		}
	}
	if !ran {
		t.Errorf("the isolated sub-agent never asked the model: its worktree was not made\n%s", srv.Dump())
	}
}

// sessionID is the session_id of a stream-json output.
func sessionID(stdout string) string {
	for _, line := range strings.Split(stdout, "\n") {
		var m struct {
			SessionID string `json:"session_id"`
		}
		if json.Unmarshal([]byte(line), &m) == nil && m.SessionID != "" {
			return m.SessionID
		}
	}
	return ""
}

// checkPayloads asserts the facts the recorded payloads establish for
// 2.1.328 and that magehook relies on.
func checkPayloads(t *testing.T, records []Record) {
	t.Helper()
	for _, r := range records {
		if r.Payload["hook_event_name"] != r.Event {
			t.Errorf("%s: hook_event_name is %v", r.Event, r.Payload["hook_event_name"])
		}
		if r.Event == "PermissionRequest" {
			if _, ok := r.Payload["tool_use_id"]; ok {
				t.Errorf("PermissionRequest carries tool_use_id now: %s", r.Raw)
			}
		}
		if r.Event == "WorktreeCreate" || r.Event == "WorktreeRemove" || r.Event == "SessionStart" || r.Event == "SessionEnd" {
			if _, ok := r.Payload["agent_id"]; ok {
				t.Logf("%s carries agent_id: %s", r.Event, r.Raw)
			}
		}
	}
	for _, r := range Of(records, "PostToolUseFailure") {
		if _, ok := r.Payload["error"].(string); !ok {
			t.Errorf("PostToolUseFailure error is not a string: %s", r.Raw)
		}
	}
}
