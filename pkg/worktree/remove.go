package worktree

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/magehook/magehook/pkg/gitx"
	"github.com/magehook/magehook/pkg/lockfile"
	"github.com/magehook/magehook/pkg/regfile"
)

// Remove removes the worktree of name, its branch and the empty parent
// directories up to the base (WT-REMOVE-1..7). Unless force, it refuses a
// worktree holding work at risk and names every cause. It never deletes
// the branch main nor the branch the main checkout has checked out, never
// touches a path outside the base, and takes the debris of a killed create
// (WT-REMOVE-4, WT-SAFETY-2): a branch without a directory, a directory
// git does not know (when magehook made it, or when it is empty), an
// orphan bootstrap process still running in it, a locked worktree, a
// worktree deleted by hand. A second run changes nothing.
func (m Manager) Remove(ctx context.Context, name string, force bool) error {
	if err := ValidName(name); err != nil {
		return err
	}
	common, err := m.checkMain(ctx)
	if err != nil {
		return err
	}
	causes, err := m.remove(ctx, common, name, force)
	if err != nil {
		return err
	}
	if len(causes) > 0 {
		return fmt.Errorf("worktree %s holds work at risk (worktree:remove %s -force removes it anyway):\n  - %s", name, name, strings.Join(causes, "\n  - "))
	}
	return nil
}

// remove removes one worktree, or returns the causes that keep it. It
// holds the name's lock, the one a create of the name takes, so parallel
// removes (and a create) of one name run one after the other: the second
// finds nothing to remove (WT-REMOVE-6).
func (m Manager) remove(ctx context.Context, common, name string, force bool) ([]string, error) {
	unlock, err := lockName(ctx, common, name)
	if err != nil {
		return nil, err
	}
	defer unlock()
	path := m.Path(name)
	if exists(path) {
		real, err := filepath.EvalSymlinks(path)
		base, berr := filepath.EvalSymlinks(m.Base)
		if err != nil || berr != nil || !strictlyBelow(real, base) {
			return nil, fmt.Errorf("%s resolves outside %s; magehook removes only worktrees inside the base", path, m.Base)
		}
	}
	g := m.git(m.Root)
	wts, err := m.list(ctx)
	if err != nil {
		return nil, err
	}
	var wt *entry
	for i := range wts {
		if sameFile(wts[i].Path, path) || filepath.Clean(wts[i].Path) == filepath.Clean(path) {
			wt = &wts[i]
		}
	}
	hasBranch := g.OK(ctx, "rev-parse", "--verify", "--quiet", "refs/heads/"+name)
	mainBranch := m.mainBranch(ctx)
	ours := recorded(common, name)
	if !exists(path) && wt == nil && !hasBranch {
		forget(common, name)
		m.say("no worktree %s and no branch %s: nothing to remove", path, name)
		return nil, nil
	}
	keepBranch := name == "main" || name == mainBranch
	if keepBranch && !exists(path) && wt == nil {
		// Only the branch is there, and it is one remove never deletes
		// (WT-REMOVE-5): say so rather than report a removal.
		forget(common, name)
		m.say("no worktree %s, and branch %s is main or the main checkout's branch, which worktree:remove never deletes: nothing to remove", path, name)
		return nil, nil
	}
	if !force {
		st := m.state(ctx, path, wt, name, hasBranch && !keepBranch, mainBranch, ours)
		if len(st) > 0 {
			return st, nil
		}
	}
	if n := stopOrphans(path); n > 0 {
		m.say("stopped %d bootstrap process(es) a killed create left in %s", n, path)
	}
	if wt != nil {
		if wt.Locked {
			g.Run(ctx, "worktree", "unlock", wt.Path)
		}
		if err := g.Run(ctx, "worktree", "remove", "--force", wt.Path); err != nil && exists(path) {
			m.say("%v; removing the directory", err)
		}
	}
	if err := os.RemoveAll(path); err != nil {
		return nil, err
	}
	g.Run(ctx, "worktree", "prune")
	if hasBranch && !keepBranch {
		// A parallel remove that deleted the branch first is not an
		// error (WT-REMOVE-6).
		if err := g.Run(ctx, "branch", "-D", name); err != nil && g.OK(ctx, "rev-parse", "--verify", "--quiet", "refs/heads/"+name) {
			return nil, err
		}
	}
	forget(common, name)
	for d := filepath.Dir(path); strictlyBelow(d, m.Base); d = filepath.Dir(d) {
		if os.Remove(d) != nil {
			break
		}
	}
	m.say("removed worktree %s", name)
	return nil, nil
}

