package wiki_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/magehook/magehook/internal/gittest"
	"github.com/magehook/magehook/pkg/hooktest"
	"github.com/magehook/magehook/pkg/toolingrc"
	"github.com/magehook/magehook/pkg/wiki"
)

var day = time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)

const page1 = "Session-proj-2026-11-30-1.md"

// origin makes a bare library origin with one commit, refusing pushes
// that are not fast-forwards as the library's ruleset does.
func origin(t *testing.T) string {
	t.Helper()
	seed := gittest.Repo(t, map[string]string{"Home.md": "# Library\n"})
	bare := filepath.Join(t.TempDir(), "wiki.git")
	gittest.Git(t, filepath.Dir(bare), "clone", "-q", "--bare", seed, bare)
	gittest.Git(t, bare, "config", "receive.denyNonFastForwards", "true")
	return bare
}

func library(t *testing.T, originPath string) (wiki.Library, *bytes.Buffer) {
	t.Helper()
	var log bytes.Buffer
	lib := wiki.Library{Dir: filepath.Join(t.TempDir(), "Wiki"), Origin: originPath, Log: &log, Now: func() time.Time { return day }}
	dir, err := lib.Init(context.Background())
	if err != nil || dir != lib.Dir {
		t.Fatalf("init: %q, %v", dir, err)
	}
	return lib, &log
}

func originFiles(t *testing.T, bare string) string {
	return gittest.Git(t, bare, "ls-tree", "--name-only", "main")
}

func write(t *testing.T, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "text.md")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// WIKI-CLONE-1, WIKI-CLONE-2, CLI-CONFIG-2.
func TestInit(t *testing.T) {
	gittest.Isolate(t)
	bare := origin(t)
	lib, log := library(t, bare)
	if _, err := os.Stat(filepath.Join(lib.Dir, "Home.md")); err != nil {
		t.Fatal("init did not clone")
	}
	head := gittest.Git(t, lib.Dir, "rev-parse", "HEAD")
	if dir, err := lib.Init(context.Background()); err != nil || dir != "" || gittest.Git(t, lib.Dir, "rev-parse", "HEAD") != head {
		t.Errorf("a second init changed something: %q %v", dir, err)
	}
	if !strings.Contains(log.String(), "already exists, nothing to do") {
		t.Errorf("a second init says nothing: %q", log)
	}
	var offlineLog bytes.Buffer
	offline := wiki.Library{Dir: filepath.Join(t.TempDir(), "Wiki"), Origin: "file:///nonexistent/wiki.git", Log: &offlineLog}
	if dir, err := offline.Init(context.Background()); err != nil || dir != "" {
		t.Errorf("an offline init must not fail: %q %v", dir, err)
	}
	if !strings.Contains(offlineLog.String(), "the library stays absent") {
		t.Errorf("no warning: %q", offlineLog.String())
	}
	if _, err := os.Stat(offline.Dir); err == nil {
		t.Error("a failed clone left a directory")
	}
	// CLI-CONFIG-2: init without wiki.origin is a configuration error naming the key.
	none := wiki.Library{Dir: filepath.Join(t.TempDir(), "Wiki"), ConfigFile: "/x/.toolingrc"}
	_, err := none.Init(context.Background())
	var cerr *toolingrc.Error
	if !errors.As(err, &cerr) || cerr.Key != "wiki.origin" {
		t.Errorf("init without wiki.origin: %v, want a configuration error naming wiki.origin", err)
	}
}

// WIKI-OPEN-1, WIKI-OPEN-4, WIKI-PAGES-3, WIKI-PAGES-4.
func TestOpenTwiceIsOnePage(t *testing.T) {
	gittest.Isolate(t)
	bare := origin(t)
	lib, log := library(t, bare)
	ctx := context.Background()
	page, err := lib.Open(ctx, "proj", "sess-1")
	if err != nil || page != page1 {
		t.Fatalf("open: %q %v, want the file name %s", page, err, page1)
	}
	again, err := lib.Open(ctx, "proj", "sess-1")
	if err != nil || again != page || !strings.Contains(log.String(), "already open: "+page1) {
		t.Errorf("a second open: %q %v\n%s", again, err, log)
	}
	if n := gittest.Git(t, bare, "rev-list", "--count", "main"); n != "2" {
		t.Errorf("the origin has %s commits, want 2 (one page, pushed once)", n)
	}
	if s := gittest.Git(t, bare, "log", "-1", "--format=%s", "main"); s != "open: "+page1 {
		t.Errorf("commit subject %q", s)
	}
	text, _ := os.ReadFile(filepath.Join(lib.Dir, page))
	if !strings.HasPrefix(string(text), "# Session proj 2026-11-30 1\n\nSession: sess-1\nProject: proj\nOpened: 2026-11-30T09:00:00Z\n\n## Observations\n") {
		t.Errorf("page header:\n%s", text)
	}
	second, err := lib.Open(ctx, "proj", "sess-2")
	if err != nil || second != "Session-proj-2026-11-30-2.md" {
		t.Errorf("a second session the same day: %q %v", second, err)
	}
	if files := originFiles(t, bare); !strings.Contains(files, "Session-proj-2026-11-30-2.md") {
		t.Errorf("not pushed: %s", files)
	}
}

