package branchguard

import (
	"fmt"

	"github.com/magehook/magehook/pkg/gitcmd"
	"github.com/magehook/magehook/pkg/gitrepo"
)

// gitHooks judges the hooks a git invocation runs (gitcmd.RunsHooks):
// each executable file of the hooks directory (core.hooksPath, else the
// repository's hooks/) is read as a script run in the checkout and checked
// as this command is; a hook the same command writes first, or one in a
// language other than the shell's that mentions git, cannot be read and is
// denied. A hooks directory holding only git's samples costs one
// directory read.
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
	for _, h := range gitrepo.Hooks(dir) {
		switch {
		case h.Err != nil:
			c.find(Finding{Rule: RuleUndecided, Command: cmd.Text, Where: rs.repo.Root, Detail: fmt.Sprintf("git %s runs the hook %s, which cannot be read (%v)", g.Sub, h.Path, h.Err)})
			continue
		case !h.Shell:
			if mentionsGit(h.Text) || obfuscated(h.Text) {
				c.find(Finding{Rule: RuleUndecided, Command: cmd.Text, Where: rs.repo.Root, Detail: fmt.Sprintf("git %s runs the hook %s, a program branchguard cannot follow that mentions git", g.Sub, h.Path)})
			}
			continue
		}
		in := c.in
		in.Command, in.Dir, in.Shared, in.noHooks = h.Text, rs.repo.Root, false, true
		r, err := Check(in)
		if err != nil {
			c.find(Finding{Rule: RuleUndecided, Command: cmd.Text, Where: rs.repo.Root, Detail: fmt.Sprintf("git %s runs the hook %s, which cannot be analysed (%v)", g.Sub, h.Path, err)})
			continue
		}
		for _, f := range r.Findings {
			f.Command = cmd.Text
			f.Detail = fmt.Sprintf("git %s runs the hook %s: %s", g.Sub, h.Path, f.Detail)
			c.find(f)
		}
	}
}
