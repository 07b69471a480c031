// Package branchguard keeps protected branches from moving and their
// checkouts from changing, whatever the agent's tool call does to get
// there.
//
// # PURPOSE
//
// Work on main (or master, or any branch named by guard.protect) goes
// through a worktree and a review, not straight onto the branch from an
// agent. The question is not "does the command say git commit" but "can
// this tool call move a protected branch, locally or on a remote, or change
// the files checked out on one". A call that could is denied, with the
// branch, the rule and the way to do the work instead.
//
// # HOW IT WORKS
//
//  1. Edit, MultiEdit, Write and NotebookEdit: the file's own checkout (not
//     the session's cwd, and after its symbolic links are resolved)
//     decides; a checkout on a protected branch is denied, a file outside
//     any checkout is allowed, and so is a file git ignores there (build
//     output, .env.local, node_modules/...: asked of git only on the way
//     to a denial; a tracked file is never ignored, and the gate's own
//     files stay configguard's). A relative path starts in the tool's
//     working-directory argument and in the cwd. Every file of an
//     apply_patch patch is judged so, moves included, also when the patch
//     runs through a shell. PowerShell is judged as Bash is: pkg/pwsh reads
//     each command it runs with its directory, and every native one (git,
//     python -c, ...) goes through the same check as a shell command
//     there, so guard.protect's <remote>/HEAD and every ref-moving git
//     mean the same; its cmdlets' writes into a protected checkout are
//     denied (a pipeline's or a computed path's where the command runs);
//     what that reader cannot see into fails closed on a protected branch,
//     and elsewhere when it mentions git (also in base64).
//     Every other tool (an MCP tool, another client's own: the matcher is
//     empty) is judged by the paths its arguments name (pkg/toolargs), as
//     an edit of each unless the tool only reads; a client's shell tool,
//     or an MCP tool with a command, as Bash.
//  2. Bash (and every harness's shell tool): the command is analysed once
//     by pkg/gitcmd from its shell syntax tree: every simple command bash
//     would run (through wrappers, bash -c, eval, functions, scripts read
//     from the checkout, git aliases from -c and from the repository's and
//     the user's configuration, help.autocorrect, and the commands git
//     runs from its arguments), where each runs (cd, pushd, CDPATH, ~+,
//     git -C, --git-dir, --work-tree, GIT_DIR and GIT_WORK_TREE however
//     exported, in the command or in the harness's environment), the
//     programs git starts from its configuration (core.fsmonitor, pagers,
//     editors, filters, drivers, credential helpers: from -c, GIT_CONFIG_*,
//     the system's, the user's and the repository's files), and every file
//     each writes.
//  3. Each git invocation's effect on refs is read from its arguments:
//     commit, merge, cherry-pick, revert, am, pull, rebase and reset move
//     the checked-out branch (not --dry-run, --abort, -n, a path reset);
//     update-ref, branch -f/-d/-D/-m/-M/-c/-C, checkout -B, switch -C,
//     worktree add -B, fetch and pull refspecs into refs/heads, symbolic-ref
//     and filter-branch move the branches they name; push moves the remote
//     branches its refspecs name (src:dst, +, --delete, :dst, HEAD,
//     globs), --all and --mirror move all of them, and a push without
//     refspecs goes where remote.<name>.push or push.default says.
//  4. The checked-out branch is read as git reads it (pkg/gitrepo:
//     symbolic refs, a symlinked HEAD, a reftable asks git), then followed
//     through the command: git switch and checkout (and -b, -B, -),
//     symbolic-ref HEAD, a write to HEAD. A switch the later command
//     certainly runs after (&&, if, set -e) replaces the branch; one it
//     may run after (;, ||) adds a possibility. A repository the command
//     creates (git init, git clone, where none is now) has no protected
//     branch yet, but what it pushes is judged by name (a push without a
//     refspec from one is undecided); a worktree it adds has the branch
//     the add checks out (worktree add --force ../w main: main). What a
//     git hook is seen to do is what the command that runs it does: the
//     executable shell hooks of the subcommand (core.hooksPath, or hooks/)
//     are read and checked as scripts, and a protected branch they move or
//     push counts; what they leave to run time does not (hook managers
//     such as pre-commit and husky), nor a hook in another language; a
//     hook the command writes first is denied.
//  5. A write (redirection, tee, sed -i, cp, mv, git apply, ...) into a
//     checkout on a protected branch is denied unless git ignores the
//     path; a write into git's ref storage (refs/heads/<protected>,
//     packed-refs, the reftable) is denied anywhere.
//  6. What cannot be decided and matters is denied with the reason: a git
//     subcommand, repository or refspec only known at run time, inline
//     interpreter code that starts programs and mentions git (or builds
//     what it runs), a computed eval or bash -c, a script piped from
//     elsewhere. Help and usage forms, print-and-exit options and dry runs
//     are allowed; so is a command that does not parse and mentions no git
//     (bash runs nothing of the broken part).
//
// Protected names fold case: refs kept as files on a case-insensitive
// file system make MAIN the same ref as main. A write through a symbolic
// link the command itself makes is judged where the link leads.
//
// Each repository a call reaches is judged by its own policy (policy.go):
// a git -C, cd, GIT_DIR, --git-dir or edited path into another checkout
// protects what that checkout's main .toolingrc protects, or nothing
// when it does not enable branchguard, and the gate runs for that
// (hook.Handler.Reach) also where the caller's configuration does not
// enable it.
//
// guard.protect takes branch names and <remote>/HEAD, which is whatever
// branch refs/remotes/<remote>/HEAD names (set by clone or git remote
// set-head; read without the network). hook.warn branchguard turns the gate
// to warn-only: a would-be denial is logged and told to the model, and the
// call goes on.
//
// go tool mage hook:explain '<command>' [-cwd=dir] [-harness=name] shows the
// whole analysis: the commands, the git invocations with their repository,
// branch and effect, and which rule decided.
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

	"github.com/magehook/magehook/pkg/gitrepo"
	"github.com/magehook/magehook/pkg/harness"
	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/realpath"
	"github.com/magehook/magehook/pkg/toolargs"
	"github.com/magehook/magehook/pkg/toolingrc"
)

