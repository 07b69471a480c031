// Package cmdguard denies destructive shell commands, found in the shell
// syntax tree rather than by substring.
//
// # PURPOSE
//
// An agent that runs rm -rf on the wrong directory, force-pushes over a
// colleague's work or pipes a download into a shell does damage no undo
// repairs. This gate checks every simple command a Bash call would run —
// through pipes, lists, subshells, sudo, env, xargs, bash -c, functions
// and git aliases, with variables resolved (pkg/gitcmd, the analysis
// branchguard uses, shared: one parse per command) — against rules, and
// denies the call when one matches. A word in an echo, a commit message or
// a here-document is data, never a command.
//
// Rules are data: the built-in set (Builtin: recursive deletes of /, the
// home directory or the checkout, and of .git; the same by any program
// the analysis follows (mv, find -exec rm, xargs, rsync --delete, chmod
// -R); deletes (rm, find -delete, rsync --delete, --remove-source-files)
// outside the checkout and scratch space; git reset
// --hard, git checkout -- . and git restore . over uncommitted work; git
// clean -f; git stash clear and every way of dropping the stash's reflog;
// git worktree remove --force; forced pushes; writes to the user's
// credentials (SSH keys, tokens, sudoers);
// chmod -R 777; a download piped into a shell;
// writes to block devices; tools that erase or repartition one; mkfs;
// DROP, TRUNCATE and DELETE without WHERE through database clients (in
// an argument, on stdin,
// through docker or kubectl exec, comments and all); deploys past
// deploy.ceiling; by name: rm-everything, rm-outside,
// rm-git-dir, find-delete-outside, rsync-delete-outside,
// rsync-remove-outside, find-delete-everything, destroy-everything,
// git-reset-hard, git-clean-force,
// git-discard, git-stash-clear, git-stash-delete, git-stash-expire,
// git-reflog-expire-all,
// git-worktree-remove-force, git-push-force, credentials-write,
// chmod-world-writable,
// download-to-shell, block-device-write, disk-erase, mkfs, sql-drop,
// kv-flush, deploy-ceiling)
// plus the repository's own in .toolingrc:
//
//	cmdguard.rule <name> <pattern> : <reason>
//	cmdguard.deny <name> <a command the rule must deny>
//	cmdguard.allow <name> <a command the rule must allow>
//	cmdguard.warn <name>     # the rule warns instead of denying
//	cmdguard.off <name>      # the rule is switched off
//	deploy.ceiling staging   # deploy-ceiling denies deploys past it
//	deploy.environments dev staging production   # in promotion order
//
// A pattern is the program (a base name or glob; "*" any; a|b
// alternatives) followed by terms that must all hold, in any order; a
// term is alternatives joined by '|', and '!' in front negates it:
//
//	-x            the short option x, alone or clustered (-rf holds r and f)
//	-word         an argument equal to -word (find -delete)
//	--long        --long or --long=value
//	--long=GLOB   --long=value or --long value, value matching GLOB
//	word          positional: the first such term matches the first operand
//	              (for git, the subcommand), the next the second (globs allowed)
//	{root} {home} {checkout}   an operand that is /, the home directory (or
//	              above it), the checkout root (or above it); a glob stands
//	              for its directory (rm -rf * in the root is the root)
//	{outside}     an operand outside the checkout the command runs in and
//	              outside scratch space (/tmp, /var/tmp, $TMPDIR; not the
//	              part of it that holds the checkout: its neighbours there
//	              are other checkouts); a path computed at run time is not
//	{writes-outside}  the command writes (as the analysis finds its writes)
//	              a path outside the checkout and scratch space
//	{dir}         an operand that is a directory, '.', a glob or a :pathspec
//	{glob:GLOB}   an operand matching GLOB
//	{writes:GLOB} the command writes a path matching GLOB (>, dd of=, tee, ...);
//	              a leading ~/ is the home directory
//	{destroys:root|home|checkout}  the command deletes, moves away or
//	              changes the mode of a whole tree at or above /, the home
//	              directory or the checkout, by whatever program (a find
//	              that selects by name counts for / and home alone)
//	{sql:WORDS}   an argument, the client's stdin (a here-document, a
//	              here-string, a file read in) or an echo or printf earlier
//	              in the call holds an SQL statement starting with one of
//	              WORDS, comments removed (delete-all: a DELETE without
//	              WHERE; drop also reads mongosh's drop() and
//	              dropDatabase())
//	{download-pipe}  an interpreter reading its program from its stdin (or
//	              sh -s, or a process substitution), fed by a download
//	              earlier in the call (curl ... | sh, bash <(curl ...))
//	{past-ceiling}   a deploy, release or promote command naming, in an
//	              argument or its environment, an environment past deploy.ceiling
//	{dirty}       git's repository has uncommitted changes to tracked files
//	{writes-device}  a disk tool names a block device in a form that erases
//	              or repartitions it (parted mklabel, sgdisk --zap-all, ...)
//
// # HOW IT WORKS
//
//  1. PreToolUse on Bash (and the shells other harnesses map onto it) and
//     PowerShell, read into the same model (gitcmd.Options.PowerShell): a
//     cmdlet is matched as the program it equals (Remove-Item -Recurse
//     -Force x as rm -r -f x; gitcmd.Command.Equivalent), a native program
//     as Bash's. The command is analysed once (gitcmd.Shared); an analysis
//     over its budget or size denies (fail closed).
//  2. Every rule not switched off is tried on every command the analysis
//     found. A program, operand or option value computed at run time
//     ($RM -rf /, rm -rf "$(pick)") is taken to match: the gate cannot
//     tell, and says so. {dirty} asks git last, only when the rest held.
//  3. A matching rule denies the call with its reason and the command; a
//     warn-only rule (cmdguard.warn) lets it run and tells the user
//     (systemMessage) and the model (additionalContext).
//  4. hook:verify and the doctor run every rule's examples through the same
//     matching (state classes such as {dirty} taken to hold): a deny
//     example the rule lets through, an allow example it stops, a rule
//     without a deny example, or a pattern that does not parse is a
//     problem. A bad rule at run time is a configuration error: the gate
//     fails closed.
//
// # EXIT CODES
//
//	0  allowed (no output), warned, or denied with the decision on stdout
//	2  the gate failed (a bad rule, an unreadable payload): the call is blocked
package cmdguard

