// Package settings writes magehook's hook entries into Claude Code settings
// files and reconciles a runtime settings file on a declared one.
//
// The rules every writer here follows, because the most reported bug of
// hook installers is a settings file they damaged:
//
//   - A file that does not parse, that has a repeated key or invalid UTF-8,
//     or whose hooks, event lists, groups, group hook lists or worktree have
//     the wrong JSON type is refused: nothing is written, the error names
//     the file and the problem.
//   - Only magehook's own entries are removed or added (those whose command
//     runs the checkout's hook binary with a hook: target; see Owner);
//     every other key and every foreign hook stays, with numbers and text
//     exactly as read, and our entries stay where they were.
//   - Writes are a compare-and-swap (see Rewrite.Run): never over bytes
//     magehook did not read, atomic, in the file's own directory; they
//     follow a symbolic link to its target, keep the file's mode, owner,
//     group and line endings, and back up the bytes they replace. A write
//     that would change nothing does not touch the file.
package settings

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/magehook/magehook/pkg/harness"
	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/toolingrc"
)

// Scope is a Claude Code settings file.
type Scope string

// The three writable scopes.
const (
	Project Scope = "project" // .claude/settings.json, shared in the repository
	Local   Scope = "local"   // .claude/settings.local.json, this machine, not committed
	User    Scope = "user"    // ~/.claude/settings.json, every project of this user
)

// Scopes lists the scopes in the order the doctor reports them.
var Scopes = []Scope{Project, Local, User}

// ParseScope reads a scope name.
func ParseScope(s string) (Scope, error) {
	switch Scope(s) {
	case Project, Local, User:
		return Scope(s), nil
	case "":
		return Project, nil
	}
	return "", fmt.Errorf("unknown scope %q; use project, local or user", s)
}

// Path is the settings file of the scope for a checkout root and a home
// directory.
func (s Scope) Path(root, home string) string {
	switch s {
	case Local:
		return filepath.Join(root, ".claude", "settings.local.json")
	case User:
		return filepath.Join(home, ".claude", "settings.json")
	}
	return filepath.Join(root, ".claude", "settings.json")
}

// Entry is one hook entry magehook installs: a matcher group holding one
// command handler.
type Entry struct {
	Event string
	// Native is the harness's name for the event (the settings key); for
	// Claude Code it is Event.
	Native  string
	Matcher string // empty: the group has no matcher
	Command string
	Timeout int // seconds
}

// EntryTimeout is the timeout, in seconds, of an event's installed entry.
// It is what the event needs, whichever handlers answer it: enabling,
// disabling or configuring a handler never changes another event's entry,
// because Codex keys its trust by the entry's hash (a changed SessionStart
// entry would silently stop running). SessionEnd needs one: without it all
// SessionEnd hooks share a budget of 1.5 s. Stop and SubagentStop run
// completion checks (stopguard, subagentgate), which take minutes.
func EntryTimeout(event string) int {
	switch event {
	case "SessionStart", "WorktreeRemove":
		return 60
	case "SessionEnd":
		return 30
	case "WorktreeCreate":
		return 120
	case "Stop", "SubagentStop":
		return 600
	}
	return DefaultTimeout
}

// lifecycleEvents are installed in every checkout.
var lifecycleEvents = []string{"SessionStart", "SessionEnd", "WorktreeCreate", "WorktreeRemove"}

func isLifecycle(event string) bool {
	for _, e := range lifecycleEvents {
		if e == event {
			return true
		}
	}
	return false
}

// DefaultTimeout is the timeout, in seconds, of the entries of the events
// EntryTimeout names no other for.
const DefaultTimeout = 30

// Entries returns the Claude Code entries install writes for a checkout
// in a scope: the four lifecycle events always, then one group for every
// other event an enabled handler subscribes to, its matcher covering those
// handlers' matchers. The doctor compares the settings with the same list.
func Entries(cfg *toolingrc.Config, handlers []hook.Handler, scope Scope) ([]Entry, error) {
	dir := ""
	if scope == User {
		dir = harness.QuoteDir(cfg.Root()) // a user-scope hook runs in every project
	}
	return entries(cfg, handlers, claudeHarness(), dir, false)
}

