package harness

import (
	"github.com/magehook/magehook/pkg/hook"
)

// gemini is Gemini CLI (verified against 0.61.0): .gemini/settings.json
// with Claude Code's grouped layout under Gemini's event names (BeforeTool,
// AfterTool, BeforeAgent, AfterAgent, PreCompress, ...), Gemini's tool
// names in anchored regular-expression matchers, timeouts in
// milliseconds, and answers with a top-level decision allow|deny. Hooks
// are on by default (hooksConfig.enabled); tools.enableHooks does nothing
// in 0.61 and is not written. Gemini substitutes $GEMINI_PROJECT_DIR into
// the command text before the shell sees it (so a path with a space or a
// quote breaks the command); the braced ${GEMINI_PROJECT_DIR} is left to
// the shell, which reads the environment variable whole. Any exit code
// other than 0 and 1 is a deny.
func gemini() Harness {
	return Harness{
		Name:         "gemini",
		Client:       "Gemini CLI",
		Program:      "gemini",
		File:         ".gemini/settings.json",
		UserFile:     ".gemini/settings.json",
		Layout:       Grouped,
		CommandKey:   "command",
		TimeoutKey:   "timeout",
		TimeoutScale: 1000,
		HandlerName:  "magehook",
		ProjectDir:   "${GEMINI_PROJECT_DIR}",
		Matchers:     MatchRegexp,
		WayOut: "Do the work in a worktree on its own branch: run " + worktreeCreate +
			", then pass its directory as dir_path to run_shell_command and edit files under it.",
		WorkDirFields: []string{"dir_path"},
		OffSwitches:   []Setting{{Path: "hooksConfig.enabled", Value: false}},
		EventKey:      func(key string) bool { return key != "" && key[0] >= 'A' && key[0] <= 'Z' },
		Trust: "Gemini CLI loads no project hooks in an untrusted folder (trust it when asked, or GEMINI_CLI_TRUST_WORKSPACE=true / --skip-trust for one run), " +
			"reads only the start directory's .gemini/settings.json, and hooksConfig.enabled: false switches hooks off.",
		events: func() []Name {
			return []Name{{"SessionStart", "SessionStart"}, {"SessionEnd", "SessionEnd"}, {"BeforeTool", "PreToolUse"},
				{"AfterTool", "PostToolUse"}, {"BeforeAgent", "UserPromptSubmit"}, {"AfterAgent", "Stop"}, {"PreCompress", "PreCompact"},
				{"Notification", "Notification"}}
		},
		tools: func() []Name {
			return []Name{{"run_shell_command", "Bash"}, {"replace", "Edit"}, {"write_file", "Write"}, {"read_file", "Read"},
				{"read_many_files", "Read"}, {"glob", "Glob"}, {"grep_search", "Grep"}, {"search_file_content", "Grep"},
				{"list_directory", "LS"}, {"web_fetch", "WebFetch"}, {"google_web_search", "WebSearch"}, {"invoke_agent", "Agent"},
				{"write_todos", "TodoWrite"}}
		},
		normalize: normalizeGemini,
		render:    renderGemini,
	}
}

func normalizeGemini(h *Harness, m map[string]any, common string) {
	rename(m, "prompt_response", "last_assistant_message")
	native, _ := m["tool_name"].(string)
	h.commonTool(m)
	res, ok := m["tool_response"].(map[string]any)
	if !ok || common != "PostToolUse" {
		return
	}
	// A failed tool carries error {message, type}; a failing shell command
	// carries none, its exit code is in llmContent ("Exit Code: 1").
	if e, ok := res["error"]; ok && e != nil && e != "" {
		failed(m, text(e))
		return
	}
	if native == "run_shell_command" {
		content := text(res["llmContent"])
		if code, ok := exitCodeAfter(content, "Exit Code:"); ok && code != 0 {
			failed(m, content)
		}
	}
}

// renderGemini writes Gemini CLI's answer: a top-level decision, and
// hookSpecificOutput named with Gemini's event name.
func renderGemini(ev hook.Event, r hook.Result, native string) hook.Answer {
	var a hook.Answer
	top := map[string]any{}
	specific := map[string]any{}
	switch r.Decision {
	case hook.DecisionDeny:
		if ev.CanBlock() {
			top["decision"] = "deny"
			top["reason"] = hook.ReasonOrDefault(r.Reason, ev)
		} else {
			a.Stderr = append(a.Stderr, "magehook: "+ev.Name+": this event cannot be blocked; the deny was dropped")
		}
	case hook.DecisionAllow:
		if ev.Name == "PreToolUse" {
			top["decision"] = "allow"
			if r.Reason != "" {
				top["reason"] = r.Reason
			}
		}
	}
	if r.UpdatedInput != nil && ev.Name == "PreToolUse" && r.Decision != hook.DecisionDeny {
		specific["tool_input"] = r.UpdatedInput
	}
	if c := hook.ContextOf(r); c != "" {
		switch ev.Name {
		case "PostToolUse", "UserPromptSubmit", "SessionStart":
			specific["additionalContext"] = c
		default:
			a.Stderr = append(a.Stderr, "magehook: "+ev.Name+": Gemini takes no additionalContext here; it was dropped")
		}
	}
	if r.SystemMessage != "" {
		top["systemMessage"] = r.SystemMessage
	}
	if r.Halt {
		top["continue"] = false
		if r.HaltReason != "" {
			top["stopReason"] = r.HaltReason
		}
	}
	if len(specific) > 0 {
		specific["hookEventName"] = native
		top["hookSpecificOutput"] = specific
	}
	return hook.MarshalAnswer(ev, top, a)
}
