package worktree_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/magehook/magehook/internal/gittest"
	"github.com/magehook/magehook/pkg/lifecycle"
	"github.com/magehook/magehook/pkg/toolingrc"
	"github.com/magehook/magehook/pkg/worktree"
)

// CLI-CONFIG-2: a checkout under Projects/ that inherits worktree.base
// from the workspace keeps its worktrees inside itself.
func TestBaseIsAnchoredAtTheRoot(t *testing.T) {
	ws := t.TempDir()
	os.WriteFile(filepath.Join(ws, ".toolingrc"), []byte("worktree.base trees\n"), 0o644)
	root := filepath.Join(ws, "Projects", "p")
	gittest.Isolate(t)
	gittest.Git(t, ws, "init", "-q", "-b", "main", root)
	gittest.Commit(t, root, "init", map[string]string{".toolingrc": "# no worktree.base here\n"})
	cfg, err := toolingrc.Discover(root)
	if err != nil {
		t.Fatal(err)
	}
	m, err := lifecycle.Manager(cfg)
	if err != nil {
		t.Fatal(err)
	}
	path, err := m.Create(context.Background(), "one")
	if err != nil || path != filepath.Join(root, "trees", "one") {
		t.Errorf("create: %q %v, want it under the root", path, err)
	}
}

// CLI-CHECKOUT-4: a linked worktree is not a main checkout.
func TestLinkedWorktreeIsNoRoot(t *testing.T) {
	ctx := context.Background()
	root := gittest.Repo(t, nil)
	m, _ := manager(t, root)
	inner, err := m.Create(ctx, "inner")
	if err != nil {
		t.Fatal(err)
	}
	linked, _ := manager(t, inner)
	var out bytes.Buffer
	if err := linked.List(ctx, &out); !errors.Is(err, worktree.ErrLinked) || out.Len() != 0 {
		t.Errorf("list in a linked worktree: %v %q", err, out.String())
	}
	if _, err := linked.Create(ctx, "nested"); !errors.Is(err, worktree.ErrLinked) {
		t.Errorf("create in a linked worktree: %v", err)
	}
	if err := linked.Remove(ctx, "nested", true); !errors.Is(err, worktree.ErrLinked) {
		t.Errorf("remove in a linked worktree: %v", err)
	}
	if exists(filepath.Join(inner, ".claude")) {
		t.Error("something was made inside the linked worktree")
	}
}

// WT-CREATE-2: the refusal names the name as invalid.
func TestInvalidNameMessage(t *testing.T) {
	if err := worktree.ValidName("../escape"); err == nil || !strings.Contains(err.Error(), "invalid worktree name") {
		t.Errorf("%v", err)
	}
}

// WT-REMOVE-3: the walk for nested repositories skips scratch/ and never
// enters a nested worktree; the nested worktree's own uncommitted changes
// still keep it (its removal would destroy them).
func TestRemoveSkipsScratchAndNestedWorktrees(t *testing.T) {
	ctx := context.Background()
	root := gittest.Repo(t, map[string]string{".gitignore": "scratch/\nelsewhere/\n"})
	m, log := manager(t, root)
	wt, _ := m.Create(ctx, "outer")
	scratch := filepath.Join(wt, "scratch", "try")
	gittest.Git(t, wt, "init", "-q", scratch)
	gittest.Write(t, scratch, map[string]string{"junk": "x"})
	other := gittest.Repo(t, map[string]string{"o": "o"})
	inner := filepath.Join(wt, "elsewhere", "wt")
	gittest.Git(t, other, "worktree", "add", "-q", "-b", "n", inner)
	gittest.Commit(t, inner, "a commit its repository holds", map[string]string{"c": "c"})
	if err := m.Remove(ctx, "outer", false); err != nil {
		t.Errorf("a clean nested worktree and scratch/ must not keep the worktree: %v\n%s", err, log)
	}
	wt, _ = m.Create(ctx, "outer2")
	inner = filepath.Join(wt, "elsewhere", "wt")
	gittest.Git(t, other, "worktree", "add", "-q", "-b", "n2", inner)
	gittest.Write(t, inner, map[string]string{"dirty": "x"})
	if err := m.Remove(ctx, "outer2", false); err == nil || !strings.Contains(err.Error(), "uncommitted change(s) in "+inner) {
		t.Errorf("a nested worktree's uncommitted change: %v", err)
	}
}

