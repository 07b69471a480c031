// Package branchguard keeps the agent off protected branches.
//
// # PURPOSE
//
// Work on main (or master, or any branch named by guard.protect) should go
// through a worktree and a review, not land there from an agent's edit or
// commit. This gate denies the tool calls that would change a protected
// branch, and says how to do the work instead.
//
// # HOW IT WORKS
//
//  1. PreToolUse for Edit, MultiEdit, Write and NotebookEdit: the file's own
//     path (not the session's cwd) decides the repository; a file outside
//     any git checkout is allowed.
//  2. PreToolUse for Bash: the command is analysed from its shell syntax
//     tree (pkg/gitcmd); every git commit and git push it would run is
//     checked in the repository it targets (git -C, a preceding cd, or the
//     cwd). Other commands are allowed.
//  3. The checked-out branch is read from the repository's HEAD (linked
//     worktrees and .git files included), without starting git.
//  4. A protected branch denies the call; the reason names the branch and
//     the way out (a worktree). A command that does not parse, or a git
//     commit in a directory computed at run time, is denied as well: a
//     gate that cannot decide fails closed.
//
// # EXIT CODES
//
//	0  allowed (no output), or denied with the decision on stdout
//	2  the gate failed (a bug, an unreadable payload): the call is blocked
package branchguard

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/magehook/magehook/pkg/gitcmd"
	"github.com/magehook/magehook/pkg/gitrepo"
	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/toolingrc"
)

// Handler is the catalogue entry.
var Handler = hook.Handler{
	Name:    "branchguard",
	Purpose: "deny edits, commits and pushes on protected branches (guard.protect; main and master by default)",
	Events:  []string{"PreToolUse"},
	Matcher: "Edit|MultiEdit|Write|NotebookEdit|Bash",
	Policy:  hook.Gatekeeper,
	Run:     run,
}

func run(c *hook.Call) (hook.Result, error) {
	v, err := c.Config.Get(toolingrc.KeyGuardProtect)
	if err != nil {
		return hook.Result{}, err
	}
	protected := map[string]bool{}
	for _, b := range v.Values {
		protected[b] = true
	}
	p := c.Payload
	if p.IsTool("Bash") {
		return bash(c, protected)
	}
	path, ok := p.EditedPath()
	if !ok {
		if p.IsTool("Edit", "MultiEdit", "Write", "NotebookEdit") {
			return hook.Result{}, fmt.Errorf("%s payload without a file path", p.ToolName)
		}
		return hook.Result{}, nil
	}
	if !filepath.IsAbs(path) {
		path = filepath.Join(p.CWD, path)
	}
	repo, err := gitrepo.Find(path)
	if err == gitrepo.ErrNotRepo {
		return hook.Result{}, nil
	}
	if err != nil {
		return hook.Result{}, err
	}
	if protected[repo.Branch] {
		return hook.Deny(fmt.Sprintf("%s would change %s on the protected branch %s of %s; %s.",
			p.ToolName, path, repo.Branch, repo.Root, c.WorktreeAdvice())), nil
	}
	return hook.Result{}, nil
}

func bash(c *hook.Call, protected map[string]bool) (hook.Result, error) {
	command, ok := c.Payload.InputString("command")
	if !ok {
		return hook.Result{}, fmt.Errorf("a Bash payload without tool_input.command")
	}
	home := ""
	if c.Getenv != nil {
		home = c.Getenv("HOME")
	}
	a, err := gitcmd.Analyze(command, gitcmd.Options{Dir: c.Payload.CWD, Home: home, Getenv: c.Getenv, ReadFile: os.ReadFile, Stat: os.Stat})
	if err != nil {
		return hook.Deny("branchguard cannot check this command: " + err.Error() + "."), nil
	}
	if a.SyntaxError != nil && strings.Contains(a.Unparsed, "git") {
		return hook.Deny("branchguard cannot check this command: " + a.SyntaxError.Error() + "; fix the syntax."), nil
	}
	var reasons []string
	for _, cmd := range a.Commands {
		g := cmd.Git
		if g == nil || g.Help || g.Exits || (g.Sub != "commit" && g.Sub != "push") {
			continue
		}
		dir := g.Dir
		if g.WorkTree != "" && g.GitDir == "" {
			dir = g.WorkTree
		}
		if g.DirDynamic != "" || g.GitDirDynamic != "" {
			reasons = append(reasons, fmt.Sprintf("git %s runs in a directory the command computes at run time, so branchguard cannot tell its branch; name the repository with git -C <dir>", g.Sub))
			continue
		}
		var repo gitrepo.Repo
		if g.GitDir != "" {
			repo, err = gitrepo.Open(dir, g.GitDir)
		} else {
			repo, err = gitrepo.Find(dir)
		}
		if err == gitrepo.ErrNotRepo {
			continue
		}
		if err != nil {
			return hook.Result{}, err
		}
		if protected[repo.Branch] {
			reasons = append(reasons, fmt.Sprintf("git %s would run on the protected branch %s of %s", g.Sub, repo.Branch, repo.Root))
		}
	}
	if len(reasons) == 0 {
		return hook.Result{}, nil
	}
	return hook.Deny(strings.Join(reasons, "; ") + "; " + c.WorktreeAdvice() + "."), nil
}
