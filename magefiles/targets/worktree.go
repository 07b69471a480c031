package targets

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/magefile/mage/mg"

	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/lifecycle"
	"github.com/magehook/magehook/pkg/toolingrc"
	"github.com/magehook/magehook/pkg/worktree"
)

// Worktree manages the checkout's git worktrees under worktree.base.
type Worktree mg.Namespace

func (w world) manager() (worktree.Manager, error) {
	cfg, err := toolingrc.Discover(w.start())
	if err != nil {
		return worktree.Manager{}, configErr(err)
	}
	m, err := lifecycle.Manager(cfg)
	if err != nil {
		return worktree.Manager{}, configErr(err)
	}
	m.Log = w.stderr
	return m, nil
}

// Create makes the worktree <root>/<worktree.base>/<name> on a new branch
// name from the local HEAD, runs the worktree's bootstrap target, and
// prints the path as the only line of stdout. A worktree that exists is
// bootstrapped again. After a failure, SIGINT or SIGTERM everything the
// create made is removed; Mage exits 5 s after the first SIGINT (at once
// on a second), and what a cut-short cleanup leaves, worktree:remove
// <name> removes (docs/reliability.md). Run it from the main checkout.
func (Worktree) Create(ctx context.Context, name string) error {
	return osWorld().worktreeCreate(ctx, name)
}

func (w world) worktreeCreate(ctx context.Context, name string) error {
	m, err := w.manager()
	if err != nil {
		return err
	}
	path, err := m.Create(ctx, name)
	if err != nil {
		return failure(err)
	}
	fmt.Fprintln(w.stdout, path)
	return nil
}

// Remove removes the worktree name, its branch and its empty parent
// directories, and the debris of a killed create, refusing (and naming
// each cause) when it holds work at risk: uncommitted changes, commits
// neither a remote nor the main checkout's branch holds. -force (after
// the name: worktree:remove <name> -force) removes it anyway.
func (Worktree) Remove(ctx context.Context, name string,
	force *bool, // remove it even with work at risk
) error {
	return osWorld().worktreeRemove(ctx, name, derefBool(force))
}

func (w world) worktreeRemove(ctx context.Context, name string, force bool) error {
	if strings.HasPrefix(name, "-") {
		// Mage reads the name first and the options after it.
		return usage(fmt.Errorf("worktree:remove takes the name first, then the options: worktree:remove <name> -force (got %q as the name)", name))
	}
	m, err := w.manager()
	if err != nil {
		return err
	}
	return failure(m.Remove(ctx, name, force))
}

// List prints one line per worktree: name, age in days, and "clean" or
// what would stop its removal; then the ones worktree:prune would remove.
func (Worktree) List(ctx context.Context) error { return osWorld().worktreeList(ctx) }

func (w world) worktreeList(ctx context.Context) error {
	m, err := w.manager()
	if err != nil {
		return err
	}
	return failure(m.List(ctx, w.stdout))
}

// Prune removes every worktree magehook made that holds no work at risk,
// naming on stderr each one it keeps and why, and prints the names it
// removed. -dryrun says what it would remove and changes nothing.
func (Worktree) Prune(ctx context.Context,
	dryrun *bool, // say what it would remove, change nothing
) error {
	return osWorld().worktreePrune(ctx, derefBool(dryrun))
}

func (w world) worktreePrune(ctx context.Context, dryRun bool) error {
	m, err := w.manager()
	if err != nil {
		return err
	}
	removed, err := m.Prune(ctx, dryRun)
	if err != nil {
		return failure(err)
	}
	for _, name := range removed {
		fmt.Fprintln(w.stdout, name)
	}
	return nil
}

// Clone copies gitignored paths of the main checkout (MAGEHOOK_ROOT when
// set, else the main checkout of the current worktree) into the current
// worktree, or into the current directory when it is in no checkout,
// without network: worktree:clone <path>... A repository
// becomes a local clone with the source's origin and its .env files, a
// file keeps its mode, an existing destination is kept, an absent path is
// skipped with a message.
func (Worktree) Clone(ctx context.Context, path string) error {
	// Mage has no variadic arguments: it gives the first path, and the
	// others follow it on the command line, where Mage would run them as
	// targets once this one returned. They are read from there, and the
	// process ends here when they were (hook.ExtraArgs finds nothing when
	// a magefile calls Clone itself).
	paths := []string{path}
	if rest := hook.ExtraArgs(os.Args, "worktree:clone"); len(rest) > 1 && rest[0] == path {
		paths = rest
	}
	err := osWorld().worktreeClone(ctx, paths)
	if err == nil && len(paths) > 1 {
		os.Exit(hook.ExitOK)
	}
	return err
}

func (w world) worktreeClone(ctx context.Context, paths []string) error {
	wd, err := w.wd()
	if err != nil {
		return failure(err)
	}
	main := ""
	if root := w.getenv(toolingrc.RootEnv); root != "" {
		cfg, err := toolingrc.Discover(root)
		if err != nil {
			return configErr(err)
		}
		main = cfg.Root()
	}
	return failure(worktree.Clone(ctx, wd, main, paths, w.stderr))
}
