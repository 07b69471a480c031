// Package noverify makes a repository's git hooks binding for the agent.
//
// # PURPOSE
//
// A git hook is the repository's last word before a commit or a push: the
// commit-msg hook magehook installs (hook:install -githook), a pre-commit
// linter, a pre-push test run. Each can be skipped with one flag — git
// commit --no-verify, -n, HUSKY=0, git -c core.hooksPath=/dev/null — and
// an agent told by a failing hook to "just commit" will use it. This gate
// denies every way a tool call skips, switches off or rewrites the hooks,
// on every branch, and tells the agent to fix what the hook reports.
//
// # HOW IT WORKS
//
//  1. PreToolUse on Bash and PowerShell (their native commands), and on
//     the file tools (Edit, MultiEdit, Write, NotebookEdit, apply_patch)
//     for the hooks themselves. The command is read through the shared
//     command model (pkg/gitcmd), so git aliases (-c alias.x, the
//     repository's and the user's), wrappers (env, sudo, xargs, timeout),
//     bash -c, eval, functions and scripts the command runs are seen
//     through.
//  2. Flags that skip hooks: git commit --no-verify or -n (also inside a
//     cluster such as -nm or -anm; -mn is a message "n"), and
//     --no-verify on push, merge, pull, am, rebase, cherry-pick and revert
//     (unambiguous prefixes such as --no-veri count, a later --verify
//     undoes it).
//  3. Configuration that moves or drops the hooks, for a git command that
//     runs any (commit, merge, pull, push, am, rebase, cherry-pick,
//     revert, checkout, switch, clone, worktree): core.hooksPath set by -c,
//     --config-env, GIT_CONFIG_COUNT/KEY/VALUE or GIT_CONFIG_PARAMETERS;
//     another configuration file put in place of the user's or the
//     system's (GIT_CONFIG_GLOBAL, GIT_CONFIG_SYSTEM, GIT_CONFIG_NOSYSTEM);
//     and a git config command in the same call that sets or unsets
//     core.hooksPath (any scope).
//  4. Hook managers' switches exported to a hook-running git command:
//     HUSKY=0 (and HUSKY_SKIP_HOOKS), pre-commit's SKIP, LEFTHOOK=0 and
//     LEFTHOOK_EXCLUDE, OVERCOMMIT_DISABLE, GIT_HOOKS_SKIP; in PowerShell,
//     $env:HUSKY = ... before a git command.
//  5. The hooks themselves: a write (redirection, rm, mv, chmod, cp, sed
//     -i, ..., as the command model finds them; an Edit or Write) of a
//     file in the hooks directory (core.hooksPath, else .git/hooks) or of
//     the directory itself, or of the repository's .git/config, where
//     core.hooksPath lives. A write whose path is only known at run time
//     is denied when the command names a hooks directory.
//  6. No configuration key: enabled, the gate holds for every repository
//     the agent works in. A git command that only prints (--help,
//     --version) is never denied.
//
// # EXIT CODES
//
//	0  allowed (no output), or denied with the decision on stdout
//	2  the gate failed (an analysis over its budget): the call is blocked
package noverify

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/magehook/magehook/pkg/gitcmd"
	"github.com/magehook/magehook/pkg/gitrepo"
	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/realpath"
)

// Handler is the catalogue entry.
var Handler = hook.Handler{
	Name:    "noverify",
	Purpose: "deny skipping or rewriting the repository's git hooks (commit --no-verify, -n, HUSKY=0, -c core.hooksPath=...), so they bind the agent",
	Events:  []string{"PreToolUse"},
	Matcher: "Bash|PowerShell|Edit|MultiEdit|Write|NotebookEdit|apply_patch",
	Policy:  hook.Gatekeeper,
	Run:     run,
}

const binding = "the repository's git hooks are binding for the agent: run the command without skipping them and fix what they report; if a hook is wrong, ask the user"

