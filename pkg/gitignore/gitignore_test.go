package gitignore_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/magehook/magehook/internal/gittest"
	"github.com/magehook/magehook/pkg/gitignore"
	"github.com/magehook/magehook/pkg/toolingrc"
)

func config(t *testing.T, root string) *toolingrc.Config {
	t.Helper()
	cfg, err := toolingrc.Discover(root)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// The finding of Claude Code 2.1.328: the library clone and the state are
// not ignored. Ensure appends the missing lines and keeps every byte, and
// a second run changes nothing.
func TestEnsure(t *testing.T) {
	ctx := context.Background()
	root := gittest.Repo(t, map[string]string{".toolingrc": "wiki.origin file:///srv/wiki.git\n", ".gitignore": "/.magehook/\n*.log"})
	cfg := config(t, root)
	dry, err := gitignore.Ensure(ctx, cfg, true)
	if err != nil || !strings.Contains(dry.Diff, "+/Wiki/") {
		t.Fatalf("dry run: %+v %v", dry, err)
	}
	if b, _ := os.ReadFile(filepath.Join(root, ".gitignore")); string(b) != "/.magehook/\n*.log" {
		t.Errorf("the dry run wrote: %q", b)
	}
	out, err := gitignore.Ensure(ctx, cfg, false)
	if err != nil || strings.Join(out.Added, " ") != "/bin/magehook /bin/.magehook.* /Wiki/ /.claude/worktrees/" {
		t.Fatalf("ensure: %+v %v", out, err)
	}
	want := "/.magehook/\n*.log\n\n" + gitignore.Header + "\n/bin/magehook\n/bin/.magehook.*\n/Wiki/\n/.claude/worktrees/\n"
	if b, _ := os.ReadFile(filepath.Join(root, ".gitignore")); string(b) != want {
		t.Errorf(".gitignore:\n%q\nwant\n%q", b, want)
	}
	again, err := gitignore.Ensure(ctx, cfg, false)
	if err != nil || len(again.Added) != 0 || again.Diff != "" {
		t.Errorf("a second run: %+v %v", again, err)
	}
	paths, _ := gitignore.Check(ctx, cfg)
	for _, p := range paths {
		if !p.Ignored {
			t.Errorf("%s is not ignored", p.Rel)
		}
	}
}

// git does not read a .gitignore that is a symbolic link: Ensure refuses
// it rather than write lines that ignore nothing.
func TestEnsureRefusesALink(t *testing.T) {
	root := gittest.Repo(t, map[string]string{".toolingrc": "# x\n", "real": "/.magehook/\n"})
	os.Symlink("real", filepath.Join(root, ".gitignore"))
	_, err := gitignore.Ensure(context.Background(), config(t, root), false)
	if !errors.Is(err, gitignore.ErrLink) {
		t.Errorf("%v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "real")); string(b) != "/.magehook/\n" {
		t.Errorf("wrote through the link: %q", b)
	}
}

// A library clone outside the checkout (the workspace's, for a clone under
// Projects/) is another checkout's business; outside git there is nothing
// to do.
func TestCheckScope(t *testing.T) {
	ctx := context.Background()
	ws := t.TempDir()
	os.WriteFile(filepath.Join(ws, ".toolingrc"), []byte("wiki.origin file:///srv/wiki.git\n"), 0o644)
	root := filepath.Join(ws, "Projects", "p")
	gittest.Isolate(t)
	gittest.Git(t, ws, "init", "-q", root)
	os.WriteFile(filepath.Join(root, ".toolingrc"), []byte("# p\n"), 0o644)
	paths, err := gitignore.Check(ctx, config(t, root))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range paths {
		if strings.Contains(p.Rel, "Wiki") {
			t.Errorf("the workspace's library was listed: %+v", p)
		}
	}
	plain := t.TempDir()
	os.WriteFile(filepath.Join(plain, ".toolingrc"), []byte("# x\n"), 0o644)
	if _, err := gitignore.Check(ctx, config(t, plain)); err == nil {
		t.Error("outside git: no error")
	}
}

// A .gitignore with CRLF line endings keeps them; a FIFO is never opened.
func TestEnsureKeepsLineEndingsAndRefusesAFIFO(t *testing.T) {
	ctx := context.Background()
	root := gittest.Repo(t, map[string]string{".toolingrc": "# x\n", ".gitignore": "/bin/\r\n/.magehook/\r\n"})
	if _, err := gitignore.Ensure(ctx, config(t, root), false); err != nil {
		t.Fatal(err)
	}
	want := "/bin/\r\n/.magehook/\r\n\r\n" + gitignore.Header + "\r\n/.claude/worktrees/\r\n"
	if b, _ := os.ReadFile(filepath.Join(root, ".gitignore")); string(b) != want {
		t.Errorf("%q\nwant %q", b, want)
	}
	fifo := gittest.Repo(t, map[string]string{".toolingrc": "# x\n"})
	if err := syscall.Mkfifo(filepath.Join(fifo, ".gitignore"), 0o644); err != nil {
		t.Skip(err)
	}
	if _, err := gitignore.Ensure(ctx, config(t, fifo), false); err == nil || !strings.Contains(err.Error(), "is not a regular file") {
		t.Errorf("a FIFO: %v", err)
	}
}

// Ignored says what git says: an untracked path a pattern names is
// ignored; a tracked file is not, whatever the patterns say.
func TestIgnored(t *testing.T) {
	root := gittest.Repo(t, map[string]string{".gitignore": "build/\n*.log\n", "kept.log": "x\n"})
	gittest.Git(t, root, "add", "-f", "kept.log")
	gittest.Git(t, root, "commit", "-qm", "kept")
	for _, tt := range []struct {
		path    string
		dir, is bool
	}{
		{"build/out", false, true},
		{"build", true, true},
		{"new.log", false, true},
		{filepath.Join(root, "x", "y.log"), false, true},
		{"kept.log", false, false},
		{"src/a.go", false, false},
		{".gitignore", false, false},
	} {
		if got := gitignore.Ignored(root, tt.path, tt.dir); got != tt.is {
			t.Errorf("Ignored(%s): %v, want %v", tt.path, got, tt.is)
		}
	}
	if gitignore.Ignored(t.TempDir(), "build/out", false) {
		t.Error("outside a checkout nothing is ignored")
	}
}