// WIKI-OPEN-2: a stale clone counts the origin's pages and finds the page
// another clone pushed.
func TestOpenFindsAPageOnTheOrigin(t *testing.T) {
	gittest.Isolate(t)
	bare := origin(t)
	a, _ := library(t, bare)
	b, log := library(t, bare)
	ctx := context.Background()
	page, _ := a.Open(ctx, "proj", "shared")
	got, err := b.Open(ctx, "proj", "shared")
	if err != nil || got != page {
		t.Errorf("another clone opening the same session: %q %v", got, err)
	}
	if other, _ := b.Open(ctx, "proj", "other"); other != "Session-proj-2026-11-30-2.md" {
		t.Errorf("the next number must count the origin's pages: %q", other)
	}
	if strings.Contains(log.String(), "rebasing and retrying") {
		t.Errorf("a stale clone's push needed a retry:\n%s", log)
	}
}

// WIKI-OPEN-2: a resumed session in a clone with a commit of its own (so
// no fast-forward) finds its page on the fetched branch instead of
// opening a second page.
func TestOpenResumesInACloneWithCommitsOfItsOwn(t *testing.T) {
	gittest.Isolate(t)
	bare := origin(t)
	a, _ := library(t, bare)
	b, log := library(t, bare)
	ctx := context.Background()
	gittest.Commit(t, b.Dir, "local work", map[string]string{"Local.md": "# Local\n"})
	page, _ := a.Open(ctx, "proj", "resumed")
	got, err := b.Open(ctx, "proj", "resumed")
	if err != nil || got != page {
		t.Fatalf("the resumed session got %q (%v), want its page %s\n%s", got, err, page, log)
	}
	if files := originFiles(t, bare); strings.Contains(files, "Session-proj-2026-11-30-2.md") {
		t.Errorf("a second page for one session:\n%s", files)
	}
}

