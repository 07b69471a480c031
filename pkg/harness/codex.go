package harness

import (
	"encoding/json"
	"fmt"

	"github.com/magehook/magehook/pkg/hook"
)

// codex is OpenAI Codex CLI (verified against 0.169.0). Its hooks.json is
// Claude Code's grouped layout with Claude's event and tool names, but its
// answers are checked against strict schemas embedded in the binary (see
// testdata/codex-0.169.0) plus rules of their own: a rejected answer
// marks the hook failed and lets the tool run. The renderer below can only
// write what those accept.
func codex() Harness {
	return Harness{
		Name:         "codex",
		Client:       "Codex",
		Program:      "codex",
		File:         ".codex/hooks.json",
		UserFile:     ".codex/hooks.json",
		Layout:       Grouped,
		CommandKey:   "command",
		TimeoutKey:   "timeout",
		TimeoutScale: 1,
		Matchers:     MatchClaude,
		WayOut: "Do the work in a worktree on its own branch: run " + worktreeCreate +
			", then give its directory as the workdir of your commands (or start Codex there with codex --cd <dir>).",
		// A shell call's PostToolUse tool_response is its output alone.
		OpaqueResponse: true,
		WorkDirFields:  []string{"workdir"},
		Trust: "Codex runs a project hook only after the user reviewed it in /hooks (stored as hooks.state.\"<file>:<event>:<group>:<index>\".trusted_hash in $CODEX_HOME/config.toml); " +
			"a changed hook needs a new review; codex --dangerously-bypass-hook-trust skips the review. The project itself needs trust_level = \"trusted\".",
		Review:             "Codex runs a new or changed project hook only after a review: start codex in this checkout and approve magehook's hooks in /hooks (go tool mage doctor reports the ones not trusted)",
		ReviewedByPosition: true,
		events: func() []Name {
			return same("SessionStart", "SessionEnd", "UserPromptSubmit", "PreToolUse", "PermissionRequest", "PostToolUse",
				"PreCompact", "PostCompact", "SubagentStart", "SubagentStop", "Stop")
		},
		tools: func() []Name { return []Name{{"apply_patch", "Edit"}} },
		// Codex clamps SessionEnd (and Interrupt) hooks to 3 s, with a
		// warning at every start when asked for more.
		MaxTimeout: func(common string) int {
			if common == "SessionEnd" {
				return 3
			}
			return 0
		},
		normalize: normalizeCodex,
		render:    renderCodex,
	}
}

func same(names ...string) []Name {
	out := make([]Name, len(names))
	for i, n := range names {
		out[i] = Name{n, n}
	}
	return out
}

func normalizeCodex(_ *Harness, m map[string]any, common string) {
	name, _ := m["tool_name"].(string)
	if name == "apply_patch" {
		patchInput(input(m))
	}
	m["tool_name"] = codexTool(name)
	if name == "" {
		delete(m, "tool_name")
	}
	// PostToolUse's tool_response is always a string: the command's
	// output for a shell call (no exit code: success is unknown, and the
	// string stays, which Claude Code's success test reads as no success),
	// "Exit code: N\nWall time: ...\nOutput:\n..." for apply_patch, which
	// says which it was.
	if s, ok := m["tool_response"].(string); ok && common == "PostToolUse" {
		if code, known := exitCodeAfter(s, "Exit code:"); known {
			if code != 0 {
				failed(m, s)
			} else {
				m["tool_response"] = map[string]any{"output": s, "exit_code": code}
			}
		}
	}
}

func codexTool(name string) string {
	if name == "apply_patch" {
		return "Edit"
	}
	return name
}

