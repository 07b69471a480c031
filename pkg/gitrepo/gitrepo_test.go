package gitrepo_test

import (
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
