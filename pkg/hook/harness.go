package hook

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/magehook/magehook/pkg/payload"
)

// Harness is a coding agent that runs hooks, and how its wire shape
// differs from Claude Code's: its event names, its tool names, its payload
// fields and its answer's dialect. Handlers never see the difference: the
// dispatcher maps the harness's payload onto Claude Code's (the common
// model) and the answer back onto the harness's dialect.
type Harness struct {
	// Name is what -harness= names: claude, codex, copilot, cursor,
	// gemini, opencode.
	Name    string
	Dialect Dialect
	// Events maps the harness's event names to the common ones; only the
	// events listed are installed for the harness.
	Events map[string]string
	// Tools maps the harness's tool names to Claude Code's.
	Tools map[string]string
}

// Dialects of the harnesses, beside Claude and Copilot (render.go).
const (
	// Codex speaks Claude Code's shapes, minus the fields its strict
	// schema rejects (ask, continue and stopReason on tool events, ...).
	Codex Dialect = iota + 2
	// Cursor answers with permission, user_message, agent_message,
	// updated_input, followup_message and additional_context.
	Cursor
	// Gemini answers with a top-level decision allow|deny and reason, and
	// hookSpecificOutput.additionalContext under Gemini's event name.
	Gemini
)

func same(names ...string) map[string]string {
	m := map[string]string{}
	for _, n := range names {
		m[n] = n
	}
	return m
}

// harnesses is built on first use; the hook binary's start must not pay
// for maps it may never read.
var harnesses = sync.OnceValue(func() []Harness {
	return []Harness{
		{Name: "claude", Dialect: Claude},
		{Name: "codex", Dialect: Codex,
			Events: same("SessionStart", "PreToolUse", "PermissionRequest", "PostToolUse", "PreCompact", "PostCompact",
				"UserPromptSubmit", "SubagentStart", "SubagentStop", "Stop"),
			Tools: map[string]string{"apply_patch": "Edit"}},
		{Name: "copilot", Dialect: Copilot,
			// The PascalCase keys make Copilot send its VS Code compatible,
			// snake_case payload and apply Claude-format matchers.
			Events: same("SessionStart", "SessionEnd", "UserPromptSubmit", "PreToolUse", "PostToolUse", "PermissionRequest",
				"Stop", "SubagentStart", "SubagentStop", "PreCompact", "Notification"),
			Tools: map[string]string{"bash": "Bash", "powershell": "PowerShell", "view": "Read", "create": "Write",
				"edit": "Edit", "str_replace_editor": "Edit", "apply_patch": "Edit", "grep": "Grep", "rg": "Grep",
				"glob": "Glob", "web_fetch": "WebFetch", "web_search": "WebSearch", "ask_user": "AskUserQuestion",
				"update_todo": "TodoWrite", "task": "Agent"}},
		{Name: "cursor", Dialect: Cursor,
			Events: map[string]string{"sessionStart": "SessionStart", "sessionEnd": "SessionEnd", "preToolUse": "PreToolUse",
				"postToolUse": "PostToolUse", "postToolUseFailure": "PostToolUseFailure", "subagentStart": "SubagentStart",
				"subagentStop": "SubagentStop", "preCompact": "PreCompact", "stop": "Stop", "beforeSubmitPrompt": "UserPromptSubmit"},
			Tools: map[string]string{"Shell": "Bash", "Write": "Write", "Read": "Read", "Grep": "Grep", "Task": "Agent",
				"Delete": "Write", "WebFetch": "WebFetch", "WebSearch": "WebSearch"}},
		{Name: "gemini", Dialect: Gemini,
			Events: map[string]string{"SessionStart": "SessionStart", "SessionEnd": "SessionEnd", "BeforeTool": "PreToolUse",
				"AfterTool": "PostToolUse", "BeforeAgent": "UserPromptSubmit", "AfterAgent": "Stop", "PreCompress": "PreCompact",
				"Notification": "Notification"},
			Tools: map[string]string{"run_shell_command": "Bash", "replace": "Edit", "write_file": "Write", "read_file": "Read",
				"glob": "Glob", "search_file_content": "Grep", "list_directory": "LS", "web_fetch": "WebFetch",
				"google_web_search": "WebSearch"}},
		{Name: "opencode", Dialect: Claude,
			// The plugin magehook installs builds Claude-shaped payloads.
			Events: same("PreToolUse", "PostToolUse")},
	}
})

// Harnesses returns every harness, Claude Code first.
func Harnesses() []Harness { return harnesses() }

// LookupHarness returns a harness by name; "" is Claude Code.
func LookupHarness(name string) (Harness, bool) {
	if name == "" || name == "claude" {
		// Every Claude Code hook run comes here: no tables to build.
		return Harness{Name: "claude", Dialect: Claude}, true
	}
	for _, h := range harnesses() {
		if h.Name == name {
			return h, true
		}
	}
	return Harness{}, false
}

// NativeEvent is the harness's name for a common event, and false when the
// harness has no such event.
func (h Harness) NativeEvent(common string) (string, bool) {
	if h.Events == nil {
		return common, true
	}
	for native, c := range h.Events {
		if c == common {
			return native, true
		}
	}
	return "", false
}