// WT-REMOVE-4, WT-SAFETY-2: the debris of a killed create goes: a
// directory git does not know that magehook made, a branch without a
// directory, and an orphan bootstrap process still running in it. A
// directory magehook did not make, with files in it, is kept.
func TestRemoveTakesTheDebrisOfAKilledCreate(t *testing.T) {
	ctx := context.Background()
	root := gittest.Repo(t, nil)
	m, log := manager(t, root)
	wt, _ := m.Create(ctx, "killed")
	// What a create killed inside git worktree add leaves: files, and a
	// directory git no longer knows.
	os.Remove(filepath.Join(wt, ".git"))
	gittest.Git(t, root, "worktree", "prune")
	gittest.Write(t, wt, map[string]string{"half/checked/out.txt": "x"})
	// An orphan of the bootstrap, still running there.
	orphan := exec.Command("sleep", "600")
	orphan.Dir = wt
	orphan.Env = append(os.Environ(), "MAGEHOOK_BOOTSTRAP="+wt)
	if err := orphan.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- orphan.Wait() }()
	if err := m.Remove(ctx, "killed", false); err != nil {
		orphan.Process.Kill()
		t.Fatalf("the debris of a create magehook made: %v\n%s", err, log)
	}
	if err := <-done; err == nil {
		t.Error("the orphan exited 0; it should have been stopped")
	}
	if exists(wt) || gittest.Git(t, root, "branch", "--list", "killed") != "" {
		t.Error("debris left")
	}
	stray := m.Path("stray")
	gittest.Write(t, stray, map[string]string{"notes.txt": "mine"})
	if err := m.Remove(ctx, "stray", false); err == nil || !strings.Contains(err.Error(), "not made by magehook") {
		t.Errorf("a directory magehook did not make: %v", err)
	}
	if !exists(filepath.Join(stray, "notes.txt")) {
		t.Error("the refused directory was touched")
	}
	if err := m.Remove(ctx, "killed", false); err != nil {
		t.Errorf("a second remove: %v", err)
	}
	// A worktree magehook did not make, whose .git is gone: its state
	// cannot be read, so it is kept.
	byHand := m.Path("byhand")
	gittest.Git(t, root, "worktree", "add", "-q", "-b", "other", byHand)
	os.Remove(filepath.Join(byHand, ".git"))
	if err := m.Remove(ctx, "byhand", false); err == nil || !strings.Contains(err.Error(), "git cannot read") {
		t.Errorf("an unreadable worktree magehook did not make: %v", err)
	}
}

// WT-REMOVE-2: a fresh worktree of a main branch that is ahead of its
// remote holds no work at risk: the main checkout's branch holds its
// commits (a deliberate difference from the letter of the unit).
func TestCommitsMainHoldsAreSafe(t *testing.T) {
	ctx := context.Background()
	root := gittest.Repo(t, nil)
	gittest.Bare(t, root)
	gittest.Commit(t, root, "unpushed on main", map[string]string{"m": "m"})
	m, _ := manager(t, root)
	m.Create(ctx, "fresh")
	if err := m.Remove(ctx, "fresh", false); err != nil {
		t.Errorf("%v", err)
	}
}

