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
// create made is removed. Run it from the main checkout.
func (Worktree) Create(ctx context.Context, name string) {
	path, err := manager().Create(ctx, name)
	if err != nil {
		fail(hook.ExitFail, err)
	}
	fmt.Println(path)
}

// Remove removes the worktree name, its branch and its empty parent
// directories, and the debris of a killed create, refusing (and naming
// each cause) when it holds work at risk: uncommitted changes, commits
// neither a remote nor the main checkout's branch holds. -force (or
// worktree:remove force <name>) removes it anyway.
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
// what would stop its removal; then the ones worktree:prune would remove.
func (Worktree) List(ctx context.Context) {
	if err := manager().List(ctx, os.Stdout); err != nil {
		fail(hook.ExitFail, err)
	}
}

// Prune removes every worktree magehook made that holds no work at risk,
// naming on stderr each one it keeps and why, and prints the names it
// removed. -dryrun says what it would remove and changes nothing.
func (Worktree) Prune(ctx context.Context, dryrun *bool) {
	removed, err := manager().Prune(ctx, dryrun != nil && *dryrun)
	if err != nil {
		fail(hook.ExitFail, err)
	}
	for _, name := range removed {
		fmt.Println(name)
	}
}

// Clone copies gitignored paths (given after the target: worktree:clone
// <path>...) of the main checkout (MAGEHOOK_ROOT when set, else the main
// checkout of the current worktree) into the current worktree, without
// network: a repository becomes a local clone with the source's origin
// and its .env files, a file keeps its mode, an existing destination is
// kept, an absent path is skipped with a message.
func (Worktree) Clone(ctx context.Context) {
	paths := hook.ExtraArgs(os.Args, "worktree:clone")
	if len(paths) == 0 {
		fail(hook.ExitBlock, fmt.Errorf("worktree:clone needs at least one path: worktree:clone <path>..."))
	}
	wd, err := os.Getwd()
	if err != nil {
		fail(hook.ExitFail, err)
	}
	main := ""
	if root := os.Getenv(toolingrc.RootEnv); root != "" {
		cfg, err := toolingrc.Discover(root)
		if err != nil {
			fail(hook.ExitConfig, err)
		}
		main = cfg.Root()
	}
	if err := worktree.Clone(ctx, wd, main, paths, os.Stderr); err != nil {
		fail(hook.ExitFail, err)
	}
	os.Exit(hook.ExitOK) // the paths must not reach Mage as targets
}