// codexAccepts lists, per event, the top-level fields and the
// hookSpecificOutput fields Codex 0.169.0 accepts from a command hook
// (its output schemas, narrowed by the rules it applies after them:
// PreToolUse rejects continue:false, stopReason, suppressOutput,
// decision:approve, permissionDecision ask, and allow without
// updatedInput; PermissionRequest rejects continue:false, stopReason,
// suppressOutput, updatedInput, updatedPermissions and interrupt). An
// event it lists no fields for takes no JSON answer.
func codexAccepts(event string) (top, specific []string) {
	switch event {
	case "PreToolUse":
		return []string{"decision", "reason", "systemMessage", "hookSpecificOutput"},
			[]string{"hookEventName", "additionalContext", "permissionDecision", "permissionDecisionReason", "updatedInput"}
	case "PermissionRequest":
		return []string{"systemMessage", "hookSpecificOutput"}, []string{"hookEventName", "decision"}
	case "PostToolUse":
		return []string{"continue", "stopReason", "decision", "reason", "systemMessage", "hookSpecificOutput"},
			[]string{"hookEventName", "additionalContext"}
	case "UserPromptSubmit":
		return []string{"continue", "stopReason", "decision", "reason", "systemMessage", "hookSpecificOutput"},
			[]string{"hookEventName", "additionalContext"}
	case "SessionStart", "SubagentStart":
		return []string{"continue", "stopReason", "systemMessage", "hookSpecificOutput"},
			[]string{"hookEventName", "additionalContext"}
	case "Stop", "SubagentStop":
		return []string{"continue", "stopReason", "decision", "reason", "systemMessage"}, nil
	case "PreCompact", "PostCompact":
		return []string{"continue", "stopReason", "systemMessage"}, nil
	}
	return nil, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// renderCodex narrows the result to what the event accepts, warning on
// stderr for each intention it drops, renders Claude Code's shape and
// keeps only the fields codexAccepts lists.
func renderCodex(ev hook.Event, r hook.Result, _ string) hook.Answer {
	var warnings []string
	drop := func(what string) {
		warnings = append(warnings, fmt.Sprintf("magehook: %s: Codex rejects %s; it was dropped", ev.Name, what))
	}
	top, specific := codexAccepts(ev.Name)
	if top == nil {
		// SessionEnd: Codex reads no answer. A deny there cannot block.
		if r.Decision == hook.DecisionDeny {
			drop("a block on " + ev.Name)
		}
		return hook.Answer{Stderr: warnings}
	}
	r.Text, r.Context = "", hook.ContextOf(r) // plain stdout is not context in Codex
	if r.Context != "" && !contains(specific, "additionalContext") {
		drop("additionalContext on " + ev.Name)
		r.Context = ""
	}
	switch ev.Name {
	case "PreToolUse":
		switch r.Decision {
		case hook.DecisionAsk, hook.DecisionDefer:
			drop("a permission decision of " + r.Decision.String())
			r.Decision, r.Reason, r.UpdatedInput = hook.NoDecision, "", nil
		case hook.DecisionAllow:
			if r.UpdatedInput == nil {
				// Codex accepts allow only to carry an input rewrite;
				// without one, no decision lets the call go the same way.
				r.Decision, r.Reason = hook.NoDecision, ""
			}
		case hook.NoDecision:
			if r.UpdatedInput != nil {
				drop("updatedInput without an allow")
				r.UpdatedInput = nil
			}
		}
		if r.Decision == hook.DecisionDeny && r.Reason == "" {
			r.Reason = hook.ReasonOrDefault("", ev)
		}
	case "PermissionRequest":
		if r.UpdatedInput != nil || r.UpdatedPermissions != nil || r.Interrupt {
			drop("updatedInput, updatedPermissions and interrupt on PermissionRequest")
			r.UpdatedInput, r.UpdatedPermissions, r.Interrupt = nil, nil, false
		}
		if r.Decision == hook.DecisionAsk || r.Decision == hook.DecisionDefer {
			drop("a permission decision of " + r.Decision.String())
			r.Decision, r.Reason = hook.NoDecision, ""
		}
	case "PreCompact", "PostCompact", "SessionStart", "SubagentStart":
		if r.Decision == hook.DecisionDeny {
			drop("a block on " + ev.Name)
			r.Decision, r.Reason = hook.NoDecision, ""
		}
	}
	if r.Halt && !contains(top, "continue") {
		drop("continue and stopReason on " + ev.Name)
		r.Halt, r.HaltReason = false, ""
	}
	if r.UpdatedInput != nil && ev.Name != "PreToolUse" {
		r.UpdatedInput = nil // Render warns about it
	}
	if r.UpdatedToolOutput != nil {
		drop("updatedToolOutput")
		r.UpdatedToolOutput = nil
	}
	if r.SessionTitle != "" || len(r.WatchPaths) > 0 || r.Retry || r.DisplayContent != "" || r.InitialUserMessage != "" ||
		r.ReloadSkills || r.SuppressOriginalPrompt || r.Action != "" || r.Content != nil || r.TerminalSequence != "" {
		drop("fields outside its schema (sessionTitle, watchPaths, retry, displayContent, initialUserMessage, reloadSkills, suppressOriginalPrompt, elicitation answers, terminalSequence)")
		r.SessionTitle, r.WatchPaths, r.Retry, r.DisplayContent, r.InitialUserMessage = "", nil, false, "", ""
		r.ReloadSkills, r.SuppressOriginalPrompt, r.Action, r.Content, r.TerminalSequence = false, false, "", nil, ""
	}
	a := hook.Render(ev, r, hook.Claude)
	a.Stderr = append(warnings, a.Stderr...)
	if len(a.Stdout) == 0 {
		return a
	}
	// The last word: nothing outside the lists leaves, whatever Render
	// learns to write in the future.
	var doc map[string]json.RawMessage
	if json.Unmarshal(a.Stdout, &doc) != nil {
		return a
	}
	out := map[string]any{}
	for k, v := range doc {
		if !contains(top, k) {
			a.Stderr = append(a.Stderr, fmt.Sprintf("magehook: %s: Codex rejects %s; it was dropped", ev.Name, k))
			continue
		}
		if k == "hookSpecificOutput" {
			var inner map[string]json.RawMessage
			if json.Unmarshal(v, &inner) == nil {
				kept := map[string]any{}
				for ik, iv := range inner {
					if contains(specific, ik) {
						kept[ik] = iv
					} else {
						a.Stderr = append(a.Stderr, fmt.Sprintf("magehook: %s: Codex rejects hookSpecificOutput.%s; it was dropped", ev.Name, ik))
					}
				}
				if len(kept) <= 1 {
					continue // hookEventName alone says nothing
				}
				out[k] = kept
				continue
			}
		}
		out[k] = v
	}
	a.Stdout = nil
	return hook.MarshalAnswer(ev, out, a)
}