// The leak Claude Code 2.1.328 showed: worktree:prune removes every
// worktree magehook made with no work at risk, naming each one kept and
// why; SessionStart's count finds them piled up.
func TestPrune(t *testing.T) {
	ctx := context.Background()
	root := gittest.Repo(t, nil)
	m, log := manager(t, root)
	for _, n := range []string{"a", "b", "team/c"} {
		if _, err := m.Create(ctx, n); err != nil {
			t.Fatal(err)
		}
	}
	if n := m.PiledUp(ctx, 3); n != 3 {
		t.Errorf("PiledUp = %d, want 3", n)
	}
	dirty, _ := m.Create(ctx, "dirty")
	gittest.Write(t, dirty, map[string]string{"wip": "x"})
	gittest.Git(t, root, "worktree", "add", "-q", "-b", "someone-else", m.Path("hand-made"))
	removed, err := m.Prune(ctx, true)
	if err != nil || strings.Join(removed, ",") != "a,b,team/c" || !exists(m.Path("a")) {
		t.Fatalf("dry run: %v %v", removed, err)
	}
	log.Reset()
	removed, err = m.Prune(ctx, false)
	if err != nil || strings.Join(removed, ",") != "a,b,team/c" {
		t.Fatalf("prune: %v %v\n%s", removed, err, log)
	}
	for _, want := range []string{"kept dirty: 1 uncommitted change(s) in " + dirty, "kept hand-made: magehook did not make it"} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("log lacks %q:\n%s", want, log)
		}
	}
	if exists(m.Path("a")) || exists(m.Path("team")) || !exists(dirty) || !exists(m.Path("hand-made")) {
		t.Error("prune removed the wrong worktrees")
	}
	if gittest.Git(t, root, "branch", "--list", "a") != "" {
		t.Error("the branch of a pruned worktree was kept")
	}
	if n := m.PiledUp(ctx, 3); n != 0 {
		t.Errorf("PiledUp after prune = %d", n)
	}
}

// WT-CLONE-1..5.
func TestCloneUnits(t *testing.T) {
	ctx := context.Background()
	root := gittest.Repo(t, map[string]string{".gitignore": ".env\nvendor/\nconf.txt\nopt/\n", "README.md": "x"})
	lib := gittest.Repo(t, map[string]string{"lib.go": "package lib", ".gitignore": ".env\n"})
	gittest.Write(t, lib, map[string]string{".env": "TOP=1\n", "sub/deep/.env": "DEEP=1\n"})
	os.Chmod(filepath.Join(lib, "sub", "deep", ".env"), 0o600)
	os.Symlink("/etc/passwd", filepath.Join(lib, "sub", "link.env"))
	os.MkdirAll(filepath.Join(lib, "linked"), 0o755)
	os.Symlink(filepath.Join(lib, "sub", "deep", ".env"), filepath.Join(lib, "linked", ".env"))
	gittest.Git(t, root, "clone", "-q", lib, filepath.Join(root, "vendor", "lib"))
	gittest.Write(t, filepath.Join(root, "vendor", "lib"), map[string]string{".env": "TOP=1\n", "sub/deep/.env": "DEEP=1\n"})
	os.Chmod(filepath.Join(root, "vendor", "lib", "sub", "deep", ".env"), 0o600)
	os.MkdirAll(filepath.Join(root, "vendor", "lib", "linked"), 0o755)
	os.Symlink(filepath.Join(root, "vendor", "lib", "sub", "deep", ".env"), filepath.Join(root, "vendor", "lib", "linked", ".env"))
	gittest.Write(t, root, map[string]string{"conf.txt": "real\n"})

	m, _ := manager(t, root)
	wt, err := m.Create(ctx, "cl")
	if err != nil {
		t.Fatal(err)
	}
	// WT-CLONE-4: a symbolic link where a file goes is replaced by the file.
	target := filepath.Join(t.TempDir(), "target")
	os.WriteFile(target, []byte("outside\n"), 0o644)
	os.Symlink(target, filepath.Join(wt, "conf.txt"))

	var log bytes.Buffer
	// WT-CLONE-1: the main checkout is the one named (MAGEHOOK_ROOT).
	if err := worktree.Clone(ctx, wt, root, []string{"vendor", "conf.txt", "opt/absent"}, &log); err != nil {
		t.Fatalf("WT-CLONE-5: an absent path must be skipped, not fail the clone: %v\n%s", err, log.String())
	}
	if !strings.Contains(log.String(), "opt/absent is absent from the main checkout; skipped") {
		t.Errorf("no message for the absent path:\n%s", log.String())
	}
	// WT-CLONE-3: every regular .env of the cloned tree, with its mode.
	deep := filepath.Join(wt, "vendor", "lib", "sub", "deep", ".env")
	if info, err := os.Lstat(deep); err != nil || !info.Mode().IsRegular() || info.Mode().Perm() != 0o600 {
		t.Errorf("the deep .env: %v %v", info, err)
	}
	if b, _ := os.ReadFile(filepath.Join(wt, "vendor", "lib", ".env")); string(b) != "TOP=1\n" {
		t.Errorf("the top .env: %q", b)
	}
	if exists(filepath.Join(wt, "vendor", "lib", "linked", ".env")) {
		t.Error("a .env that is a symbolic link was copied")
	}
	if info, err := os.Lstat(filepath.Join(wt, "conf.txt")); err != nil || !info.Mode().IsRegular() {
		t.Errorf("the link at a file's destination was kept: %v", err)
	}
	if b, _ := os.ReadFile(target); string(b) != "outside\n" {
		t.Error("the copy wrote through the link")
	}
}

