package harness

import (
	"strings"

	"github.com/magehook/magehook/pkg/hook"
)

// cline is the Cline CLI (verified against 3.0.65). It runs the files of
// .clinerules/hooks (and .cline/hooks, ~/.cline/hooks, ~/Documents/Cline/
// Hooks) named by its hook names — TaskStart, PreToolUse, PostToolUse,
// UserPromptSubmit, TaskComplete, SessionShutdown, ... — through the
// interpreter of their shebang line (a file needs no execute bit), with
// no review and no switch to turn them off. Its payload is its own:
// hookName (tool_call, tool_result, agent_start, ...), taskId,
// workspaceRoots, tool_call {id, name, input}, preToolUse {toolName,
// parameters} and postToolUse {toolName, result, success}.
//
// Only PreToolUse and PostToolUse are waited for and answered: the others
// run detached, their output unread (the CLI leaves
// blockingRunStartHooks off), so they observe only. The answer is the last
// stdout line (or a line "HOOK_CONTROL\t<json>"): cancel true stops the
// whole task before the tool runs (errorMessage, its reason, reaches
// neither the model nor the user); overrideInput replaces the call's
// input; context (or contextModification, or errorMessage without cancel)
// is added to the conversation for the model's next request. A deny is
// therefore a null overrideInput, which Cline's own tools reject before
// running, with the reason as context: the task goes on and the model
// reads why (renderCline). Cline reads no exit code: a hook that fails, prints nothing or
// runs past 120 s is logged and the call goes on, so every block, the
// installed command's own included, is written as the answer
// (BlocksByAnswer).
func cline() Harness {
	return Harness{
		Name:           "cline",
		Client:         "Cline",
		Program:        "cline",
		File:           ".clinerules/hooks",
		Layout:         Scripts,
		CommandKey:     "command",
		TimeoutScale:   1,
		Matchers:       MatchNativeList,
		BlocksByAnswer: true,
		NativePayload:  true,
		ToolField:      "toolName",
		WayOut: "Do the work in a worktree on its own branch: run " + worktreeCreate +
			" and cd into the directory it prints in each command (or start cline there).",
		Trust: "Cline runs every hook file of the workspace's .clinerules/hooks (and ~/.cline/hooks) with no review and no switch to turn them off; " +
			"only PreToolUse and PostToolUse answers are read, the other hooks run detached. " +
			"A deny of one of Cline's own tools replaces the call's input with null (overrideInput), which the tool rejects before it runs, and hands the reason to the model as the hook's context: the task goes on; " +
			"a deny of any other tool (an MCP server's, which would run with {}) is a cancel, which ends the task with the reason shown to no one; " +
			"a hook that runs past Cline's 120 s is skipped and the call goes on.",
		events: func() []Name {
			return []Name{{"TaskStart", "SessionStart"}, {"UserPromptSubmit", "UserPromptSubmit"}, {"PreToolUse", "PreToolUse"},
				{"PostToolUse", "PostToolUse"}, {"TaskComplete", "Stop"}, {"SessionShutdown", "SessionEnd"}}
		},
		tools: func() []Name {
			return []Name{{"run_commands", "Bash"}, {"editor", "Edit"}, {"apply_patch", "Edit"}, {"read_files", "Read"},
				{"search_codebase", "Grep"}, {"fetch_web_content", "WebFetch"}, {"skills", "Skill"},
				{"ask_question", "AskUserQuestion"}}
		},
		normalize: normalizeCline,
		render:    renderCline,
	}
}