import (
	"fmt"
	"strings"

	"github.com/magehook/magehook/pkg/cmdline"
	"github.com/magehook/magehook/pkg/gitcmd"
	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/toolingrc"
)

// Handler is the catalogue entry.
var Handler = hook.Handler{
	Name:    "cmdguard",
	Purpose: "deny destructive shell commands (rm -rf /, git reset --hard over changes, forced pushes, curl | sh, ...) by rules, built-in and the repository's",
	Events:  []string{"PreToolUse"},
	Matcher: "Bash|PowerShell",
	Policy:  hook.Gatekeeper,
	Run:     run,
	Verify:  Verify,
}

func run(c *hook.Call) (hook.Result, error) {
	command, ok := c.Payload.InputString("command")
	if !ok {
		return hook.Result{}, fmt.Errorf("a %s payload without tool_input.command", c.Payload.ToolName)
	}
	set, err := Load(c.Config)
	if err != nil {
		return hook.Result{}, err
	}
	home := getenv(c.Getenv, "HOME")
	if err := c.Budget.CheckSize("the command", len(command)); err != nil {
		return hook.Deny("cmdguard cannot check this command: " + err.Error() + "; split it into smaller commands."), nil
	}
	opts := gitcmd.HookOptions(c.Payload.WorkDir(home), home, c.Getenv, c.Budget.Until(), c.Budget.Limit())
	opts.PowerShell = c.Payload.IsTool("PowerShell") // the same model, its cmdlets as the programs they equal
	a, err := gitcmd.Shared(command, opts)
	if err != nil {
		return hook.Deny("cmdguard cannot check this command: " + err.Error() + "; split it into smaller commands."), nil
	}
	tmpdir := getenv(c.Getenv, "TMPDIR")
	w := &world{a: a, home: home, checkout: c.Config.Root(), tmpdir: tmpdir, past: set.past, dirty: gitDirty}
	var denies, warns []string
	for _, v := range views(a, command) {
		cmd := v.c
		for _, r := range set.rules {
			ok, why, err := r.parsed.match(v, w)
			if err != nil {
				return hook.Result{}, fmt.Errorf("rule %s: %w", r.Name, err)
			}
			if !ok {
				continue
			}
			text := commandText(cmd)
			msg := fmt.Sprintf("%s (rule %s, in %q)", r.Reason, r.Name, text)
			if why != "" {
				msg = fmt.Sprintf("%s may match rule %s: %s, so cmdguard cannot tell it is safe; write it out literally (%s)", text, r.Name, why, r.Reason)
			}
			if set.warn[r.Name] {
				warns = append(warns, msg)
			} else {
				denies = append(denies, msg)
			}
		}
	}
	if len(denies) == 0 {
		// Code the analysis cannot follow (python -c with __import__,
		// eval, a computed call) may run the commands its string literals
		// spell: each one that reads as a command line a rule denies is
		// taken to run.
		for i, cmd := range a.Commands {
			if cmd.Opaque == "" || len(denies) > 0 {
				continue
			}
			lits := gitcmd.Literals(cmd.Text)
			if len(lits) > 32 {
				lits = lits[:32]
			}
			for _, lit := range lits {
				if !strings.Contains(strings.TrimSpace(lit), " ") || len(lit) > 4096 {
					continue
				}
				lopts := opts
				lopts.PowerShell = false // a literal spelling a command line is read as Bash
				inner, err := gitcmd.Analyze(lit, lopts)
				if err != nil {
					continue
				}
				for j, ic := range inner.Commands {
					v := view(ic, j)
					for _, r := range set.rules {
						ok, _, err := r.parsed.match(v, &world{a: inner, home: home, checkout: c.Config.Root(), tmpdir: tmpdir, past: set.past, dirty: gitDirty})
						if err != nil || !ok || set.warn[r.Name] {
							continue
						}
						denies = append(denies, fmt.Sprintf("%s (%s) may run %q, and that matches rule %s (%s)", strings.TrimSpace(a.Commands[i].Text), cmd.Opaque, lit, r.Name, r.Reason))
						break
					}
					if len(denies) > 0 {
						break
					}
				}
				if len(denies) > 0 {
					break
				}
			}
		}
	}
	if len(denies) > 0 {
		return hook.Deny("cmdguard: " + strings.Join(denies, "; ") + ". If it is really wanted, ask the user to run it."), nil
	}
	if len(warns) > 0 {
		text := "cmdguard warning: " + strings.Join(warns, "; ")
		return hook.Result{SystemMessage: text, Context: text + " (the rule is warn-only; the command runs)"}, nil
	}
	return hook.Result{}, nil
}

