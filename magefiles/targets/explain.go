package targets

import (
	"os"
	"path/filepath"

	"github.com/magehook/magehook/hooks/branchguard"
	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/toolingrc"
)

// Explain shows how branchguard reads a shell command: how it was split,
// every command and git invocation with its directory, repository, branch
// and effect on refs, the files it writes, and which rule decides
// (-cwd=dir: where it runs, default the current directory; -harness=name:
// the words of the reason).
func (Hook) Explain(command string, cwd, harness *string) {
	dir := deref(cwd)
	if dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			fail(hook.ExitFail, err)
		}
		dir = wd
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		fail(hook.ExitBlock, err)
	}
	protect := []string{"main", "master"}
	if cfg, err := toolingrc.Discover(dir); err == nil {
		if v, err := cfg.Get(toolingrc.KeyGuardProtect); err == nil {
			protect = v.Values
		}
	}
	in := branchguard.Input{Command: command, Dir: dir, Home: os.Getenv("HOME"), Getenv: os.Getenv, Protect: protect}
	if err := branchguard.Explain(os.Stdout, in, deref(harness)); err != nil {
		fail(hook.ExitFail, err)
	}
}
