package harness

import "github.com/magehook/magehook/pkg/hook"

// claude is Claude Code: the common shapes themselves. Its file has three
// scopes (pkg/settings.Scope); the project one is named here.
func claude() Harness {
	return Harness{
		Name:            "claude",
		Client:          "Claude Code",
		File:            ".claude/settings.json",
		UserFile:        ".claude/settings.json",
		Layout:          Grouped,
		CommandKey:      "command",
		TimeoutKey:      "timeout",
		TimeoutScale:    1,
		Settings:        []Setting{{Path: "worktree.baseRef", Value: "head"}},
		ProjectDir:      "$CLAUDE_PROJECT_DIR",
		Trust:           "Claude Code runs a project's hooks once the folder is trusted; disableAllHooks and the managed allowManagedHooksOnly switch them off (the doctor reports both).",
		render:          func(ev hook.Event, r hook.Result, _ string) hook.Answer { return hook.Render(ev, r, hook.Claude) },
		worktree:        "claude --worktree <name>",
		SessionWayOut:   "use the EnterWorktree tool (a session of its own: claude --worktree <name>)",
		MCPTextResponse: true,
		Program:         "claude",
		WayOut:          "Do the work in a worktree on its own branch: claude --worktree, or " + worktreeCreate + " and work in the directory it prints.",
	}
}