// sameEvent reports whether the event name a payload carries (as the
// harness wrote it) names ev: its common name or one of the harness's
// names for it, in any letter case (harnesses differ in casing).
func (h Harness) sameEvent(sent string, ev Event) bool {
	if strings.EqualFold(sent, ev.Name) {
		return true
	}
	for native, common := range h.Events {
		if common == ev.Name && strings.EqualFold(sent, native) {
			return true
		}
	}
	return false
}

// NativeTools maps Claude Code tool names to the harness's, for matchers:
// every native name of each tool, sorted.
func (h Harness) NativeTools(claude []string) []string {
	if h.Tools == nil {
		return claude
	}
	seen := map[string]bool{}
	var out []string
	for _, c := range claude {
		found := false
		for native, common := range h.Tools {
			if payload.SameTool(common, c) {
				found = true
				if !seen[native] {
					seen[native] = true
					out = append(out, native)
				}
			}
		}
		if !found && !seen[c] && h.Name != "gemini" && h.Name != "cursor" {
			seen[c] = true
			out = append(out, c) // harnesses that also accept Claude's names
		}
	}
	sort.Strings(out)
	return out
}

// Normalize maps a harness's payload onto Claude Code's shape, with
// hook_event_name set to the common event. Claude Code's (and OpenCode's,
// built by magehook's plugin) pass through untouched.
func (h Harness) Normalize(data []byte, common string) ([]byte, error) {
	if h.Name == "claude" || h.Name == "opencode" {
		return data, nil
	}
	var in map[string]any
	if err := json.Unmarshal(data, &in); err != nil {
		return data, nil // the dispatcher reports what is wrong with it
	}
	out := map[string]any{}
	for k, v := range in {
		out[k] = v
	}
	rename := func(from, to string) {
		if v, ok := in[from]; ok {
			if _, has := out[to]; !has {
				out[to] = v
			}
			delete(out, from)
		}
	}
	// Copilot's camelCase payload, and the camelCase fields VS Code mixes in.
	rename("sessionId", "session_id")
	rename("hookEventName", "hook_event_name")
	rename("transcriptPath", "transcript_path")
	rename("toolName", "tool_name")
	rename("toolArgs", "tool_input")
	rename("toolResult", "tool_result")
	rename("stopHookActive", "stop_hook_active")
	rename("initialPrompt", "prompt")
	// Cursor.
	rename("conversation_id", "session_id")
	if _, ok := out["cwd"]; !ok {
		if roots, ok := in["workspace_roots"].([]any); ok && len(roots) > 0 {
			out["cwd"] = roots[0]
		}
	}
	if cmd, ok := in["command"].(string); ok && out["tool_input"] == nil {
		out["tool_input"] = map[string]any{"command": cmd}
		if out["tool_name"] == nil {
			out["tool_name"] = "Shell"
		}
	}
	if n, ok := in["loop_count"].(float64); ok && n > 0 {
		out["stop_hook_active"] = true
	}
	// Gemini.
	rename("prompt_response", "last_assistant_message")

	// tool_input may arrive as a JSON string (Copilot's toolArgs, Cursor's MCP input).
	if s, ok := out["tool_input"].(string); ok {
		var v any
		if json.Unmarshal([]byte(s), &v) == nil {
			out["tool_input"] = v
		}
	}
	if name, ok := out["tool_name"].(string); ok {
		if common, ok := h.Tools[name]; ok {
			out["tool_name"] = common
		}
		if name == "apply_patch" {
			if ti, ok := out["tool_input"].(map[string]any); ok {
				if cmd, ok := ti["command"].(string); ok {
					if path := patchPath(cmd); path != "" {
						ti["file_path"] = path
					}
				}
			}
		}
	}
	// A result object becomes tool_response: Copilot's {result_type,
	// text_result_for_llm}, Gemini's {llmContent, returnDisplay, error}.
	// A failure becomes the "Error: ..." string Claude Code sends, so the
	// success test reads it as one.
	for _, key := range []string{"tool_result", "tool_response"} {
		res, ok := out[key].(map[string]any)
		if !ok {
			continue
		}
		delete(out, "tool_result")
		failed := false
		text := ""
		if t, ok := res["resultType"].(string); ok && t != "success" {
			failed, text = true, fmt.Sprint(res["textResultForLlm"])
		}
		if t, ok := res["result_type"].(string); ok && t != "success" {
			failed, text = true, fmt.Sprint(res["text_result_for_llm"])
		}
		if e, ok := res["error"]; ok && e != nil && e != "" {
			failed, text = true, fmt.Sprint(e)
		}
		if failed {
			out["tool_response"] = "Error: " + text
		} else {
			out["tool_response"] = res
		}
	}
	out["hook_event_name"] = common
	return json.Marshal(out)
}

// patchPath is the first file an apply_patch patch touches (the
// dispatcher's gates read every one of them: payload.EditedPaths).
func patchPath(patch string) string {
	if files := payload.PatchFiles(patch); len(files) > 0 {
		return files[0]
	}
	return ""
}