// WIKI-OPEN-3, WIKI-CAPTURE-5: the origin takes the page's name between
// the fetch and the push; the page is renamed (title included) before the
// rebase, and no stopped rebase is left.
func TestPushCollisionRenames(t *testing.T) {
	gittest.Isolate(t)
	bare := origin(t)
	a, log := library(t, bare)
	b, _ := library(t, bare)
	ctx := context.Background()
	gittest.Commit(t, b.Dir, "B's page", map[string]string{page1: "# Session proj 2026-11-30 1\n\nSession: from-b\n"})
	hook := filepath.Join(a.Dir, ".git", "hooks", "post-commit")
	script := "#!/bin/sh\nrm -f \"$0\"\ngit -C '" + b.Dir + "' push -q origin HEAD:main\n"
	if err := os.WriteFile(hook, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	page, err := a.Open(ctx, "proj", "from-a")
	if err != nil {
		t.Fatalf("%v\n%s", err, log)
	}
	if page != "Session-proj-2026-11-30-2.md" || !strings.Contains(log.String(), "renamed to Session-proj-2026-11-30-2.md") ||
		!strings.Contains(log.String(), "rebasing and retrying (1 of 3)") {
		t.Errorf("page %q, want the next free number after a rename\n%s", page, log)
	}
	if text := gittest.Git(t, bare, "show", "main:Session-proj-2026-11-30-2.md"); !strings.HasPrefix(text, "# Session proj 2026-11-30 2\n") || !strings.Contains(text, "Session: from-a") {
		t.Errorf("the renamed page:\n%s", text)
	}
	if s := gittest.Git(t, a.Dir, "log", "-1", "--format=%s"); s != "open: Session-proj-2026-11-30-2.md" {
		t.Errorf("subject %q", s)
	}
	if _, err := os.Stat(filepath.Join(a.Dir, ".git", "rebase-merge")); err == nil {
		t.Error("a stopped rebase was left behind")
	}
	if status := gittest.Git(t, a.Dir, "status", "--porcelain"); status != "" {
		t.Errorf("the clone is not clean: %s", status)
	}
}

// WIKI-CAPTURE-1, WIKI-CAPTURE-2, WIKI-CAPTURE-3, WIKI-STATUS-1.
func TestNoteAdmitAndClose(t *testing.T) {
	gittest.Isolate(t)
	bare := origin(t)
	lib, log := library(t, bare)
	ctx := context.Background()
	page, _ := lib.Open(ctx, "proj", "s")
	var out bytes.Buffer
	lib.Status(ctx, &out)
	if out.String() != "open sessions: none\nunpushed commits: 0\n" {
		t.Errorf("WIKI-STATUS-1: a page with no observation is not an open session:\n%s", out.String())
	}
	if got, err := lib.Note(ctx, strings.TrimSuffix(page, ".md"), write(t, "Claim: the cache key ignores GOFLAGS\n")); err != nil || got != page {
		t.Fatalf("note: %q %v", got, err)
	}
	if got, err := lib.Admit(ctx, page, write(t, "Admitted: the cache key\n")); err != nil || got != page {
		t.Fatalf("admit: %q %v", got, err)
	}
	if s := gittest.Git(t, bare, "log", "--format=%s", "main"); !strings.HasPrefix(s, "admit: "+page+"\nnote: "+page+"\n") {
		t.Errorf("subjects:\n%s", s)
	}
	out.Reset()
	lib.Status(ctx, &out)
	if want := "open sessions:\n  " + page + strings.Repeat(" ", 44-len(page)) + " 1 claim(s), 1 admitted\nunpushed commits: 0\n"; out.String() != want {
		t.Errorf("status:\n%q\nwant\n%q", out.String(), want)
	}
	for name, file := range map[string]string{"no text in": write(t, "\n \n"), "no such file": filepath.Join(t.TempDir(), "gone.md")} {
		if _, err := lib.Note(ctx, page, file); err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("note: %v, want %q", err, name)
		}
	}
	if _, err := lib.Admit(ctx, "Absent-page", write(t, "x\n")); err == nil || !strings.Contains(err.Error(), "no such page: Absent-page") {
		t.Errorf("admit to an absent page: %v", err)
	}
	if got, err := lib.Close(ctx, "s"); err != nil || got != page {
		t.Fatalf("close: %q %v", got, err)
	}
	commits := gittest.Git(t, bare, "rev-list", "--count", "main")
	if got, err := lib.Close(ctx, "s"); err != nil || got != "" || gittest.Git(t, bare, "rev-list", "--count", "main") != commits || !strings.Contains(log.String(), "already closed: "+page) {
		t.Errorf("a second close changed something: %q %v", got, err)
	}
	text := gittest.Git(t, bare, "show", "main:"+page)
	if !strings.Contains(text, "## Observations\n\nClaim: the cache key ignores GOFLAGS\n\nAdmitted: the cache key\n\nClosed: 2026-11-30T09:00:00Z") {
		t.Errorf("page on the origin:\n%s", text)
	}
	if got, err := lib.Close(ctx, "never-opened"); err != nil || got != "" {
		t.Errorf("a session without a page is normal: %v", err)
	}
	out.Reset()
	lib.Status(ctx, &out)
	if !strings.HasPrefix(out.String(), "open sessions: none\n") {
		t.Errorf("a closed page is not open:\n%s", out.String())
	}
}

// WIKI-PAGES-1, WIKI-PAGES-2, WIKI-CONFINE-1: SCRATCHPAD pages and names
// that leave the library are usage errors.
func TestPageNames(t *testing.T) {
	gittest.Isolate(t)
	lib, _ := library(t, origin(t))
	os.WriteFile(filepath.Join(lib.Dir, "SCRATCHPAD-1.md"), []byte("# s\n"), 0o644)
	for _, bad := range []string{"SCRATCHPAD-1", "SCRATCHPAD.md", "../../../etc/passwd", "sub/dir", "..", ".hidden", "1-digit-first"} {
		_, err := lib.Note(context.Background(), bad, write(t, "x\n"))
		if !wiki.IsUsage(err) {
			t.Errorf("page %q: %v, want a usage error", bad, err)
		}
	}
	if f, err := wiki.PageFile("Home"); err != nil || f != "Home.md" {
		t.Errorf("PageFile(Home) = %q %v", f, err)
	}
}

