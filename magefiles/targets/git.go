package targets

import (
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
// message file and, with commit.conventional yes in .toolingrc, refuses a
// subject that is not a Conventional Commit (exit 1, the reason on stderr).
func (Git) CommitMsg(file string) {
	conventional := false
	if cfg, err := toolingrc.Discover(startDir()); err == nil {
		v, err := cfg.Get(toolingrc.KeyCommitConventional)
		if err != nil {
			fail(hook.ExitConfig, err)
		}
		conventional = v.String() == "yes"
	} else {
		var cerr *toolingrc.Error
		if !errors.As(err, &cerr) {
			fail(hook.ExitConfig, err)
		}
	}
	if err := commitmsg.Process(file, conventional); err != nil {
		fmt.Fprintln(os.Stderr, "magehook: commit-msg:", err)
		os.Exit(hook.ExitFail)
	}
}
