package hook

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
)

// Replay is what one hook run meant to Claude Code: the exit code, the
// decision it took, and what reached the model and the user (§3 of the
// contract: stdout classification, exit codes, per-event routing).
type Replay struct {
	Event    string
	Code     int
	Decision string
	// Model and User are the texts Claude Code hands to each.
	Model, User []string
	// Notes explain routing (a field ignored, stdout sent to the debug log).
	Notes []string
	// Handlers has one line per handler that ran: name, decision, time
	// (the dispatcher's trace, TraceEnv).
	Handlers       []string
	Stdout, Stderr string
}

// RunReplay dispatches a payload as the hook binary would and interprets
// the answer. The dispatcher's Stdin is the payload; its Stdout and Stderr
// are captured.
func RunReplay(ctx context.Context, d *Dispatcher, event string, payload []byte) Replay {
	var stdout, stderr bytes.Buffer
	d.Stdin, d.Stdout, d.Stderr = bytes.NewReader(payload), &stdout, &stderr
	getenv := d.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	d.Getenv = func(k string) string {
		if k == TraceEnv {
			return "1"
		}
		return getenv(k)
	}
	code := d.Dispatch(ctx, event)
	return Interpret(event, code, stdout.String(), stderr.String())
}

// exit2Audience says who reads stderr when an event's hook exits 2.
func exit2Audience(event string) string {
	switch event {
	case "PreToolUse", "PostToolUse", "PostToolUseFailure", "PostToolBatch", "Stop", "SubagentStop",
		"TeammateIdle", "TaskCreated", "TaskCompleted":
		return "model"
	case "PermissionRequest", "PermissionDenied", "Notification", "StopFailure", "InstructionsLoaded",
		"MessageDisplay", "WorktreeRemove", "DirectoryAdded", "Elicitation":
		return "nobody"
	}
	return "user"
}

