package settings

import (
	"errors"

	"github.com/magehook/magehook/pkg/harness"
	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/toolingrc"
)

// PluginSpecFor is the spec of a Plugin harness's program for a checkout
// (harness.PluginSpec): its binary and the tools of its PreToolUse entry.
func PluginSpecFor(cfg *toolingrc.Config, handlers []hook.Handler, h *harness.Harness) (harness.PluginSpec, error) {
	bin, err := cfg.Get(toolingrc.KeyHookBinary)
	if err != nil {
		return harness.PluginSpec{}, err
	}
	spec := harness.PluginSpec{Binary: bin.String(), Gated: []string{}}
	if _, err := EntriesFor(cfg, handlers, h); err != nil {
		return harness.PluginSpec{}, err
	}
	enabled, err := enabledHandlers(cfg, handlers)
	if err != nil {
		return harness.PluginSpec{}, err
	}
	var pre []hook.Handler
	for _, h := range enabled {
		for _, e := range h.Events {
			if e == "PreToolUse" {
				pre = append(pre, h)
			}
		}
	}
	// The gatekeepers' tools, in Claude Code's names (the plugin maps
	// OpenCode's onto them); every tool when one watches them all.
	all, _, _ := gatedTools(pre, claudeHarness())
	switch {
	case all:
		spec.Gated = nil
	default:
		var gates []hook.Handler
		for _, h := range pre {
			if h.Policy == hook.Gatekeeper {
				gates = append(gates, h)
			}
		}
		if len(gates) > 0 {
			spec.Gated, _ = hook.ExactNames(coverMatchers(gates))
		}
	}
	return spec, nil
}

// EditPlugin returns a Plugin harness's file's new bytes: the program on
// install, nothing (removal) on uninstall. A file magehook did not write
// is refused.
func EditPlugin(old []byte, h *harness.Harness, s harness.PluginSpec, install bool) ([]byte, error) {
	if old != nil && !h.OwnsPlugin(old) {
		return nil, errors.New("it exists and magehook did not write it; move it aside or merge the plugin by hand")
	}
	if !install {
		return nil, nil
	}
	return []byte(h.Plugin(s)), nil
}

// PluginDrift compares an installed plugin with the one install writes.
func PluginDrift(data []byte, h *harness.Harness, s harness.PluginSpec) string {
	switch {
	case !h.OwnsPlugin(data):
		return "not magehook's plugin"
	case string(data) != h.Plugin(s):
		return "differs from hook install -harness=" + h.Name
	}
	return ""
}