// normalizeCline maps Cline's payload onto Claude Code's: the tool call's
// own input (preToolUse.parameters holds it again, every value turned into
// a string), run_commands' list of commands as one script, the editor's
// path/old_text/new_text as an Edit (a Write when it has no old_text).
func normalizeCline(h *Harness, m map[string]any, _ string) {
	rename(m, "taskId", "session_id")
	if roots, ok := m["workspaceRoots"].([]any); ok && len(roots) > 0 && m["cwd"] == nil {
		m["cwd"] = roots[0]
	}
	if p, ok := m["userPromptSubmit"].(map[string]any); ok && m["prompt"] == nil {
		m["prompt"] = p["prompt"]
	}
	call, _ := m["tool_call"].(map[string]any)
	if call == nil {
		call, _ = m["tool_result"].(map[string]any)
	}
	if call != nil {
		m["tool_name"] = call["name"]
		m["tool_use_id"] = call["id"]
		if in, ok := call["input"].(map[string]any); ok {
			m["tool_input"] = in
		}
	}
	for _, k := range []string{"preToolUse", "postToolUse"} {
		if p, ok := m[k].(map[string]any); ok && m["tool_name"] == nil {
			m["tool_name"] = p["toolName"]
		}
	}
	native, _ := m["tool_name"].(string)
	if ti := input(m); ti != nil {
		switch native {
		case "run_commands":
			if cmds, ok := ti["commands"].([]any); ok {
				var lines []string
				for _, c := range cmds {
					if s, ok := c.(string); ok {
						lines = append(lines, s)
					} else {
						lines = append(lines, text(c))
					}
				}
				ti["command"] = strings.Join(lines, "\n")
			}
		case "editor":
			rename(ti, "path", "file_path")
			if old, ok := ti["old_text"].(string); ok && ti["insert_line"] == nil {
				ti["old_string"] = old
				rename(ti, "new_text", "new_string")
			} else {
				rename(ti, "new_text", "content")
				if ti["insert_line"] == nil {
					m["tool_name"] = "Write"
				}
			}
		case "apply_patch":
			patchInput(ti)
		}
	}
	if m["tool_name"] != "Write" {
		h.commonTool(m)
	}
	if p, ok := m["postToolUse"].(map[string]any); ok {
		if p["success"] == false {
			failed(m, text(p["result"]))
		} else {
			m["tool_response"] = map[string]any{"output": p["result"]}
		}
	}
}

// clineChecksInput reports whether tool (a common name) is one of
// Cline's own tools, each of which checks its input against its schema
// before it runs (validateWithZod in @cline/core 3.0.65's execute): those
// a deny turns into a call with a null input, which fails. Any other tool
// (an MCP server's gets {} for a null input and would run) is denied by
// cancelling the task.
func clineChecksInput(tool string) bool {
	if tool == "Write" { // the editor without old_text, as normalizeCline names it
		return true
	}
	for _, n := range cline().tools() {
		if n.Common == tool {
			return true
		}
	}
	return false
}

// renderCline writes Cline's answer. A deny (and an ask: Cline cannot
// ask, so the gate holds) of one of Cline's own tools is a null
// overrideInput with the reason as contextModification, which reaches
// the model with the tool's failure; of any other tool, or of the
// fail-closed answer that knows no tool, cancel with errorMessage, which
// ends the task. Context is contextModification. Only PreToolUse and
// PostToolUse answers are read.
func renderCline(ev hook.Event, r hook.Result, _ string) hook.Answer {
	var a hook.Answer
	top := map[string]any{}
	read := ev.Name == "PreToolUse" || ev.Name == "PostToolUse"
	switch r.Decision {
	case hook.DecisionDeny, hook.DecisionAsk:
		switch {
		case ev.Name == "PreToolUse" && clineChecksInput(r.Tool):
			// The call's input becomes null, which the tool's own schema
			// check rejects before it runs; the reason goes to the model as
			// the hook's context, and the task goes on.
			top["overrideInput"] = nil
			top["contextModification"] = "magehook blocked this " + r.Tool + " call; it did not run (its input was replaced, so the tool reports invalid input): " +
				hook.ReasonOrDefault(r.Reason, ev)
		case ev.Name == "PreToolUse" || ev.Name == "PermissionRequest":
			top["cancel"] = true
			top["errorMessage"] = hook.ReasonOrDefault(r.Reason, ev)
		case r.Decision == hook.DecisionDeny:
			a.Stderr = append(a.Stderr, "magehook: "+ev.Name+": Cline does not wait for this hook; the deny was dropped")
		}
	}
	if c := hook.ContextOf(r); c != "" {
		if read {
			if blocked, ok := top["contextModification"].(string); ok {
				c = blocked + "\n\n" + c
			}
			top["contextModification"] = c
		} else {
			a.Stderr = append(a.Stderr, "magehook: "+ev.Name+": Cline does not read this hook's answer; the context was dropped")
		}
	}
	if r.UpdatedInput != nil && ev.Name == "PreToolUse" {
		a.Stderr = append(a.Stderr, "magehook: PreToolUse: Cline takes no updated input from magehook; it was dropped")
	}
	if len(top) == 0 {
		return a
	}
	return hook.MarshalAnswer(ev, top, a)
}
