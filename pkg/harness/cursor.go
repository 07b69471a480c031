package harness

import "github.com/magehook/magehook/pkg/hook"

// cursor is Cursor's agent hooks. No Cursor client could be run offline,
// so this dialect is verified against Cursor's documentation only: flat
// entries in .cursor/hooks.json (version 1), camelCase event names,
// Cursor's tool names, conversation_id and workspace_roots in the payload,
// and answers with permission, user_message, agent_message,
// updated_input, followup_message and additional_context.
func cursor() Harness {
	return Harness{
		Name:         "cursor",
		Client:       "Cursor",
		Program:      "cursor-agent",
		File:         ".cursor/hooks.json",
		UserFile:     ".cursor/hooks.json",
		Layout:       Flat,
		CommandKey:   "command",
		TimeoutKey:   "timeout",
		TimeoutScale: 1,
		Settings:     []Setting{{Path: "version", Value: 1}},
		Matchers:     MatchNativeList,
		WayOut: "Do the work in a worktree on its own branch: run " + worktreeCreate +
			" and open that directory as the workspace (or cd into it in each command).",
		// Documentation only: the names Cursor's shell tools may use.
		WorkDirFields: []string{"working_directory", "cwd", "directory"},
		Trust:         "Cursor runs project hooks from .cursor/hooks.json of the opened workspace (documentation only; not verified with a client).",
		events: func() []Name {
			return []Name{{"sessionStart", "SessionStart"}, {"sessionEnd", "SessionEnd"}, {"preToolUse", "PreToolUse"},
				{"postToolUse", "PostToolUse"}, {"postToolUseFailure", "PostToolUseFailure"}, {"subagentStart", "SubagentStart"},
				{"subagentStop", "SubagentStop"}, {"preCompact", "PreCompact"}, {"stop", "Stop"}, {"beforeSubmitPrompt", "UserPromptSubmit"}}
		},
		tools: func() []Name {
			return []Name{{"Shell", "Bash"}, {"Write", "Write"}, {"Read", "Read"}, {"Grep", "Grep"}, {"Task", "Agent"},
				{"Delete", "Write"}, {"WebFetch", "WebFetch"}, {"WebSearch", "WebSearch"}}
		},
		normalize: normalizeCursor,
		render:    renderCursor,
	}
}

func normalizeCursor(h *Harness, m map[string]any, _ string) {
	rename(m, "conversation_id", "session_id")
	if _, ok := m["cwd"]; !ok {
		if roots, ok := m["workspace_roots"].([]any); ok && len(roots) > 0 {
			m["cwd"] = roots[0]
		}
	}
	if cmd, ok := m["command"].(string); ok && m["tool_input"] == nil {
		m["tool_input"] = map[string]any{"command": cmd}
		if m["tool_name"] == nil {
			m["tool_name"] = "Shell"
		}
	}
	decodeInput(m)
	h.commonTool(m)
	if n, ok := m["loop_count"].(interface{ String() string }); ok && n.String() != "0" {
		m["stop_hook_active"] = true
	}
}

// renderCursor writes Cursor's native answer.
func renderCursor(ev hook.Event, r hook.Result, _ string) hook.Answer {
	var a hook.Answer
	if ev.Output == hook.OutputNone {
		return a
	}
	top := map[string]any{}
	switch ev.Name {
	case "PreToolUse", "PermissionRequest":
		if r.Decision != hook.NoDecision && r.Decision != hook.DecisionDefer {
			top["permission"] = r.Decision.String()
			if r.Reason != "" {
				top["user_message"] = r.Reason
				if r.Decision == hook.DecisionDeny {
					top["agent_message"] = r.Reason
				}
			}
		}
		if r.UpdatedInput != nil && (r.Decision == hook.DecisionAllow || r.Decision == hook.DecisionAsk) {
			top["updated_input"] = r.UpdatedInput
		}
	case "Stop", "SubagentStop":
		if r.Decision == hook.DecisionDeny {
			top["followup_message"] = hook.ReasonOrDefault(r.Reason, ev)
		}
	case "UserPromptSubmit":
		if r.Decision == hook.DecisionDeny {
			top["continue"] = false
			top["user_message"] = hook.ReasonOrDefault(r.Reason, ev)
		}
	default:
		if r.Decision == hook.DecisionDeny {
			if ev.ExitBlocks {
				a.Code = 2
				a.Stderr = append(a.Stderr, hook.ReasonOrDefault(r.Reason, ev))
				return a
			}
			a.Stderr = append(a.Stderr, "magehook: "+ev.Name+": this event cannot be blocked; the deny was dropped")
		}
	}
	if c := hook.ContextOf(r); c != "" {
		top["additional_context"] = c
	}
	if r.Halt {
		top["continue"] = false
		if r.HaltReason != "" {
			top["user_message"] = r.HaltReason
		}
	}
	return hook.MarshalAnswer(ev, top, a)
}
