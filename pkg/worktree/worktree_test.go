package worktree_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/magehook/magehook/internal/gittest"
	"github.com/magehook/magehook/pkg/worktree"
)

func manager(t *testing.T, root string) (worktree.Manager, *bytes.Buffer) {
	var log bytes.Buffer
	return worktree.Manager{Root: root, Base: filepath.Join(root, ".claude", "worktrees"), Log: &syncWriter{w: &log}}, &log
}

type syncWriter struct {
	mu sync.Mutex
	w  *bytes.Buffer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}

// WT-CREATE-2, CLI-PROGRAM-6: a name reaches git only after its shape check.
func TestValidName(t *testing.T) {
	for _, good := range []string{"feat", "feat/x-1", "bold-oak-a3f2", "a.b_c", "2026/fix"} {
		if err := worktree.ValidName(good); err != nil {
			t.Errorf("ValidName(%q): %v", good, err)
		}
	}
	for _, bad := range []string{"", "-x", "../x", "a/../../b", "..", "a/..", ".hidden", "a//b", "a/", "x\x00y", "x\ny", "a b", "a.lock", "/abs", "a/-b/c/..", "é"} {
		if err := worktree.ValidName(bad); err == nil {
			t.Errorf("ValidName(%q) accepted it", bad)
		}
	}
}

// WT-CREATE-1, HOOK-WORKTREE-3, WT-CREATE-7 (as the seed has it: a
// reconnect bootstraps again and gets the path).
func TestCreateAndReconnect(t *testing.T) {
	root := gittest.Repo(t, nil)
	m, _ := manager(t, root)
	path, err := m.Create(context.Background(), "feat/one")
	if err != nil {
		t.Fatal(err)
	}
	if path != filepath.Join(root, ".claude", "worktrees", "feat", "one") {
		t.Errorf("path %s", path)
	}
	if got := gittest.Git(t, path, "rev-parse", "--abbrev-ref", "HEAD"); got != "feat/one" {
		t.Errorf("branch %s", got)
	}
	if gittest.Git(t, path, "rev-parse", "HEAD") != gittest.Git(t, root, "rev-parse", "HEAD") {
		t.Error("the worktree does not start at the main checkout's HEAD")
	}
	again, err := m.Create(context.Background(), "feat/one")
	if err != nil || again != path {
		t.Errorf("a second create (reconnect): %q, %v", again, err)
	}
	if _, err := m.Create(context.Background(), "feat/one/inner"); err == nil || !strings.Contains(err.Error(), "would sit inside the worktree") {
		t.Errorf("a worktree inside a worktree: %v", err)
	}
}

// WT-CREATE-3: the branch is the lock: of parallel creates of one name,
// one makes the worktree and none leaves a second branch or worktree.
func TestParallelCreatesOfOneName(t *testing.T) {
	root := gittest.Repo(t, nil)
	m, _ := manager(t, root)
	const n = 8
	var wg sync.WaitGroup
	results := make([]error, n)
	start := make(chan struct{})
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			<-start
			_, results[i] = m.Create(context.Background(), "race")
		}(i)
	}
	close(start)
	wg.Wait()
	wins := 0
	for _, err := range results {
		if err == nil {
			wins++
		}
	}
	// A create that starts after the winner finished is a reconnect and
	// succeeds too; what must never happen is two creates or debris.
	if wins < 1 {
		t.Fatalf("no create won: %v", results)
	}
	if got := gittest.Git(t, root, "branch", "--list", "race"); strings.TrimSpace(strings.TrimPrefix(got, "+")) != "race" {
		t.Errorf("branches: %q", got)
	}
	list := gittest.Git(t, root, "worktree", "list", "--porcelain")
	if strings.Count(list, "branch refs/heads/race") != 1 {
		t.Errorf("worktrees:\n%s", list)
	}
}

func TestBootstrapRunsWithMain(t *testing.T) {
	root := gittest.MageRepo(t, "return nil")
	m, _ := manager(t, root)
	path, err := m.Create(context.Background(), "boot")
	if err != nil {
		t.Fatal(err)
	}
	out, err := os.ReadFile(filepath.Join(path, "bootstrap.out"))
	if err != nil || string(out) != "MAIN="+root {
		t.Errorf("bootstrap.out = %q, %v", out, err)
	}
}

