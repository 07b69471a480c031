package wiki_test

import (
	"bytes"
	"context"
	"os"
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

// origin makes a bare library origin with one commit.
func origin(t *testing.T) string {
	t.Helper()
	seed := gittest.Repo(t, map[string]string{"Home.md": "# Library\n"})
	bare := filepath.Join(t.TempDir(), "wiki.git")
	gittest.Git(t, filepath.Dir(bare), "clone", "-q", "--bare", seed, bare)
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

func TestInit(t *testing.T) {
	gittest.Isolate(t)
	bare := origin(t)
	lib, _ := library(t, bare)
	if _, err := os.Stat(filepath.Join(lib.Dir, "Home.md")); err != nil {
		t.Fatal("init did not clone")
	}
	head := gittest.Git(t, lib.Dir, "rev-parse", "HEAD")
	if _, err := lib.Init(context.Background()); err != nil || gittest.Git(t, lib.Dir, "rev-parse", "HEAD") != head {
		t.Errorf("a second init changed something: %v", err)
	}
	var log bytes.Buffer
	offline := wiki.Library{Dir: filepath.Join(t.TempDir(), "Wiki"), Origin: "file:///nonexistent/wiki.git", Log: &log}
	if _, err := offline.Init(context.Background()); err != nil {
		t.Errorf("an offline init must not fail: %v", err)
	}
	if !strings.Contains(log.String(), "warning: cannot clone") {
		t.Errorf("no warning: %q", log.String())
	}
	if _, err := os.Stat(offline.Dir); err == nil {
		t.Error("a failed clone left a directory")
	}
}

func TestOpenTwiceIsOnePage(t *testing.T) {
	gittest.Isolate(t)
	bare := origin(t)
	lib, _ := library(t, bare)
	ctx := context.Background()
	page, err := lib.Open(ctx, "proj", "sess-1")
	if err != nil || page != "Session-proj-2026-11-30-1" {
		t.Fatalf("open: %q %v", page, err)
	}
	again, err := lib.Open(ctx, "proj", "sess-1")
	if err != nil || again != page {
		t.Errorf("a second open: %q %v", again, err)
	}
	if n := gittest.Git(t, bare, "rev-list", "--count", "main"); n != "2" {
		t.Errorf("the origin has %s commits, want 2 (one page, pushed once)", n)
	}
	text, _ := os.ReadFile(filepath.Join(lib.Dir, page+".md"))
	for _, want := range []string{"# Session-proj-2026-11-30-1\n", "Session: sess-1\n", "Project: proj\n", "Opened: 2026-11-30T09:00:00Z\n", "## Observations\n"} {
		if !strings.Contains(string(text), want) {
			t.Errorf("page lacks %q:\n%s", want, text)
		}
	}
	second, err := lib.Open(ctx, "proj", "sess-2")
	if err != nil || second != "Session-proj-2026-11-30-2" {
		t.Errorf("a second session the same day: %q %v", second, err)
	}
	if files := originFiles(t, bare); !strings.Contains(files, "Session-proj-2026-11-30-2.md") {
		t.Errorf("not pushed: %s", files)
	}
}

func TestOpenFindsAPageOnTheOrigin(t *testing.T) {
	gittest.Isolate(t)
	bare := origin(t)
	a, _ := library(t, bare)
	b, _ := library(t, bare)
	ctx := context.Background()
	page, _ := a.Open(ctx, "proj", "shared")
	got, err := b.Open(ctx, "proj", "shared")
	if err != nil || got != page {
		t.Errorf("another clone opening the same session: %q %v", got, err)
	}
	if other, _ := b.Open(ctx, "proj", "other"); other != "Session-proj-2026-11-30-2" {
		t.Errorf("the next number must count the origin's pages: %q", other)
	}
}

func TestPushCollisionRenames(t *testing.T) {
	gittest.Isolate(t)
	bare := origin(t)
	a, log := library(t, bare)
	b, _ := library(t, bare)
	ctx := context.Background()
	// B has a page of the same name committed but not pushed; it pushes
	// right after A commits, before A pushes.
	gittest.Commit(t, b.Dir, "B's page", map[string]string{"Session-proj-2026-11-30-1.md": "# Session-proj-2026-11-30-1\n\nSession: from-b\n"})
	hook := filepath.Join(a.Dir, ".git", "hooks", "post-commit")
	script := "#!/bin/sh\nrm -f \"$0\"\ngit -C '" + b.Dir + "' push -q origin HEAD:main\n"
	if err := os.WriteFile(hook, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	page, err := a.Open(ctx, "proj", "from-a")
	if err != nil {
		t.Fatalf("%v\n%s", err, log)
	}
	if page != "Session-proj-2026-11-30-2" || !strings.Contains(log.String(), "the origin already holds Session-proj-2026-11-30-1; renamed to Session-proj-2026-11-30-2") {
		t.Errorf("page %q, want the next free number after a rename\n%s", page, log)
	}
	files := originFiles(t, bare)
	if !strings.Contains(files, "Session-proj-2026-11-30-1.md") || !strings.Contains(files, "Session-proj-2026-11-30-2.md") {
		t.Errorf("the origin should hold both pages:\n%s\n%s", files, log)
	}
	if text := gittest.Git(t, bare, "show", "main:Session-proj-2026-11-30-2.md"); !strings.Contains(text, "# Session-proj-2026-11-30-2\n") || !strings.Contains(text, "Session: from-a") {
		t.Errorf("the renamed page:\n%s", text)
	}
	if _, err := os.Stat(filepath.Join(a.Dir, ".git", "rebase-merge")); err == nil {
		t.Error("a stopped rebase was left behind")
	}
	if status := gittest.Git(t, a.Dir, "status", "--porcelain"); status != "" {
		t.Errorf("the clone is not clean: %s", status)
	}
}

func TestNoteAndClose(t *testing.T) {
	gittest.Isolate(t)
	bare := origin(t)
	lib, _ := library(t, bare)
	ctx := context.Background()
	page, _ := lib.Open(ctx, "proj", "s")
	note := filepath.Join(t.TempDir(), "note.md")
	os.WriteFile(note, []byte("- the cache key ignores GOFLAGS\n"), 0o644)
	if err := lib.Note(ctx, page, note); err != nil {
		t.Fatal(err)
	}
	empty := filepath.Join(t.TempDir(), "empty.md")
	os.WriteFile(empty, []byte("\n \n"), 0o644)
	if err := lib.Note(ctx, page, empty); err == nil {
		t.Error("an empty note was accepted")
	}
	if err := lib.Close(ctx, "s"); err != nil {
		t.Fatal(err)
	}
	commits := gittest.Git(t, bare, "rev-list", "--count", "main")
	if err := lib.Close(ctx, "s"); err != nil || gittest.Git(t, bare, "rev-list", "--count", "main") != commits {
		t.Errorf("a second close changed something: %v", err)
	}
	text := gittest.Git(t, bare, "show", "main:"+page+".md")
	if !strings.Contains(text, "## Observations\n\n- the cache key ignores GOFLAGS\n\nClosed: 2026-11-30T09:00:00Z") {
		t.Errorf("page on the origin:\n%s", text)
	}
	if err := lib.Close(ctx, "never-opened"); err != nil {
		t.Errorf("a session without a page is normal: %v", err)
	}
	var out bytes.Buffer
	lib.Status(ctx, &out)
	if out.String() != "no open sessions\nunpushed commits: 0\n" {
		t.Errorf("status:\n%s", out.String())
	}
}

func TestFailedPushKeepsTheCommit(t *testing.T) {
	gittest.Isolate(t)
	bare := origin(t)
	lib, log := library(t, bare)
	os.RemoveAll(bare)
	page, err := lib.Open(context.Background(), "proj", "offline")
	if err != nil || page == "" {
		t.Fatalf("an offline open must still give a page: %q %v", page, err)
	}
	if !strings.Contains(log.String(), "the commit stays for the next push") {
		t.Errorf("no warning:\n%s", log)
	}
	var out bytes.Buffer
	lib.Status(context.Background(), &out)
	if !strings.Contains(out.String(), page+"  0 notes\n") || !strings.Contains(out.String(), "unpushed commits: 1") {
		t.Errorf("status:\n%s", out.String())
	}
}

func TestDetachedHeadPushesNothing(t *testing.T) {
	gittest.Isolate(t)
	bare := origin(t)
	lib, log := library(t, bare)
	gittest.Git(t, lib.Dir, "checkout", "-q", "--detach")
	if _, err := lib.Open(context.Background(), "proj", "d"); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(log.String(), "HEAD is detached; nothing pushed") {
		t.Errorf("log:\n%s", log)
	}
	if n := gittest.Git(t, bare, "rev-list", "--count", "main"); n != "1" {
		t.Errorf("something was pushed")
	}
}

func TestHostileTokens(t *testing.T) {
	gittest.Isolate(t)
	lib, _ := library(t, origin(t))
	ctx := context.Background()
	for _, bad := range []string{"../x", "-x", "a/../../b", "x\x00y", "x\ny", "..", "a/b", ""} {
		if _, err := lib.Open(ctx, bad, "s"); err == nil {
			t.Errorf("project %q accepted", bad)
		}
		if _, err := lib.Open(ctx, "p", bad); err == nil {
			t.Errorf("session %q accepted", bad)
		}
		if err := lib.Note(ctx, bad, "/etc/hostname"); err == nil {
			t.Errorf("page %q accepted", bad)
		}
	}
	entries, _ := os.ReadDir(lib.Dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "Session-") {
			t.Errorf("a hostile token made a page: %s", e.Name())
		}
	}
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