func getenv(f func(string) string, k string) string {
	if f == nil {
		return ""
	}
	return f(k)
}

// Set is the rules in force for a checkout.
type Set struct {
	rules []Rule
	warn  map[string]bool
	past  []string
	// all includes the rules switched off, for hook:verify.
	all []Rule
}

// Rules returns the rules in force.
func (s *Set) Rules() []Rule { return s.rules }

// Load reads the built-in rules and the repository's from the
// configuration, with their examples, warn-only and off switches and the
// deploy ceiling. A malformed rule is an error naming its line.
func Load(cfg *toolingrc.Config) (*Set, error) {
	rules := Builtin()
	byName := map[string]int{}
	for i := range rules {
		byName[rules[i].Name] = i
	}
	lines, err := cfg.Get(toolingrc.KeyCmdguardRule)
	if err != nil {
		return nil, err
	}
	for i, line := range lines.Values {
		where := fmt.Sprintf("%s:%d", lines.File, lineOf(cfg, toolingrc.KeyCmdguardRule, i))
		name, rest, _ := strings.Cut(strings.TrimSpace(line), " ")
		pattern, reason, ok := strings.Cut(rest, " : ")
		switch {
		case !toolingrc.IsToken(name):
			return nil, fmt.Errorf("%s: cmdguard.rule: %q is not a rule name; write cmdguard.rule <name> <pattern> : <reason>", where, name)
		case !ok || strings.TrimSpace(pattern) == "" || strings.TrimSpace(reason) == "":
			return nil, fmt.Errorf("%s: cmdguard.rule %s: write cmdguard.rule <name> <pattern> : <reason> (a space, a colon and a space before the reason)", where, name)
		}
		if _, dup := byName[name]; dup {
			return nil, fmt.Errorf("%s: cmdguard.rule %s: a rule of that name exists already (built-in rules are switched off with cmdguard.off)", where, name)
		}
		byName[name] = len(rules)
		rules = append(rules, Rule{Name: name, Pattern: strings.TrimSpace(pattern), Reason: strings.TrimSpace(reason), Where: where})
	}
	for _, key := range []string{toolingrc.KeyCmdguardDeny, toolingrc.KeyCmdguardAllow} {
		v, err := cfg.Get(key)
		if err != nil {
			return nil, err
		}
		for i, line := range v.Values {
			name, example, _ := strings.Cut(strings.TrimSpace(line), " ")
			j, ok := byName[name]
			if !ok || strings.TrimSpace(example) == "" {
				return nil, fmt.Errorf("%s:%d: %s: write %s <rule name> <command>, naming a built-in rule (go doc ./hooks/cmdguard) or one of cmdguard.rule", v.File, lineOf(cfg, key, i), key, key)
			}
			if key == toolingrc.KeyCmdguardDeny {
				rules[j].Deny = append(rules[j].Deny, strings.TrimSpace(example))
			} else {
				rules[j].Allow = append(rules[j].Allow, strings.TrimSpace(example))
			}
		}
	}
	if err := parseBuiltin(rules, ParsePattern); err != nil {
		return nil, err
	}
	s := &Set{warn: map[string]bool{}, all: rules}
	off := map[string]bool{}
	for _, spec := range []struct {
		key string
		set map[string]bool
	}{{toolingrc.KeyCmdguardWarn, s.warn}, {toolingrc.KeyCmdguardOff, off}} {
		v, err := cfg.Get(spec.key)
		if err != nil {
			return nil, err
		}
		for i, name := range v.Values {
			if _, ok := byName[name]; !ok {
				return nil, fmt.Errorf("%s:%d: %s: no rule is named %q; the built-in ones are listed in go doc ./hooks/cmdguard, a repository's are its cmdguard.rule lines", v.File, lineOf(cfg, spec.key, i), spec.key, name)
			}
			spec.set[name] = true
		}
	}
	for _, r := range rules {
		if !off[r.Name] {
			s.rules = append(s.rules, r)
		}
	}
	past, err := pastCeilingEnvs(cfg)
	if err != nil {
		return nil, err
	}
	s.past = past
	return s, nil
}

