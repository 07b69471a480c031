package installignore_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/magehook/magehook/internal/gittest"
	"github.com/magehook/magehook/pkg/installignore"
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
	dry, err := installignore.Ensure(ctx, cfg, true)
	if err != nil || !strings.Contains(dry.Diff, "+/Wiki/") {
		t.Fatalf("dry run: %+v %v", dry, err)
	}
	if b, _ := os.ReadFile(filepath.Join(root, ".gitignore")); string(b) != "/.magehook/\n*.log" {
		t.Errorf("the dry run wrote: %q", b)
	}
	out, err := installignore.Ensure(ctx, cfg, false)
	if err != nil || strings.Join(out.Added, " ") != "/bin/magehook /bin/.magehook.* /Wiki/ /.claude/worktrees/" {
		t.Fatalf("ensure: %+v %v", out, err)
	}
	want := "/.magehook/\n*.log\n\n" + installignore.Header + "\n/bin/magehook\n/bin/.magehook.*\n/Wiki/\n/.claude/worktrees/\n"
	if b, _ := os.ReadFile(filepath.Join(root, ".gitignore")); string(b) != want {
		t.Errorf(".gitignore:\n%q\nwant\n%q", b, want)
	}
	again, err := installignore.Ensure(ctx, cfg, false)
	if err != nil || len(again.Added) != 0 || again.Diff != "" {
		t.Errorf("a second run: %+v %v", again, err)
	}
	paths, _ := installignore.Check(ctx, cfg)
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
	_, err := installignore.Ensure(context.Background(), config(t, root), false)
	if !errors.Is(err, installignore.ErrLink) {
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
	paths, err := installignore.Check(ctx, config(t, root))
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
	if _, err := installignore.Check(ctx, config(t, plain)); err == nil {
		t.Error("outside git: no error")
	}
}

// A .gitignore with CRLF line endings keeps them; a FIFO is never opened.
func TestEnsureKeepsLineEndingsAndRefusesAFIFO(t *testing.T) {
	ctx := context.Background()
	root := gittest.Repo(t, map[string]string{".toolingrc": "# x\n", ".gitignore": "/bin/\r\n/.magehook/\r\n"})
	if _, err := installignore.Ensure(ctx, config(t, root), false); err != nil {
		t.Fatal(err)
	}
	want := "/bin/\r\n/.magehook/\r\n\r\n" + installignore.Header + "\r\n/.claude/worktrees/\r\n"
	if b, _ := os.ReadFile(filepath.Join(root, ".gitignore")); string(b) != want {
		t.Errorf("%q\nwant %q", b, want)
	}
	fifo := gittest.Repo(t, map[string]string{".toolingrc": "# x\n"})
	if err := syscall.Mkfifo(filepath.Join(fifo, ".gitignore"), 0o644); err != nil {
		t.Skip(err)
	}
	if _, err := installignore.Ensure(ctx, config(t, fifo), false); err == nil || !strings.Contains(err.Error(), "is not a regular file") {
		t.Errorf("a FIFO: %v", err)
	}
}
