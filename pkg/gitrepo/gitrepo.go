// Package gitrepo reads which branch a repository has checked out from its
// files (HEAD, and the .git file of a linked worktree or a submodule),
// without starting git: a git process costs more than a whole hook run.
//
// Paths are resolved as the operating system resolves them (symbolic links
// followed, ".." after a link taken in the link's target), so the
// repository found is the one a write to the path changes. Only regular
// files are read: a FIFO named .git or HEAD is an error, never a read that
// blocks.
package gitrepo

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/magehook/magehook/pkg/realpath"
	"github.com/magehook/magehook/pkg/regfile"
)

// Repo is the repository holding a path.
type Repo struct {
	// Root is the working tree's top directory.
	Root string
	// GitDir is the directory holding HEAD (for a linked worktree, its
	// directory under the main repository's .git/worktrees).
	GitDir string
	// Branch is the checked-out branch; empty when HEAD is detached.
	Branch string
}

// ErrNotRepo is returned for a path outside any repository.
var ErrNotRepo = errors.New("not inside a git repository")

// Find returns the repository holding path: the nearest ancestor (the path
// itself included) with a .git directory or file. A path that does not
// exist yet (a file about to be written) is looked up from its nearest
// existing ancestor.
func Find(path string) (Repo, error) {
	dir, err := realpath.Resolve(path)
	if err != nil {
		return Repo{}, err
	}
	for {
		if info, err := os.Stat(dir); err == nil && info.IsDir() {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return Repo{}, ErrNotRepo
		}
		dir = parent
	}
	for {
		dotgit := filepath.Join(dir, ".git")
		info, err := os.Stat(dotgit)
		if err == nil {
			gitDir := dotgit
			if !info.IsDir() {
				if gitDir, err = readGitFile(dotgit); err != nil {
					return Repo{}, err
				}
			}
			return Open(dir, gitDir)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return Repo{}, ErrNotRepo
		}
		dir = parent
	}
}

// readGitFile follows a .git file ("gitdir: <path>").
func readGitFile(path string) (string, error) {
	data, err := regfile.ReadFile(path, 64<<10)
	if err != nil {
		return "", err
	}
	line := strings.TrimSpace(string(data))
	target, ok := strings.CutPrefix(line, "gitdir:")
	if !ok {
		return "", fmt.Errorf("%s is not a gitdir file", path)
	}
	target = strings.TrimSpace(target)
	if !filepath.IsAbs(target) {
		target = filepath.Join(filepath.Dir(path), target)
	}
	return filepath.Clean(target), nil
}

// Open reads the HEAD of a git directory.
func Open(root, gitDir string) (Repo, error) {
	data, err := regfile.ReadFile(filepath.Join(gitDir, "HEAD"), 64<<10)
	if err != nil {
		return Repo{}, fmt.Errorf("read the HEAD of %s: %w", root, err)
	}
	r := Repo{Root: root, GitDir: gitDir}
	head := strings.TrimSpace(string(data))
	if ref, ok := strings.CutPrefix(head, "ref:"); ok {
		r.Branch = strings.TrimPrefix(strings.TrimSpace(ref), "refs/heads/")
	}
	return r, nil
}
