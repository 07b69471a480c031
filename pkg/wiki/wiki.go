// Package wiki keeps the learning library: a git repository of flat
// Markdown pages, cloned from wiki.origin, where each coding session gets a
// page (Session-<project>-<YYYY-MM-DD>-<n>.md) that it opens at start,
// appends notes to, and closes at the end.
//
// The library must never stop a session: a failed clone, fetch or push
// warns and lets the caller go on, and a commit that could not be pushed
// stays for the next push. Pushes never force; a rejected push fetches,
// rebases and retries at most three times; a page name the origin already
// holds (two sessions opened the same day on two machines) is renamed to
// the next free number before the rebase, so an add/add conflict is never
// rebased and a stopped rebase is never left behind.
package wiki

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/magehook/magehook/pkg/gitx"
	"github.com/magehook/magehook/pkg/toolingrc"
)

// Library is one clone of the learning library.
type Library struct {
	// Dir is the clone: <home of wiki.origin>/<wiki.dir>.
	Dir string
	// Origin is the repository it is cloned from; empty when the checkout
	// has no library.
	Origin string
	// Log receives warnings and git's output.
	Log io.Writer
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// FromConfig locates the library of a checkout. Every wiki.* value sits
// under the home of wiki.origin; without wiki.origin the root anchors them.
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
	return Library{Dir: filepath.Join(home, filepath.FromSlash(dir.String())), Origin: origin.String()}, nil
}

// ProjectOf returns the session's project: the child of wiki.projects (under
// the home of wiki.origin) that holds cwd, else wiki.project.
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
// outside letters, digits, '.', '-' and '_' becomes '-'. An id that is
// empty, or only dots, is refused.
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
		return "", fmt.Errorf("session id %q cannot name a page", id)
	}
	return s, nil
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// CheckToken refuses a project, session or page token that could leave the
// library: it must hold letters, digits, '.', '-' and '_', start with a
// letter or digit, and hold no ".." and no slash.
func CheckToken(kind, s string) error {
	if !toolingrc.IsToken(s) {
		return fmt.Errorf("%s %q: use letters, digits, '.', '-' and '_', starting with a letter or digit, without '..'", kind, s)
	}
	return nil
}

func (l Library) log() io.Writer {
	if l.Log == nil {
		return io.Discard
	}
	return l.Log
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

// Init clones the library when its directory is absent, and returns the
// directory it cloned into ("" when it cloned nothing); a second run
// changes nothing. A failed clone (no network, no repository) warns and
// returns no error: the session that follows must still start.
func (l Library) Init(ctx context.Context) (string, error) {
	if l.Origin == "" {
		l.warn("no wiki.origin in .toolingrc: this checkout has no learning library")
		return "", nil
	}
	if _, err := os.Stat(l.Dir); err == nil {
		return "", nil
	}
	if err := os.MkdirAll(filepath.Dir(l.Dir), 0o755); err != nil {
		l.warn("%v", err)
		return "", nil
	}
	err := gitx.Git{Dir: filepath.Dir(l.Dir), Log: l.log()}.Run(ctx, "clone", "--quiet", "--", l.Origin, l.Dir)
	if err != nil {
		os.RemoveAll(l.Dir)
		l.warn("cannot clone %s: %v; the session goes on without the library", l.Origin, err)
		return "", nil
	}
	return l.Dir, nil
}

func (l Library) ready(ctx context.Context) error {
	if _, err := os.Stat(filepath.Join(l.Dir, ".git")); err != nil {
		return fmt.Errorf("no library clone at %s; run wiki:init", l.Dir)
	}
	return nil
}

// Open returns the page of a session, creating it when no page holds the
// session id yet, and pushes it. It prints nothing; the caller prints the
// page name.
func (l Library) Open(ctx context.Context, project, session string) (string, error) {
	if err := CheckToken("project", project); err != nil {
		return "", err
	}
	if err := CheckToken("session", session); err != nil {
		return "", err
	}
	if err := l.ready(ctx); err != nil {
		return "", err
	}
	l.fetch(ctx)
	l.fastForward(ctx)
	if page := l.findSession(ctx, session); page != "" {
		return page, nil
	}
	date := l.now().Format("2006-01-02")
	prefix := "Session-" + project + "-" + date + "-"
	page := prefix + strconv.Itoa(l.nextNumber(ctx, prefix))
	text := fmt.Sprintf("# %s\n\nSession: %s\nProject: %s\nOpened: %s\n\n## Observations\n",
		page, session, project, l.now().Format(time.RFC3339))
	if err := os.WriteFile(filepath.Join(l.Dir, page+".md"), []byte(text), 0o644); err != nil {
		return "", err
	}
	if err := l.commit(ctx, "Open "+page, page+".md"); err != nil {
		return "", err
	}
	final := page
	l.push(ctx, func() bool {
		// The origin already holds a page of this name: take the next
		// free number, rename, amend; the rebase that follows then adds a
		// different file and cannot conflict.
		up := l.upstream(ctx)
		if up == "" || !l.quiet().OK(ctx, "cat-file", "-e", up+":"+final+".md") {
			return false
		}
		next := prefix + strconv.Itoa(l.nextNumber(ctx, prefix))
		if err := l.rename(ctx, final, next); err != nil {
			l.warn("cannot rename %s to %s: %v", final, next, err)
			return false
		}
		fmt.Fprintf(l.log(), "magehook: wiki: the origin already holds %s; renamed to %s\n", final, next)
		final = next
		return true
	})
	return final, nil
}

func (l Library) rename(ctx context.Context, from, to string) error {
	data, err := os.ReadFile(filepath.Join(l.Dir, from+".md"))
	if err != nil {
		return err
	}
	text := strings.Replace(string(data), "# "+from+"\n", "# "+to+"\n", 1)
	if err := os.WriteFile(filepath.Join(l.Dir, to+".md"), []byte(text), 0o644); err != nil {
		return err
	}
	g := l.git()
	if err := g.Run(ctx, "rm", "--quiet", "--cached", "--", from+".md"); err != nil {
		return err
	}
	os.Remove(filepath.Join(l.Dir, from+".md"))
	if err := g.Run(ctx, "add", "--", to+".md"); err != nil {
		return err
	}
	return l.withIdentity(ctx, "commit", "--quiet", "--amend", "-m", "Open "+to)
}

// Note appends a file's text to a page after one blank line, commits and
// pushes. An empty file is an error.
func (l Library) Note(ctx context.Context, page, file string) error {
	page = strings.TrimSuffix(page, ".md")
	if err := CheckToken("page", page); err != nil {
		return err
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	if strings.TrimSpace(string(data)) == "" {
		return fmt.Errorf("%s is empty; a note needs text", file)
	}
	if err := l.ready(ctx); err != nil {
		return err
	}
	path := filepath.Join(l.Dir, page+".md")
	old, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("no page %s in the library", page)
	}
	text := strings.TrimRight(string(old), "\n") + "\n\n" + strings.TrimRight(string(data), "\n") + "\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		return err
	}
	if err := l.commit(ctx, "Note on "+page, page+".md"); err != nil {
		return err
	}
	l.push(ctx, nil)
	return nil
}

