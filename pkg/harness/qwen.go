package harness

import "github.com/magehook/magehook/pkg/hook"

// qwen is Qwen Code (verified against 0.24.4). Its .qwen/settings.json
// holds Claude Code's grouped layout under Claude's event names in the
// hooks key (beside the hooks.enabled, disabled and notifications
// settings), and its answers are Claude Code's. Its tools keep their own
// names in the payload (run_shell_command, edit, write_file, ...), but a
// matcher may name them by Claude's (Bash, Edit, Write are aliases). A
// timeout is in seconds: 0.24 reads a value of 1000 or more as the old
// milliseconds, with a warning. Only exit code 2 blocks. It gives hooks
// QWEN_PROJECT_DIR (and CLAUDE_PROJECT_DIR and GEMINI_PROJECT_DIR) set to
// the session's working directory, not the checkout, and substitutes the
// unbraced forms into the command text: the command walks up to the
// checkout instead.
func qwen() Harness {
	return Harness{
		Name:         "qwen",
		Client:       "Qwen Code",
		Program:      "qwen",
		File:         ".qwen/settings.json",
		UserFile:     ".qwen/settings.json",
		Layout:       Grouped,
		CommandKey:   "command",
		TimeoutKey:   "timeout",
		TimeoutScale: 1,
		Matchers:     MatchClaude,
		OffSwitches:  []Setting{{Path: "disableAllHooks", Value: true}},
		EventKey:     func(key string) bool { return key != "" && key[0] >= 'A' && key[0] <= 'Z' },
		WayOut: "Do the work in a worktree on its own branch: run " + worktreeCreate +
			", then pass its directory as directory to run_shell_command and edit files under it.",
		WorkDirFields: []string{"directory"},
		Trust: "Qwen Code loads a project's hooks only in a trusted folder (when security.folderTrust.enabled is set, trust it when asked); " +
			"disableAllHooks: true and --bare or safe mode switch every hook off (the doctor reports disableAllHooks).",
		events: func() []Name {
			return same("SessionStart", "SessionEnd", "UserPromptSubmit", "PreToolUse", "PostToolUse", "PostToolUseFailure",
				"PermissionRequest", "Stop", "SubagentStart", "SubagentStop", "PreCompact", "PostCompact", "Notification")
		},
		tools: func() []Name {
			return []Name{{"run_shell_command", "Bash"}, {"edit", "Edit"}, {"write_file", "Write"}, {"read_file", "Read"},
				{"grep_search", "Grep"}, {"glob", "Glob"}, {"list_directory", "LS"}, {"web_fetch", "WebFetch"},
				{"web_search", "WebSearch"}, {"agent", "Agent"}, {"todo_write", "TodoWrite"}, {"notebook_edit", "NotebookEdit"},
				{"ask_user_question", "AskUserQuestion"}, {"skill", "Skill"}}
		},
		normalize: func(h *Harness, m map[string]any, _ string) { h.commonTool(m) },
		render:    func(ev hook.Event, r hook.Result, _ string) hook.Answer { return hook.Render(ev, r, hook.Claude) },
	}
}
