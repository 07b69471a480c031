package branchguard

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/magehook/magehook/pkg/gitcmd"
	"github.com/magehook/magehook/pkg/regfile"
)

// hookRunning reports a git subcommand that runs the repository's hooks
// (pre-commit, post-commit, post-merge, pre-push, post-checkout,
// reference-transaction, ...): what a hook does is what the command does.
func hookRunning(sub string) bool {
	switch sub {
	case "commit", "merge", "pull", "rebase", "am", "checkout", "switch", "push", "cherry-pick", "revert",
		"worktree", "gc", "stash", "reset", "update-ref", "fetch", "clone":
		return true
	}
	return false
}

// gitHooks judges the hooks a git invocation runs: each executable file
// of the hooks directory (core.hooksPath, else the repository's hooks/) is
// read as a script run in the checkout and checked as this command is; a
// hook the same command writes first, or one in a language other than the
// shell's that mentions git, cannot be read and is denied. Only git
// commands that run hooks get here, and a hooks directory holding only
// git's samples costs one directory read.
func (c *checker) gitHooks(i int, g *gitcmd.Git, rs *repoState) {
	if c.in.noHooks || rs == nil {
		return
	}
	cmd := c.a.Commands[i]
	dir := filepath.Join(rs.repo.CommonDir, "hooks")
	if p, ok := lastValue(withFlags(rs.configOf(c), g.Config), "core.hookspath"); ok {
		if p == "" || p == "/dev/null" {
			return
		}
		if strings.HasPrefix(p, "~/") && c.in.Home != "" {
			p = filepath.Join(c.in.Home, p[2:])
		}
		if !filepath.IsAbs(p) {
			p = filepath.Join(rs.repo.Root, p)
		}
		dir = p
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
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		name := e.Name()
		if strings.HasSuffix(name, ".sample") || e.IsDir() {
			continue
		}
		path := filepath.Join(dir, name)
		info, err := os.Stat(path)
		if err != nil || !info.Mode().IsRegular() || info.Mode()&0o111 == 0 {
			continue // git does not run it
		}
		data, err := regfile.ReadFile(path, 1<<20)
		if err != nil {
			c.find(Finding{Rule: RuleUndecided, Command: cmd.Text, Where: rs.repo.Root, Detail: fmt.Sprintf("git %s runs the hook %s, which cannot be read (%v)", g.Sub, path, err)})
			continue
		}
		text := string(data)
		if line, _, _ := strings.Cut(text, "\n"); strings.HasPrefix(line, "#!") && !shellShebang(line) {
			if mentionsGit(text) || obfuscated(text) {
				c.find(Finding{Rule: RuleUndecided, Command: cmd.Text, Where: rs.repo.Root, Detail: fmt.Sprintf("git %s runs the hook %s, a program branchguard cannot follow that mentions git", g.Sub, path)})
			}
			continue
		}
		in := c.in
		in.Command, in.Dir, in.Shared, in.noHooks = text, rs.repo.Root, false, true
		r, err := Check(in)
		if err != nil {
			c.find(Finding{Rule: RuleUndecided, Command: cmd.Text, Where: rs.repo.Root, Detail: fmt.Sprintf("git %s runs the hook %s, which cannot be analysed (%v)", g.Sub, path, err)})
			continue
		}
		for _, f := range r.Findings {
			f.Command = cmd.Text
			f.Detail = fmt.Sprintf("git %s runs the hook %s: %s", g.Sub, path, f.Detail)
			c.find(f)
		}
	}
}

// shellShebang reports a #! line that runs a POSIX shell.
func shellShebang(line string) bool {
	f := strings.Fields(strings.TrimPrefix(line, "#!"))
	if len(f) == 0 {
		return true
	}
	prog := filepath.Base(f[0])
	if prog == "env" && len(f) > 1 {
		prog = filepath.Base(f[1])
	}
	switch prog {
	case "sh", "bash", "dash", "zsh", "ksh", "ash", "busybox":
		return true
	}
	return false
}