// Handler is the catalogue entry.
var Handler = hook.Handler{
	Name:    name,
	Purpose: "deny tool calls that would move a protected branch (guard.protect; main and master by default) or change its checkout",
	Events:  []string{"PreToolUse"},
	Matcher: "",                                     // every tool: an MCP tool or another client's may write on a protected checkout
	Passes:  []string{"Read", "Grep", "Glob", "LS"}, // they read: no branch moves, no checkout changes
	Policy:  hook.Gatekeeper,
	Reach:   true, // a call into another repository is judged by that one's policy (policy.go)
	Run:     run,
}

func run(c *hook.Call) (hook.Result, error) {
	defer calls.Delete(c)
	var v toolingrc.Value
	if !c.ReachOnly {
		var err error
		if v, err = c.Config.Get(toolingrc.KeyGuardProtect); err != nil {
			return hook.Result{}, err
		}
	}
	p := c.Payload
	var fs []Finding
	for _, path := range p.EditedPaths() {
		// A relative path is judged from each directory it may start in:
		// the tool's working-directory argument and the cwd.
		for _, dir := range editDirs(c) {
			f, err := edit(c, p.ToolName, dir, path, v.Values)
			if err != nil {
				return hook.Result{}, err
			}
			fs = append(fs, f...)
			if filepath.IsAbs(path) {
				break
			}
		}
	}
	if !toolargs.Known(p.ToolName) {
		// Every other tool (an MCP tool, another client's own): a shell
		// tool's command is judged as Bash; a tool that does not only
		// read is taken to write each path it names.
		if command, ok := toolargs.Shell(p); ok {
			more, err := bashCommand(c, command, v.Values, false)
			if err != nil {
				return hook.Result{}, err
			}
			fs = append(fs, more...)
		}
		home := ""
		if c.Getenv != nil {
			home = c.Getenv("HOME")
		}
		if tc := toolargs.Of(p, home); !tc.ReadOnly {
			for _, a := range tc.Paths {
				if err := c.Budget.Check(); err != nil {
					return hook.Result{}, err
				}
				f, err := edit(c, p.ToolName, Dir(c), a.Value, v.Values)
				if err != nil {
					return hook.Result{}, err
				}
				fs = append(fs, f...)
			}
		}
	}
	switch {
	case p.IsTool("Bash"):
		more, err := bash(c, v.Values)
		if err != nil {
			return hook.Result{}, err
		}
		fs = append(fs, more...)
	case p.IsTool("PowerShell"):
		more, err := powershell(c, v.Values)
		if err != nil {
			return hook.Result{}, err
		}
		fs = append(fs, more...)
	case len(fs) == 0 && p.IsTool("Edit", "MultiEdit", "Write", "NotebookEdit") && len(p.EditedPaths()) == 0:
		return hook.Result{}, fmt.Errorf("%s payload without a file path", p.ToolName)
	}
	if len(fs) == 0 {
		return hook.Result{}, nil
	}
	return decide(c, fs, v.Values), nil
}

// editDirs are the directories an edited file's relative path may start
// in: the tool's working-directory argument, then the payload's cwd.
func editDirs(c *hook.Call) []string {
	dirs := []string{Dir(c)}
	if cwd := c.Payload.CWD; cwd != "" && cwd != dirs[0] {
		dirs = append(dirs, cwd)
	}
	return dirs
}

