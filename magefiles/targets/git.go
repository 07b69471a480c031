package targets

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/magefile/mage/mg"

	"github.com/magehook/magehook/hooks/commitmsg"
	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/toolingrc"
)

// Git holds the git hooks magehook provides.
type Git mg.Namespace

// CommitMsg is git's commit-msg hook: it strips AI boilerplate from the
// message file and, in a versioned project (.versionrc.json, a commitlint
// configuration) or with commit.conventional yes in .toolingrc, refuses a
// subject that is not a Conventional Commit, with commitlint when it is
// installed (exit 1, the reason on stderr).
func (Git) CommitMsg(ctx context.Context, file string) {
	conventional, root := "", "."
	if cfg, err := toolingrc.Discover(startDir()); err == nil {
		root = cfg.Root()
		if _, _, set := cfg.Lookup(toolingrc.KeyCommitConventional); set {
			v, err := cfg.Get(toolingrc.KeyCommitConventional)
			if err != nil {
				fail(hook.ExitConfig, err)
			}
			conventional = v.String()
		}
	} else {
		var cerr *toolingrc.Error
		if !errors.As(err, &cerr) {
			fail(hook.ExitConfig, err)
		}
	}
	if wd, err := os.Getwd(); err == nil && root == "." {
		root = wd // git runs the hook at the top of the work tree
	}
	if err := commitmsg.Check(ctx, file, root, conventional); err != nil {
		fmt.Fprintln(os.Stderr, "magehook: commit-msg:", err)
		os.Exit(hook.ExitFail)
	}
}