// WT-CREATE-6: a failed bootstrap leaves no worktree, no branch and no
// parent directory the create made.
func TestFailedBootstrapLeavesNothing(t *testing.T) {
	root := gittest.MageRepo(t, `return os.ErrPermission`)
	m, log := manager(t, root)
	_, err := m.Create(context.Background(), "deep/nested/fail")
	if err == nil || !strings.Contains(err.Error(), "everything the create made was removed") {
		t.Fatalf("error %v\n%s", err, log)
	}
	assertNothingLeft(t, root, "deep/nested/fail")
}

// WT-CREATE-6, WT-SAFETY-3: an interrupted create (the context SIGINT and
// SIGTERM cancel) stops the bootstrap's whole process group, its child
// included, then removes everything it made.
func TestInterruptedBootstrapLeavesNothing(t *testing.T) {
	root := gittest.MageRepo(t, `
	exec.Command("sh", "-c", "sleep 60 & echo $! > "+os.Getenv("MAIN")+"/child.marker; wait").Start()
	os.WriteFile(os.Getenv("MAIN")+"/started.marker", nil, 0o644)
	time.Sleep(60 * time.Second)
	os.WriteFile(os.Getenv("MAIN")+"/finished.marker", nil, 0o644)
	return nil`)
	m, _ := manager(t, root)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		for !exists(filepath.Join(root, "started.marker")) || !exists(filepath.Join(root, "child.marker")) {
			time.Sleep(20 * time.Millisecond)
		}
		cancel() // what SIGINT or SIGTERM does
	}()
	_, err := m.Create(ctx, "interrupted")
	if err == nil {
		t.Fatal("an interrupted create succeeded")
	}
	if exists(filepath.Join(root, "finished.marker")) {
		t.Errorf("the interrupted bootstrap was not stopped: it ran to its end")
	}
	assertNothingLeft(t, root, "interrupted")
	pid, err := os.ReadFile(filepath.Join(root, "child.marker"))
	if err != nil {
		t.Fatalf("the bootstrap did not start its child: %v", err)
	}
	if alive(strings.TrimSpace(string(pid))) {
		t.Errorf("the bootstrap's child %s outlived the create", pid)
	}
}

func exists(p string) bool { _, err := os.Stat(p); return err == nil }

// alive reports whether a process runs; a zombie (killed, not yet reaped
// by an init that does not reap) does not.
func alive(pid string) bool {
	status, err := os.ReadFile("/proc/" + pid + "/status")
	if err != nil {
		return false
	}
	return !strings.Contains(string(status), "State:\tZ")
}

func assertNothingLeft(t *testing.T, root, name string) {
	t.Helper()
	if branches := gittest.Git(t, root, "branch", "--list", name); branches != "" {
		t.Errorf("branch left: %q", branches)
	}
	if list := gittest.Git(t, root, "worktree", "list", "--porcelain"); strings.Contains(list, name) {
		t.Errorf("worktree left:\n%s", list)
	}
	if entries, _ := os.ReadDir(filepath.Join(root, ".claude", "worktrees")); len(entries) > 0 {
		t.Errorf("directories left under the base: %v", entries)
	}
}

func TestRemoveRefusesWorkAtRisk(t *testing.T) {
	ctx := context.Background()
	root := gittest.Repo(t, nil)
	gittest.Bare(t, root)
	m, _ := manager(t, root)

	dirty, _ := m.Create(ctx, "dirty")
	gittest.Write(t, dirty, map[string]string{"new.txt": "x"})
	unpushed, _ := m.Create(ctx, "unpushed")
	gittest.Commit(t, unpushed, "work", map[string]string{"work.txt": "x"})
	nested, _ := m.Create(ctx, "nested")
	inner := filepath.Join(nested, "vendor", "lib")
	gittest.Git(t, nested, "init", "-q", inner)
	gittest.Write(t, inner, map[string]string{"f": "x"})

	for name, cause := range map[string]string{
		"dirty":    "1 uncommitted change(s) in " + dirty,
		"unpushed": unpushed + ": 1 commit(s) neither a remote nor main holds",
		"nested":   "uncommitted change(s) in " + inner,
	} {
		err := m.Remove(ctx, name, false)
		if err == nil || !strings.Contains(err.Error(), cause) {
			t.Errorf("remove %s: %v, want the cause %q", name, err, cause)
		}
		if !exists(m.Path(name)) {
			t.Errorf("remove %s deleted the worktree it refused", name)
		}
	}
	if err := m.Remove(ctx, "dirty", true); err != nil || exists(dirty) {
		t.Errorf("-force: %v", err)
	}
	gittest.Git(t, unpushed, "push", "-q", "origin", "unpushed")
	if err := m.Remove(ctx, "unpushed", false); err != nil {
		t.Errorf("a pushed worktree: %v", err)
	}
	if err := m.Remove(ctx, "unpushed", false); err != nil {
		t.Errorf("a second remove: %v", err)
	}
}