// entries are the common entries with commands in h's form; dir is the
// checkout expression (empty: the harness's own); user makes the commands
// user-scope ones (harness.CommandSpec.User).
func entries(cfg *toolingrc.Config, handlers []hook.Handler, h *harness.Harness, dir string, user bool) ([]Entry, error) {
	bin, err := cfg.Get(toolingrc.KeyHookBinary)
	if err != nil {
		return nil, err
	}
	enabled, err := enabledHandlers(cfg, handlers)
	if err != nil {
		return nil, err
	}
	byEvent := map[string][]hook.Handler{}
	for _, h := range enabled {
		most := 0
		for _, e := range h.Events {
			byEvent[e] = append(byEvent[e], h)
			most = max(most, EntryTimeout(e))
		}
		if h.Timeout > most {
			return nil, fmt.Errorf("handler %s asks for %d s, more than the entry of any of its events allows (%s: at most %d s); lower its Timeout", h.Name, h.Timeout, strings.Join(h.Events, ", "), most)
		}
	}
	for _, e := range lifecycleEvents {
		if _, ok := byEvent[e]; !ok {
			byEvent[e] = nil
		}
	}
	var out []Entry
	for name, hs := range byEvent {
		ev, _ := hook.Lookup(name)
		timeout := EntryTimeout(name)
		fixed := isLifecycle(name)
		if h.MaxTimeout != nil {
			if most := h.MaxTimeout(name); most > 0 && timeout > most {
				timeout = most
			}
		}
		spec := harness.CommandSpec{Dir: dir, Binary: bin.String(), Event: name, Target: ev.Target, Timeout: timeout, User: user}
		if harness.Gates(name) {
			spec.GateAll, spec.Gated, spec.Passes = gatedTools(hs, h)
		}
		cmd := h.Command(spec)
		e := Entry{Event: name, Native: name, Command: cmd, Timeout: timeout}
		if ev.MatcherField != "" && !fixed {
			e.Matcher = coverMatchers(hs)
		}
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Event < out[j].Event })
	return out, nil
}

// gatedTools is what the gatekeepers among an event's handlers watch, for
// the command's failure branch: every tool (one matches everything, or a
// regular expression whose names cannot be listed) but the passes no
// gatekeeper can deny, or the tool names in the harness's payloads (its
// own and Claude Code's, both of which some harnesses send). No
// gatekeeper: nothing.
func gatedTools(hs []hook.Handler, h *harness.Harness) (all bool, names, passes []string) {
	var gates []hook.Handler
	for _, x := range hs {
		if x.Policy == hook.Gatekeeper {
			gates = append(gates, x)
		}
	}
	if len(gates) == 0 {
		return false, nil, nil
	}
	cover := coverMatchers(gates)
	claude, ok := hook.ExactNames(cover)
	if cover == "" || !ok {
		return true, nil, passedByAll(gates, h)
	}
	seen := map[string]bool{}
	for _, n := range append(append([]string{}, claude...), h.NativeTools(claude)...) {
		if !plainName(n) {
			return true, nil, passedByAll(gates, h)
		}
		if !seen[n] {
			seen[n] = true
			names = append(names, n)
		}
	}
	sort.Strings(names)
	return false, names, nil
}