func run(c *hook.Call) (hook.Result, error) {
	p := c.Payload
	j := &judge{c: c, home: getenv(c, "HOME")}
	j.dir = p.WorkDir(j.home)
	var reasons []string
	var err error
	switch {
	case p.IsTool("Bash"):
		command, _ := p.InputString("command")
		reasons, err = j.shell(command, false)
	case p.IsTool("PowerShell"):
		command, _ := p.InputString("command")
		reasons, err = j.shell(command, true)
		reasons = append(reasons, j.powershellEnv(command)...)
	}
	if err != nil {
		return hook.Result{}, err
	}
	for _, path := range p.EditedPaths() {
		if !filepath.IsAbs(path) {
			path = filepath.Join(p.CWD, path)
		}
		if why := j.hookFile(path); why != "" {
			reasons = append(reasons, fmt.Sprintf("%s would change %s", p.ToolName, why))
		}
	}
	if len(reasons) == 0 {
		return hook.Result{}, nil
	}
	return hook.Deny("noverify: " + strings.Join(dedupe(reasons), "; ") + "; " + binding + "."), nil
}

func getenv(c *hook.Call, k string) string {
	if c.Getenv == nil {
		return ""
	}
	return c.Getenv(k)
}

type judge struct {
	c         *hook.Call
	home, dir string
	// places are the hooks directories and configuration files of the
	// repositories looked at, by the directory asked about.
	places map[string][]string
}

// hookRunning are the git subcommands that run hooks whose switches count.
func hookRunning(sub string) bool {
	switch sub {
	case "commit", "merge", "pull", "push", "am", "rebase", "cherry-pick", "revert", "checkout", "switch", "clone", "worktree":
		return true
	}
	return false
}

// skipFlag returns the flag of a git subcommand's arguments that skips its
// hooks, or "".
func skipFlag(sub string, args []gitcmd.Word) string {
	var found string
	for i := 0; i < len(args); i++ {
		a := args[i]
		v := a.Value
		if a.Dynamic != "" {
			continue
		}
		if v == "--" {
			break
		}
		if sub == "commit" && strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "--") && commitClusterSkips(v) {
			found = v
		}
		if takesValue(sub, v) {
			i++ // the option's value (git commit -m -n: a message)
			continue
		}
		switch {
		case strings.HasPrefix(v, "--no-veri") && strings.HasPrefix("--no-verify", v):
			found = v
		case strings.HasPrefix(v, "--veri") && strings.HasPrefix("--verify", v):
			found = ""
		}
	}
	if found != "" {
		switch sub {
		case "commit", "push", "merge", "pull", "am", "rebase", "cherry-pick", "revert":
			return found
		}
	}
	return ""
}

// takesValue reports an option written apart from its value (-m msg,
// --author x, -nm msg): the next word is the value, never an option.
func takesValue(sub, v string) bool {
	if strings.HasPrefix(v, "--") {
		if strings.Contains(v, "=") {
			return false
		}
		switch sub {
		case "commit":
			for _, o := range [...]string{"--message", "--file", "--author", "--date", "--template", "--reuse-message", "--reedit-message", "--fixup", "--squash", "--trailer", "--cleanup", "--pathspec-from-file"} {
				if v == o {
					return true
				}
			}
		case "merge", "pull":
			return v == "--message" || v == "--file" || v == "--strategy" || v == "--strategy-option" || v == "--into-name"
		case "rebase":
			return v == "--onto" || v == "--exec" || v == "--strategy" || v == "--strategy-option"
		case "push":
			return v == "--repo" || v == "--receive-pack" || v == "--exec" || v == "--push-option"
		}
		return false
	}
	if !strings.HasPrefix(v, "-") || len(v) < 2 {
		return false
	}
	var values string
	switch sub {
	case "commit":
		values = "mFCct"
	case "merge", "pull":
		values = "mFsX"
	case "rebase":
		values = "sXx"
	case "push":
		values = "o"
	case "am":
		values = "pC"
	}
	// The value option ends the cluster with nothing attached.
	for i := 1; i < len(v); i++ {
		if strings.IndexByte(values, v[i]) >= 0 {
			return i == len(v)-1
		}
	}
	return false
}

