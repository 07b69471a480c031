package harness

import "github.com/magehook/magehook/pkg/hook"

// opencode is OpenCode (verified against 1.18.33). It runs no hook
// commands: install writes a plugin (.opencode/plugins/magehook.js, see
// openCodePlugin) that runs the hook binary on
// tool.execute.before and tool.execute.after with a Claude Code shaped
// payload it builds itself — but for apply_patch ({patchText}, which it
// offers gpt-5 models instead of edit and write), mapped here onto an
// Edit of every file of the patch. Answers are Claude Code's. The plugin
// also asks SessionStart once per session for the context it adds to
// every model call's system prompt.
func opencode() Harness {
	return Harness{
		Name:         "opencode",
		Client:       "OpenCode",
		Program:      "opencode",
		File:         ".opencode/plugins/magehook.js",
		Layout:       Plugin,
		Plugin:       openCodePlugin,
		PluginMarker: openCodeMarker,
		Matchers:     MatchClaude,
		WayOut: "Do the work in a worktree on its own branch: run " + worktreeCreate +
			", then pass its directory as workdir to bash and edit files under it.",
		Trust:     "OpenCode loads every plugin in the project's .opencode/plugins at start, with no review.",
		events:    func() []Name { return same("SessionStart", "PreToolUse", "PostToolUse") },
		tools:     func() []Name { return []Name{{"apply_patch", "Edit"}, {"patch", "Edit"}} },
		normalize: normalizeOpenCode,
		render:    func(ev hook.Event, r hook.Result, _ string) hook.Answer { return hook.Render(ev, r, hook.Claude) },
	}
}

func normalizeOpenCode(h *Harness, m map[string]any, _ string) {
	if name, _ := m["tool_name"].(string); name == "apply_patch" || name == "patch" {
		patchInput(input(m))
	}
	h.commonTool(m)
}
