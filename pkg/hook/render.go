package hook

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Dialect is the output shape a harness reads.
type Dialect int

const (
	// Claude is Claude Code's shape (also Codex's and OpenCode's): decisions
	// and context nested under hookSpecificOutput with hookEventName. The
	// other harnesses' shapes are written from it by their values in
	// pkg/harness (Copilot's flat one, say).
	Claude Dialect = iota
)

// Answer is what the process hands back to the harness.
type Answer struct {
	// Stdout is the whole of standard output: empty, one JSON object and a
	// newline, or one path line.
	Stdout []byte
	// Stderr holds diagnostics, one per line; for exit code 2 it is the
	// reason Claude Code shows.
	Stderr []string
	// Code is the exit code.
	Code int
}

// Render turns a merged result into the answer the event accepts, in the
// given dialect. It is the only code that writes the output protocol.
func Render(ev Event, r Result, d Dialect) Answer {
	if r.Text != "" {
		text := r.Text
		r.Text = ""
		if ev.PlainContext {
			if a := Render(ev, r, d); len(a.Stdout) == 0 && a.Code == 0 {
				a.Stdout = []byte(text + "\n")
				return a
			}
		}
		if r.Context != "" {
			text += "\n\n" + r.Context
		}
		r.Context = text
	}
	var a Answer
	warn := func(format string, args ...any) {
		a.Stderr = append(a.Stderr, fmt.Sprintf("magehook: %s: ", ev.Name)+fmt.Sprintf(format, args...))
	}

	if r.Decision == DecisionDeny && (ev.Block == BlockExit || ev.Output == OutputPath) {
		a.Code = 2
		a.Stderr = append(a.Stderr, reasonOrDefault(r.Reason, ev))
		return a
	}

	switch ev.Output {
	case OutputNone:
		if r.Decision == DecisionDeny {
			warn("this event cannot be blocked; the deny was dropped")
		}
		return a
	case OutputPath:
		if r.Path == "" {
			a.Code = 1
			a.Stderr = append(a.Stderr, "magehook: "+ev.Name+": no handler produced a worktree path")
			return a
		}
		a.Stdout = []byte(r.Path + "\n")
		return a
	}

	top := map[string]any{}
	specific := map[string]any{}

	switch ev.Block {
	case BlockPermission:
		if r.Decision != NoDecision {
			specific[wirePermissionDecision] = r.Decision.String()
			if r.Reason != "" && r.Decision != DecisionDefer {
				specific[wirePermissionDecisionReason] = r.Reason
			}
		}
		if r.UpdatedInput != nil {
			if r.Decision == DecisionAllow || r.Decision == DecisionAsk {
				specific[wireUpdatedInput] = r.UpdatedInput
			} else {
				warn("updatedInput needs an allow or ask decision; it was dropped")
			}
		}
	case BlockBehavior:
		switch r.Decision {
		case DecisionAllow:
			dec := map[string]any{wireBehavior: "allow"}
			if r.UpdatedInput != nil {
				dec[wireUpdatedInput] = r.UpdatedInput
			}
			if r.UpdatedPermissions != nil {
				dec[wireUpdatedPermissions] = r.UpdatedPermissions
			}
			specific[wireDecision] = dec
		case DecisionDeny:
			dec := map[string]any{wireBehavior: "deny"}
			if r.Reason != "" {
				dec[wireMessage] = r.Reason
			}
			if r.Interrupt {
				dec[wireInterrupt] = true
			}
			specific[wireDecision] = dec
		}
	case BlockDecision:
		if r.Decision == DecisionDeny {
			top[wireDecision] = valueBlock
			top[wireReason] = reasonOrDefault(r.Reason, ev)
		}
	case BlockNone:
		if r.Decision == DecisionDeny {
			warn("this event cannot be blocked; the deny was dropped")
		}
	}
	if r.UpdatedInput != nil && ev.Block != BlockPermission && ev.Block != BlockBehavior {
		warn("this event takes no updatedInput; it was dropped")
	}
	if (r.UpdatedPermissions != nil || r.Interrupt) && ev.Block != BlockBehavior {
		warn("only PermissionRequest takes updatedPermissions and interrupt; they were dropped")
	}

	if r.Context != "" {
		if ev.Context {
			specific[wireAdditionalContext] = r.Context
		} else {
			warn("this event takes no additionalContext; it was dropped")
		}
	}
	optional := []struct {
		field string
		set   bool
		value any
	}{
		{wireUpdatedToolOutput, r.UpdatedToolOutput != nil, r.UpdatedToolOutput},
		{wireSessionTitle, r.SessionTitle != "", r.SessionTitle},
		{wireWatchPaths, len(r.WatchPaths) > 0, r.WatchPaths},
		{wireRetry, r.Retry, true},
		{wireDisplayContent, r.DisplayContent != "", r.DisplayContent},
		{wireInitialUserMessage, r.InitialUserMessage != "", r.InitialUserMessage},
		{wireReloadSkills, r.ReloadSkills, true},
		{wireSuppressOriginalPrompt, r.SuppressOriginalPrompt, true},
		{wireAction, r.Action != "", r.Action},
		{wireContent, r.Content != nil, r.Content},
	}
	for _, o := range optional {
		if !o.set {
			continue
		}
		if ev.accepts(o.field) {
			specific[o.field] = o.value
		} else {
			warn("this event takes no %s; it was dropped", o.field)
		}
	}

	if r.Halt {
		top[wireContinue] = false
		if r.HaltReason != "" {
			top[wireStopReason] = r.HaltReason
		}
	}
	if r.SystemMessage != "" {
		top[wireSystemMessage] = r.SystemMessage
	}
	if r.TerminalSequence != "" {
		top[wireTerminalSequence] = r.TerminalSequence
	}

	if len(specific) > 0 {
		specific[wireHookEventName] = ev.Name
		top[wireHookSpecific] = specific
	}
	if len(top) == 0 {
		return a
	}
	return MarshalAnswer(ev, top, a)
}

// encode writes v as one line of JSON, without escaping <, > and & (the
// reasons name things like <name>, and the model reads them).
func encode(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func reasonOrDefault(reason string, ev Event) string {
	if reason != "" {
		return reason
	}
	return "blocked by a magehook " + ev.Name + " handler"
}
