package configguard

import (
	"errors"
	"os"
	"path/filepath"

	"github.com/magehook/magehook/pkg/gitcmd"
	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/toolargs"
	"github.com/magehook/magehook/pkg/toolingrc"
)

// reachesGated reports, for a call from a checkout that enables no
// gatekeeper (hook.Call.ReachOnly), whether it writes into another
// repository whose own policy (its main checkout's .toolingrc) enables
// handlers: there the gates' configuration is guarded as that
// repository's gates would guard it, so that a call from a checkout
// without gates cannot switch another's off. Paths only known at run
// time, and PowerShell's, are not followed from such a checkout.
func (g *guard) reachesGated(c *hook.Call) bool {
	p := c.Payload
	paths := append([]string(nil), p.EditedPaths()...)
	if !toolargs.Known(p.ToolName) {
		if tc := toolargs.Of(p, g.home); !tc.ReadOnly {
			for _, a := range tc.Paths {
				paths = append(paths, a.Value)
			}
		}
	}
	if command, ok := shellCommand(p); ok {
		a, err := gitcmd.Shared(command, gitcmd.HookOptions(g.dir, g.home, c.Getenv, c.Budget.Until(), c.Budget.Limit()))
		if err == nil {
			for _, w := range a.Writes {
				if w.Dynamic == "" && w.Path != "" {
					paths = append(paths, w.Path)
				}
			}
		}
	}
	for _, path := range paths {
		if !filepath.IsAbs(path) {
			path = filepath.Join(g.dir, path)
		}
		if gatedElsewhere(c, path) {
			return true
		}
	}
	return false
}

// gatedElsewhere reports a path in a repository other than the caller's
// whose policy enables handlers (or cannot be read: closed).
func gatedElsewhere(c *hook.Call, path string) bool {
	dir := filepath.Clean(path)
	for {
		if info, err := os.Stat(dir); err == nil && info.IsDir() {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return false
		}
		dir = parent
	}
	repo, err := c.Repo(dir)
	if err != nil {
		return false
	}
	top := repo.Root
	if filepath.Base(repo.CommonDir) == ".git" {
		top = filepath.Dir(repo.CommonDir)
	}
	if c.Config != nil && c.Config.PolicyTop != "" && within(top, c.Config.PolicyTop) {
		return false
	}
	cfg, err := c.ConfigAt(top)
	switch {
	case errors.Is(err, toolingrc.ErrNotFound):
		return false
	case err != nil:
		return true
	}
	if c.Config != nil && cfg.PolicyTop != "" && cfg.PolicyTop == c.Config.PolicyTop {
		return false
	}
	v, err := cfg.Get(toolingrc.KeyHookEnable)
	return err != nil || len(v.Values) > 0
}
