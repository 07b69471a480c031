package branchguard

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/magehook/magehook/pkg/gitcmd"
	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/pwsh"
)

// powershell returns why a PowerShell command would change a protected
// branch or its checkout. It is judged as Bash is: each command it runs
// (git above all) goes through the same check as a shell command, in the
// directory it runs in, so guard.protect's <remote>/HEAD, aliases, push
// refspecs and every ref-moving subcommand mean what they mean for Bash;
// the files its cmdlets and redirections write are judged like a shell's
// writes (a file git ignores is allowed). What the reader cannot see into
// (a command that does not parse, Invoke-Expression, a computed command,
// a nested shell) fails closed on a protected branch, and elsewhere when
// it mentions git at all.
func powershell(c *hook.Call, protect []string) ([]Finding, error) {
	command, ok := c.Payload.InputString("command")
	if !ok {
		return nil, fmt.Errorf("a PowerShell payload without tool_input.command")
	}
	dir := Dir(c)
	a, err := pwsh.Analyze(command, dir, c.Getenv)
	var blind []string
	if err != nil {
		blind = []string{err.Error()}
	} else {
		blind = a.Opaque
	}
	ch := &checker{protect: protect, in: Input{PolicyOf: policyOf(c, protect)}}
	// protectedAt is the protected branch checked out where path is, or "".
	protectedAt := func(path string) (branch, root string) {
		repo, err := c.Repo(path)
		if err != nil {
			return "", ""
		}
		if repo.Unknown != "" {
			return "(unknown: " + repo.Unknown + ")", repo.Root
		}
		if ch.resolveProtect(repo, ch.protectOf(repo))[protectedKey(repo.Branch)] {
			return repo.Branch, repo.Root
		}
		return "", ""
	}
	var fs []Finding
	undecided := func(detail string) {
		fs = append(fs, Finding{Rule: RuleUndecided, Detail: detail})
	}
	if len(blind) > 0 {
		branch, root := protectedAt(dir)
		switch {
		case branch != "":
			undecided(fmt.Sprintf("branchguard cannot see what this PowerShell command runs (%s) on the protected branch %s of %s", strings.Join(blind, "; "), branch, root))
		case mentionsGit(command) || mentionsGit(gitcmd.Decoded(command)):
			undecided(fmt.Sprintf("branchguard cannot see which repository the git in this PowerShell command acts on (%s); run git directly, with git -C <dir>", strings.Join(blind, "; ")))
		}
	}
	home := ""
	if c.Getenv != nil {
		home = c.Getenv("HOME")
	}
	for _, pc := range a.Commands {
		if err := c.Budget.Check(); err != nil {
			return nil, err
		}
		if pc.Name() != "git" && !mentionsGit(pc.Name()) && !native(pc.Name()) {
			continue // a cmdlet: its writes are judged below
		}
		line, computed := shellLine(pc.Args)
		if pc.Dir == "" {
			if pc.Name() == "git" {
				undecided(fmt.Sprintf("%s runs in a directory the command computes at run time, so branchguard cannot tell its branch; name the repository with git -C <dir>", line))
			}
			continue
		}
		dirs := []string{pc.Dir}
		if pc.Alt != "" {
			if _, err := os.Stat(pc.AltIf); err != nil {
				dirs = append(dirs, pc.Alt) // the Set-Location before it fails
			}
		}
		for _, d := range dirs {
			r, err := Check(Input{Command: line, Dir: d, Home: home, Getenv: computedEnv(c.Getenv, computed), Protect: protect,
				Deadline: c.Budget.Until(), MaxBytes: c.Budget.Limit(), Check: c.Budget.Check, PolicyOf: policyOf(c, protect)})
			if err != nil {
				undecided("branchguard cannot analyse " + line + " (" + err.Error() + ")")
				continue
			}
			fs = append(fs, r.Findings...)
		}
	}
	into := map[string]string{}
	for _, cp := range a.Copies {
		if info, err := os.Stat(cp.Dest); err == nil && info.IsDir() {
			into[cp.Dest] = filepath.Join(cp.Dest, filepath.Base(cp.Src))
		}
	}
	writes := a.Writes
	for _, aw := range a.Alt {
		if _, err := os.Stat(aw.If); err != nil {
			writes = append(writes, aw.Path) // the Set-Location failed
		}
	}
	for _, w := range writes {
		if landed, ok := into[w]; ok {
			w = landed // Copy-Item x dir writes dir/x
		}
		if strings.HasPrefix(w, "$(") {
			if branch, root := protectedAt(dir); branch != "" {
				fs = append(fs, Finding{Rule: RuleWrite, Ref: branch, Where: root, Detail: fmt.Sprintf("PowerShell writes to a path computed at run time (%s) in %s, where the protected branch %s is checked out", strings.TrimSuffix(strings.TrimPrefix(w, "$("), ")"), root, branch)})
			}
			continue
		}
		more, err := edit(c, "PowerShell", dir, w, protect)
		if err != nil {
			return nil, err
		}
		fs = append(fs, more...)
	}
	for _, t := range a.Trees {
		base := t.Path
		if i := strings.IndexAny(base, "*?["); i >= 0 {
			base = filepath.Dir(base[:i] + "x")
		}
		if branch, root := protectedAt(base); branch != "" && !ignored(root, base, true) {
			fs = append(fs, Finding{Rule: RuleWrite, Ref: branch, Where: root, Detail: fmt.Sprintf("PowerShell would change what %s holds, on the protected branch %s of %s", t.Path, branch, root)})
		}
	}
	for _, u := range a.Unknown {
		if branch, root := protectedAt(dir); branch != "" {
			fs = append(fs, Finding{Rule: RuleWrite, Ref: branch, Where: root, Detail: fmt.Sprintf("PowerShell: %s, in %s, where the protected branch %s is checked out", u, root, branch)})
		}
	}
	return fs, nil
}