// state lists why removing a worktree would lose work (WT-REMOVE-2):
// uncommitted changes in it or in a repository inside it, commits no
// remote and no main checkout branch holds, and a non-empty directory git
// does not know that magehook did not make (ours reports a record).
func (m Manager) state(ctx context.Context, path string, wt *entry, branch string, checkBranch bool, mainBranch string, ours bool) []string {
	var causes []string
	headChecked := false
	if exists(path) {
		switch {
		case wt != nil && exists(filepath.Join(path, ".git")):
			causes = append(causes, repoRisks(ctx, path, mainBranch, true)...)
			headChecked = wt.Branch == branch
		case !ours:
			// git does not know it, or its .git is gone: its state
			// cannot be read, and someone may have put work there.
			if entries, _ := os.ReadDir(path); len(entries) > 0 {
				causes = append(causes, fmt.Sprintf("%s is a directory git cannot read (not a worktree, or its .git is gone), not made by magehook, and not empty", path))
			}
		}
		for _, repo := range nestedRepos(path) {
			if repo.Linked {
				causes = append(causes, uncommitted(ctx, repo.Path)...)
				continue
			}
			causes = append(causes, repoRisks(ctx, repo.Path, "", false)...)
		}
	}
	if checkBranch && !headChecked {
		if n := unheld(ctx, m.Root, "refs/heads/"+branch, mainBranch, true); n != "" {
			causes = append(causes, fmt.Sprintf("branch %s has %s", branch, n))
		}
	}
	return causes
}

// repoRisks reports uncommitted changes in a repository and commits of
// its HEAD that nothing else holds. linked marks a linked worktree, which
// shares its refs with the main checkout: its count reads its own HEAD
// alone, and the main checkout's branch holds commits too (WT-REMOVE-3).
func repoRisks(ctx context.Context, dir, mainBranch string, linked bool) []string {
	causes := uncommitted(ctx, dir)
	if n := unheld(ctx, dir, "HEAD", mainBranch, linked); n != "" {
		causes = append(causes, fmt.Sprintf("%s: %s", dir, n))
	}
	return causes
}

// uncommitted reports the uncommitted changes of a repository.
func uncommitted(ctx context.Context, dir string) []string {
	status, err := gitx.Git{Dir: dir}.Output(ctx, "status", "--porcelain", "--ignore-submodules=none")
	if err != nil {
		return []string{fmt.Sprintf("%s: cannot read its status: %v", dir, err)}
	}
	if n := len(gitx.Lines(status)); n > 0 {
		return []string{fmt.Sprintf("%d uncommitted change(s) in %s", n, dir)}
	}
	return nil
}

// unheld describes the commits of rev that no remote-tracking branch
// holds, nor the main checkout's branch (for a linked worktree or a
// branch of the main repository), nor, in a repository without a remote,
// its main branch; "" when there are none. This is safer than
// WT-REMOVE-2's letter in one way only: a commit the main checkout's own
// branch holds is not lost by removing a worktree, remote or not.
func unheld(ctx context.Context, dir, rev, mainBranch string, shared bool) string {
	g := gitx.Git{Dir: dir}
	remotes, _ := g.Output(ctx, "remote")
	args := []string{"rev-list", "--count", rev, "--not", "--remotes"}
	what := "no remote holds"
	switch {
	case shared && mainBranch != "":
		args = append(args, "refs/heads/"+mainBranch)
		what = "neither a remote nor " + mainBranch + " holds"
	case len(gitx.Lines(remotes)) == 0:
		if !g.OK(ctx, "rev-parse", "--verify", "--quiet", "refs/heads/main") {
			return "" // no remote and no main: its own HEAD is all it has
		}
		args = append(args, "refs/heads/main")
		what = "main does not hold"
	}
	n, err := g.Output(ctx, args...)
	if err != nil || n == "0" {
		return ""
	}
	return n + " commit(s) " + what
}

// nested is a repository found inside a worktree.
type nested struct {
	Path string
	// Linked marks a linked worktree (of this or another repository):
	// its refs live with its main checkout, so only its uncommitted
	// changes are at risk when the directory goes.
	Linked bool
}

// nestedRepos finds the repositories inside a worktree; the walk stops at
// each one it finds, never enters a nested worktree, and skips the
// worktree's scratch/ (WT-REMOVE-3).
func nestedRepos(root string) []nested {
	var repos []nested
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || !d.IsDir() || p == root {
			return nil
		}
		switch {
		case d.Name() == ".git":
			return filepath.SkipDir
		case d.Name() == "scratch" && filepath.Dir(p) == root:
			return filepath.SkipDir
		}
		gitPath := filepath.Join(p, ".git")
		if info, err := os.Lstat(gitPath); err == nil {
			repos = append(repos, nested{Path: p, Linked: !info.IsDir() && isLinkedWorktree(gitPath)})
			return filepath.SkipDir
		}
		return nil
	})
	return repos
}

// isLinkedWorktree reports whether a .git file points into a worktrees/
// directory of some repository (a linked worktree, not a submodule).
func isLinkedWorktree(gitFile string) bool {
	data, err := regfile.ReadFile(gitFile, 1<<16) // never block on a FIFO named .git
	if err != nil {
		return false
	}
	line := strings.TrimSpace(strings.TrimPrefix(string(data), "gitdir:"))
	return strings.Contains(filepath.ToSlash(line), "/worktrees/")
}

// lockName waits for the lock of a worktree name.
func lockName(ctx context.Context, common, name string) (func(), error) {
	for {
		unlock, held, err := lockfile.TryLock(lockFile(common, name))
		if err != nil || !held {
			return unlock, err
		}
		select {
		case <-ctx.Done():
			return func() {}, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}