// WT-CLONE-1: the destination is the current directory, and a directory
// that is no checkout at all is one too, when the main checkout is named.
// Without a named main checkout there is nothing to clone from, and a
// directory inside a .git directory is never taken for a plain one.
func TestCloneIntoAPlainDirectory(t *testing.T) {
	ctx := context.Background()
	root := gittest.Repo(t, map[string]string{".gitignore": ".env\nvendor/\n", "README.md": "x"})
	gittest.Write(t, root, map[string]string{".env": "KEY=1\n"})
	os.Chmod(filepath.Join(root, ".env"), 0o600)
	lib := gittest.Repo(t, map[string]string{"lib.go": "package lib"})
	gittest.Git(t, lib, "remote", "add", "origin", "https://example.invalid/lib.git")
	gittest.Git(t, root, "clone", "-q", lib, filepath.Join(root, "vendor", "lib"))
	gittest.Git(t, filepath.Join(root, "vendor", "lib"), "remote", "set-url", "origin", "https://example.invalid/lib.git")

	parent := t.TempDir()
	t.Setenv("GIT_CEILING_DIRECTORIES", parent) // whatever holds the temporary directory
	plain := filepath.Join(parent, "plain")
	os.Mkdir(plain, 0o755)
	var log bytes.Buffer
	if err := worktree.Clone(ctx, plain, root, []string{".env", "vendor"}, &log); err != nil {
		t.Fatalf("clone into a plain directory: %v\n%s", err, log.String())
	}
	if info, err := os.Lstat(filepath.Join(plain, ".env")); err != nil || !info.Mode().IsRegular() || info.Mode().Perm() != 0o600 {
		t.Errorf("the .env in the plain directory: %v %v", info, err)
	}
	if url := gittest.Git(t, filepath.Join(plain, "vendor", "lib"), "remote", "get-url", "origin"); url != "https://example.invalid/lib.git" {
		t.Errorf("the clone's origin = %q", url)
	}

	other := filepath.Join(parent, "other")
	os.Mkdir(other, 0o755)
	err := worktree.Clone(ctx, other, "", []string{".env"}, &log)
	if err == nil || !strings.Contains(err.Error(), "MAGEHOOK_ROOT") {
		t.Errorf("a plain directory with no main checkout named: %v", err)
	}
	inGit := filepath.Join(root, ".git", "scratch")
	os.Mkdir(inGit, 0o755)
	if err := worktree.Clone(ctx, inGit, root, []string{".env"}, &log); err == nil {
		t.Error("a directory inside .git was taken for a plain directory")
	}
	for _, dir := range []string{other, inGit} {
		if entries, _ := os.ReadDir(dir); len(entries) != 0 {
			t.Errorf("a refused clone wrote into %s: %v", dir, entries)
		}
	}
}