// Close appends a Closed: line to the session's page, commits and pushes.
// A second close changes nothing; a session without a page is normal.
func (l Library) Close(ctx context.Context, session string) error {
	if err := CheckToken("session", session); err != nil {
		return err
	}
	if err := l.ready(ctx); err != nil {
		return err
	}
	page := l.findLocal(session)
	if page == "" {
		fmt.Fprintf(l.log(), "magehook: wiki: session %s has no page; nothing to close\n", session)
		return nil
	}
	path := filepath.Join(l.Dir, page+".md")
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if hasLinePrefix(string(data), "Closed: ") {
		return nil
	}
	text := strings.TrimRight(string(data), "\n") + "\n\nClosed: " + l.now().Format(time.RFC3339) + "\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		return err
	}
	if err := l.commit(ctx, "Close "+page, page+".md"); err != nil {
		return err
	}
	l.push(ctx, nil)
	return nil
}

// Status prints each open session page with its number of notes, then the
// number of commits not pushed.
func (l Library) Status(ctx context.Context, w io.Writer) error {
	if err := l.ready(ctx); err != nil {
		return err
	}
	pages, _ := filepath.Glob(filepath.Join(l.Dir, "Session-*.md"))
	sort.Strings(pages)
	open := 0
	for _, p := range pages {
		data, err := os.ReadFile(p)
		if err != nil || hasLinePrefix(string(data), "Closed: ") {
			continue
		}
		open++
		_, obs, _ := strings.Cut(string(data), "## Observations\n")
		notes := 0
		for _, para := range strings.Split(obs, "\n\n") {
			if strings.TrimSpace(para) != "" {
				notes++
			}
		}
		fmt.Fprintf(w, "%s  %d notes\n", strings.TrimSuffix(filepath.Base(p), ".md"), notes)
	}
	if open == 0 {
		fmt.Fprintln(w, "no open sessions")
	}
	unpushed := "?"
	if up := l.upstream(ctx); up != "" {
		unpushed, _ = l.quiet().Output(ctx, "rev-list", "--count", up+"..HEAD")
	}
	_, err := fmt.Fprintf(w, "unpushed commits: %s\n", unpushed)
	return err
}

func hasLinePrefix(text, prefix string) bool {
	sc := bufio.NewScanner(strings.NewReader(text))
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), prefix) {
			return true
		}
	}
	return false
}

func (l Library) fetch(ctx context.Context) {
	if !l.hasOrigin(ctx) {
		return
	}
	if err := l.git().Run(ctx, "fetch", "--quiet", "origin"); err != nil {
		l.warn("fetch failed (%v); working from the local clone", err)
	}
}

func (l Library) hasOrigin(ctx context.Context) bool {
	return l.quiet().OK(ctx, "remote", "get-url", "origin")
}

func (l Library) upstream(ctx context.Context) string {
	up, err := l.quiet().Output(ctx, "rev-parse", "--abbrev-ref", "--symbolic-full-name", "@{u}")
	if err != nil {
		return ""
	}
	return up
}

