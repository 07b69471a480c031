package harness

import "github.com/magehook/magehook/pkg/hook"

// kilo is Kilo Code's CLI (verified against 7.7.7; npm's 7.8.1 has no
// linux-x64 binary package in the registry this was verified from). It
// descends from OpenCode and keeps its plugin contract: every
// {plugin,plugins}/*.{ts,js} of the project's .kilo (or .kilocode)
// directory is loaded at start, with no review, and its
// tool.execute.before throws to deny a call (the message reaches the
// model as the tool's error) and experimental.chat.system.transform adds
// to the system prompt of every model call. Install writes OpenCode's
// plugin (openCodePluginFor) to .kilo/plugins/magehook.js,
// running the binary with -harness=kilo; the tool names are OpenCode's.
// KILO_DISABLE_PROJECT_CONFIG=1 makes it read no project directory, and
// with it no project plugin.
func kilo() Harness {
	return Harness{
		Name:         "kilo",
		Client:       "Kilo Code",
		Program:      "kilo",
		File:         ".kilo/plugins/magehook.js",
		Layout:       Plugin,
		Plugin:       openCodePluginFor("kilo"),
		PluginMarker: pluginMarker("kilo"),
		Matchers:     MatchClaude,
		WayOut: "Do the work in a worktree on its own branch: run " + worktreeCreate +
			", then pass its directory as workdir to bash and edit files under it.",
		Trust: "Kilo Code loads every plugin in the project's .kilo/plugins (and .kilocode/plugins) at start, with no review; " +
			"KILO_DISABLE_PROJECT_CONFIG=1 switches project plugins off. " +
			"Its PostHog telemetry (us.i.posthog.com) is on unless experimental.openTelemetry is false or KILO_TELEMETRY_LEVEL is not all; " +
			"the live scenarios switch it off, and then kilo run reaches no host but the npm registry.",
		events:    func() []Name { return same("SessionStart", "PreToolUse", "PostToolUse") },
		tools:     func() []Name { return []Name{{"apply_patch", "Edit"}, {"patch", "Edit"}} },
		normalize: normalizeOpenCode,
		render:    func(ev hook.Event, r hook.Result, _ string) hook.Answer { return hook.Render(ev, r, hook.Claude) },
	}
}
