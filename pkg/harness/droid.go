package harness

import (
	"encoding/json"

	"github.com/magehook/magehook/pkg/hook"
)

// droid is Factory Droid (verified against 0.225.2, the binary of
// @factory/cli-linux-x64; droid exec runs offline against a custom model,
// customModels in ~/.factory/settings.json, with no Factory login). Claude
// Code's grouped layout under Claude's event names in the hooks key of
// .factory/settings.json, beside the hooks.hooksDisabled and
// hooks.showHookOutput settings; an event of .factory/hooks.json replaces
// the same event of the settings file, and a hooks object that fails
// Droid's schema is ignored whole. Its own tool names (Execute, Create,
// Edit, ApplyPatch, ...) in the payload and the matchers, Edit's arguments
// named old_str, new_str and change_all, ApplyPatch's patch in input;
// timeouts in seconds; Claude Code's answers. A failed tool call fires no
// PostToolUse. It waits a budget (10 s in 0.225.2's code) for the
// SessionStart hooks before its first model call: the context of a
// SessionStart that first builds the binary can miss it. FACTORY_PROJECT_DIR (and DROID_ and CLAUDE_PROJECT_DIR) is
// the session's working directory, not the checkout: the command walks up.
func droid() Harness {
	return Harness{
		Name:         "droid",
		Client:       "Factory Droid",
		Program:      "droid",
		File:         ".factory/settings.json",
		UserFile:     ".factory/settings.json",
		Layout:       Grouped,
		CommandKey:   "command",
		TimeoutKey:   "timeout",
		TimeoutScale: 1,
		Matchers:     MatchNativeList,
		EventKey:     func(key string) bool { return key != "" && key[0] >= 'A' && key[0] <= 'Z' },
		OffSwitches:  []Setting{{Path: "hooks.hooksDisabled", Value: true}},
		Overrides:    ".factory/hooks.json",
		WayOut: "Do the work in a worktree on its own branch: run " + worktreeCreate +
			" and cd into the directory it prints in each command.",
		Trust: "Factory Droid runs the hooks of the project's .factory/settings.json; the interactive droid skips them until the folder is trusted (droid exec asks nothing), " +
			"and an event in .factory/hooks.json replaces the settings file's (the doctor reports it).",
		events: func() []Name {
			return same("SessionStart", "SessionEnd", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop", "SubagentStop",
				"PreCompact", "Notification")
		},
		tools: func() []Name {
			return []Name{{"Execute", "Bash"}, {"Edit", "Edit"}, {"MultiEdit", "MultiEdit"}, {"ApplyPatch", "Edit"}, {"Create", "Write"},
				{"Read", "Read"}, {"LS", "LS"}, {"Grep", "Grep"}, {"Glob", "Glob"}, {"FetchUrl", "WebFetch"}, {"WebSearch", "WebSearch"},
				{"Task", "Agent"}, {"TodoWrite", "TodoWrite"}, {"Skill", "Skill"}}
		},
		normalize: normalizeDroid,
		render:    func(ev hook.Event, r hook.Result, _ string) hook.Answer { return hook.Render(ev, r, hook.Claude) },
	}
}

// normalizeDroid maps Droid's tool names, and the argument names its
// file tools use, onto Claude Code's. A tool's result, always a string,
// becomes an object (its JSON, or {output}); a shell result that reports
// a nonzero exit ("[Process exited with code 3]") is a failure.
func normalizeDroid(h *Harness, m map[string]any, _ string) {
	name, _ := m["tool_name"].(string)
	h.commonTool(m)
	if s, ok := m["tool_response"].(string); ok {
		// Every result is a string (Edit's a JSON text); Droid fires
		// PostToolUse only for a call that worked.
		var obj map[string]any
		code, exited := droidExit(s)
		switch {
		case name == "Execute" && exited && code != 0:
			failed(m, s)
		case json.Unmarshal([]byte(s), &obj) == nil && obj != nil:
			m["tool_response"] = obj
		default:
			m["tool_response"] = map[string]any{"output": s}
		}
	}
	ti := input(m)
	if ti == nil {
		return
	}
	rename(ti, "path", "file_path")
	rename(ti, "old_str", "old_string")
	rename(ti, "new_str", "new_string")
	rename(ti, "change_all", "replace_all")
	if name == "ApplyPatch" {
		patchInput(ti)
	}
}

// droidExit reads the exit code Droid ends a shell result with.
func droidExit(s string) (int, bool) { return lastExitCode(s, "[Process exited with code ") }