// The bootstrap's existence is Mage's answer: a helper named bootstrap
// that Mage does not export is no target, and the create goes on with a
// message; worktree.bootstrap none runs nothing; a target named in a
// .toolingrc that Mage lacks fails the create.
func TestBootstrapIsMagesAnswer(t *testing.T) {
	root := gittest.MageRepoWith(t, `//go:build mage

package main

// Build builds.
func Build() error { return bootstrap() }

func bootstrap() error { return nil }
`)
	ctx := context.Background()
	m, log := manager(t, root)
	if _, err := m.Create(ctx, "helper"); err != nil {
		t.Fatalf("an unexported helper made the create fail: %v\n%s", err, log)
	}
	if !strings.Contains(log.String(), "has no target bootstrap") {
		t.Errorf("a missing bootstrap was silent:\n%s", log)
	}
	m.Bootstrap, m.BootstrapSet = "setup", true
	if _, err := m.Create(ctx, "named"); err == nil || !strings.Contains(err.Error(), "no such target") {
		t.Errorf("a named target Mage lacks: %v", err)
	}
	log.Reset()
	m.Bootstrap = worktree.BootstrapNone
	if _, err := m.Create(ctx, "off"); err != nil || strings.Contains(log.String(), "bootstrap") {
		t.Errorf("none: %v\n%s", err, log)
	}
}

func TestListsTarget(t *testing.T) {
	list := "Targets:\n  bootstrap*    prepares.\n  hook:build    builds.\n\n* default target\n"
	for target, want := range map[string]bool{"bootstrap": true, "Bootstrap": true, "hook:Build": true, "build": false, "Targets:": false} {
		if got := worktree.ListsTarget(list, target); got != want {
			t.Errorf("ListsTarget(%q) = %v", target, got)
		}
	}
}

// WT-REMOVE-6: a parallel remove that removes the worktree first is not
// an error.
func TestParallelRemovesOfOneWorktree(t *testing.T) {
	ctx := context.Background()
	root := gittest.Repo(t, nil)
	m, log := manager(t, root)
	for i := 0; i < 3; i++ {
		name := "par" + string(rune('a'+i))
		path, err := m.Create(ctx, name)
		if err != nil {
			t.Fatal(err)
		}
		gittest.Write(t, path, map[string]string{"big/tree/" + name + ".txt": "x"})
		gittest.Git(t, path, "add", "-A")
		gittest.Git(t, path, "commit", "-q", "-m", "w")
		gittest.Git(t, root, "merge", "-q", "--ff-only", name)
		errs := make(chan error, 4)
		for j := 0; j < 4; j++ {
			go func() { errs <- m.Remove(ctx, name, false) }()
		}
		for j := 0; j < 4; j++ {
			if err := <-errs; err != nil {
				t.Errorf("a parallel remove of %s: %v\n%s", name, err, log)
			}
		}
		if exists(path) || gittest.Git(t, root, "branch", "--list", name) != "" {
			t.Errorf("%s left behind", name)
		}
	}
}

// WT-CREATE-4: the bootstrap gets MAIN, the main checkout, and works on
// the worktree even when the operator's MAGEHOOK_ROOT names the main
// checkout.
func TestBootstrapWorksOnTheWorktree(t *testing.T) {
	root := gittest.MageRepo(t, `wd, _ = os.Getwd()
	return os.WriteFile(wd+"/root.marker", []byte(os.Getenv("MAGEHOOK_ROOT")), 0o644)`)
	t.Setenv("MAGEHOOK_ROOT", root)
	m, log := manager(t, root)
	path, err := m.Create(context.Background(), "boot")
	if err != nil {
		t.Fatalf("%v\n%s", err, log)
	}
	if b, _ := os.ReadFile(filepath.Join(path, "root.marker")); string(b) != path {
		t.Errorf("MAGEHOOK_ROOT in the bootstrap = %q, want the worktree %s", b, path)
	}
}
