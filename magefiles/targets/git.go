package targets

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/magefile/mage/mg"

	"github.com/magehook/magehook/hooks/commitmsg"
	"github.com/magehook/magehook/pkg/toolingrc"
)

// Git holds the git hooks magehook provides.
type Git mg.Namespace

// CommitMsg is git's commit-msg hook: it strips AI boilerplate from the
// message file and, in a versioned project (.versionrc.json, a commitlint
// configuration) or with commit.conventional yes in .toolingrc, refuses a
// subject that is not a Conventional Commit, with commitlint when it is
// installed (exit 1, the reason on stderr).
func (Git) CommitMsg(ctx context.Context, file string) error {
	return osWorld().commitMsg(ctx, file)
}

func (w world) commitMsg(ctx context.Context, file string) error {
	conventional, root := "", ""
	if cfg, err := toolingrc.Discover(w.start()); err == nil {
		root = cfg.Root()
		if _, _, set := cfg.Lookup(toolingrc.KeyCommitConventional); set {
			v, err := cfg.Get(toolingrc.KeyCommitConventional)
			if err != nil {
				return configErr(err)
			}
			conventional = v.String()
		}
	} else {
		var cerr *toolingrc.Error
		if !errors.As(err, &cerr) {
			return configErr(err)
		}
	}
	if root == "" {
		root = w.dir // git runs the hook at the top of the work tree
		if wd, err := w.wd(); err == nil {
			root = wd
		}
	}
	if !filepath.IsAbs(file) {
		file = filepath.Join(w.dir, file)
	}
	if err := commitmsg.Check(ctx, file, root, conventional); err != nil {
		return failure(fmt.Errorf("commit-msg: %w", err))
	}
	return nil
}
