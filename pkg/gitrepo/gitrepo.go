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
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/magehook/magehook/pkg/gitx"
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
	// Branch is the checked-out branch (refs/heads/ stripped), the end of
	// any chain of symbolic refs; empty when HEAD is detached.
	Branch string
	// Head is what HEAD names directly, when it differs from Branch (a
	// branch that is a symbolic ref to another).
	Head string
	// CommonDir is the directory holding refs and config: GitDir for a
	// main checkout, the main repository's .git for a linked worktree.
	CommonDir string
	// Unknown says why the branch could not be read (Branch is then
	// empty and must not be taken for a detached HEAD).
	Unknown string
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
	return FindResolved(dir)
}

// FindResolved is Find for a path realpath.Resolve has already resolved.
func FindResolved(dir string) (Repo, error) {
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
	common, cerr := commonDir(gitDir)
	r := Repo{Root: root, GitDir: gitDir, CommonDir: common}
	if cerr != nil {
		// A commondir that is there but not a file of one line (a FIFO,
		// a device) hides where the refs are: the branch is not known.
		r.Unknown = cerr.Error()
		return r, nil
	}
	head := filepath.Join(gitDir, "HEAD")
	info, err := os.Lstat(head)
	if err != nil {
		return Repo{}, fmt.Errorf("read the HEAD of %s: %w", root, err)
	}
	var target string
	if info.Mode()&os.ModeSymlink != 0 {
		// An old-style symlinked HEAD: the link names the ref file.
		link, err := os.Readlink(head)
		if err != nil {
			return Repo{}, fmt.Errorf("read the HEAD of %s: %w", root, err)
		}
		target = filepath.ToSlash(link)
		if i := strings.Index(target, "refs/"); i >= 0 {
			target = target[i:]
		}
	} else {
		data, err := regfile.ReadFile(head, 64<<10)
		if err != nil {
			return Repo{}, fmt.Errorf("read the HEAD of %s: %w", root, err)
		}
		line := strings.TrimSpace(string(data))
		ref, ok := strings.CutPrefix(line, "ref:")
		if !ok {
			return r, nil // detached
		}
		target = strings.TrimSpace(ref)
	}
	if target == "refs/heads/.invalid" || isReftable(r.CommonDir) {
		branch, err := askGit(root, gitDir)
		if err == nil && branch == "refs/heads/.invalid" {
			err = errors.New("this git does not read reftables")
		}
		if err != nil {
			r.Unknown = "the repository keeps its refs in a reftable and git could not say which branch is checked out (" + err.Error() + ")"
			return r, nil
		}
		target = branch
		if target == "" {
			return r, nil
		}
	}
	final, err := Resolve(r.CommonDir, target)
	if err != nil {
		r.Unknown = err.Error()
		return r, nil
	}
	r.Branch = strings.TrimPrefix(final, "refs/heads/")
	if final != target {
		r.Head = strings.TrimPrefix(target, "refs/heads/")
	}
	return r, nil
}

// CommonDir is where a git directory's refs and config live (its
// commondir file, for a linked worktree).
// It is gitDir itself when the file cannot be read.
func CommonDir(gitDir string) string {
	c, _ := commonDir(gitDir)
	return c
}

// commonDir is CommonDir with the error for a commondir that exists but
// cannot be read as a regular file of git's (regfile.MaxGitFile).
func commonDir(gitDir string) (string, error) {
	data, err := regfile.ReadFile(filepath.Join(gitDir, "commondir"), regfile.MaxGitFile)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			err = nil
		}
		return gitDir, err
	}
	c := strings.TrimSpace(string(data))
	if !filepath.IsAbs(c) {
		c = filepath.Join(gitDir, c)
	}
	return filepath.Clean(c), nil
}

func isReftable(common string) bool {
	info, err := os.Stat(filepath.Join(common, "reftable"))
	return err == nil && info.IsDir()
}

// askGit runs git symbolic-ref for a HEAD the files cannot tell.
func askGit(root, gitDir string) (string, error) {
	cmd := gitx.Command("--git-dir="+gitDir, "symbolic-ref", "-q", "HEAD")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == 1 {
			return "", nil // detached
		}
		return "", err
	}
	return strings.TrimSpace(string(out)), nil
}

// Resolve follows a ref through symbolic refs (loose files holding
// "ref: ...", bounded as git bounds them) and returns the last name.
func Resolve(common, ref string) (string, error) {
	for range 5 {
		data, err := regfile.ReadFile(filepath.Join(common, filepath.FromSlash(ref)), 64<<10)
		if err != nil {
			return ref, nil // packed, or not born yet: not a symbolic ref
		}
		next, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "ref:")
		if !ok {
			return ref, nil
		}
		ref = strings.TrimSpace(next)
	}
	return "", fmt.Errorf("the symbolic ref %s nests too deep", ref)
}

// RefExists reports whether a ref exists (loose or packed; a symbolic
// ref counts). In a reftable repository it cannot tell: ok is false.
func RefExists(common, ref string) (exists, ok bool) {
	if isReftable(common) {
		return false, false
	}
	if _, err := os.Stat(filepath.Join(common, filepath.FromSlash(ref))); err == nil {
		return true, true
	}
	data, err := regfile.ReadFile(filepath.Join(common, "packed-refs"), regfile.MaxRefs)
	if err != nil {
		// No packed-refs: not there. One that cannot be read (a FIFO, a
		// device, over the limit): cannot tell.
		return false, errors.Is(err, fs.ErrNotExist)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if f := strings.Fields(line); len(f) == 2 && f[1] == ref {
			return true, true
		}
	}
	return false, true
}
