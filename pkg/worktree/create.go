package worktree

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/magehook/magehook/pkg/lockfile"
)

// Create makes the worktree of name and bootstraps it, and returns its
// path (WT-CREATE-1..7). When it already exists (Claude Code re-runs
// WorktreeCreate when a session reconnects) it bootstraps it again. The
// branch is created first, on its own: it is the lock against a parallel
// create of the same name. After a failure, SIGINT or SIGTERM, the
// bootstrap's process group is stopped and waited for, and everything the
// create made is removed. A root that is a linked worktree is refused
// (CLI-CHECKOUT-4).
func (m Manager) Create(ctx context.Context, name string) (string, error) {
	if err := ValidName(name); err != nil {
		return "", err
	}
	common, err := m.checkMain(ctx)
	if err != nil {
		return "", err
	}
	path := m.Path(name)
	unlock, held, err := lockfile.TryLock(lockFile(common, name))
	if err != nil {
		return "", err
	}
	if held {
		return "", fmt.Errorf("another create of worktree %s is running; it will print the path", name)
	}
	defer unlock()
	wts, err := m.list(ctx)
	if err != nil {
		return "", err
	}
	for _, w := range wts {
		if sameFile(w.Path, path) && exists(path) {
			m.say("worktree %s exists; bootstrapping it again", path)
			if err := m.bootstrap(ctx, path); err != nil {
				return "", err
			}
			return path, nil
		}
	}
	for _, w := range wts {
		if !sameFile(w.Path, m.Root) && strictlyBelowResolved(path, w.Path) {
			return "", fmt.Errorf("worktree %s would sit inside the worktree %s; pick another name", path, w.Path)
		}
	}
	if exists(path) {
		return "", fmt.Errorf("%s exists and git does not know it as a worktree; remove %s (worktree:remove %s) or pick another name", path, name, name)
	}

	// Mage cancels ctx on SIGINT; SIGTERM is this handler's alone (see
	// the cleanup window below).
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	g := m.git(m.Root)
	if err := g.Run(ctx, "branch", name, "HEAD"); err != nil {
		return "", fmt.Errorf("cannot create branch %s (another create of this name won, or a branch is left over: worktree:remove %s): %w", name, name, err)
	}
	made := missingDirs(filepath.Dir(path), m.Root)
	fail := func(cause error) (string, error) {
		if ctx.Err() != nil {
			m.say("interrupted: removing what the create of %s made (under Mage, a second Ctrl-C stops this; worktree:remove %s then removes what is left)", name, name)
		}
		m.undo(common, name, path, made)
		if ctx.Err() != nil && !errors.Is(cause, context.Canceled) {
			cause = fmt.Errorf("%w (interrupted)", cause)
		}
		return "", fmt.Errorf("worktree %s: %w; everything the create made was removed", name, cause)
	}
	if err := record(common, name, path); err != nil {
		return fail(err)
	}
	if err := g.Run(ctx, "worktree", "add", path, name); err != nil {
		return fail(err)
	}
	if err := m.bootstrap(ctx, path); err != nil {
		return fail(err)
	}
	if ctx.Err() != nil {
		return fail(ctx.Err())
	}
	return path, nil
}

// The cleanup window. Under Mage (worktree:create, and the WorktreeCreate
// event, which Mage's main runs), the first SIGINT cancels the target's
// context and Mage's main exits MageCleanupWindow later whether the
// target returned or not, or at once on a second SIGINT ("exit forced"):
// runTarget in mage/template.go of the Mage go.mod pins (v1.17.2), which
// TestMageCleanupWindow reads. A create interrupted in its bootstrap
// spends at most BootstrapGrace of the window stopping the bootstrap's
// process group (SIGTERM, then SIGKILL), which leaves the rest for undo:
// git worktree remove, prune, branch -D and the record, tens of
// milliseconds for a small worktree (a worktree of many files takes what
// deleting them takes). undo removes the registry record last, so what a
// cleanup cut short leaves (a second Ctrl-C, a worktree too large to
// delete in time, SIGKILL) stays recorded: worktree:list shows it and
// worktree:remove <name> removes it (WT-REMOVE-4).
//
// Mage handles SIGINT only. SIGTERM (a harness or a supervisor stopping
// the hook) would kill the process with nothing cleaned, so Create
// handles both itself: SIGTERM has no window but undoTimeout, and SIGINT
// is caught for a caller that is not Mage's main (a program of its own, a
// test), which would otherwise die at once.
const (
	MageCleanupWindow = 5 * time.Second
	BootstrapGrace    = 2 * time.Second
	undoTimeout       = 30 * time.Second
)

// lockFile is the lock a create or a remove of name holds.
func lockFile(common, name string) string {
	return filepath.Join(common, "magehook-worktree-"+strings.ReplaceAll(name, "/", "%")+".lock")
}

// missingDirs lists the directories from dir up to (not including) stop
// that do not exist yet, deepest first.
func missingDirs(dir, stop string) []string {
	var out []string
	for d := dir; strictlyBelow(d, stop) && !exists(d); d = filepath.Dir(d) {
		out = append(out, d)
	}
	return out
}

// undo removes what a failed create made: the worktree, its directory,
// the branch, the record and the parent directories the create made. It
// runs on a fresh context, since the create's may be cancelled.
func (m Manager) undo(common, name, path string, made []string) {
	// The order matters when Mage's window cuts it short: the record goes
	// last but the empty directories, so the debris stays known.
	ctx, cancel := context.WithTimeout(context.Background(), undoTimeout)
	defer cancel()
	g := m.git(m.Root)
	g.Run(ctx, "worktree", "remove", "--force", "--force", path)
	os.RemoveAll(path)
	g.Run(ctx, "worktree", "prune")
	g.Run(ctx, "branch", "-D", name)
	forget(common, name)
	for _, d := range made {
		os.Remove(d) // only if empty
	}
}