// passedByAll are the tools no gatekeeper can deny — each one's matcher
// misses the tool, or the gatekeeper passes it (hook.Handler.Passes) — in
// the harness's names and Claude Code's, sorted.
func passedByAll(gates []hook.Handler, h *harness.Harness) []string {
	var out []string
	seen := map[string]bool{}
	for _, g := range gates {
		for _, t := range g.Passes {
			if seen[t] {
				continue
			}
			seen[t] = true
			denied := false
			for _, other := range gates {
				m, err := hook.Match(other.Matcher, t)
				if err != nil || m && !slices.Contains(other.Passes, t) {
					denied = true
					break
				}
			}
			if !denied {
				out = append(out, t)
			}
		}
	}
	if len(out) == 0 {
		return nil
	}
	names := map[string]bool{}
	for _, n := range append(append([]string{}, out...), h.NativeTools(out)...) {
		if plainName(n) {
			names[n] = true
		}
	}
	list := make([]string, 0, len(names))
	for n := range names {
		list = append(list, n)
	}
	sort.Strings(list)
	return list
}

// plainName reports whether a tool name is letters, digits, '_', '-' and
// '.' only: a name a shell case pattern matches as it is.
func plainName(n string) bool {
	for _, r := range n {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' || r == '.') {
			return false
		}
	}
	return n != ""
}

// enabledHandlers resolves hook.enable as the dispatcher does (implied
// handlers included), so the entries cover every handler that runs.
func enabledHandlers(cfg *toolingrc.Config, handlers []hook.Handler) ([]hook.Handler, error) {
	return hook.Enabled(cfg, handlers)
}

// coverMatchers returns one settings matcher that matches whatever any of
// the handlers' matchers match: empty when one of them matches everything,
// an exact list when all are exact lists, else a regular expression. The
// dispatcher applies each handler's own matcher again, so covering more is
// safe and covering less is not.
func coverMatchers(hs []hook.Handler) string {
	var exact, patterns []string
	seen := map[string]bool{}
	for _, h := range hs {
		m := strings.TrimSpace(h.Matcher)
		if m == "" || m == "*" {
			return ""
		}
		if names, ok := hook.ExactNames(m); ok {
			for _, n := range names {
				if !seen[n] {
					seen[n] = true
					exact = append(exact, n)
				}
			}
			continue
		}
		if !seen[m] {
			seen[m] = true
			patterns = append(patterns, m)
		}
	}
	if len(patterns) == 0 {
		return strings.Join(exact, "|")
	}
	var alts []string
	if len(exact) > 0 {
		quoted := make([]string, len(exact))
		for i, n := range exact {
			quoted[i] = regexp.QuoteMeta(n)
		}
		alts = append(alts, "^(?:"+strings.Join(quoted, "|")+")$")
	}
	for _, p := range patterns {
		alts = append(alts, "(?:"+p+")")
	}
	return strings.Join(alts, "|")
}

func insideRoot(path, root string) bool {
	if !filepath.IsAbs(path) {
		return false
	}
	rel, err := filepath.Rel(root, filepath.Clean(path))
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// ShellWords splits the leading simple command of a shell-form command
// into words, removing quotes, and stops at the first operator (; & | < >
// or a newline). It keeps $VAR references as written.
func ShellWords(s string) []string {
	var words []string
	var cur strings.Builder
	inWord := false
	flush := func() {
		if inWord {
			words = append(words, cur.String())
			cur.Reset()
			inWord = false
		}
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t':
			flush()
		case c == ';' || c == '&' || c == '|' || c == '\n' || c == '<' || c == '>':
			flush()
			return words
		case c == '\'':
			inWord = true
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				cur.WriteString(s[i+1:])
				i = len(s)
			} else {
				cur.WriteString(s[i+1 : i+1+j])
				i += j + 1
			}
		case c == '"':
			inWord = true
			for i++; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("\"\\$`", s[i+1]) >= 0 {
					i++
				}
				cur.WriteByte(s[i])
			}
		case c == '\\' && i+1 < len(s):
			inWord = true
			i++
			cur.WriteByte(s[i])
		default:
			inWord = true
			cur.WriteByte(c)
		}
	}
	flush()
	return words
}

// home returns the user's home directory, or "" when unknown.
func home() string {
	h, _ := os.UserHomeDir()
	return h
}
