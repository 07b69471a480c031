package harness

import (
	"encoding/json"

	"github.com/magehook/magehook/pkg/hook"
)

// auggie is Augment's Auggie CLI (@augmentcode/auggie), wired from the
// contract in its 0.36.0 package (augment.mjs) and tested with payloads
// built from it: no Auggie runs offline here. Every session needs an
// Augment login (auggie login or AUGMENT_SESSION_AUTH: "No auth provided")
// and Augment's own API at the tenant URL (POST /get-models,
// /agents/list-remote-tools, /settings/get-mcp-*-configs, then its chat
// stream), which the scripted model does not speak.
//
// It reads hooks from ~/.augment/settings.json and the workspace's
// .augment/settings.local.json and .augment/settings.json: Claude Code's
// grouped layout under PreToolUse, PostToolUse, Stop, SessionStart,
// SessionEnd, Notification and PromptSubmit (UserPromptSubmit), a
// matcher being a regular expression over its tool names
// (launch-process, str-replace-editor, save-file, view, ...), timeouts in
// milliseconds (60000 by default). The payload names the session
// conversation_id and the checkout workspace_roots[0], carries a tool's
// result as tool_output and its failure as tool_error; the answer is
// Claude Code's, hookSpecificOutput named with Auggie's event. Exit code 2
// blocks PreToolUse, PostToolUse and Stop; any other failure lets the call
// through (the installed command fails closed with 2). Before it runs a
// command (bash -c when it holds a shell character) it replaces ${NAME}
// and ${NAME:-x} with its own environment's values, \${ staying a
// literal ${; the hook runs in workspace_roots[0], with
// AUGMENT_PROJECT_DIR set to it.
func auggie() Harness {
	return Harness{
		Name:         "auggie",
		Client:       "Auggie",
		Program:      "auggie",
		File:         ".augment/settings.json",
		Layout:       Grouped,
		CommandKey:   "command",
		TimeoutKey:   "timeout",
		TimeoutScale: 1000,
		Matchers:     MatchRegexp,
		EventKey:     func(key string) bool { return key != "" && key[0] >= 'A' && key[0] <= 'Z' },
		WayOut: "Do the work in a worktree on its own branch: run " + worktreeCreate +
			", then pass its directory as cwd to launch-process and edit files under it.",
		WorkDirFields:     []string{"cwd"},
		BracesSubstituted: true,
		Guarded:           []string{".augment/settings.local.json"},
		Trust: "Auggie runs the hooks of ~/.augment/settings.json and of the workspace's .augment/settings.local.json and .augment/settings.json, with no review; " +
			"any failure of a hook but exit 2 lets the call through (the installed command exits 2 when it cannot run the binary).",
		NotLive: "every session needs an Augment login (auggie --print offline: \"No auth provided. Please log in with `auggie login` or set the AUGMENT_SESSION_AUTH environment variable.\") " +
			"and Augment's own API at the tenant URL (POST /get-models, /agents/list-remote-tools, /settings/get-mcp-*-configs before any model turn), which the scripted model does not speak; " +
			"the hook contract is read from its package and tested with payloads built from it",
		events: func() []Name {
			return []Name{{"SessionStart", "SessionStart"}, {"SessionEnd", "SessionEnd"}, {"PromptSubmit", "UserPromptSubmit"},
				{"PreToolUse", "PreToolUse"}, {"PostToolUse", "PostToolUse"}, {"Stop", "Stop"}, {"Notification", "Notification"}}
		},
		tools: func() []Name {
			return []Name{{"launch-process", "Bash"}, {"str-replace-editor", "Edit"}, {"apply_patch", "Edit"}, {"save-file", "Write"},
				{"remove-files", "Edit"}, {"view", "Read"}, {"grep-search", "Grep"}, {"web-fetch", "WebFetch"}, {"web-search", "WebSearch"},
				{"sub-agent", "Agent"}, {"add_tasks", "TodoWrite"}, {"update_tasks", "TodoWrite"}}
		},
		normalize: normalizeAuggie,
		render:    renderAuggie,
	}
}

// normalizeAuggie maps Auggie's payload onto Claude Code's: its session
// and checkout fields, its tool names and argument names, and its result.
func normalizeAuggie(h *Harness, m map[string]any, common string) {
	rename(m, "conversation_id", "session_id")
	if roots, ok := m["workspace_roots"].([]any); ok && len(roots) > 0 {
		if root, ok := roots[0].(string); ok && m["cwd"] == nil {
			m["cwd"] = root
		}
	}
	rename(m, "user_prompt", "prompt")
	native, _ := m["tool_name"].(string)
	h.commonTool(m)
	if ti := input(m); ti != nil {
		rename(ti, "path", "file_path")
		rename(ti, "old_str_1", "old_string")
		rename(ti, "new_str_1", "new_string")
		rename(ti, "file_content", "content")
		switch native {
		case "apply_patch":
			patchInput(ti)
		case "remove-files":
			if paths, ok := ti["file_paths"].([]any); ok && len(paths) > 0 {
				if _, has := ti["file_path"]; !has {
					ti["file_path"] = paths[0]
				}
			}
		}
	}
	if common != "PostToolUse" {
		return
	}
	if e := m["tool_error"]; e != nil && e != "" {
		failed(m, text(e))
		return
	}
	if out, ok := m["tool_output"]; ok && m["tool_response"] == nil {
		if s, ok := out.(string); ok {
			m["tool_response"] = map[string]any{"output": s}
		} else {
			m["tool_response"] = out
		}
	}
}

// renderAuggie writes Claude Code's answer with hookSpecificOutput named
// by Auggie's event (PromptSubmit for UserPromptSubmit), which its parser
// switches on.
func renderAuggie(ev hook.Event, r hook.Result, native string) hook.Answer {
	a := hook.Render(ev, r, hook.Claude)
	if native == ev.Name || len(a.Stdout) == 0 || a.Stdout[0] != '{' {
		return a
	}
	var top map[string]any
	if json.Unmarshal(a.Stdout, &top) != nil {
		return a
	}
	specific, ok := top["hookSpecificOutput"].(map[string]any)
	if !ok {
		return a
	}
	specific["hookEventName"] = native
	a.Stdout = nil
	return hook.MarshalAnswer(ev, top, a)
}
