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
//     whether it succeeded as the harness reports it (Success:
//     PostToolUseFailure is a failure; Codex's output string says nothing
//     unless it is an error, so success is left out; otherwise the
//     PostToolUse success test: a tool_response object not interrupted
//     succeeds, anything else fails), the exit code when the harness gives
//     one ("Exit code N"), and for Bash the files the call changed when
//     Claude Code reports them (tool_response.bashEditDiff.changedFiles,
//     up to 50, the rest counted in more_files).
//  3. The target is the command (Bash), the file (Edit, Write, Read, ...),
//     the pattern, URL or description, an AskUserQuestion's headers (never
//     the answers), another tool's path; never the whole input, which can
//     hold file contents. Secret-looking values are redacted and long
//     bodies cut to 1,000 bytes.
//  4. Lines go to <state.dir>/audit/<session>.jsonl with one O_APPEND write
//     each, under a lock that makes rotation safe: parallel hooks neither
//     interleave nor lose lines. The file rotates at 5 MB, three kept.
//
// Each line: {"time", "session", "event", "tool", "tool_use_id", "target",
// "decision" (PreToolUse), "success", "exit_code", "error",
// "changed_files" and "more_files" (after the call)}.
//
// # EXIT CODES
//
//	0  always, with nothing on stdout: an observer never stops a session
package auditlog

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/magehook/magehook/pkg/confined"
	"github.com/magehook/magehook/pkg/harness"
	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/jsonlog"
	"github.com/magehook/magehook/pkg/payload"
	"github.com/magehook/magehook/pkg/redact"
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
	ExitCode  *int   `json:"exit_code,omitempty"`
	Error     string `json:"error,omitempty"`
	// ChangedFiles are the files a Bash call changed, as Claude Code
	// reports them (tool_response.bashEditDiff.changedFiles, 2.1.269+);
	// MoreFiles counts those left out (by Claude Code or past MaxFiles).
	ChangedFiles []string `json:"changed_files,omitempty"`
	MoreFiles    int      `json:"more_files,omitempty"`
}

// AppendJSON writes the record as encoding/json would (field order, the
// omitted empty fields), without its reflection or its HTML escapes: the
// audit log is written on every tool call.
func (r Record) AppendJSON(b []byte) []byte {
	field := func(name string) {
		if len(b) > 0 && b[len(b)-1] != '{' {
			b = append(b, ',')
		}
		b = append(append(append(b, '"'), name...), '"', ':')
	}
	str := func(name, v string, omitEmpty bool) {
		if v == "" && omitEmpty {
			return
		}
		field(name)
		b = payload.AppendString(b, v)
	}
	b = append(b, '{')
	str("time", r.Time, false)
	str("session", r.Session, false)
	str("event", r.Event, false)
	str("tool", r.Tool, false)
	str("tool_use_id", r.ToolUseID, true)
	str("target", r.Target, true)
	str("decision", r.Decision, true)
	if r.Success != nil {
		field("success")
		b = strconv.AppendBool(b, *r.Success)
	}
	if r.ExitCode != nil {
		field("exit_code")
		b = strconv.AppendInt(b, int64(*r.ExitCode), 10)
	}
	str("error", r.Error, true)
	if len(r.ChangedFiles) > 0 {
		field("changed_files")
		b = append(b, '[')
		for i, f := range r.ChangedFiles {
			if i > 0 {
				b = append(b, ',')
			}
			b = payload.AppendString(b, f)
		}
		b = append(b, ']')
	}
	if r.MoreFiles != 0 {
		field("more_files")
		b = strconv.AppendInt(b, int64(r.MoreFiles), 10)
	}
	return append(b, '}')
}

// MaxFiles is how many changed files a line names.
const MaxFiles = 50

// Success is whether a finished tool call succeeded, the way the harness
// reports it; reported is false when the harness does not say.
// PostToolUseFailure is a failure everywhere (Claude Code 2.1.328 and
// Copilot send failed calls there). A harness whose tool_response may be
// the output as a string (OpaqueResponse: Codex) says nothing about
// success unless it is an error ("Error: ..."). For every other harness, the PostToolUse success test:
// a tool_response object not interrupted succeeds, an "Error: ..." string
// (Claude Code before PostToolUseFailure, the other harnesses' failures as
// magehook maps them) or any other shape fails. An MCP tool's
// PostToolUse in Claude Code is a success (its tool_response is the
// server's text) unless its content says isError.
func Success(event, agent string, p *payload.Payload) (ok, reported bool) {
	if event == "PostToolUseFailure" {
		return false, true
	}
	resp := bytes.TrimSpace(p.ToolResponse)
	if len(resp) > 0 && resp[0] == '"' && harness.OpaqueResponseOf(agent) {
		var text string
		if json.Unmarshal(resp, &text) == nil && strings.HasPrefix(text, "Error") {
			return false, true
		}
		return false, false
	}
	if strings.HasPrefix(p.ToolName, "mcp__") && harness.MCPTextResponseOf(agent) && len(resp) > 0 && resp[0] != '{' {
		// Claude Code sends a failed MCP call to PostToolUseFailure; on
		// PostToolUse an MCP tool's tool_response is the server's text (a
		// string) or its content blocks: a success unless the result
		// says isError.
		return !bytes.Contains(resp, []byte(`"isError":true`)), true
	}
	return p.Succeeded(), true
}