func TestRemoveWithoutRemote(t *testing.T) {
	ctx := context.Background()
	root := gittest.Repo(t, nil)
	m, _ := manager(t, root)
	merged, _ := m.Create(ctx, "merged")
	gittest.Commit(t, merged, "done", map[string]string{"a.txt": "a"})
	if err := m.Remove(ctx, "merged", false); err == nil || !strings.Contains(err.Error(), "neither a remote nor main holds") {
		t.Errorf("a commit main does not hold: %v", err)
	}
	gittest.Git(t, root, "merge", "-q", "--ff-only", "merged")
	if err := m.Remove(ctx, "merged", false); err != nil {
		t.Errorf("a commit main holds is safe: %v", err)
	}
	if got := gittest.Git(t, root, "branch", "--list", "merged"); got != "" {
		t.Errorf("the branch was kept: %q", got)
	}
}

// WT-REMOVE-5: remove never deletes main nor the main checkout's branch.
func TestRemoveNeverDeletesMain(t *testing.T) {
	ctx := context.Background()
	root := gittest.Repo(t, nil)
	m, _ := manager(t, root)
	gittest.Git(t, root, "checkout", "-q", "-b", "trunk")
	gittest.Git(t, root, "worktree", "add", "-q", m.Path("main"), "main")
	if err := m.Remove(ctx, "main", true); err != nil {
		t.Fatal(err)
	}
	if gittest.Git(t, root, "branch", "--list", "main") == "" {
		t.Error("remove deleted the branch main")
	}
	gittest.Git(t, root, "branch", "-q", "side")
	gittest.Git(t, root, "checkout", "-q", "side")
	// WT-REMOVE-5: the main checkout's branch, with no worktree, is kept.
	if err := m.Remove(ctx, "side", true); err != nil {
		t.Fatal(err)
	}
	if gittest.Git(t, root, "branch", "--list", "side") == "" {
		t.Error("remove deleted the branch the main checkout has checked out")
	}
}