// WIKI-CLONE-3: without wiki.origin, or without a clone, every verb but
// init reports the absence and succeeds.
func TestNoLibrary(t *testing.T) {
	ctx := context.Background()
	for name, lib := range map[string]wiki.Library{
		"wiki.origin is unset": {Dir: filepath.Join(t.TempDir(), "Wiki")},
		"no library at":        {Dir: filepath.Join(t.TempDir(), "Wiki"), Origin: "file:///srv/wiki.git"},
	} {
		var log, out bytes.Buffer
		lib.Log = &log
		if page, err := lib.Open(ctx, "p", "s"); page != "" || err != nil {
			t.Errorf("%s: open %q %v", name, page, err)
		}
		if page, err := lib.Note(ctx, "Home", "/nonexistent"); page != "" || err != nil {
			t.Errorf("%s: note %q %v", name, page, err)
		}
		if page, err := lib.Close(ctx, "s"); page != "" || err != nil {
			t.Errorf("%s: close %q %v", name, page, err)
		}
		if err := lib.Status(ctx, &out); err != nil {
			t.Errorf("%s: status %v", name, err)
		}
		// WIKI-STATUS-3
		if err := lib.Candidates(ctx, &out); err != nil {
			t.Errorf("%s: candidates %v", name, err)
		}
		if out.Len() != 0 || strings.Count(log.String(), name) != 5 {
			t.Errorf("%s: stdout %q, log:\n%s", name, out.String(), log.String())
		}
	}
}

// WIKI-OPEN-5, CLI-PROGRAM-5: a refused token is a usage error.
// CLI-PROGRAM-6, WIKI-CONFINE-1: git runs as an argument list, and no
// token reaches it before its shape check.
func TestHostileTokens(t *testing.T) {
	gittest.Isolate(t)
	lib, _ := library(t, origin(t))
	ctx := context.Background()
	for _, bad := range []string{"../x", "-x", "a/../../b", "x\x00y", "x\ny", "..", "a/b", ""} {
		if _, err := lib.Open(ctx, bad, "s"); !wiki.IsUsage(err) {
			t.Errorf("project %q: %v", bad, err)
		}
		if _, err := lib.Open(ctx, "p", bad); !wiki.IsUsage(err) || !strings.Contains(err.Error(), "invalid session") {
			t.Errorf("session %q: %v", bad, err)
		}
		if _, err := lib.Note(ctx, bad, "/etc/hostname"); !wiki.IsUsage(err) {
			t.Errorf("page %q: %v", bad, err)
		}
		if _, err := lib.Close(ctx, bad); !wiki.IsUsage(err) {
			t.Errorf("close %q: %v", bad, err)
		}
	}
	entries, _ := os.ReadDir(lib.Dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "Session-") {
			t.Errorf("a hostile token made a page: %s", e.Name())
		}
	}
}

// WIKI-CAPTURE-4: a failed push keeps the commit.
func TestFailedPushKeepsTheCommit(t *testing.T) {
	gittest.Isolate(t)
	bare := origin(t)
	lib, log := library(t, bare)
	os.RemoveAll(bare)
	page, err := lib.Open(context.Background(), "proj", "offline")
	if err != nil || page == "" {
		t.Fatalf("an offline open must still give a page: %q %v", page, err)
	}
	if !strings.Contains(log.String(), "the commit stays local") {
		t.Errorf("no warning:\n%s", log)
	}
	lib.Note(context.Background(), page, write(t, "Claim: offline\n"))
	var out bytes.Buffer
	lib.Status(context.Background(), &out)
	if !strings.Contains(out.String(), page) || !strings.Contains(out.String(), "unpushed commits: 2") {
		t.Errorf("status:\n%s", out.String())
	}
}

