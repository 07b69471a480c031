package settings

import (
	"path/filepath"

	"github.com/magehook/magehook/pkg/harness"
	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/toolingrc"
)

// HarnessFile is the configuration file a harness reads, relative to the
// checkout root (Claude Code's project scope for claude).
func HarnessFile(h *harness.Harness) string { return filepath.FromSlash(h.File) }

// EntriesFor returns the entries install writes for a harness: the same
// events as Claude Code's project entries (those the harness has), under
// its event names, with matchers on its tool names, and commands in its
// form (harness.Command).
func EntriesFor(cfg *toolingrc.Config, handlers []hook.Handler, h *harness.Harness) ([]Entry, error) {
	if h.IsClaude() {
		return Entries(cfg, handlers, Project)
	}
	common, err := entries(cfg, handlers, h, "")
	if err != nil {
		return nil, err
	}
	var out []Entry
	for _, e := range common {
		native, ok := h.NativeEvent(e.Event)
		if !ok {
			continue
		}
		ev, _ := hook.Lookup(e.Event)
		e.Native = native
		if ev.MatcherField == "tool_name" {
			e.Matcher = h.Matcher(e.Matcher)
		}
		out = append(out, e)
	}
	return out, nil
}