// fastForward moves a local branch that has no commits of its own up to
// its upstream.
func (l Library) fastForward(ctx context.Context) {
	up := l.upstream(ctx)
	if up == "" {
		return
	}
	if ahead, _ := l.quiet().Output(ctx, "rev-list", "--count", up+"..HEAD"); ahead != "0" {
		return
	}
	if err := l.git().Run(ctx, "merge", "--quiet", "--ff-only", up); err != nil {
		l.warn("cannot fast-forward to %s: %v", up, err)
	}
}

// findSession returns the page holding "Session: <id>", locally or on the
// fetched upstream branch.
func (l Library) findSession(ctx context.Context, session string) string {
	if page := l.findLocal(session); page != "" {
		return page
	}
	up := l.upstream(ctx)
	if up == "" {
		return ""
	}
	out, err := l.quiet().Output(ctx, "grep", "-l", "-F", "-x", "Session: "+session, up, "--", "Session-*.md")
	if err != nil {
		return ""
	}
	for _, line := range gitx.Lines(out) {
		_, file, _ := strings.Cut(line, ":")
		return strings.TrimSuffix(file, ".md")
	}
	return ""
}

func (l Library) findLocal(session string) string {
	pages, _ := filepath.Glob(filepath.Join(l.Dir, "Session-*.md"))
	sort.Strings(pages)
	for _, p := range pages {
		data, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(data), "\n") {
			if line == "Session: "+session {
				return strings.TrimSuffix(filepath.Base(p), ".md")
			}
		}
	}
	return ""
}

// nextNumber is one more than the highest n of the day's pages, locally
// and on the fetched upstream branch.
func (l Library) nextNumber(ctx context.Context, prefix string) int {
	names, _ := filepath.Glob(filepath.Join(l.Dir, prefix+"*.md"))
	for i, n := range names {
		names[i] = filepath.Base(n)
	}
	if up := l.upstream(ctx); up != "" {
		if out, err := l.quiet().Output(ctx, "ls-tree", "--name-only", up); err == nil {
			names = append(names, gitx.Lines(out)...)
		}
	}
	highest := 0
	for _, name := range names {
		if !strings.HasPrefix(name, prefix) || !strings.HasSuffix(name, ".md") {
			continue
		}
		if n, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(name, prefix), ".md")); err == nil && n > highest {
			highest = n
		}
	}
	return highest + 1
}

// commit stages the files and commits them, when they change something.
func (l Library) commit(ctx context.Context, msg string, files ...string) error {
	g := l.git()
	if err := g.Run(ctx, append([]string{"add", "--"}, files...)...); err != nil {
		return err
	}
	if l.quiet().OK(ctx, "diff", "--cached", "--quiet") {
		return nil // nothing changed: no empty commit
	}
	return l.withIdentity(ctx, "commit", "--quiet", "-m", msg)
}

// withIdentity runs a committing git command, supplying an author when
// git has none configured (a fresh CI machine).
func (l Library) withIdentity(ctx context.Context, args ...string) error {
	if !l.quiet().OK(ctx, "var", "GIT_AUTHOR_IDENT") {
		args = append([]string{"-c", "user.name=magehook", "-c", "user.email=magehook@localhost"}, args...)
	}
	return l.git().Run(ctx, args...)
}

// push pushes HEAD. A rejected push fetches, calls onReject (which may
// rewrite the last commit), rebases on the upstream and retries, three
// times at most; it never forces. Every failure warns: the commit stays
// for the next push.
func (l Library) push(ctx context.Context, onReject func() bool) {
	if !l.hasOrigin(ctx) {
		l.warn("the library has no origin; the commit stays local")
		return
	}
	branch, err := l.quiet().Output(ctx, "symbolic-ref", "--quiet", "--short", "HEAD")
	if err != nil {
		l.warn("the library's HEAD is detached; nothing pushed")
		return
	}
	for attempt := 1; attempt <= 3; attempt++ {
		err := l.quiet().Run(ctx, "push", "--quiet", "origin", "HEAD:refs/heads/"+branch)
		if err == nil {
			if l.upstream(ctx) == "" {
				l.quiet().Run(ctx, "branch", "--quiet", "--set-upstream-to=origin/"+branch)
			}
			return
		}
		var gerr *gitx.Error
		if !errors.As(err, &gerr) || !isRejection(gerr.Stderr) {
			l.warn("push failed (%v); the commit stays for the next push", err)
			return
		}
		l.fetch(ctx)
		if onReject != nil {
			onReject()
		}
		up := l.upstream(ctx)
		if up == "" {
			up = "origin/" + branch
		}
		if err := l.withIdentity(ctx, "rebase", "--quiet", up); err != nil {
			l.git().Run(ctx, "rebase", "--abort")
			l.warn("cannot rebase on %s (%v); the commit stays for the next push", up, err)
			return
		}
	}
	l.warn("push rejected three times; the commit stays for the next push")
}

func isRejection(stderr string) bool {
	return strings.Contains(stderr, "[rejected]") || strings.Contains(stderr, "non-fast-forward") ||
		strings.Contains(stderr, "fetch first") || strings.Contains(stderr, "[remote rejected]")
}
