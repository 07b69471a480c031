package harness

// Unwired is an agent CLI of the field that is no harness, with why: the
// harness table lists it so that its absence is a finding, not a gap.
type Unwired struct {
	// Client and Package@Version are what was read.
	Client, Package, Version string
	// Why is the evidence, from the package itself.
	Why string
}

// UnwiredClients are the npm-published agent CLIs examined and not wired,
// each with the version read and why.
func UnwiredClients() []Unwired {
	return []Unwired{
		{"Crush", "@charmland/crush", "0.96.1",
			"its hooks are Claude-shaped (crush.json's hooks key), but the npm package carries no binary: its postinstall (install.js, lib.js) downloads the release archive from GitHub, which this workplace cannot reach, so it cannot be installed from the registry and run offline."},
		{"Continue CLI (cn)", "@continuedev/cli", "1.5.47",
			"it loads Claude-shaped hooks (from .continue/settings.json and from Claude Code's .claude/settings.json, so magehook's Claude entries would be read) but fires none: the fire* functions of src/hooks/fireHook.ts are called only by src/hooks/hooks.test.ts, and dist/index.js defines HookService.fireEvent with no caller, so no hook runs and nothing can gate."},
		{"Grok CLI", "@vibe-kit/grok-cli", "0.0.34",
			"no hook, plugin or extension contract: dist/hooks holds the interface's React hooks (use-input-handler and the like), and the package names no tool-call event."},
	}
}
