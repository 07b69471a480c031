package harness

import (
	"encoding/json"

	"github.com/magehook/magehook/pkg/hook"
)

// copilot is GitHub Copilot CLI (verified against 1.0.102). Its
// .github/hooks/*.json is version 1 with flat entries (bash, timeoutSec).
// PascalCase event keys make it send a snake_case payload under Claude
// Code's tool names and apply Claude-format matchers — but the tool
// arguments keep Copilot's own names (path, file_text, old_str, new_str)
// and PermissionRequest still arrives camelCase. It gives hooks
// COPILOT_PROJECT_DIR (and CLAUDE_PROJECT_DIR).
func copilot() Harness {
	return Harness{
		Name:         "copilot",
		Client:       "Copilot CLI",
		Program:      "copilot",
		File:         ".github/hooks/magehook.json",
		Layout:       Flat,
		CommandKey:   "bash",
		TimeoutKey:   "timeoutSec",
		TimeoutScale: 1,
		Settings:     []Setting{{Path: "version", Value: 1}},
		ProjectDir:   "${COPILOT_PROJECT_DIR:-$PWD}",
		Matchers:     MatchClaude,
		WayOut: "Do the work in a worktree on its own branch: run " + worktreeCreate +
			" and cd into the directory it prints in each command (or start copilot there).",
		Trust: "Copilot CLI loads no repository hooks until the folder is trusted (the trust prompt, or copilot --trust-folder), and reads only the start directory's .github/hooks.",
		events: func() []Name {
			return same("SessionStart", "SessionEnd", "UserPromptSubmit", "PreToolUse", "PostToolUse", "PostToolUseFailure",
				"PermissionRequest", "Stop", "SubagentStart", "SubagentStop", "PreCompact", "Notification")
		},
		tools: func() []Name {
			return []Name{{"bash", "Bash"}, {"powershell", "PowerShell"}, {"view", "Read"}, {"create", "Write"},
				{"edit", "Edit"}, {"str_replace_editor", "Edit"}, {"apply_patch", "Edit"}, {"grep", "Grep"}, {"rg", "Grep"},
				{"glob", "Glob"}, {"web_fetch", "WebFetch"}, {"web_search", "WebSearch"}, {"ask_user", "AskUserQuestion"},
				{"update_todo", "TodoWrite"}, {"task", "Agent"}}
		},
		render:    renderCopilot,
		normalize: normalizeCopilot,
	}
}

// normalizeCopilot maps both of Copilot's payloads (and the camelCase
// fields of the snake_case one) onto Claude Code's.
func normalizeCopilot(h *Harness, m map[string]any, common string) {
	{
		for _, p := range [][2]string{{"sessionId", "session_id"}, {"hookEventName", "hook_event_name"}, {"hookName", "hook_event_name"},
			{"transcriptPath", "transcript_path"}, {"toolName", "tool_name"}, {"toolArgs", "tool_input"}, {"toolInput", "tool_input"},
			{"toolResult", "tool_result"}, {"stopHookActive", "stop_hook_active"}, {"initialPrompt", "initial_prompt"},
			{"permissionSuggestions", "permission_suggestions"}, {"toolUseId", "tool_use_id"}, {"stopReason", "stop_reason"}} {
			rename(m, p[0], p[1])
		}
		decodeInput(m)
		tool := h.commonTool(m)
		if ti := input(m); ti != nil {
			// Copilot's own argument names survive under Claude's tool names.
			rename(ti, "path", "file_path")
			rename(ti, "file_text", "content")
			rename(ti, "old_str", "old_string")
			rename(ti, "new_str", "new_string")
			if tool == "Edit" {
				if _, ok := ti["command"].(string); ok && ti["old_string"] == nil {
					patchInput(ti)
				}
			}
		}
		if s, ok := m["source"].(string); ok && s == "new" && common == "SessionStart" {
			m["source"] = "startup"
		}
		for _, key := range []string{"tool_result", "tool_response"} {
			res, ok := m[key].(map[string]any)
			if !ok {
				continue
			}
			delete(m, "tool_result")
			kind, _ := res["result_type"].(string)
			if kind == "" {
				kind, _ = res["resultType"].(string)
			}
			t := text(res["text_result_for_llm"])
			if t == "" {
				t = text(res["textResultForLlm"])
			}
			// A failing shell command is a "success" whose text ends
			// "<shellId: N completed with exit code 3>".
			if code, ok := shellExit(t); kind == "success" && ok && code != 0 {
				kind = "failure"
			}
			if kind != "" && kind != "success" {
				failed(m, t)
			} else {
				m["tool_response"] = res
			}
		}
		if common == "PostToolUseFailure" {
			if e, ok := m["error"]; ok && m["tool_response"] == nil {
				failed(m, text(e))
			}
		}
	}
}

// shellExit reads the exit code Copilot appends to a shell command's
// result ("<shellId: 0 completed with exit code 3>").
func shellExit(s string) (int, bool) { return lastExitCode(s, "completed with exit code ") }

// renderCopilot writes Copilot's flat answer: Claude Code's, with the
// fields of hookSpecificOutput moved to the top level (hookEventName
// dropped), updatedInput named modifiedArgs, and a permission request's
// decision spread out (behavior, message, interrupt; Copilot has no
// permission updates).
func renderCopilot(ev hook.Event, r hook.Result, _ string) hook.Answer {
	a := hook.Render(ev, r, hook.Claude)
	var top map[string]json.RawMessage
	if len(a.Stdout) == 0 || a.Stdout[0] != '{' || json.Unmarshal(a.Stdout, &top) != nil {
		return a
	}
	raw, ok := top["hookSpecificOutput"]
	if !ok {
		return a
	}
	delete(top, "hookSpecificOutput")
	var specific map[string]json.RawMessage
	if json.Unmarshal(raw, &specific) != nil {
		return a
	}
	for k, v := range specific {
		switch k {
		case "hookEventName":
		case "updatedInput":
			top["modifiedArgs"] = v
		case "decision":
			var d map[string]json.RawMessage
			if json.Unmarshal(v, &d) != nil {
				top[k] = v
				continue
			}
			for dk, dv := range d {
				switch dk {
				case "updatedInput":
					top["modifiedArgs"] = dv
				case "updatedPermissions":
				default:
					top[dk] = dv
				}
			}
		default:
			top[k] = v
		}
	}
	out := make(map[string]any, len(top))
	for k, v := range top {
		out[k] = v
	}
	a.Stdout = nil
	return hook.MarshalAnswer(ev, out, a)
}