// commitClusterSkips reads a cluster of git commit's short options: -n
// skips the hooks, unless an option taking a value (-m, -F, -C, -c, -t,
// -S, -u) came first and took the rest as its value.
func commitClusterSkips(v string) bool {
	for i := 1; i < len(v); i++ {
		switch v[i] {
		case 'n':
			return true
		case 'm', 'F', 'C', 'c', 't', 'S', 'u':
			return false
		}
	}
	return false
}

// switches are hook managers' environment variables that skip hooks,
// with the values that do (empty: any non-empty value).
func switchOf(name, value string) bool {
	switch name {
	case "HUSKY":
		return value == "0" || strings.EqualFold(value, "false")
	case "LEFTHOOK":
		return value == "0" || strings.EqualFold(value, "false")
	case "HUSKY_SKIP_HOOKS", "SKIP", "LEFTHOOK_EXCLUDE", "OVERCOMMIT_DISABLE", "GIT_HOOKS_SKIP", "SKIP_HOOKS", "PRE_COMMIT_SKIP":
		return value != ""
	}
	return false
}

var hookSwitches = [...]string{"HUSKY", "HUSKY_SKIP_HOOKS", "SKIP", "LEFTHOOK", "LEFTHOOK_EXCLUDE", "OVERCOMMIT_DISABLE", "GIT_HOOKS_SKIP", "SKIP_HOOKS", "PRE_COMMIT_SKIP"}

// shell judges a command's git invocations, configuration writes and
// file writes: a Bash command's, or (powershell) a PowerShell one's, read
// into the same model.
func (j *judge) shell(command string, powershell bool) ([]string, error) {
	a, err := gitcmd.ForGate(command, j.dir, j.home, j.c.Getenv, j.c.Budget, powershell)
	if a == nil {
		return nil, err
	}
	var reasons []string
	for _, cmd := range a.Commands {
		g := cmd.Git
		if g == nil || g.Help || g.Exits || g.Sub == "" {
			continue
		}
		text := strings.TrimSpace(cmd.Text)
		if f := skipFlag(g.Sub, g.Args); f != "" {
			reasons = append(reasons, fmt.Sprintf("%q skips the git hooks (%s)", text, f))
		}
		if !hookRunning(g.Sub) {
			continue
		}
		for _, kv := range g.Config {
			if k, v, _ := strings.Cut(kv, "="); strings.EqualFold(k, "core.hookspath") {
				reasons = append(reasons, fmt.Sprintf("%q points core.hooksPath at %s, away from the repository's hooks", text, orNone(v)))
			}
		}
		for _, name := range hookSwitches {
			if v, set, dyn := cmd.Getenv(name); set && (switchOf(name, v) || dyn != "" && v != "") {
				reasons = append(reasons, fmt.Sprintf("%q runs with %s=%s, which makes the hook manager skip the hooks", text, name, v))
			}
		}
		for _, name := range [...]string{"GIT_CONFIG_PARAMETERS", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "GIT_CONFIG_NOSYSTEM", "GIT_CONFIG"} {
			v, set, _ := cmd.Getenv(name)
			if !set {
				continue
			}
			if name == "GIT_CONFIG_PARAMETERS" && !strings.Contains(strings.ToLower(v), "hookspath") {
				continue
			}
			reasons = append(reasons, fmt.Sprintf("%q runs with %s set, which can replace the configuration that says where the hooks are", text, name))
		}
	}
	for _, kv := range a.GitConfig {
		if k, v, _ := strings.Cut(kv, "="); strings.EqualFold(strings.TrimSpace(k), "core.hookspath") {
			if v == "" {
				reasons = append(reasons, "the command unsets core.hooksPath, which moves git away from the repository's hooks")
			} else {
				reasons = append(reasons, fmt.Sprintf("the command sets core.hooksPath to %s, away from the repository's hooks", v))
			}
		}
	}
	var mentioned *bool
	for _, w := range a.Writes {
		if w.Repo {
			continue // git's own working-tree writes leave the hooks alone
		}
		if w.Dynamic != "" {
			if mentioned == nil {
				m := mentionsHooks(command) || mentionsHooks(gitcmd.Decoded(command))
				mentioned = &m
			}
			if *mentioned {
				reasons = append(reasons, fmt.Sprintf("the command writes a path only known at run time (%s) and names the git hooks; write the path out", w.Dynamic))
			}
			continue
		}
		path := w.Written
		if path == "" {
			path = w.Path
		}
		if why := j.hookFile(path); why != "" {
			reasons = append(reasons, fmt.Sprintf("the command changes %s (%s)", why, w.Op))
			continue
		}
		if w.Tree || w.Glob {
			if why := j.holdsHooks(w.Path, w.Glob); why != "" {
				reasons = append(reasons, fmt.Sprintf("the command changes %s (%s of %s)", why, w.Op, w.Path))
			}
		}
	}
	return reasons, nil
}

