// Package wiki keeps the learning library: a git repository of flat
// Markdown pages, cloned from wiki.origin, where each coding session gets a
// page (Session-<project>-<YYYY-MM-DD>-<n>.md) that it opens at start,
// appends observations to (note, admit), and closes at the end.
//
// The library must never stop a session. A checkout without wiki.origin,
// or without a clone, has no library: every verb but Init reports that and
// succeeds (WIKI-CLONE-3); Init, the one verb that needs the URL, stops
// with a configuration error naming wiki.origin (CLI-CONFIG-2). A failed
// clone, fetch or push warns and lets the caller go on, and a commit that
// could not be pushed stays for the next push (WIKI-CAPTURE-4). Pushes
// never force; a rejected push fetches, rebases and retries, three pushes
// at most (WIKI-CAPTURE-5); a page name the origin already holds is renamed
// to the next free number before the rebase, so an add/add conflict is
// never rebased and a stopped rebase is never left behind (WIKI-OPEN-3).
//
// A refused argument (a project, session or page token of the wrong
// shape) is a *UsageError, exit 2 (CLI-PROGRAM-5, WIKI-OPEN-5). Results
// (a page name, the directory Init cloned into, a report) are returned or
// written to the writer the caller names; every diagnostic and every git
// message goes to Log.
//
// Ids such as WIKI-OPEN-3 are FuguBench's units; docs/units.md says what
// each requires and where magehook differs.
package wiki

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/magehook/magehook/pkg/gitx"
	"github.com/magehook/magehook/pkg/regfile"
	"github.com/magehook/magehook/pkg/toolingrc"
)

// Library is one clone of the learning library.
type Library struct {
	// Dir is the clone: <home of wiki.origin>/<wiki.dir>.
	Dir string
	// Origin is the repository it is cloned from; empty when no
	// .toolingrc on the walk sets wiki.origin.
	Origin string
	// ConfigFile is the root's .toolingrc, named when wiki.origin is
	// missing.
	ConfigFile string
	// Log receives diagnostics and git's output.
	Log io.Writer
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// UsageError is an argument of the wrong shape: the caller exits 2.
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

// IsUsage reports whether err is a refused argument.
func IsUsage(err error) bool {
	var u *UsageError
	return errors.As(err, &u)
}

// FromConfig locates the library of a checkout. Every wiki.* value sits
// under the home of wiki.origin; without wiki.origin the root anchors them
// (CLI-CONFIG-2).
func FromConfig(cfg *toolingrc.Config) (Library, error) {
	origin, err := cfg.Get(toolingrc.KeyWikiOrigin)
	if err != nil {
		return Library{}, err
	}
	dir, err := cfg.Get(toolingrc.KeyWikiDir)
	if err != nil {
		return Library{}, err
	}
	home := cfg.Root()
	if origin.File != "" {
		home = origin.Home
	}
	return Library{
		Dir:        filepath.Join(home, filepath.FromSlash(dir.String())),
		Origin:     origin.String(),
		ConfigFile: filepath.Join(cfg.Root(), toolingrc.FileName),
	}, nil
}

// ProjectOf returns the session's project: the child of wiki.projects (under
// the home of wiki.origin) that holds cwd, else wiki.project
// (HOOK-SESSION-2).
func ProjectOf(cfg *toolingrc.Config, cwd string) (string, error) {
	origin, err := cfg.Get(toolingrc.KeyWikiOrigin)
	if err != nil {
		return "", err
	}
	projects, err := cfg.Get(toolingrc.KeyWikiProjects)
	if err != nil {
		return "", err
	}
	home := cfg.Root()
	if origin.File != "" {
		home = origin.Home
	}
	dir := filepath.Join(home, filepath.FromSlash(projects.String()))
	if rel, err := filepath.Rel(dir, cwd); err == nil && rel != "." && !strings.HasPrefix(rel, "..") {
		child := strings.Split(filepath.ToSlash(rel), "/")[0]
		if toolingrc.IsToken(child) {
			return child, nil
		}
	}
	p, err := cfg.Get(toolingrc.KeyWikiProject)
	if err != nil {
		return "", err
	}
	return p.String(), nil
}

// SessionToken turns a session id into a page token: every character
// outside letters, digits, '.', '-' and '_' becomes '-' (HOOK-SESSION-1).
// An id that is empty, or only dots, is refused.
func SessionToken(id string) (string, error) {
	var b strings.Builder
	for _, r := range id {
		if r < 128 && (isAlnum(byte(r)) || r == '.' || r == '-' || r == '_') {
			b.WriteRune(r)
		} else {
			b.WriteByte('-')
		}
	}
	s := b.String()
	if strings.Trim(s, ".") == "" {
		return "", &UsageError{fmt.Sprintf("invalid session id %q: it cannot name a page", id)}
	}
	return s, nil
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// CheckToken refuses a project or session token that could leave the
// library or reach git as an option (WIKI-OPEN-5): it must hold letters,
// digits, '.', '-' and '_', start with a letter or digit, and hold no "..".
func CheckToken(kind, s string) error {
	if !toolingrc.IsToken(s) {
		return &UsageError{fmt.Sprintf("invalid %s %q: use letters, digits, '.', '-' and '_', starting with a letter or digit, without '..'", kind, s)}
	}
	return nil
}

// scratchpad is the prefix the prose lint skips; a page named with it
// would never meet the lint (WIKI-PAGES-2).
const scratchpad = "SCRATCHPAD"

// PageFile checks a page name, given with or without ".md", and returns
// its file name (WIKI-PAGES-1, WIKI-PAGES-2, WIKI-CONFINE-1): a leading
// letter, then letters, digits, '.', '-' and '_', no "..", not SCRATCHPAD...
func PageFile(page string) (string, error) {
	name := strings.TrimSuffix(page, ".md")
	ok := name != "" && (name[0] >= 'a' && name[0] <= 'z' || name[0] >= 'A' && name[0] <= 'Z') && toolingrc.IsToken(name)
	if !ok {
		return "", &UsageError{fmt.Sprintf("invalid page name %q: pages are flat; use a letter, then letters, digits, '.', '-' and '_', without '..'", page)}
	}
	if strings.HasPrefix(name, scratchpad) {
		return "", &UsageError{fmt.Sprintf("invalid page name %q: a page name must not start with %s (the prose lint skips those)", page, scratchpad)}
	}
	return name + ".md", nil
}

func (l Library) log() io.Writer {
	if l.Log == nil {
		return io.Discard
	}
	return l.Log
}

func (l Library) say(format string, args ...any) {
	fmt.Fprintf(l.log(), "magehook: wiki: "+format+"\n", args...)
}

func (l Library) warn(format string, args ...any) {
	fmt.Fprintf(l.log(), "magehook: wiki: warning: "+format+"\n", args...)
}

func (l Library) now() time.Time {
	if l.Now == nil {
		return time.Now().UTC()
	}
	return l.Now().UTC()
}

func (l Library) git() gitx.Git { return gitx.Git{Dir: l.Dir, Log: l.log()} }

// quiet runs git for its output, keeping git's messages off the log.
func (l Library) quiet() gitx.Git { return gitx.Git{Dir: l.Dir} }

// maxPage bounds what the library reads of one file.
const maxPage = 16 << 20

// readFile reads a page or a note's file only when it is a regular file:
// a FIFO would block the session's hook past its timeout.
func readFile(path string) ([]byte, error) { return regfile.ReadFile(path, maxPage) }