// edit judges one file a tool is about to change: the checkout that holds
// it (after its symbolic links are resolved) decides; a file outside any
// git checkout is allowed, and so is a file git ignores there (build
// output, .env.local, node_modules/...: no commit can carry it; the gate
// configuration among them stays configguard's).
func edit(c *hook.Call, tool, cwd, path string, protect []string) ([]Finding, error) {
	if !filepath.IsAbs(path) {
		// Joined as written: cleaning would drop "link/.." before the
		// link is followed (gitrepo.Find resolves it as the OS will).
		path = cwd + string(filepath.Separator) + path
	}
	repo, err := c.Repo(path)
	if errors.Is(err, gitrepo.ErrNotRepo) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	ch := &checker{protect: protect, in: Input{PolicyOf: policyOf(c, protect)}}
	protected := ch.resolveProtect(repo, ch.protectOf(repo))
	if resolved, err := realpath.Resolve(path); err == nil {
		// Git's ref storage, whatever is checked out: an edit there moves
		// branches without git.
		for _, base := range []string{repo.CommonDir, repo.GitDir} {
			rel, err := filepath.Rel(base, resolved)
			if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
				continue
			}
			rel = filepath.ToSlash(rel)
			name, isHead := strings.CutPrefix(rel, "refs/heads/")
			if rel == "packed-refs" || rel == "reftable" || strings.HasPrefix(rel, "reftable/") || isHead && protected[protectedKey(name)] {
				return []Finding{{Rule: RuleRefStore, Ref: name, Where: repo.Root, Detail: fmt.Sprintf("%s would change %s, where git keeps the protected branches of %s", tool, resolved, repo.Root)}}, nil
			}
		}
	}
	switch {
	case repo.Unknown != "":
		return []Finding{{Rule: RuleUndecided, Where: repo.Root, Detail: fmt.Sprintf("%s of %s: branchguard cannot tell which branch %s has checked out (%s)", tool, path, repo.Root, repo.Unknown)}}, nil
	case protected[protectedKey(repo.Branch)]:
		if resolved, err := realpath.Resolve(path); err == nil && ignored(repo.Root, resolved, false) {
			return nil, nil
		}
		return []Finding{{Rule: RuleWrite, Ref: repo.Branch, Where: repo.Root, Detail: fmt.Sprintf("%s would change %s on the protected branch %s of %s", tool, path, repo.Branch, repo.Root)}}, nil
	}
	return nil, nil
}

// Dir returns where a shell tool call runs: the tool input's
// working-directory argument (relative to the cwd), else the cwd.
func Dir(c *hook.Call) string {
	home := ""
	if c.Getenv != nil {
		home = c.Getenv("HOME")
	}
	return c.Payload.WorkDir(home)
}

func bash(c *hook.Call, protect []string) ([]Finding, error) {
	command, ok := c.Payload.InputString("command")
	if !ok {
		return nil, fmt.Errorf("a Bash payload without tool_input.command")
	}
	return bashCommand(c, command, protect, false)
}

// powershell judges a PowerShell command as Bash is: the same model
// (gitcmd.Options.PowerShell), so git's ref moves, the files its cmdlets
// and redirections write and what it cannot see into mean what they
// mean for Bash.
func powershell(c *hook.Call, protect []string) ([]Finding, error) {
	command, ok := c.Payload.InputString("command")
	if !ok {
		return nil, fmt.Errorf("a PowerShell payload without tool_input.command")
	}
	return bashCommand(c, command, protect, true)
}

// bashCommand judges a shell command of the call (Bash's, or another
// shell tool's).
func bashCommand(c *hook.Call, command string, protect []string, powershell bool) ([]Finding, error) {
	home := ""
	if c.Getenv != nil {
		home = c.Getenv("HOME")
	}
	in := Input{Command: command, Dir: Dir(c), Home: home, Getenv: c.Getenv, Protect: protect,
		Deadline: c.Budget.Until(), MaxBytes: c.Budget.Limit(), Shared: true, Find: c.Repo, PolicyOf: policyOf(c, protect), PowerShell: powershell}
	r, err := Check(in)
	if err != nil {
		return []Finding{{Rule: RuleUndecided, Detail: "branchguard cannot analyse this command (" + err.Error() + ")"}}, nil
	}
	return r.Findings, nil
}

// Message words findings for the model of a harness: what would happen,
// which rule forbids it, what to do instead, in that harness's terms and
// with create as the command that makes a worktree
// (hook.Call.WorktreeCreate).
func Message(agent, create string, fs []Finding) string {
	var b strings.Builder
	b.WriteString("Blocked by the repository's branch policy (branchguard): ")
	var details []string
	rules := []string{}
	push, undecided := false, false
	for _, f := range fs {
		details = append(details, f.Detail)
		if !containsStr(rules, f.Rule) {
			rules = append(rules, f.Rule)
		}
		push = push || f.Push
		undecided = undecided || f.Rule == RuleUndecided
	}
	b.WriteString(strings.Join(details, "; "))
	b.WriteString(". Rule: " + strings.Join(rules, "; ") + ". ")
	if undecided {
		b.WriteString("Write the command so that every git subcommand, repository and branch is literal (git -C <dir> ..., no computed names), or split it into separate calls. ")
	}
	if push {
		b.WriteString("Push your own branch instead (git push -u origin HEAD from a feature branch) and open a pull request. ")
	}
	b.WriteString(harness.WayOutOf(agent, create))
	return strings.TrimSpace(b.String())
}