func orNone(v string) string {
	if v == "" {
		return "nothing"
	}
	return v
}

func mentionsHooks(text string) bool {
	t := strings.ToLower(text)
	return strings.Contains(t, "hooks") || strings.Contains(t, ".husky") || strings.Contains(t, "hookspath") || strings.Contains(t, ".git/config")
}

// placesOf returns the hooks directory and the configuration file of the
// repository holding dir (none outside a repository).
func (j *judge) placesOf(dir string) []string {
	if j.places == nil {
		j.places = map[string][]string{}
	}
	if p, ok := j.places[dir]; ok {
		return p
	}
	var out []string
	if repo, err := j.c.Repo(dir); err == nil && repo.CommonDir != "" {
		hp := ""
		for _, e := range gitcmd.LoadConfig(repo.GitDir, j.home, j.c.Getenv, os.ReadFile) {
			if strings.EqualFold(e.Key, "core.hookspath") {
				hp = e.Value
			}
		}
		if hooks := gitrepo.HooksDir(repo, hp, j.home); hooks != "" {
			out = append(out, hooks)
		}
		// The default hooks directory stays guarded when core.hooksPath
		// moves them: unsetting it brings those back.
		out = append(out, filepath.Join(repo.CommonDir, "hooks"), filepath.Join(repo.CommonDir, "config"))
		if repo.GitDir != repo.CommonDir {
			out = append(out, filepath.Join(repo.GitDir, "config.worktree"))
		}
	}
	j.places[dir] = out
	return out
}

// hookFile describes path when it is a git hook, a hooks directory or a
// repository's configuration, "" otherwise.
func (j *judge) hookFile(path string) string {
	path = filepath.Clean(path)
	resolved, err := realpath.Resolve(path)
	if err != nil {
		resolved = path
	}
	dir := filepath.Dir(path)
	for !exists(dir) && filepath.Dir(dir) != dir {
		dir = filepath.Dir(dir)
	}
	for _, place := range j.placesOf(dir) {
		for _, p := range []string{path, resolved} {
			if p == place || realpath.Within(p, place) {
				if strings.HasSuffix(place, "config") || strings.HasSuffix(place, "config.worktree") {
					return "the repository's git configuration " + place + ", which says where its hooks are"
				}
				return "the git hook " + p + " (the hooks directory " + place + ")"
			}
		}
	}
	return ""
}

// holdsHooks describes a tree (or a pattern's directory) written whole
// that holds a hooks directory, "" otherwise.
func (j *judge) holdsHooks(path string, glob bool) string {
	base := path
	if glob {
		for strings.ContainsAny(base, "*?[{") {
			base = filepath.Dir(base)
		}
	}
	for _, place := range j.placesOf(j.dir) {
		if realpath.Within(place, base) {
			return "the hooks in " + place
		}
	}
	return ""
}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

// powershellEnv finds a hook manager's switch set through $env: in a
// PowerShell command that runs git.
func (j *judge) powershellEnv(command string) []string {
	low := strings.ToLower(command)
	if !strings.Contains(low, "git") {
		return nil
	}
	var out []string
	for _, name := range hookSwitches {
		if strings.Contains(low, "$env:"+strings.ToLower(name)+" ") || strings.Contains(low, "$env:"+strings.ToLower(name)+"=") {
			out = append(out, fmt.Sprintf("PowerShell sets $env:%s before running git, which makes the hook manager skip the hooks", name))
		}
	}
	return out
}

func dedupe(list []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, s := range list {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}