// parsedRule is a built-in pattern parsed at generation (table.go), with
// the text it was parsed from.
type parsedRule struct {
	src string
	p   Pattern
}

// parseBuiltin sets every rule's parsed pattern: a built-in rule's from the
// generated table when the table holds its text, any other with parse.
func parseBuiltin(rules []Rule, parse func([]string) (Pattern, error)) error {
	for i := range rules {
		if i < len(builtinTable) && rules[i].Where == "" && builtinTable[i].src == rules[i].Pattern {
			rules[i].parsed = builtinTable[i].p
			continue
		}
		p, err := parse(cmdline.Words(rules[i].Pattern))
		if err != nil {
			where := rules[i].Where
			if where == "" {
				where = "built-in"
			}
			return fmt.Errorf("%s: cmdguard rule %s: %v", where, rules[i].Name, err)
		}
		rules[i].parsed = p
	}
	return nil
}

// pastCeilingEnvs returns the environments after deploy.ceiling in
// deploy.environments; none without a ceiling.
func pastCeilingEnvs(cfg *toolingrc.Config) ([]string, error) {
	ceiling, err := cfg.Get(toolingrc.KeyDeployCeiling)
	if err != nil || ceiling.String() == "" {
		return nil, err
	}
	envs, err := cfg.Get(toolingrc.KeyDeployEnvironments)
	if err != nil {
		return nil, err
	}
	for i, e := range envs.Values {
		if e == ceiling.String() {
			return envs.Values[i+1:], nil
		}
	}
	return nil, fmt.Errorf("%s:%d: deploy.ceiling %s is not one of deploy.environments (%s)", ceiling.File, ceiling.Line, ceiling.String(), strings.Join(envs.Values, " "))
}

func lineOf(cfg *toolingrc.Config, key string, i int) int {
	entries, _, _ := cfg.Lookup(key)
	if i < len(entries) {
		return entries[i].Line
	}
	return 0
}

// commandText is a command as a message quotes it: its source text, or,
// for one another program starts (find -exec, xargs), which has none of
// its own, its words and what runs it.
func commandText(cmd gitcmd.Command) string {
	if t := strings.TrimSpace(cmd.Text); t != "" {
		return t
	}
	t := strings.Join(cmd.Argv(), " ")
	if len(cmd.Via) > 0 {
		t += " (run by " + cmd.Via[len(cmd.Via)-1] + ")"
	}
	return t
}
