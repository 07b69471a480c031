// Package ledger keeps the session's evidence ledger: which skills and
// sub-agents it invoked.
//
// # PURPOSE
//
// "Did the agent actually run the review skill, or only say it did?" The
// ledger answers from evidence (seed 002, session-ledger-append): one JSON
// line per Skill, Task or Agent invocation, appended as it finishes, per
// session, without ever slowing down or stopping the session.
//
// # HOW IT WORKS
//
//  1. PostToolUse and PostToolUseFailure on Skill, Task and Agent (Task is
//     Agent's old name) fire when the invocation has returned.
//  2. The line names the tool, the skill (tool_input.skill) or the
//     sub-agent type and description, the calling agent when a sub-agent
//     made the call, and whether it succeeded (the PostToolUse success
//     test; PostToolUseFailure is a failure; without a tool_response the
//     field is left out, never guessed). Text is redacted and cut to 500
//     bytes.
//  3. Lines go to <state.dir>/ledger/<session>.jsonl, one O_APPEND write
//     each under a lock (parallel hooks neither interleave nor lose lines);
//     the file rotates at 5 MB, three kept.
//
// Each line: {"schema": "magehook-ledger/1", "time", "session",
// "agent_id", "tool", "tool_use_id", "skill", "subagent_type",
// "description", "success"}.
//
// # EXIT CODES
//
//	0  always, with nothing on stdout: an observer never stops a session
package ledger

import (
	"path/filepath"
	"time"

	"github.com/magehook/magehook/pkg/confined"
	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/jsonlog"
	"github.com/magehook/magehook/pkg/redact"
)

// Handler is the catalogue entry.
var Handler = hook.Handler{
	Name:    "ledger",
	Purpose: "append one JSON line per Skill, Task or Agent invocation to the session's evidence ledger",
	Events:  []string{"PostToolUse", "PostToolUseFailure"},
	Matcher: "Skill|Task|Agent",
	Policy:  hook.Observer,
	Run:     run,
}

// Schema versions the ledger's lines.
const Schema = "magehook-ledger/1"

// Record is one line of the ledger.
type Record struct {
	Schema       string `json:"schema"`
	Time         string `json:"time"`
	Session      string `json:"session"`
	AgentID      string `json:"agent_id,omitempty"`
	Tool         string `json:"tool"`
	ToolUseID    string `json:"tool_use_id,omitempty"`
	Skill        string `json:"skill,omitempty"`
	SubagentType string `json:"subagent_type,omitempty"`
	Description  string `json:"description,omitempty"`
	Success      *bool  `json:"success,omitempty"`
}

func run(c *hook.Call) (hook.Result, error) {
	p := c.Payload
	field := func(name string) string {
		s, _ := p.InputString(name)
		return redact.Head(s, 500)
	}
	rec := Record{Schema: Schema, Time: c.Now().UTC().Format(time.RFC3339Nano), Session: p.SessionID, AgentID: p.AgentID,
		Tool: p.ToolName, ToolUseID: p.ToolUseID, Skill: field("skill"), SubagentType: field("subagent_type"), Description: field("description")}
	if rec.Skill == "" {
		rec.Skill = field("command") // the Skill tool's older input
	}
	switch {
	case c.Event.Name == "PostToolUseFailure":
		ok := false
		rec.Success = &ok
	case len(p.ToolResponse) > 0 || len(p.ToolOutput) > 0:
		ok := p.Succeeded()
		rec.Success = &ok
	}
	state, err := c.StateDir()
	if err != nil {
		return hook.Result{}, err
	}
	session, ok := confined.SessionName(p.SessionID)
	if !ok {
		session = "unknown-session"
	}
	log := jsonlog.Log{Path: filepath.Join(state, "ledger", session+".jsonl"), Root: state, MaxBytes: 5 << 20, Keep: 3}
	return hook.Result{}, log.Append(rec)
}
