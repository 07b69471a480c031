package branchguard

import (
	"fmt"

	"github.com/magehook/magehook/pkg/gitcmd"
	"github.com/magehook/magehook/pkg/gitrepo"
)

// gitHooks judges the hooks a git invocation runs (gitrepo.HookNames):
// each executable shell hook of the hooks directory (core.hooksPath, else
// the repository's hooks/) is read as a script run in the checkout and
// checked as this command is, and what it is seen to do (move or push a
// protected branch, change its checkout) is what the command does; what
// it leaves to run time does not count (hook managers such as pre-commit
// and husky run what only run time knows), nor a hook in another
// language. A hook the same command writes first is denied. A hooks
// directory holding only git's samples costs one directory read.
func (c *checker) gitHooks(i int, g *gitcmd.Git, rs *repoState) {
	if c.in.noHooks || rs == nil {
		return
	}
	cmd := c.a.Commands[i]
	hp, _ := lastValue(withFlags(rs.configOf(c), g.Config), "core.hookspath")
	dir := gitrepo.HooksDir(rs.repo, hp, c.in.Home)
	if dir == "" {
		return
	}
	inGitDir := realpathWithin(dir, rs.repo.CommonDir) || realpathWithin(dir, rs.repo.GitDir)
	for _, w := range c.a.Writes {
		if w.At >= i || w.Dynamic != "" || w.Repo && inGitDir {
			continue // git's own working-tree writes leave its hooks alone
		}
		if realpathWithin(w.Path, dir) || w.Tree && realpathWithin(dir, w.Path) && w.Op != "rm" && w.Op != "find -delete" {
			c.find(Finding{Rule: RuleUndecided, Command: cmd.Text, Where: rs.repo.Root, Detail: fmt.Sprintf("the command writes %s, in the git hooks directory %s, before git %s runs its hooks", w.Path, dir, g.Sub)})
			return
		}
	}
	for _, h := range gitrepo.Hooks(dir, gitrepo.HookNames(g.Sub)...) {
		if h.Err != nil || !h.Shell {
			// A hook is a program of the repository's, like a Makefile:
			// what it does only on its own is not this gate's to see.
			continue
		}
		in := c.in
		in.Command, in.Dir, in.Shared, in.noHooks = h.Text, rs.repo.Root, false, true
		r, err := Check(in)
		if err != nil {
			continue // too large or complex to follow: like what it leaves to run time
		}
		for _, f := range r.Findings {
			if f.Rule == RuleUndecided {
				// Hook managers (pre-commit, husky) run what only run
				// time knows: only what the hook is seen to do counts.
				continue
			}
			f.Command = cmd.Text
			f.Detail = fmt.Sprintf("git %s runs the hook %s: %s", g.Sub, h.Path, f.Detail)
			c.find(f)
		}
	}
}