// exitCode reads "Exit code N" from PostToolUseFailure's error or a
// failure string, or nil.
func exitCode(p *payload.Payload) *int {
	text := p.Error
	if text == "" && len(p.ToolResponse) > 0 && p.ToolResponse[0] == '"' {
		json.Unmarshal(p.ToolResponse, &text)
		text = strings.TrimPrefix(text, "Error: ")
	}
	rest, ok := strings.CutPrefix(text, "Exit code ")
	if !ok {
		return nil
	}
	n, digits := 0, 0
	for ; digits < len(rest) && digits < 4 && rest[digits] >= '0' && rest[digits] <= '9'; digits++ {
		n = n*10 + int(rest[digits]-'0')
	}
	if digits == 0 {
		return nil
	}
	return &n
}

// changedFiles reads Claude Code's bashEditDiff: changedFiles, else the
// files' filePath, and moreFiles.
func changedFiles(p *payload.Payload) ([]string, int) {
	if !bytes.Contains(p.ToolResponse, []byte(`"bashEditDiff"`)) {
		return nil, 0 // the common case costs one scan, no decoding
	}
	var r struct {
		BashEditDiff struct {
			ChangedFiles []string `json:"changedFiles"`
			Files        []struct {
				FilePath string `json:"filePath"`
			} `json:"files"`
			MoreFiles int `json:"moreFiles"`
		} `json:"bashEditDiff"`
	}
	if json.Unmarshal(p.ToolResponse, &r) != nil {
		return nil, 0
	}
	d := r.BashEditDiff
	files := d.ChangedFiles
	if len(files) == 0 {
		for _, f := range d.Files {
			if f.FilePath != "" {
				files = append(files, f.FilePath)
			}
		}
	}
	more := d.MoreFiles
	if len(files) > MaxFiles {
		more += len(files) - MaxFiles
		files = files[:MaxFiles]
	}
	out := make([]string, 0, len(files))
	for _, f := range files {
		out = append(out, redact.Head(f, 500))
	}
	return out, more
}

// MaxTarget is how much of a target is kept.
const MaxTarget = 1000

func run(c *hook.Call) (hook.Result, error) {
	p := c.Payload
	rec := Record{
		Time: c.Now().UTC().Format(time.RFC3339Nano), Session: p.SessionID, Event: c.Event.Name,
		Tool: p.ToolName, ToolUseID: p.ToolUseID, Target: redact.Head(Target(p), MaxTarget),
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
		if ok, reported := Success(c.Event.Name, c.Harness, p); reported {
			rec.Success = &ok
		}
		if p.Error != "" {
			rec.Error = redact.Head(p.Error, 500)
		}
		rec.ExitCode = exitCode(p)
		if p.IsTool("Bash") {
			rec.ChangedFiles, rec.MoreFiles = changedFiles(p)
		}
	}
	state, err := c.StateDir()
	if err != nil {
		return hook.Result{}, err
	}
	session, ok := confined.SessionName(p.SessionID)
	if !ok {
		session = "unknown-session"
	}
	log := jsonlog.Log{Path: filepath.Join(state, "audit", session+".jsonl"), Root: state, MaxBytes: 5 << 20, Keep: 3}
	return hook.Result{}, log.Append(rec)
}

// Target is what a tool call acts on: the command, the file, the pattern,
// the URL or the description. An AskUserQuestion's target is its
// questions' headers (the answers are the user's words, and stay out of
// this log); any other tool's is the path its input names, if any. The
// input itself is never the target: it can hold whole file contents. An
// input given as a JSON string (Copilot's toolArgs) is read as the object
// it holds.
func Target(p *payload.Payload) string {
	if in := bytes.TrimSpace(p.ToolInput); len(in) > 0 && in[0] == '"' {
		var inner string
		if json.Unmarshal(in, &inner) == nil {
			q := *p
			q.ToolInput = json.RawMessage(inner)
			p = &q
		}
	}
	if p.ToolName == "AskUserQuestion" {
		return headers(p.ToolInput)
	}
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
	// Other tools (MCP servers, other harnesses' names): a path-like
	// member, else nothing.
	for _, f := range []string{"path", "filePath", "filepath", "file", "filename", "target", "uri", "cmd", "directory", "dir"} {
		if s, _ := p.InputString(f); s != "" {
			return s
		}
	}
	return ""
}

// headers lists an AskUserQuestion's question headers (the question where
// there is none).
func headers(input json.RawMessage) string {
	var in struct {
		Questions []struct {
			Header   string `json:"header"`
			Question string `json:"question"`
		} `json:"questions"`
	}
	json.Unmarshal(input, &in)
	var hs []string
	for _, q := range in.Questions {
		h := q.Header
		if h == "" {
			h = q.Question
		}
		hs = append(hs, h)
	}
	return strings.Join(hs, "; ")
}
