package settings

import (
	"bytes"
	"path/filepath"

	"github.com/magehook/magehook/pkg/harness"
	"github.com/magehook/magehook/pkg/regfile"
)

// WiringPatterns returns the files that wire magehook into a harness, as
// filepath.Match patterns relative to a checkout root: every Claude Code
// settings scope of the checkout (.claude/settings*.json), each other
// harness's file (HarnessFile) and the file that overrides it (Droid's
// .factory/hooks.json) and the files that can switch it off (Guarded),
// every script of a harness that reads one per event (Cline), and every
// file of the directory Copilot reads its hooks from. Relative to the home
// directory the same patterns
// name the user-scope files (~/.claude/settings.json). This is the one
// list of them: the gate that keeps the agent from editing its own gates
// and the check for installed entries both read it.
func WiringPatterns() []string {
	out := []string{filepath.Join(".claude", "settings*.json")}
	for _, h := range harness.All() {
		switch {
		case h.Layout == harness.Scripts:
			out = append(out, filepath.Join(HarnessFile(h), "*"))
		case !h.IsClaude():
			out = append(out, HarnessFile(h))
		}
		if h.Overrides != "" {
			out = append(out, filepath.FromSlash(h.Overrides))
		}
		for _, g := range h.Guarded {
			out = append(out, filepath.FromSlash(g))
		}
	}
	return append(out, filepath.Join(".github", "hooks", "*.json"))
}

// Installed reports whether a checkout root holds magehook's installed
// entries: one of its wiring files (WiringPatterns) runs a hook: target.
// Only the checkout's own files count: a user-scope install runs in every
// project, configured or not. Only regular files are read.
func Installed(root string) bool {
	for _, pattern := range WiringPatterns() {
		matches, _ := filepath.Glob(filepath.Join(root, pattern))
		for _, m := range matches {
			data, err := regfile.ReadFile(m, 16<<20)
			if err == nil && bytes.Contains(data, []byte("hook:")) {
				return true
			}
		}
	}
	return false
}

// RunsOwn reports whether a checkout root wires magehook of its own into
// the harness named: the harness's project file (for Claude Code, any of
// .claude/settings*.json) runs a hook: target of a magehook binary (the
// command form install writes, or a path ending in /magehook): a foreign
// tool's "hook:" words do not count. There the checkout's own
// binary answers with its own policy, and a user-scope binary (magehook
// init -user) stands aside rather than answer twice. Only regular files
// are read.
func RunsOwn(root, name string) bool {
	h, ok := harness.Lookup(name)
	if !ok {
		return false
	}
	pattern := HarnessFile(h)
	if h.IsClaude() {
		pattern = filepath.Join(".claude", "settings*.json")
	}
	matches, _ := filepath.Glob(filepath.Join(root, pattern))
	for _, m := range matches {
		data, err := regfile.ReadFile(m, 16<<20)
		if err == nil && bytes.Contains(data, []byte("hook:")) &&
			(bytes.Contains(data, []byte(harness.EnsurePackage)) || bytes.Contains(data, []byte("/magehook"))) {
			return true
		}
	}
	return false
}
