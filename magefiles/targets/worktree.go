package targets

import (
	"context"
	"fmt"
	"os"

	"github.com/magefile/mage/mg"

	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/lifecycle"
	"github.com/magehook/magehook/pkg/toolingrc"
	"github.com/magehook/magehook/pkg/worktree"
)

// Worktree manages the checkout's git worktrees under worktree.base.
type Worktree mg.Namespace

func manager() worktree.Manager {
	cfg, err := toolingrc.Discover(startDir())
	if err != nil {
		fail(hook.ExitConfig, err)
	}
	m, err := lifecycle.Manager(cfg)
	if err != nil {
		fail(hook.ExitConfig, err)
	}
	m.Log = os.Stderr
	return m
}

// Create makes the worktree <root>/<worktree.base>/<name> on a new branch
// name from the local HEAD, runs the worktree's bootstrap target, and
// prints the path as the only line of stdout. A worktree that exists is
// bootstrapped again. After a failure or an interrupt everything the
// create made is removed.
func (Worktree) Create(ctx context.Context, name string) {
	path, err := manager().Create(ctx, name)
	if err != nil {
		fail(hook.ExitFail, err)
	}
	fmt.Println(path)
}

// Remove removes the worktree name, its branch and its empty parent
// directories, refusing (and naming each cause) when it holds uncommitted
// changes or commits no remote holds; -force (or worktree:remove force
// <name>) removes it anyway.
func (Worktree) Remove(ctx context.Context, name string, force *bool) {
	forced := force != nil && *force
	if extra := hook.ExtraArgs(os.Args, "worktree:remove"); name == "force" && len(extra) == 2 {
		name, forced = extra[1], true
	}
	if err := manager().Remove(ctx, name, forced); err != nil {
		fail(hook.ExitFail, err)
	}
	os.Exit(hook.ExitOK) // the name after "force" must not reach Mage as a target
}

// List prints one line per worktree: name, age in days, and "clean" or
// what would stop its removal.
func (Worktree) List(ctx context.Context) {
	if err := manager().List(ctx, os.Stdout); err != nil {
		fail(hook.ExitFail, err)
	}
}

// Clone copies gitignored paths (given after the target: worktree:clone
// <path>...) of the main checkout into the current worktree, without
// network: a repository becomes a local clone with the source's origin, a
// file keeps its mode, an existing destination is kept.
func (Worktree) Clone(ctx context.Context) {
	paths := hook.ExtraArgs(os.Args, "worktree:clone")
	if len(paths) == 0 {
		fail(hook.ExitBlock, fmt.Errorf("worktree:clone needs at least one path: worktree:clone <path>..."))
	}
	wd, err := os.Getwd()
	if err != nil {
		fail(hook.ExitFail, err)
	}
	if err := worktree.Clone(ctx, wd, paths, os.Stderr); err != nil {
		fail(hook.ExitFail, err)
	}
	os.Exit(hook.ExitOK) // the paths must not reach Mage as targets
}