// native reports a command name that is a program, not a cmdlet
// (Verb-Noun) or one of PowerShell's aliases of a cmdlet, so that a shell
// would run the same program: python, node, bash's tools.
func native(name string) bool {
	if strings.Contains(name, "-") {
		return false
	}
	switch name {
	case "cd", "chdir", "sl", "ls", "dir", "gci", "rm", "del", "erase", "ri", "rmdir", "rd", "cp", "copy", "cpi", "mv", "move", "mi",
		"echo", "write", "cat", "gc", "type", "ni", "mkdir", "md", "ac", "clc", "sc", "tee", "sort", "where", "select", "foreach", "%", "?",
		"pushd", "popd", "ren", "rni", "gi", "sp", "iex", "saps", "start", "kill", "ps", "pwd", "cls", "clear", "man", "help", "curl", "wget":
		return false
	}
	return true
}

// shellLine writes a command's words as one shell line, each quoted; a
// word computed at run time becomes a variable the shell does not know,
// so the analysis takes it as only known at run time. It returns the
// names of those variables.
func shellLine(args []pwsh.Word) (string, []string) {
	var b strings.Builder
	var computed []string
	for i, w := range args {
		if i > 0 {
			b.WriteByte(' ')
		}
		if !w.Literal {
			name := fmt.Sprintf("MAGEHOOK_PWSH_COMPUTED_%d", i)
			computed = append(computed, name)
			b.WriteString(`"$` + name + `"`)
			continue
		}
		b.WriteString("'" + strings.ReplaceAll(w.Text, "'", `'\''`) + "'")
	}
	return b.String(), computed
}

// computedEnv is the hook's environment with the computed words' names
// read as empty (only known at run time).
func computedEnv(getenv func(string) string, computed []string) func(string) string {
	return func(name string) string {
		for _, c := range computed {
			if c == name {
				return ""
			}
		}
		if getenv == nil {
			return ""
		}
		return getenv(name)
	}
}