func TestRemoveDebris(t *testing.T) {
	ctx := context.Background()
	root := gittest.Repo(t, nil)
	m, _ := manager(t, root)

	gittest.Git(t, root, "branch", "orphan-branch")
	if err := m.Remove(ctx, "orphan-branch", false); err != nil {
		t.Errorf("a branch without a directory: %v", err)
	}
	if gittest.Git(t, root, "branch", "--list", "orphan-branch") != "" {
		t.Error("the branch was kept")
	}

	if err := os.MkdirAll(m.Path("stray/dir"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := m.Remove(ctx, "stray/dir", false); err != nil || exists(m.Path("stray")) {
		t.Errorf("an empty directory git does not know: %v", err)
	}

	locked, _ := m.Create(ctx, "locked")
	gittest.Git(t, root, "worktree", "lock", locked)
	if err := m.Remove(ctx, "locked", false); err != nil || exists(locked) {
		t.Errorf("a locked worktree: %v", err)
	}
	if err := m.Remove(ctx, "locked", false); err != nil {
		t.Errorf("a second remove: %v", err)
	}
}

func TestRemoveRefusesAPathOutsideTheBase(t *testing.T) {
	ctx := context.Background()
	root := gittest.Repo(t, nil)
	m, _ := manager(t, root)
	outside := t.TempDir()
	gittest.Write(t, outside, map[string]string{"precious.txt": "keep"})
	if err := os.MkdirAll(m.Base, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, m.Path("evil")); err != nil {
		t.Fatal(err)
	}
	err := m.Remove(ctx, "evil", true)
	if err == nil || !strings.Contains(err.Error(), "resolves outside") {
		t.Errorf("a symlink out of the base: %v", err)
	}
	if !exists(filepath.Join(outside, "precious.txt")) {
		t.Error("remove followed the link out of the base")
	}
}

func TestList(t *testing.T) {
	ctx := context.Background()
	root := gittest.Repo(t, nil)
	m, _ := manager(t, root)
	var out bytes.Buffer
	if err := m.List(ctx, &out); err != nil || out.String() != "no worktrees\n" {
		t.Errorf("empty list: %q %v", out.String(), err)
	}
	m.Create(ctx, "a-clean")
	dirty, _ := m.Create(ctx, "b-dirty")
	gittest.Write(t, dirty, map[string]string{"x": "y"})
	out.Reset()
	if err := m.List(ctx, &out); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	// WT-LIST-1, and the line naming what worktree:prune would remove.
	if len(lines) != 3 || lines[0] != "a-clean                                     0 d  clean" ||
		!strings.HasPrefix(lines[1], "b-dirty                                     0 d  1 uncommitted change(s)") ||
		lines[2] != "safe to remove (worktree:prune removes them): a-clean" {
		t.Errorf("list:\n%s", out.String())
	}
}

func TestClone(t *testing.T) {
	ctx := context.Background()
	root := gittest.Repo(t, map[string]string{".gitignore": ".env\nvendor/\ndeps/\nbuild/\n", "README.md": "x"})
	gittest.Write(t, root, map[string]string{".env": "SECRET=1\n", "build/out.txt": "o"})
	os.Chmod(filepath.Join(root, ".env"), 0o600)
	lib := gittest.Repo(t, map[string]string{"lib.go": "package lib"})
	gittest.Git(t, lib, "remote", "add", "origin", "https://example.com/lib.git")
	gittest.Git(t, root, "clone", "-q", lib, filepath.Join(root, "vendor", "lib"))
	gittest.Git(t, filepath.Join(root, "vendor", "lib"), "remote", "set-url", "origin", "https://example.com/lib.git")
	gittest.Git(t, root, "clone", "-q", lib, filepath.Join(root, "deps"))
	gittest.Git(t, filepath.Join(root, "deps"), "remote", "set-url", "origin", "https://example.com/deps.git")

	m, _ := manager(t, root)
	wt, err := m.Create(ctx, "cl")
	if err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	if err := worktree.Clone(ctx, wt, "", []string{".env", "vendor", "deps", "build"}, &log); err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	if info, err := os.Stat(filepath.Join(wt, ".env")); err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf(".env: %v %v", info, err)
	}
	if url := gittest.Git(t, filepath.Join(wt, "vendor", "lib"), "remote", "get-url", "origin"); url != "https://example.com/lib.git" {
		t.Errorf("a directory of repositories: the child's origin is %s", url)
	}
	if url := gittest.Git(t, filepath.Join(wt, "deps"), "remote", "get-url", "origin"); url != "https://example.com/deps.git" {
		t.Errorf("a repository's clone has origin %s, want the source's origin URL", url)
	}
	if b, _ := os.ReadFile(filepath.Join(wt, "build", "out.txt")); string(b) != "o" {
		t.Error("a plain directory was not copied")
	}
	// A second run keeps what exists.
	os.WriteFile(filepath.Join(wt, ".env"), []byte("CHANGED"), 0o600)
	if err := worktree.Clone(ctx, wt, "", []string{".env"}, &log); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(wt, ".env")); string(b) != "CHANGED" {
		t.Error("an existing destination was overwritten")
	}
	for _, bad := range []string{"../x", ".", "/etc/passwd"} {
		if err := worktree.Clone(ctx, wt, "", []string{bad}, &log); err == nil {
			t.Errorf("Clone(%q) accepted it", bad)
		}
	}
	log.Reset()
	if err := worktree.Clone(ctx, root, "", []string{".env"}, &log); err != nil || !strings.Contains(log.String(), "is the main checkout; nothing to clone") {
		t.Errorf("in the main checkout: %v %q", err, log.String())
	}
}
