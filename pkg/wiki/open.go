package wiki

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/magehook/magehook/pkg/gitx"
	"github.com/magehook/magehook/pkg/toolingrc"
)

// Init clones the library when its directory is absent, and returns the
// directory it cloned into ("" when it cloned nothing); a second run
// reports the directory and changes nothing (WIKI-CLONE-1). Without
// wiki.origin it returns a *toolingrc.Error naming the key (CLI-CONFIG-2).
// A failed clone (no network, no repository) warns and returns no error:
// the session that follows must still start (WIKI-CLONE-2).
func (l Library) Init(ctx context.Context) (string, error) {
	if l.Origin == "" {
		return "", &toolingrc.Error{File: l.ConfigFile, Key: toolingrc.KeyWikiOrigin,
			Msg: "is not set, and wiki:init needs the URL of the learning library; add a line \"wiki.origin <url>\""}
	}
	if _, err := os.Lstat(l.Dir); err == nil {
		l.say("%s already exists, nothing to do", l.Dir)
		return "", nil
	}
	if err := os.MkdirAll(filepath.Dir(l.Dir), 0o755); err != nil {
		l.warn("%v; the library stays absent", err)
		return "", nil
	}
	err := gitx.Git{Dir: filepath.Dir(l.Dir), Log: l.log()}.Run(ctx, "clone", "--quiet", "--", l.Origin, l.Dir)
	if err != nil {
		os.RemoveAll(l.Dir)
		l.warn("cannot clone %s (%v); the library stays absent, and the session goes on without it", l.Origin, err)
		return "", nil
	}
	return l.Dir, nil
}

// Available reports whether the library has a clone to work on, and
// says why not when it has none (WIKI-CLONE-3): no wiki.origin, or no
// clone at Dir.
func (l Library) Available() bool {
	if l.Origin == "" {
		l.say("no library: wiki.origin is unset (in %s or any .toolingrc above it)", l.ConfigFile)
		return false
	}
	if _, err := os.Stat(filepath.Join(l.Dir, ".git")); err != nil {
		l.say("no library at %s; wiki:init clones it", l.Dir)
		return false
	}
	return true
}

// Open returns the page file of a session (Session-<p>-<date>-<n>.md),
// creating, committing and pushing it when no page holds the session id
// yet (WIKI-OPEN-1). It fetches first, fast-forwards a branch with no
// commits of its own, and looks for the session, and counts the day's
// pages, both in the clone and on the fetched branch (WIKI-OPEN-2). It
// returns "" and no error when there is no library. It prints nothing on
// stdout; the caller prints the page (WIKI-OPEN-4).
func (l Library) Open(ctx context.Context, project, session string) (string, error) {
	if err := CheckToken("project", project); err != nil {
		return "", err
	}
	if err := CheckToken("session", session); err != nil {
		return "", err
	}
	if !l.Available() {
		return "", nil
	}
	l.fetch(ctx)
	l.fastForward(ctx)
	if page := l.findSession(ctx, session); page != "" {
		l.say("already open: %s", page)
		return page, nil
	}
	date := l.now().Format("2006-01-02")
	n := l.nextNumber(ctx, project, date)
	page := pageName(project, date, n)
	text := fmt.Sprintf("%s\n\nSession: %s\nProject: %s\nOpened: %s\n\n## Observations\n",
		title(project, date, n), session, project, l.now().Format(time.RFC3339))
	if err := os.WriteFile(filepath.Join(l.Dir, page), []byte(text), 0o644); err != nil {
		return "", err
	}
	if err := l.commit(ctx, "open: "+page, page); err != nil {
		return "", err
	}
	l.push(ctx, func(up string) error {
		// The origin already holds a page of this name: take the next
		// free number, rename, amend; the rebase that follows then adds
		// a different file and cannot conflict (WIKI-OPEN-3).
		if !l.quiet().OK(ctx, "cat-file", "-e", up+":"+page) {
			return nil
		}
		n := l.nextNumber(ctx, project, date)
		next := pageName(project, date, n)
		if err := l.rename(ctx, page, next, title(project, date, n)); err != nil {
			return fmt.Errorf("cannot rename %s to %s: %w", page, next, err)
		}
		l.say("the origin already holds %s; renamed to %s", page, next)
		page = next
		return nil
	})
	return page, nil
}

// pageName is a session page's file name (WIKI-PAGES-3).
func pageName(project, date string, n int) string {
	return "Session-" + project + "-" + date + "-" + strconv.Itoa(n) + ".md"
}

// title is a session page's first line. It carries the page's number, so
// a rename writes it again (WIKI-PAGES-3).
func title(project, date string, n int) string {
	return fmt.Sprintf("# Session %s %s %d", project, date, n)
}

func (l Library) rename(ctx context.Context, from, to, heading string) error {
	data, err := readFile(filepath.Join(l.Dir, from))
	if err != nil {
		return err
	}
	text := string(data)
	if i := strings.IndexByte(text, '\n'); i >= 0 && strings.HasPrefix(text, "# ") {
		text = heading + text[i:]
	}
	if err := os.WriteFile(filepath.Join(l.Dir, to), []byte(text), 0o644); err != nil {
		return err
	}
	g := l.git()
	if err := g.Run(ctx, "rm", "--quiet", "--cached", "--", from); err != nil {
		return err
	}
	os.Remove(filepath.Join(l.Dir, from))
	if err := g.Run(ctx, "add", "--", to); err != nil {
		return err
	}
	return l.withIdentity(ctx, "commit", "--quiet", "--amend", "-m", "open: "+to)
}

// findSession returns the page file holding the line "Session: <id>", in
// the clone or on the fetched branch (a resumed session whose page another
// clone pushed, while this clone has commits of its own).
func (l Library) findSession(ctx context.Context, session string) string {
	if page := l.findLocal(session); page != "" {
		return page
	}
	up := l.tracking(ctx)
	if up == "" {
		return ""
	}
	// git grep has no whole-line match: find the candidates, then check
	// the exact line in each.
	out, err := l.quiet().Output(ctx, "grep", "-l", "-F", "-e", "Session: "+session, up, "--", "Session-*.md")
	if err != nil {
		return ""
	}
	for _, line := range gitx.Lines(out) {
		file := strings.TrimPrefix(line, up+":")
		if blob, err := l.quiet().Output(ctx, "show", up+":"+file); err == nil && hasLine(blob, "Session: "+session) {
			return file
		}
	}
	return ""
}

func (l Library) sessionPages() []string {
	pages, _ := filepath.Glob(filepath.Join(l.Dir, "Session-*.md"))
	sort.Strings(pages)
	for i, p := range pages {
		pages[i] = filepath.Base(p)
	}
	return pages
}

func (l Library) findLocal(session string) string {
	for _, p := range l.sessionPages() {
		data, err := readFile(filepath.Join(l.Dir, p))
		if err == nil && hasLine(string(data), "Session: "+session) {
			return p
		}
	}
	return ""
}

func hasLine(text, line string) bool {
	sc := bufio.NewScanner(strings.NewReader(text))
	for sc.Scan() {
		if strings.TrimRight(sc.Text(), "\r") == line {
			return true
		}
	}
	return false
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

// nextNumber is one more than the highest n of the day's pages, in the
// clone and on the fetched branch together (WIKI-OPEN-2).
func (l Library) nextNumber(ctx context.Context, project, date string) int {
	prefix := "Session-" + project + "-" + date + "-"
	names, _ := filepath.Glob(filepath.Join(l.Dir, prefix+"*.md"))
	for i, n := range names {
		names[i] = filepath.Base(n)
	}
	if up := l.tracking(ctx); up != "" {
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
