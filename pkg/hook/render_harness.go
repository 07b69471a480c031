package hook

import (
	"fmt"
)

// RenderFor renders a result in the dialect of a harness, naming the
// event as the harness does.
func RenderFor(ev Event, r Result, h Harness) Answer {
	switch h.Dialect {
	case Codex:
		return renderCodex(ev, r)
	case Cursor:
		return renderCursor(ev, r)
	case Gemini:
		native, _ := h.NativeEvent(ev.Name)
		return renderGemini(ev, native, r)
	}
	return Render(ev, r, h.Dialect)
}

// renderCodex drops what Codex's strict schemas reject, since an unknown
// field or an "ask" marks the hook failed and lets the tool run, then
// writes Claude Code's shape.
func renderCodex(ev Event, r Result) Answer {
	var warnings []string
	drop := func(what string) {
		warnings = append(warnings, fmt.Sprintf("magehook: %s: Codex rejects %s; it was dropped", ev.Name, what))
	}
	if r.Decision == DecisionAsk || r.Decision == DecisionDefer {
		drop("a permission decision of " + r.Decision.String())
		r.Decision, r.Reason = NoDecision, ""
	}
	toolEvent := ev.Name == "PreToolUse" || ev.Name == "PermissionRequest"
	if r.Halt && toolEvent {
		drop("continue and stopReason on " + ev.Name)
		r.Halt, r.HaltReason = false, ""
	}
	if ev.Name == "PermissionRequest" && r.UpdatedInput != nil {
		drop("updatedInput on PermissionRequest")
		r.UpdatedInput = nil
	}
	if r.UpdatedToolOutput != nil {
		drop("updatedToolOutput")
		r.UpdatedToolOutput = nil
	}
	if r.Interrupt || r.UpdatedPermissions != nil {
		drop("interrupt and updatedPermissions")
		r.Interrupt, r.UpdatedPermissions = false, nil
	}
	if r.SessionTitle != "" || len(r.WatchPaths) > 0 || r.Retry || r.DisplayContent != "" || r.InitialUserMessage != "" ||
		r.ReloadSkills || r.SuppressOriginalPrompt || r.Action != "" || r.Content != nil || r.TerminalSequence != "" {
		drop("fields outside its schema (sessionTitle, watchPaths, retry, displayContent, initialUserMessage, reloadSkills, suppressOriginalPrompt, elicitation answers, terminalSequence)")
		r.SessionTitle, r.WatchPaths, r.Retry, r.DisplayContent, r.InitialUserMessage = "", nil, false, "", ""
		r.ReloadSkills, r.SuppressOriginalPrompt, r.Action, r.Content, r.TerminalSequence = false, false, "", nil, ""
	}
	a := Render(ev, r, Claude)
	a.Stderr = append(warnings, a.Stderr...)
	return a
}

func marshalAnswer(ev Event, top map[string]any, a Answer) Answer {
	if len(top) == 0 {
		return a
	}
	out, err := encode(top)
	if err != nil {
		// Only a RawMessage a handler built by hand can fail here.
		a.Code = 1
		a.Stderr = append(a.Stderr, "magehook: "+ev.Name+": cannot encode the answer: "+err.Error())
		return a
	}
	a.Stdout = out
	return a
}

// contextOf joins a result's plain text and context.
func contextOf(r Result) string {
	switch {
	case r.Text == "":
		return r.Context
	case r.Context == "":
		return r.Text
	}
	return r.Text + "\n\n" + r.Context
}

// renderCursor writes Cursor's native answer.
func renderCursor(ev Event, r Result) Answer {
	var a Answer
	if ev.Output == OutputNone {
		return a
	}
	top := map[string]any{}
	switch ev.Name {
	case "PreToolUse", "PermissionRequest":
		if r.Decision != NoDecision && r.Decision != DecisionDefer {
			top["permission"] = r.Decision.String()
			if r.Reason != "" {
				top["user_message"] = r.Reason
				if r.Decision == DecisionDeny {
					top["agent_message"] = r.Reason
				}
			}
		}
		if r.UpdatedInput != nil && (r.Decision == DecisionAllow || r.Decision == DecisionAsk) {
			top["updated_input"] = r.UpdatedInput
		}
	case "Stop", "SubagentStop":
		if r.Decision == DecisionDeny {
			top["followup_message"] = reasonOrDefault(r.Reason, ev)
		}
	case "UserPromptSubmit":
		if r.Decision == DecisionDeny {
			top["continue"] = false
			top["user_message"] = reasonOrDefault(r.Reason, ev)
		}
	default:
		if r.Decision == DecisionDeny {
			if ev.ExitBlocks {
				a.Code = 2
				a.Stderr = append(a.Stderr, reasonOrDefault(r.Reason, ev))
				return a
			}
			a.Stderr = append(a.Stderr, "magehook: "+ev.Name+": this event cannot be blocked; the deny was dropped")
		}
	}
	if c := contextOf(r); c != "" {
		top["additional_context"] = c
	}
	if r.Halt {
		top["continue"] = false
		if r.HaltReason != "" {
			top["user_message"] = r.HaltReason
		}
	}
	return marshalAnswer(ev, top, a)
}

// renderGemini writes Gemini CLI's answer: a top-level decision, and
// hookSpecificOutput named with Gemini's event name.
func renderGemini(ev Event, native string, r Result) Answer {
	var a Answer
	top := map[string]any{}
	specific := map[string]any{}
	switch r.Decision {
	case DecisionDeny:
		if ev.CanBlock() {
			top[wireDecision] = "deny"
			top[wireReason] = reasonOrDefault(r.Reason, ev)
		} else {
			a.Stderr = append(a.Stderr, "magehook: "+ev.Name+": this event cannot be blocked; the deny was dropped")
		}
	case DecisionAllow:
		if ev.Name == "PreToolUse" {
			top[wireDecision] = "allow"
			if r.Reason != "" {
				top[wireReason] = r.Reason
			}
		}
	}
	if r.UpdatedInput != nil && ev.Name == "PreToolUse" && r.Decision != DecisionDeny {
		specific["tool_input"] = r.UpdatedInput
	}
	if c := contextOf(r); c != "" {
		switch ev.Name {
		case "PostToolUse", "UserPromptSubmit", "SessionStart":
			specific[wireAdditionalContext] = c
		default:
			a.Stderr = append(a.Stderr, "magehook: "+ev.Name+": Gemini takes no additionalContext here; it was dropped")
		}
	}
	if r.SystemMessage != "" {
		top[wireSystemMessage] = r.SystemMessage
	}
	if r.Halt {
		top[wireContinue] = false
		if r.HaltReason != "" {
			top[wireStopReason] = r.HaltReason
		}
	}
	if len(specific) > 0 {
		specific[wireHookEventName] = native
		top[wireHookSpecific] = specific
	}
	return marshalAnswer(ev, top, a)
}