// Interpret reads an answer as Claude Code does.
func Interpret(event string, code int, stdout, stderr string) Replay {
	handlers, stderr := splitTrace(stderr)
	r := Replay{Event: event, Code: code, Decision: "none", Stdout: stdout, Stderr: stderr, Handlers: handlers}
	ev, ok := Lookup(event)
	if !ok {
		r.Notes = append(r.Notes, "unknown event")
		return r
	}
	firstStderr := strings.TrimSpace(stderr)
	if i := strings.IndexByte(firstStderr, '\n'); i >= 0 {
		firstStderr = firstStderr[:i]
	}
	switch {
	case ev.Output == OutputPath:
		if code != 0 {
			r.Decision = "fail"
			r.User = append(r.User, "WorktreeCreate hook failed: "+firstStderr)
			return r
		}
		path := lastLine(stdout)
		if path == "" {
			r.Decision = "fail"
			r.User = append(r.User, "WorktreeCreate hook failed: no output")
			return r
		}
		r.Decision = "worktree " + path
		return r
	case code == 2:
		if !ev.ExitBlocks && ev.Block != BlockDecision {
			r.Notes = append(r.Notes, "exit 2 does not block "+event)
		} else {
			r.Decision = "block"
		}
		switch exit2Audience(event) {
		case "model":
			r.Model = append(r.Model, strings.TrimSpace(stderr))
		case "user":
			r.User = append(r.User, strings.TrimSpace(stderr))
		default:
			r.Notes = append(r.Notes, "stderr goes to the debug log")
		}
		return r
	case code != 0:
		r.User = append(r.User, fmt.Sprintf("%s hook error: Failed with non-blocking status code: %s", event, firstStderr))
		r.Notes = append(r.Notes, "a non-blocking error: the action proceeds")
		return r
	}
	if strings.TrimSpace(stderr) != "" {
		r.Notes = append(r.Notes, "stderr on exit 0 goes to the debug log")
	}
	out := strings.TrimSpace(stdout)
	if out == "" {
		return r
	}
	if out[0] != '{' {
		if ev.PlainContext {
			r.Model = append(r.Model, out)
		} else {
			r.Notes = append(r.Notes, "plain stdout goes to the debug log for "+event)
		}
		return r
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal([]byte(out), &obj) != nil {
		r.Notes = append(r.Notes, "stdout starts with { but is not JSON: treated as plain text")
		return r
	}
	str := func(raw json.RawMessage) string {
		var s string
		json.Unmarshal(raw, &s)
		return s
	}
	var specific map[string]json.RawMessage
	if raw, ok := obj[wireHookSpecific]; ok {
		json.Unmarshal(raw, &specific)
		if str(specific[wireHookEventName]) != event {
			r.Notes = append(r.Notes, "hookSpecificOutput names another event: Claude Code rejects it")
			specific = nil
		}
	}
	if d := str(specific[wirePermissionDecision]); d != "" {
		r.Decision = d
		if reason := str(specific[wirePermissionDecisionReason]); reason != "" {
			if d == "deny" {
				r.Model = append(r.Model, reason)
			} else {
				r.User = append(r.User, reason)
			}
		}
	}
	if raw, ok := specific[wireDecision]; ok {
		var dec map[string]json.RawMessage
		json.Unmarshal(raw, &dec)
		r.Decision = str(dec[wireBehavior])
		if m := str(dec[wireMessage]); m != "" {
			r.Model = append(r.Model, m)
		}
	}
	if str(obj[wireDecision]) == valueBlock {
		r.Decision = "block"
		reason := str(obj[wireReason])
		switch event {
		case "UserPromptSubmit", "UserPromptExpansion":
			r.User = append(r.User, reason)
		case "ConfigChange":
			r.Notes = append(r.Notes, "a ConfigChange reason is never shown")
		default:
			r.Model = append(r.Model, reason)
		}
	}
	if c := str(specific[wireAdditionalContext]); c != "" {
		r.Model = append(r.Model, c)
	}
	if m := str(obj[wireSystemMessage]); m != "" {
		r.User = append(r.User, m)
	}
	if string(obj[wireContinue]) == "false" {
		r.Decision = "stop"
		if s := str(obj[wireStopReason]); s != "" {
			r.User = append(r.User, s)
		}
	}
	return r
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}

// Write prints the replay, one field per line; continuation lines of a
// multi-line text are indented.
func (r Replay) Write(w io.Writer) {
	field := func(name string, values []string) {
		if len(values) == 0 {
			fmt.Fprintf(w, "%-9s -\n", name)
			return
		}
		for _, v := range values {
			fmt.Fprintf(w, "%-9s %s\n", name, strings.ReplaceAll(strings.TrimRight(v, "\n"), "\n", "\n          "))
		}
	}
	fmt.Fprintf(w, "%-9s %s\n", "event", r.Event)
	fmt.Fprintf(w, "%-9s %d\n", "exit", r.Code)
	fmt.Fprintf(w, "%-9s %s\n", "decision", r.Decision)
	for _, h := range r.Handlers {
		fmt.Fprintf(w, "%-9s %s\n", "handler", h)
	}
	field("model", r.Model)
	field("user", r.User)
	field("note", r.Notes)
	field("stdout", nonEmpty(r.Stdout))
	field("stderr", nonEmpty(r.Stderr))
}

func nonEmpty(s string) []string {
	if strings.TrimSpace(s) == "" {
		return nil
	}
	return []string{s}
}

// splitTrace takes the dispatcher's trace lines out of stderr: what the
// harness would see is the rest.
func splitTrace(stderr string) (trace []string, rest string) {
	if !strings.Contains(stderr, tracePrefix) {
		return nil, stderr
	}
	var b strings.Builder
	for _, line := range strings.SplitAfter(stderr, "\n") {
		if t, ok := strings.CutPrefix(line, tracePrefix); ok {
			trace = append(trace, strings.TrimRight(t, "\n"))
			continue
		}
		b.WriteString(line)
	}
	return trace, b.String()
}
