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
	return native(h)(entries(cfg, handlers, h, "", false))
}

// UserEntries returns the entries of a user-scope install (magehook init
// -user) in a harness's UserFile: the events EntriesFor names but the
// worktree ones, each command running dir's binary (dir absolute) as a
// user-scope one. WorktreeCreate and WorktreeRemove stay the harness's
// own: a user-scope hook answering them would make or remove worktrees
// magehook's way in every repository, whose layout is not its to choose.
func UserEntries(cfg *toolingrc.Config, handlers []hook.Handler, h *harness.Harness, dir string) ([]Entry, error) {
	all, err := native(h)(entries(cfg, handlers, h, harness.QuoteDir(dir), true))
	if err != nil {
		return nil, err
	}
	var out []Entry
	for _, e := range all {
		if e.Event != "WorktreeCreate" && e.Event != "WorktreeRemove" {
			out = append(out, e)
		}
	}
	return out, nil
}

// native maps common entries onto h's events and matchers, leaving out
// the events h does not have (Claude Code's are the common ones).
func native(h *harness.Harness) func([]Entry, error) ([]Entry, error) {
	return func(common []Entry, err error) ([]Entry, error) {
		if err != nil || h.IsClaude() {
			return common, err
		}
		return nativeEntries(h, common), nil
	}
}

func nativeEntries(h *harness.Harness, common []Entry) []Entry {
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
	return out
}