// WIKI-CAPTURE-5: after the third rejected push the capture stops; it
// neither fetches nor rebases again.
func TestPushStopsAfterTheThirdRejection(t *testing.T) {
	gittest.Isolate(t)
	bare := origin(t)
	lib, log := library(t, bare)
	counter := filepath.Join(t.TempDir(), "pushes")
	hook := "#!/bin/sh\necho push >> '" + counter + "'\necho 'rejected by the ruleset' >&2\nexit 1\n"
	if err := os.WriteFile(filepath.Join(bare, "hooks", "pre-receive"), []byte(hook), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := lib.Open(context.Background(), "proj", "s"); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(counter)
	if n := strings.Count(string(data), "push"); n != 3 {
		t.Errorf("%d pushes, want 3\n%s", n, log)
	}
	if strings.Contains(log.String(), "(3 of 3)") || !strings.Contains(log.String(), "(2 of 3)") {
		t.Errorf("retries:\n%s", log)
	}
	if !strings.Contains(log.String(), "push failed, the commit stays local") {
		t.Errorf("no final warning:\n%s", log)
	}
}

// WIKI-OPEN-3, WIKI-CAPTURE-5: two clones append to one page; the
// loser's rebase stops, is aborted, and its commit stays local.
func TestStoppedRebaseIsAborted(t *testing.T) {
	gittest.Isolate(t)
	bare := origin(t)
	a, log := library(t, bare)
	ctx := context.Background()
	page, _ := a.Open(ctx, "proj", "s")
	b, _ := library(t, bare)
	if _, err := b.Note(ctx, page, write(t, "Claim: the peer writes first\n")); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Note(ctx, page, write(t, "Claim: the loser writes second\n")); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(log.String(), "the rebase stopped") || !strings.Contains(log.String(), "push failed, the commit stays local") {
		t.Errorf("log:\n%s", log)
	}
	if _, err := os.Stat(filepath.Join(a.Dir, ".git", "rebase-merge")); err == nil {
		t.Error("a stopped rebase was left behind")
	}
	if s := gittest.Git(t, a.Dir, "status", "--porcelain"); s != "" {
		t.Errorf("status: %s", s)
	}
	if n := a.Unpushed(ctx); n != "1" {
		t.Errorf("unpushed %s, want 1", n)
	}
}

// WIKI-CAPTURE-6.
func TestDetachedHeadPushesNothing(t *testing.T) {
	gittest.Isolate(t)
	bare := origin(t)
	lib, log := library(t, bare)
	gittest.Git(t, lib.Dir, "checkout", "-q", "--detach")
	if _, err := lib.Open(context.Background(), "proj", "d"); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(log.String(), "detached HEAD, not pushing") {
		t.Errorf("log:\n%s", log)
	}
	if n := gittest.Git(t, bare, "rev-list", "--count", "main"); n != "1" {
		t.Errorf("something was pushed")
	}
}

// WIKI-STATUS-2, WIKI-STATUS-3.
func TestCandidates(t *testing.T) {
	gittest.Isolate(t)
	lib, log := library(t, origin(t))
	var out bytes.Buffer
	if err := lib.Candidates(context.Background(), &out); err != nil || out.Len() != 0 || !strings.Contains(log.String(), "no Rule-candidates.md") {
		t.Errorf("without the page: %v %q %s", err, out.String(), log)
	}
	os.WriteFile(filepath.Join(lib.Dir, wiki.CandidatesPage), []byte(`# Rule candidates

- 2026-08-01 the observer must not edit code
- 2026-08-20 the verifier reads the log. Delivered: X rule 3
- 2026-08-21 a page must not hold a bucket suffix, because the library
  is public. Delivered: X rule 4
- 2026-11-29 a wrapped candidate
  continues here
- not a candidate
`), 0o644)
	if err := lib.Candidates(context.Background(), &out); err != nil {
		t.Fatal(err)
	}
	want := " 121 d  2026-08-01  the observer must not edit code\n   1 d  2026-11-29  a wrapped candidate continues here\n"
	if out.String() != want {
		t.Errorf("candidates:\n%q\nwant\n%q", out.String(), want)
	}
}

// CLI-DOCTOR-2: the state of a clone in a stopped rebase, and the fix
// that skips a pending commit adding a session page with no observation.
func TestInspectAndFix(t *testing.T) {
	ctx := context.Background()
	race := func(t *testing.T, pending map[string]string) (wiki.Library, string) {
		gittest.Isolate(t)
		bare := origin(t)
		lib, _ := library(t, bare)
		if st := lib.Inspect(ctx); st.Problem || st.Detail != lib.Dir {
			t.Fatalf("a clean clone: %+v", st)
		}
		gittest.Commit(t, lib.Dir, "open: mine", pending)
		peer, _ := library(t, bare)
		gittest.Commit(t, peer.Dir, "open: the peer", map[string]string{page1: "# Session peer\n\n## Observations\n\nClaim: the peer pushed first.\n"})
		gittest.Git(t, peer.Dir, "push", "-q", "origin", "main")
		gittest.Git(t, lib.Dir, "fetch", "-q", "origin")
		if err := exec(lib.Dir, "rebase", "origin/main"); err == nil {
			t.Fatal("the rebase did not stop")
		}
		return lib, bare
	}
	t.Run("a page with no observation is skipped", func(t *testing.T) {
		lib, _ := race(t, map[string]string{page1: "# Session proj 2026-11-30 1\n\nSession: s\n\n## Observations\n"})
		if st := lib.Inspect(ctx); !st.Problem || st.Detail != "stopped rebase, the pending commit adds "+page1 {
			t.Errorf("inspect: %+v", st)
		}
		if st := lib.Fix(ctx); st.Problem || st.Detail != "skipped the pending commit "+page1 {
			t.Errorf("fix: %+v", st)
		}
		if st := lib.Inspect(ctx); st.Problem || st.Detail != lib.Dir {
			t.Errorf("after the fix: %+v", st)
		}
		if text, _ := os.ReadFile(filepath.Join(lib.Dir, page1)); !strings.Contains(string(text), "the peer pushed first") {
			t.Errorf("the peer's page is gone:\n%s", text)
		}
	})
	t.Run("a page with an observation refuses the fix", func(t *testing.T) {
		lib, _ := race(t, map[string]string{page1: "# Session proj\n\n## Observations\n\nClaim: work.\n"})
		if st := lib.Fix(ctx); !st.Problem || st.Detail != "stopped rebase, fix refused: "+page1+" holds an observation" {
			t.Errorf("fix: %+v", st)
		}
		if st := lib.Inspect(ctx); !strings.HasPrefix(st.Detail, "stopped rebase") {
			t.Errorf("the refusal ended the rebase: %+v", st)
		}
	})
	t.Run("a commit of two files refuses the fix", func(t *testing.T) {
		lib, _ := race(t, map[string]string{page1: "# Session proj\n\n## Observations\n", "Notes.md": "# Notes\n"})
		if st := lib.Fix(ctx); !st.Problem || st.Detail != "stopped rebase, fix refused: the pending commit changes Notes.md, "+page1 {
			t.Errorf("fix: %+v", st)
		}
	})
	t.Run("an uncommitted change names its file", func(t *testing.T) {
		gittest.Isolate(t)
		lib, _ := library(t, origin(t))
		os.WriteFile(filepath.Join(lib.Dir, "Notes.md"), []byte("x\n"), 0o644)
		gittest.Git(t, lib.Dir, "add", "Notes.md")
		if st := lib.Inspect(ctx); !st.Problem || st.Detail != "changes Notes.md" {
			t.Errorf("inspect: %+v", st)
		}
	})
}

func TestSessionToken(t *testing.T) {
	for in, want := range map[string]string{
		"abc-123":           "abc-123",
		"a/b c":             "a-b-c",
		"../../etc":         "..-..-etc",
		"é\x00\n":           "---",
		"550e8400.e29b_41d": "550e8400.e29b_41d",
	} {
		if got, err := wiki.SessionToken(in); err != nil || got != want {
			t.Errorf("SessionToken(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"", ".", "..", "..."} {
		if _, err := wiki.SessionToken(bad); err == nil {
			t.Errorf("SessionToken(%q) accepted", bad)
		}
	}
}

// HOOK-SESSION-2, CLI-CONFIG-2.
func TestProjectOf(t *testing.T) {
	top := t.TempDir()
	os.WriteFile(filepath.Join(top, ".toolingrc"), []byte("wiki.origin file:///srv/wiki.git\nwiki.project fallback\n"), 0o644)
	root := hooktest.Checkout(t)
	cfg, _ := toolingrc.Discover(root)
	if p, _ := wiki.ProjectOf(cfg, root); p != filepath.Base(root) {
		t.Errorf("without wiki.origin the project is the root's name, got %q", p)
	}
	inProjects := filepath.Join(top, "Projects", "alpha", "src")
	os.MkdirAll(inProjects, 0o755)
	cfg, _ = toolingrc.Discover(inProjects)
	if p, _ := wiki.ProjectOf(cfg, inProjects); p != "alpha" {
		t.Errorf("a cwd under Projects/alpha: %q", p)
	}
	cfg, _ = toolingrc.Discover(top)
	if p, _ := wiki.ProjectOf(cfg, top); p != "fallback" {
		t.Errorf("elsewhere: %q", p)
	}
	lib, _ := wiki.FromConfig(cfg)
	if lib.Dir != filepath.Join(top, "Wiki") {
		t.Errorf("the library sits under the home of wiki.origin: %s", lib.Dir)
	}
}

// exec runs git and returns its error, for a command expected to fail.
func exec(dir string, args ...string) error {
	cmd := osexec.Command("git", args...)
	cmd.Dir = dir
	return cmd.Run()
}
