// Package auditlog records every tool call of a session.
//
// # PURPOSE
//
// When an agent session goes wrong, the first question is what it ran and
// what the gates decided. This observer appends one JSON line per tool
// event to a per-session file in the state directory, so the answer is a
// grep away, without ever slowing down or stopping the session.
//
// # HOW IT WORKS
//
//  1. PreToolUse (after the gates have answered): records the tool, its
//     target and the decision magehook made ("allow", "deny", "ask",
//     "defer", "none", or "blocked" when a gate failed).
//  2. PostToolUse and PostToolUseFailure: records the tool, its target and
//     whether it succeeded, by the PostToolUse success test (a tool_response
//     object not interrupted; anything else is a failure).
//  3. The target is the command (Bash), the file (Edit, Write, Read, ...),
//     the pattern, URL or description; secret-looking values are redacted
//     and long bodies cut to 1,000 bytes.
//  4. Lines go to <state.dir>/audit/<session>.jsonl with one O_APPEND write
//     each, under a lock that makes rotation safe: parallel hooks neither
//     interleave nor lose lines. The file rotates at 5 MB, three kept.
//
// Each line: {"time", "session", "event", "tool", "tool_use_id", "target",
// "decision" (PreToolUse), "success" and "error" (after the call)}.
//
// # EXIT CODES
//
//	0  always, with nothing on stdout: an observer never stops a session
package auditlog

import (
	"path/filepath"
	"time"

	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/jsonlog"
	"github.com/magehook/magehook/pkg/payload"
	"github.com/magehook/magehook/pkg/redact"
	"github.com/magehook/magehook/pkg/toolingrc"
)

// Handler is the catalogue entry.
var Handler = hook.Handler{
	Name:    "auditlog",
	Purpose: "append one JSON line per tool call (target, decision, success) to the session's audit log",
	Events:  []string{"PreToolUse", "PostToolUse", "PostToolUseFailure"},
	Policy:  hook.Observer,
	Late:    true,
	Run:     run,
}

// Record is one line of the audit log.
type Record struct {
	Time      string `json:"time"`
	Session   string `json:"session"`
	Event     string `json:"event"`
	Tool      string `json:"tool"`
	ToolUseID string `json:"tool_use_id,omitempty"`
	Target    string `json:"target,omitempty"`
	Decision  string `json:"decision,omitempty"`
	Success   *bool  `json:"success,omitempty"`
	Error     string `json:"error,omitempty"`
}

// MaxTarget is how much of a target is kept.
const MaxTarget = 1000

func run(c *hook.Call) (hook.Result, error) {
	p := c.Payload
	rec := Record{
		Time: c.Now().UTC().Format(time.RFC3339Nano), Session: p.SessionID, Event: c.Event.Name,
		Tool: p.ToolName, ToolUseID: p.ToolUseID, Target: redact.Cut(redact.String(Target(p)), MaxTarget),
	}
	switch c.Event.Name {
	case "PreToolUse":
		rec.Decision = "none"
		if c.Merged != nil && c.Merged.Decision != hook.NoDecision {
			rec.Decision = c.Merged.Decision.String()
		}
		if len(c.FailedGates) > 0 {
			rec.Decision = "blocked"
		}
	default:
		ok := p.Succeeded()
		rec.Success = &ok
		if p.Error != "" {
			rec.Error = redact.Cut(redact.String(p.Error), 500)
		}
	}
	state, err := c.StateDir()
	if err != nil {
		return hook.Result{}, err
	}
	session := "unknown-session"
	if toolingrc.IsToken(p.SessionID) {
		session = p.SessionID
	}
	log := jsonlog.Log{Path: filepath.Join(state, "audit", session+".jsonl"), MaxBytes: 5 << 20, Keep: 3}
	return hook.Result{}, log.Append(rec)
}

// Target is what a tool call acts on: the command, the file, the pattern,
// the URL, or, for other tools, the input itself.
func Target(p *payload.Payload) string {
	// One field at a time: decoding tool_input into a struct makes
	// encoding/json build a reflection cache, on every tool call.
	for _, f := range []string{"command", "file_path", "notebook_path", "url", "query"} {
		if s, _ := p.InputString(f); s != "" {
			return s
		}
	}
	if pattern, _ := p.InputString("pattern"); pattern != "" {
		if path, _ := p.InputString("path"); path != "" {
			return pattern + " in " + path
		}
		return pattern
	}
	if d, _ := p.InputString("description"); d != "" {
		return d
	}
	return string(p.ToolInput)
}
