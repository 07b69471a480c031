package targets

import (
	"path/filepath"

	"github.com/magehook/magehook/hooks/branchguard"
	"github.com/magehook/magehook/pkg/toolingrc"
)

// Explain shows how branchguard reads a shell command: how it was split,
// every command and git invocation with its directory, repository, branch
// and effect on refs, the files it writes, and which rule decides
// (-cwd=dir: where it runs, default the current directory; -harness=name:
// the words of the reason).
func (Hook) Explain(command string,
	cwd *string, // where the command runs (default: here)
	harness *string, // whose words the reason takes
) error {
	return osWorld().explain(command, deref(cwd), deref(harness))
}

func (w world) explain(command, cwd, harness string) error {
	dir := cwd
	if dir == "" {
		dir = w.dir
	} else if !filepath.IsAbs(dir) {
		dir = filepath.Join(w.dir, dir)
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		return failure(err)
	}
	protect := []string{"main", "master"}
	if cfg, err := toolingrc.Discover(dir); err == nil {
		if v, err := cfg.Get(toolingrc.KeyGuardProtect); err == nil {
			protect = v.Values
		}
	}
	in := branchguard.Input{Command: command, Dir: dir, Home: w.getenv("HOME"), Getenv: w.getenv, Protect: protect}
	if err := branchguard.Explain(w.stdout, in, harness); err != nil {
		return failure(err)
	}
	return nil
}
