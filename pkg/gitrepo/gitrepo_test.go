package gitrepo_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/magehook/magehook/internal/gittest"
	"github.com/magehook/magehook/pkg/gitrepo"
)

func TestFind(t *testing.T) {
	root := gittest.Repo(t, map[string]string{"src/a.go": "package a"})
	r, err := gitrepo.Find(filepath.Join(root, "src", "a.go"))
	if err != nil || r.Root != root || r.Branch != "main" {
		t.Errorf("a file in the main checkout: %+v %v", r, err)
	}
	r, err = gitrepo.Find(filepath.Join(root, "src", "new", "deep", "b.go"))
	if err != nil || r.Branch != "main" {
		t.Errorf("a file not written yet: %+v %v", r, err)
	}
	wt := filepath.Join(t.TempDir(), "wt")
	gittest.Git(t, root, "worktree", "add", "-q", "-b", "feature", wt)
	r, err = gitrepo.Find(filepath.Join(wt, "src", "a.go"))
	if err != nil || r.Root != wt || r.Branch != "feature" {
		t.Errorf("a linked worktree: %+v %v", r, err)
	}
	gittest.Git(t, root, "checkout", "-q", "--detach")
	r, _ = gitrepo.Find(root)
	if r.Branch != "" {
		t.Errorf("a detached HEAD has no branch: %+v", r)
	}
	if _, err := gitrepo.Find(t.TempDir()); err != gitrepo.ErrNotRepo {
		t.Errorf("outside a repository: %v", err)
	}
	sub := filepath.Join(root, "vendor", "lib")
	lib := gittest.Repo(t, nil)
	gittest.Git(t, root, "-c", "protocol.file.allow=always", "submodule", "add", "-q", lib, "vendor/lib")
	gittest.Git(t, sub, "checkout", "-q", "-b", "sub-branch")
	r, err = gitrepo.Find(filepath.Join(sub, "README.md"))
	if err != nil || r.Root != sub || r.Branch != "sub-branch" {
		t.Errorf("a submodule (.git file): %+v %v", r, err)
	}
}

func TestHeadResolvedAsGitDoes(t *testing.T) {
	root := gittest.Repo(t, nil)
	// A branch that is a symbolic ref to main: a commit on it moves main.
	gittest.Git(t, root, "symbolic-ref", "refs/heads/alias", "refs/heads/main")
	gittest.Git(t, root, "symbolic-ref", "HEAD", "refs/heads/alias")
	r, err := gitrepo.Find(root)
	if err != nil || r.Branch != "main" || r.Head != "alias" {
		t.Errorf("a symbolic-ref branch: %+v %v", r, err)
	}
	// An old-style symlinked HEAD.
	gittest.Git(t, root, "symbolic-ref", "HEAD", "refs/heads/main")
	head := filepath.Join(root, ".git", "HEAD")
	if err := os.Remove(head); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("refs/heads/main", head); err != nil {
		t.Fatal(err)
	}
	r, err = gitrepo.Find(root)
	if err != nil || r.Branch != "main" {
		t.Errorf("a symlinked HEAD: %+v %v", r, err)
	}
	// A reftable HEAD this git cannot read: unknown, never "detached".
	os.Remove(head)
	os.WriteFile(head, []byte("ref: refs/heads/.invalid\n"), 0o644)
	os.Mkdir(filepath.Join(root, ".git", "reftable"), 0o755)
	r, err = gitrepo.Find(root)
	if err != nil || (r.Unknown == "" && r.Branch != "main") || r.Branch == ".invalid" {
		t.Errorf("a reftable HEAD: %+v %v", r, err)
	}
}
