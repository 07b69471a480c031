package harness

import "github.com/magehook/magehook/pkg/hook"

// droid is Factory Droid. No Droid client could be run here, so this
// dialect is verified against Factory's documentation only: npm serves
// @factory/cli, but not the platform package its binary comes in
// (@factory/cli-linux-x64 answers 404), and droid exec needs a Factory
// login. Claude Code's grouped layout under Claude's event names, in the
// hooks key of .factory/settings.json (the documented .factory/hooks.json
// was reported never read at project scope: Factory-AI/factory#3; the
// settings key is read when hooks.json is absent); its own tool names
// (Execute, Create, ...) in the payload and the matchers; timeouts in
// seconds; Claude Code's answers; $FACTORY_PROJECT_DIR is the project.
func droid() Harness {
	return Harness{
		Name:         "droid",
		Client:       "Factory Droid",
		File:         ".factory/settings.json",
		UserFile:     ".factory/settings.json",
		Layout:       Grouped,
		CommandKey:   "command",
		TimeoutKey:   "timeout",
		TimeoutScale: 1,
		ProjectDir:   "$FACTORY_PROJECT_DIR",
		Matchers:     MatchNativeList,
		WayOut: "Do the work in a worktree on its own branch: run " + worktreeCreate +
			" and cd into the directory it prints in each command.",
		Trust: "Factory Droid runs the hooks of the project's .factory/settings.json (documentation only; not verified with a client: its binary is not served here and droid exec needs a Factory login).",
		events: func() []Name {
			return same("SessionStart", "SessionEnd", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop", "SubagentStop",
				"PreCompact", "Notification")
		},
		tools: func() []Name {
			return []Name{{"Execute", "Bash"}, {"Edit", "Edit"}, {"MultiEdit", "MultiEdit"}, {"ApplyPatch", "Edit"}, {"Create", "Write"},
				{"Read", "Read"}, {"LS", "LS"}, {"Grep", "Grep"}, {"Glob", "Glob"}, {"FetchUrl", "WebFetch"}, {"WebSearch", "WebSearch"},
				{"Task", "Agent"}, {"TodoWrite", "TodoWrite"}}
		},
		normalize: normalizeDroid,
		render:    func(ev hook.Event, r hook.Result, _ string) hook.Answer { return hook.Render(ev, r, hook.Claude) },
	}
}

// normalizeDroid maps Droid's tool names, and the argument names its
// file tools may use, onto Claude Code's.
func normalizeDroid(h *Harness, m map[string]any, _ string) {
	name, _ := m["tool_name"].(string)
	h.commonTool(m)
	ti := input(m)
	if ti == nil {
		return
	}
	rename(ti, "path", "file_path")
	rename(ti, "old_str", "old_string")
	rename(ti, "new_str", "new_string")
	if name == "ApplyPatch" {
		patchInput(ti)
	}
}
