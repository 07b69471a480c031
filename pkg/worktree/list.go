package worktree

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// Worktree is one worktree under the base, with what keeps it.
type Worktree struct {
	Name string
	Path string
	// Age is its age in days, from its .git file (which records the
	// creation and which later work leaves alone); -1 when unreadable.
	Age int
	// Causes are the work at risk; none means it is safe to remove.
	Causes []string
	// Made reports that magehook created it.
	Made bool
}

// Worktrees lists the worktrees under the base that git knows, and the
// debris of creates magehook made (a record without a worktree), sorted
// by name.
func (m Manager) Worktrees(ctx context.Context) ([]Worktree, error) {
	common, err := m.checkMain(ctx)
	if err != nil {
		return nil, err
	}
	wts, err := m.list(ctx)
	if err != nil {
		return nil, err
	}
	mainBranch := m.mainBranch(ctx)
	seen := map[string]bool{}
	var out []Worktree
	for _, wt := range wts {
		if !strictlyBelowResolved(wt.Path, m.Base) {
			continue
		}
		rel, err := filepath.Rel(m.Base, wt.Path)
		if err != nil || strings.HasPrefix(rel, "..") {
			rb, _ := filepath.EvalSymlinks(m.Base)
			rel, _ = filepath.Rel(rb, wt.Path)
		}
		name := filepath.ToSlash(rel)
		seen[name] = true
		w := Worktree{Name: name, Path: wt.Path, Age: -1, Made: recorded(common, name) || wt.Branch == name}
		if info, err := os.Stat(filepath.Join(wt.Path, ".git")); err == nil {
			w.Age = int(time.Since(info.ModTime()).Hours() / 24)
		}
		w.Causes = m.state(ctx, wt.Path, &wt, wt.Branch, wt.Branch != "" && wt.Branch != mainBranch && wt.Branch != "main", mainBranch, w.Made)
		out = append(out, w)
	}
	for _, name := range made(common) {
		if seen[name] || ValidName(name) != nil {
			continue
		}
		w := Worktree{Name: name, Path: m.Path(name), Age: -1, Made: true}
		hasBranch := m.git(m.Root).OK(ctx, "rev-parse", "--verify", "--quiet", "refs/heads/"+name)
		w.Causes = m.state(ctx, w.Path, nil, name, hasBranch && name != mainBranch && name != "main", mainBranch, true)
		out = append(out, w)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// List prints one line per worktree (WT-LIST-1): its name, its age in
// days and its state, "clean" or the causes that would stop
// worktree:remove; then, when some are safe to remove, a line naming them
// and worktree:prune. Without worktrees it prints "no worktrees"
// (WT-LIST-2).
func (m Manager) List(ctx context.Context, w io.Writer) error {
	all, err := m.Worktrees(ctx)
	if err != nil {
		return err
	}
	if len(all) == 0 {
		_, err := fmt.Fprintln(w, "no worktrees")
		return err
	}
	var safe []string
	for _, wt := range all {
		age, state := "?", "clean"
		if wt.Age >= 0 {
			age = fmt.Sprint(wt.Age)
		}
		if len(wt.Causes) > 0 {
			state = strings.Join(wt.Causes, "; ")
		} else if wt.Made {
			safe = append(safe, wt.Name)
		}
		fmt.Fprintf(w, "%-40s %4s d  %s\n", wt.Name, age, state)
	}
	if len(safe) > 0 {
		_, err = fmt.Fprintf(w, "safe to remove (worktree:prune removes them): %s\n", strings.Join(safe, ", "))
	}
	return err
}

// Prune removes, in one go, every worktree magehook made that holds no
// work at risk, and names each one it keeps and why. With dryRun it only
// says what it would do. Claude Code leaves the removal of hook-made
// worktrees to WorktreeRemove, which removes nothing (HOOK-WORKTREE-2),
// and never fires it for sub-agent worktrees: this is the operator's
// sweep. It returns the names removed (or that would be).
func (m Manager) Prune(ctx context.Context, dryRun bool) ([]string, error) {
	common, err := m.checkMain(ctx)
	if err != nil {
		return nil, err
	}
	all, err := m.Worktrees(ctx)
	if err != nil {
		return nil, err
	}
	var removed []string
	for _, wt := range all {
		switch {
		case !wt.Made:
			m.say("kept %s: magehook did not make it (worktree:remove %s removes it)", wt.Name, wt.Name)
		case len(wt.Causes) > 0:
			m.say("kept %s: %s", wt.Name, strings.Join(wt.Causes, "; "))
		case dryRun:
			m.say("would remove %s", wt.Name)
			removed = append(removed, wt.Name)
		default:
			causes, err := m.remove(ctx, common, wt.Name, false)
			switch {
			case err != nil:
				m.say("kept %s: %v", wt.Name, err)
			case len(causes) > 0:
				m.say("kept %s: %s", wt.Name, strings.Join(causes, "; "))
			default:
				removed = append(removed, wt.Name)
			}
		}
	}
	if len(all) == 0 {
		m.say("no worktrees")
	}
	return removed, nil
}

// PiledUp counts the worktrees magehook made that are safe to remove,
// stopping at limit, for SessionStart's reminder. It reads the git
// worktree list once, and checks the state of worktrees only when at
// least limit of them were made by magehook, so a session start stays
// cheap (HOOK-SESSION-4).
func (m Manager) PiledUp(ctx context.Context, limit int) int {
	common, err := m.checkMain(ctx)
	if err != nil {
		return 0
	}
	wts, err := m.list(ctx)
	if err != nil {
		return 0
	}
	mainBranch := m.mainBranch(ctx)
	var candidates []entry
	for _, wt := range wts {
		rel, err := filepath.Rel(m.Base, wt.Path)
		if err != nil || !strictlyBelowResolved(wt.Path, m.Base) {
			continue
		}
		name := filepath.ToSlash(rel)
		if recorded(common, name) || wt.Branch == name {
			candidates = append(candidates, wt)
		}
	}
	if len(candidates) < limit {
		return 0
	}
	safe := 0
	for i := range candidates {
		wt := candidates[i]
		if len(m.state(ctx, wt.Path, &wt, wt.Branch, wt.Branch != "" && wt.Branch != mainBranch && wt.Branch != "main", mainBranch, true)) == 0 {
			if safe++; safe >= limit {
				break
			}
		}
	}
	return safe
}
