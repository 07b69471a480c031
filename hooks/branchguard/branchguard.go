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
//     path (not the session's cwd), after its symbolic links are resolved,
//     decides the repository; a file outside any git checkout is allowed.
//     Every file of an apply_patch patch is judged so, moves included,
//     also when the patch runs through a shell.
//  2. PreToolUse for PowerShell (Claude Code's PowerShell, Copilot's
//     powershell): its git commits and pushes are found by pkg/pwsh and
//     judged the same way; what that reader cannot see into fails closed
//     on a protected branch, and elsewhere when it mentions git.
//  3. PreToolUse for Bash: the command is analysed from its shell syntax
//     tree (pkg/gitcmd); every git commit and git push it would run is
//     checked in the repository it targets (git -C, a preceding cd, or the
//     cwd). Other commands are allowed.
//  4. The checked-out branch is read from the repository's HEAD (linked
//     worktrees and .git files included), without starting git.
//  5. A protected branch denies the call; the reason names the branch and
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
	"errors"
	"fmt"
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
	Matcher: "Edit|MultiEdit|Write|NotebookEdit|Bash|PowerShell",
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
	var reasons []string
	for _, path := range p.EditedPaths() {
		why, err := edit(p.ToolName, p.CWD, path, protected)
		if err != nil {
			return hook.Result{}, err
		}
		if why != "" {
			reasons = append(reasons, why)
		}
	}
	if p.IsTool("Bash") {
		more, err := bash(c, protected)
		var unparsable *parseError
		if errors.As(err, &unparsable) {
			return hook.Deny(unparsable.msg), nil
		}
		if err != nil {
			return hook.Result{}, err
		}
		reasons = append(reasons, more...)
	} else if p.IsTool("PowerShell") {
		more, err := powershell(c, protected)
		if err != nil {
			return hook.Result{}, err
		}
		reasons = append(reasons, more...)
	} else if len(reasons) == 0 && p.IsTool("Edit", "MultiEdit", "Write", "NotebookEdit") && len(p.EditedPaths()) == 0 {
		return hook.Result{}, fmt.Errorf("%s payload without a file path", p.ToolName)
	}
	if len(reasons) == 0 {
		return hook.Result{}, nil
	}
	return hook.Deny(strings.Join(reasons, "; ") + "; " + c.WorktreeAdvice() + "."), nil
}

// edit judges one file a tool is about to change: the repository that
// holds it (after its symbolic links are resolved) decides; a file outside
// any git checkout is allowed.
func edit(tool, cwd, path string, protected map[string]bool) (string, error) {
	if !filepath.IsAbs(path) {
		// Joined as written: cleaning would drop "link/.." before the
		// link is followed (gitrepo.Find resolves it as the OS will).
		path = cwd + string(filepath.Separator) + path
	}
	repo, err := gitrepo.Find(path)
	if err == gitrepo.ErrNotRepo {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	if protected[repo.Branch] {
		return fmt.Sprintf("%s would change %s on the protected branch %s of %s", tool, path, repo.Branch, repo.Root), nil
	}
	return "", nil
}

// parseError is a command the analysis cannot read: the gate denies it,
// with this message.
type parseError struct{ msg string }

func (e *parseError) Error() string { return e.msg }

// bash returns why a shell command's git commits and pushes would change a
// protected branch.
func bash(c *hook.Call, protected map[string]bool) ([]string, error) {
	command, ok := c.Payload.InputString("command")
	if !ok {
		return nil, fmt.Errorf("a Bash payload without tool_input.command")
	}
	home := ""
	if c.Getenv != nil {
		home = c.Getenv("HOME")
	}
	a, err := gitcmd.Shared(command, gitcmd.HookOptions(c.Payload.CWD, home, c.Getenv, c.Budget.Until(), c.Budget.Limit()))
	if err != nil {
		return nil, &parseError{"branchguard cannot check this command: " + err.Error() + "."}
	}
	if a.SyntaxError != nil && strings.Contains(a.Unparsed, "git") {
		return nil, &parseError{"branchguard cannot check this command: " + a.SyntaxError.Error() + "; fix the syntax."}
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
			return nil, err
		}
		if protected[repo.Branch] {
			reasons = append(reasons, fmt.Sprintf("git %s would run on the protected branch %s of %s", g.Sub, repo.Branch, repo.Root))
		}
	}
	return reasons, nil
}
