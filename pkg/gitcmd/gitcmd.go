// Package gitcmd tells, from the shell syntax tree of a Bash command (never
// from substrings), whether the command runs git commit or git push, and in
// which repository.
//
// It follows the command the way the shell would run it:
//
//   - through git's global options (-C, -c, --git-dir, --work-tree,
//     --no-pager, ...) and a git named by a full path, and through aliases
//     defined on the same command line with -c alias.<name>=...;
//   - through lists, pipelines, subshells, groups, command and process
//     substitution, if, for, while, until and case, and through functions
//     defined and then called;
//   - behind wrappers (env, VAR=value prefixes, sudo, time, nohup, nice,
//     timeout, xargs, exec, command, stdbuf, ionice, eval, find -exec) and
//     inside the command strings of bash -c, sh -c and zsh -c;
//   - into the script a shell reads from stdin: a here-string, a
//     here-document, or the literal text of echo or printf piped into it;
//   - the directory: git -C, env -C, GIT_DIR and GIT_WORK_TREE (exported,
//     or a VAR=value prefix), a preceding cd or pushd in the same list (not
//     one inside a subshell or a pipeline element), else the payload's cwd.
//
// Words that are data are never mistaken for commands: echo and printf
// arguments, here-document bodies, comments, grep patterns, commit
// messages, git commit-tree and git stash push are all negative.
//
// What it cannot see: commands assembled at run time (git "$cmd", a
// subcommand in a variable, a cd to a computed directory, which it reports
// as an unknown directory), aliases and functions defined outside the
// command (in ~/.gitconfig or ~/.bashrc), and scripts the command runs.
// A command that does not parse is an error; a gate must then fail closed.
package gitcmd

import (
	"fmt"
	"path/filepath"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Invocation is one git commit or git push the command would run.
type Invocation struct {
	// Op is "commit" or "push".
	Op string
	// Dir is the directory git runs in (absolute), from git -C, env -C, a
	// preceding cd, or the cwd.
	Dir string
	// DirUnknown reports that the directory was changed to one the
	// command computes at run time (cd "$dir"), so Dir cannot be trusted.
	DirUnknown bool
	// GitDir is the --git-dir the command gives, made absolute, if any.
	GitDir string
	// Args are git's arguments as written (unquoted where literal).
	Args []string
}

// Analyze parses command and returns every git commit and git push it runs,
// with cwd as the starting directory and home for cd without an argument.
func Analyze(command, cwd, home string) ([]Invocation, error) {
	a := &analyzer{home: home, funcs: map[string]*syntax.Stmt{}}
	if err := a.script(command, state{dir: cwd}, 0); err != nil {
		return nil, err
	}
	return a.found, nil
}

// maxDepth bounds nested bash -c strings and function calls.
const maxDepth = 16

type analyzer struct {
	home  string
	funcs map[string]*syntax.Stmt
	found []Invocation
}

// state is what the shell carries from one statement to the next.
type state struct {
	dir     string
	unknown bool
	// gitDir and workTree are GIT_DIR and GIT_WORK_TREE, exported or
	// given as a VAR=value prefix.
	gitDir, workTree string
	// stdin is the literal text a command reads on stdin (a here-string,
	// a here-document, or echo/printf piped in), for a shell that reads
	// its script there.
	stdin string
}

func (a *analyzer) script(src string, st state, depth int) error {
	if depth > maxDepth {
		return fmt.Errorf("the command nests shells or functions more than %d deep", maxDepth)
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	if err != nil {
		return fmt.Errorf("the command does not parse as shell: %v", err)
	}
	_, err = a.stmts(f.Stmts, st, depth)
	return err
}

// stmts runs a list in sequence, the state flowing from one to the next.
func (a *analyzer) stmts(list []*syntax.Stmt, st state, depth int) (state, error) {
	var err error
	for _, s := range list {
		if st, err = a.stmt(s, st, depth); err != nil {
			return st, err
		}
	}
	return st, nil
}

func (a *analyzer) stmt(s *syntax.Stmt, st state, depth int) (state, error) {
	if s == nil {
		return st, nil
	}
	in := st
	in.stdin = ""
	for _, r := range s.Redirs {
		if err := a.word(r.Word, st, depth); err != nil {
			return st, err
		}
		if err := a.word(r.Hdoc, st, depth); err != nil { // only substitutions in an unquoted body run
			return st, err
		}
		switch r.Op {
		case syntax.WordHdoc:
			if text, ok := literal(r.Word); ok {
				in.stdin = text
			}
		case syntax.Hdoc, syntax.DashHdoc:
			if r.Hdoc == nil {
				in.stdin = ""
			} else if text, ok := literal(r.Hdoc); ok {
				in.stdin = text
			}
		}
	}
	if in.stdin == "" {
		in.stdin = st.stdin // what a pipeline feeds it
	}
	if s.Background {
		_, err := a.command(s.Cmd, in, depth)
		return st, err
	}
	out, err := a.command(s.Cmd, in, depth)
	out.stdin = ""
	return out, err
}

func (a *analyzer) command(cmd syntax.Command, st state, depth int) (state, error) {
	var err error
	switch c := cmd.(type) {
	case nil:
	case *syntax.CallExpr:
		return a.call(c, st, depth)
	case *syntax.BinaryCmd:
		if c.Op == syntax.Pipe || c.Op == syntax.PipeAll {
			// Each element of a pipeline runs in its own subshell.
			if _, err = a.stmt(c.X, st, depth); err != nil {
				return st, err
			}
			next := st
			next.stdin = printed(c.X)
			_, err = a.stmt(c.Y, next, depth)
			return st, err
		}
		if st, err = a.stmt(c.X, st, depth); err != nil {
			return st, err
		}
		return a.stmt(c.Y, st, depth)
	case *syntax.Subshell:
		_, err = a.stmts(c.Stmts, st, depth)
		return st, err
	case *syntax.Block:
		return a.stmts(c.Stmts, st, depth)
	case *syntax.IfClause:
		for ic := c; ic != nil; ic = ic.Else {
			if st, err = a.stmts(ic.Cond, st, depth); err != nil {
				return st, err
			}
			if st, err = a.stmts(ic.Then, st, depth); err != nil {
				return st, err
			}
		}
	case *syntax.WhileClause:
		if st, err = a.stmts(c.Cond, st, depth); err != nil {
			return st, err
		}
		return a.stmts(c.Do, st, depth)
	case *syntax.ForClause:
		if wi, ok := c.Loop.(*syntax.WordIter); ok {
			for _, w := range wi.Items {
				if err := a.word(w, st, depth); err != nil {
					return st, err
				}
			}
		}
		return a.stmts(c.Do, st, depth)
	case *syntax.CaseClause:
		if err := a.word(c.Word, st, depth); err != nil {
			return st, err
		}
		for _, item := range c.Items {
			if st, err = a.stmts(item.Stmts, st, depth); err != nil {
				return st, err
			}
		}
	case *syntax.FuncDecl:
		if c.Name != nil {
			a.funcs[c.Name.Value] = c.Body
		}
	case *syntax.TimeClause:
		return a.stmt(c.Stmt, st, depth)
	case *syntax.CoprocClause:
		_, err = a.stmt(c.Stmt, st, depth)
		return st, err
	case *syntax.DeclClause:
		for _, as := range c.Args {
			if err := a.assign(as, st, depth); err != nil {
				return st, err
			}
			if c.Variant != nil && c.Variant.Value == "export" {
				st = a.gitEnv(st, as)
			}
		}
	default:
		// Arithmetic, [[ ]] tests, let: only their substitutions run.
		err = a.substitutions(cmd, st, depth)
	}
	return st, err
}

func (a *analyzer) assign(as *syntax.Assign, st state, depth int) error {
	if as == nil {
		return nil
	}
	if err := a.word(as.Value, st, depth); err != nil {
		return err
	}
	if as.Array != nil {
		for _, el := range as.Array.Elems {
			if err := a.word(el.Value, st, depth); err != nil {
				return err
			}
		}
	}
	return nil
}

// word analyses the command and process substitutions inside a word: they
// run, in a subshell, wherever the word appears.
func (a *analyzer) word(w *syntax.Word, st state, depth int) error {
	if w == nil {
		return nil
	}
	return a.substitutions(w, st, depth)
}

func (a *analyzer) substitutions(node syntax.Node, st state, depth int) error {
	var err error
	syntax.Walk(node, func(n syntax.Node) bool {
		if err != nil {
			return false
		}
		switch s := n.(type) {
		case *syntax.CmdSubst:
			_, err = a.stmts(s.Stmts, st, depth)
			return false
		case *syntax.ProcSubst:
			_, err = a.stmts(s.Stmts, st, depth)
			return false
		}
		return true
	})
	return err
}

// literal returns the value of a word that holds no expansion.
func literal(w *syntax.Word) (string, bool) {
	var b strings.Builder
	for _, part := range w.Parts {
		switch p := part.(type) {
		case *syntax.Lit:
			b.WriteString(p.Value)
		case *syntax.SglQuoted:
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			for _, dp := range p.Parts {
				lit, ok := dp.(*syntax.Lit)
				if !ok {
					return "", false
				}
				b.WriteString(lit.Value)
			}
		default:
			return "", false
		}
	}
	return unescape(b.String()), true
}

// unescape removes the backslashes of an unquoted literal (git\ commit).
func unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// gitEnv applies an assignment of GIT_DIR or GIT_WORK_TREE.
func (a *analyzer) gitEnv(st state, as *syntax.Assign) state {
	if as == nil || as.Name == nil || as.Value == nil {
		return st
	}
	v, ok := literal(as.Value)
	switch as.Name.Value {
	case "GIT_DIR":
		if !ok {
			st.unknown = true
		} else {
			st.gitDir = a.join(st.dir, v)
		}
	case "GIT_WORK_TREE":
		if !ok {
			st.unknown = true
		} else {
			st.workTree = a.join(st.dir, v)
		}
	}
	return st
}

// printed is the literal text an echo or printf prints, when it has no
// expansion ("" otherwise).
func printed(s *syntax.Stmt) string {
	c, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || len(c.Args) < 2 {
		return ""
	}
	var words []string
	for _, w := range c.Args {
		lit, ok := literal(w)
		if !ok {
			return ""
		}
		words = append(words, lit)
	}
	switch words[0] {
	case "echo":
		args := words[1:]
		for len(args) > 0 && (args[0] == "-n" || args[0] == "-e" || args[0] == "-E") {
			args = args[1:]
		}
		return strings.Join(args, " ")
	case "printf":
		if strings.Contains(words[1], "%") {
			return strings.Join(words[2:], "\n")
		}
		return strings.ReplaceAll(words[1], `\n`, "\n")
	}
	return ""
}

func (a *analyzer) call(c *syntax.CallExpr, st state, depth int) (state, error) {
	env := st // VAR=value before a command is that command's environment
	for _, as := range c.Assigns {
		if err := a.assign(as, st, depth); err != nil {
			return st, err
		}
		env = a.gitEnv(env, as)
	}
	for _, w := range c.Args {
		if err := a.word(w, st, depth); err != nil {
			return st, err
		}
	}
	args := make([]string, len(c.Args))
	known := make([]bool, len(c.Args))
	for i, w := range c.Args {
		args[i], known[i] = literal(w)
	}
	out, err := a.argv(args, known, env, depth)
	out.gitDir, out.workTree = st.gitDir, st.workTree
	if env.unknown && !st.unknown && out.dir == st.dir {
		out.unknown = false // only the prefix was unknown
	}
	return out, err
}

// argv looks at one simple command's words: a cd changes the state, a
// wrapper is unwrapped, a shell's -c string is parsed, a function is
// called, and git is examined.
func (a *analyzer) argv(args []string, known []bool, st state, depth int) (state, error) {
	if len(args) == 0 {
		return st, nil
	}
	if !known[0] {
		return st, nil // a command name computed at run time
	}
	name := args[0]
	switch base := filepath.Base(name); {
	case name == "cd" || name == "pushd":
		return a.cd(args, known, st), nil
	case name == "popd":
		st.unknown = true
		return st, nil
	case base == "git":
		return st, a.git(args[1:], known[1:], st, depth)
	case isShell(base):
		return st, a.shell(args, known, st, depth)
	case name == "eval":
		return st, a.evalArgs(args[1:], known[1:], st, depth)
	}
	if body, ok := a.funcs[name]; ok && depth < maxDepth {
		delete(a.funcs, name) // no recursion into a function from itself
		defer func() { a.funcs[name] = body }()
		return a.stmt(body, st, depth+1)
	}
	if name == "find" {
		return st, a.findExec(args, known, st, depth)
	}
	if skip, dir, ok := unwrap(args, known); ok {
		inner := st
		if dir != "" {
			inner.dir = a.join(st.dir, dir)
		}
		if filepath.Base(name) == "xargs" && substitutes(args[1:skip]) {
			inner.unknown = true // xargs -I puts run-time words into the command
		}
		for _, arg := range args[1:skip] {
			if v, ok := strings.CutPrefix(arg, "GIT_DIR="); ok {
				inner.gitDir = a.join(st.dir, v)
			}
			if v, ok := strings.CutPrefix(arg, "GIT_WORK_TREE="); ok {
				inner.workTree = a.join(st.dir, v)
			}
		}
		_, err := a.argv(args[skip:], known[skip:], inner, depth)
		return st, err // a wrapper's command runs in a child process
	}
	return st, nil
}

// substitutes reports an xargs option that replaces a string in the
// command's arguments with input (-I, -i, --replace).
func substitutes(opts []string) bool {
	for _, o := range opts {
		if strings.HasPrefix(o, "-I") || strings.HasPrefix(o, "-i") || strings.HasPrefix(o, "--replace") {
			return true
		}
	}
	return false
}

// findExec analyses the commands find runs with -exec, -execdir, -ok and
// -okdir (up to ";" or "+"). -execdir runs in each match's directory,
// which only run time knows.
func (a *analyzer) findExec(args []string, known []bool, st state, depth int) error {
	for i := 1; i < len(args); i++ {
		switch args[i] {
		case "-exec", "-execdir", "-ok", "-okdir":
			inner := st
			if strings.HasSuffix(args[i], "dir") {
				inner.unknown = true
			}
			end := i + 1
			for end < len(args) && args[end] != ";" && args[end] != "+" {
				end++
			}
			if _, err := a.argv(args[i+1:end], known[i+1:end], inner, depth); err != nil {
				return err
			}
			i = end
		}
	}
	return nil
}

func isShell(base string) bool {
	switch base {
	case "sh", "bash", "zsh", "dash", "ksh", "mksh":
		return true
	}
	return false
}

func (a *analyzer) cd(args []string, known []bool, st state) state {
	rest := args[1:]
	for len(rest) > 0 && (rest[0] == "-L" || rest[0] == "-P" || rest[0] == "-e" || rest[0] == "--") {
		rest, known = rest[1:], known[1:]
	}
	switch {
	case len(rest) == 0 || rest[0] == "~":
		if a.home == "" {
			st.unknown = true
		} else {
			st.dir = a.home
		}
	case !known[len(known)-len(rest)] || rest[0] == "-":
		st.unknown = true
	default:
		st.dir = a.join(st.dir, rest[0])
	}
	return st
}

func (a *analyzer) join(dir, p string) string {
	if strings.HasPrefix(p, "~/") && a.home != "" {
		p = filepath.Join(a.home, p[2:])
	}
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(dir, p)
}

// shell parses the command string of sh -c (and bash -lc, ...).
func (a *analyzer) shell(args []string, known []bool, st state, depth int) error {
	for i := 1; i < len(args); i++ {
		arg := args[i]
		if !known[i] {
			return nil
		}
		if arg == "--" || !strings.HasPrefix(arg, "-") {
			return nil // a script file: not visible
		}
		if strings.HasPrefix(arg, "--") {
			continue
		}
		if strings.Contains(arg[1:], "c") {
			if i+1 < len(args) && known[i+1] {
				return a.script(args[i+1], st, depth+1)
			}
			return nil
		}
		if strings.ContainsAny(arg[1:], "oO") && i+1 < len(args) {
			i++ // -o option takes a value
		}
	}
	if st.stdin != "" {
		// No -c and no script file: the shell reads its script from stdin.
		inner := st
		inner.stdin = ""
		return a.script(st.stdin, inner, depth+1)
	}
	return nil
}

func (a *analyzer) evalArgs(args []string, known []bool, st state, depth int) error {
	for _, k := range known {
		if !k {
			return nil
		}
	}
	return a.script(strings.Join(args, " "), st, depth+1)
}

// wrapper describes a command that runs another: its options that take a
// value, and how many operands precede the command.
type wrapper struct {
	valued   string // single-letter options taking a value
	long     []string
	operands int
	assigns  bool // NAME=value words precede the command (env)
}

// wrapperOf returns the wrapper a command name is, if it is one. (A switch,
// not a map: a package-level map is built at every hook start.)
func wrapperOf(name string) (wrapper, bool) {
	switch name {
	case "env":
		return wrapper{valued: "uCS", long: []string{"--unset", "--chdir", "--split-string"}, assigns: true}, true
	case "sudo":
		return wrapper{valued: "uUgpCDrthRTc", long: []string{"--user", "--group", "--chdir", "--prompt", "--close-from", "--role", "--type", "--host", "--chroot", "--command-timeout"}, assigns: true}, true
	case "doas":
		return wrapper{valued: "uC"}, true
	case "nohup", "command", "builtin", "setsid":
		return wrapper{}, true
	case "time":
		return wrapper{valued: "fo", long: []string{"--format", "--output"}}, true
	case "nice":
		return wrapper{valued: "n", long: []string{"--adjustment"}}, true
	case "ionice":
		return wrapper{valued: "cnp", long: []string{"--class", "--classdata", "--pid"}}, true
	case "timeout":
		return wrapper{valued: "sk", long: []string{"--signal", "--kill-after"}, operands: 1}, true
	case "xargs":
		return wrapper{valued: "aEdIiLlnPs", long: []string{"--arg-file", "--delimiter", "--eof", "--replace", "--max-lines", "--max-args", "--max-procs", "--max-chars", "--process-slot-var"}}, true
	case "exec":
		return wrapper{valued: "a"}, true
	case "stdbuf":
		return wrapper{valued: "ioe", long: []string{"--input", "--output", "--error"}}, true
	case "chrt", "taskset":
		return wrapper{operands: 1}, true
	}
	return wrapper{}, false
}

// unwrap returns how many words a wrapper takes before the command it
// runs, and a directory it changes to (env -C, sudo -D).
func unwrap(args []string, known []bool) (skip int, dir string, ok bool) {
	w, isWrapper := wrapperOf(filepath.Base(args[0]))
	if !isWrapper {
		return 0, "", false
	}
	name := filepath.Base(args[0])
	i := 1
	for ; i < len(args); i++ {
		arg := args[i]
		if !known[i] {
			return 0, "", false
		}
		if arg == "--" {
			i++
			break
		}
		if w.assigns && strings.Contains(arg, "=") && !strings.HasPrefix(arg, "-") {
			continue
		}
		if !strings.HasPrefix(arg, "-") || arg == "-" {
			break
		}
		if name == "command" && (arg == "-v" || arg == "-V") {
			return 0, "", false // command -v only prints where git is
		}
		if strings.HasPrefix(arg, "--") {
			opt, val, hasVal := strings.Cut(arg, "=")
			for _, l := range w.long {
				if opt == l && !hasVal && i+1 < len(args) {
					i++
					val = args[i]
					hasVal = true
				}
			}
			if (opt == "--chdir") && hasVal {
				dir = val
			}
			continue
		}
		// Short options: the first one that takes a value takes the rest
		// of the word, or the next word.
		for j := 1; j < len(arg); j++ {
			if strings.IndexByte(w.valued, arg[j]) < 0 {
				continue
			}
			val := arg[j+1:]
			if val == "" && i+1 < len(args) {
				i++
				val = args[i]
			}
			if (name == "env" && arg[j] == 'C') || (name == "sudo" && arg[j] == 'D') {
				dir = val
			}
			if name == "env" && arg[j] == 'S' {
				return 0, "", false // env -S splits a string we do not follow
			}
			break
		}
	}
	i += w.operands
	if i >= len(args) {
		return 0, "", false
	}
	return i, dir, true
}

// git examines git's arguments: global options, then the subcommand.
func (a *analyzer) git(args []string, known []bool, st state, depth int) error {
	dir, gitDir, unknown := st.dir, st.gitDir, st.unknown
	if st.workTree != "" && gitDir == "" {
		dir = st.workTree
	}
	aliases := map[string]string{}
	for i := 0; i < len(args); i++ {
		arg := args[i]
		if !known[i] {
			if i > 0 && (args[i-1] == "-C" || args[i-1] == "--git-dir" || args[i-1] == "--work-tree") {
				unknown = true
				continue
			}
			return nil // a subcommand computed at run time
		}
		value := func() (string, bool) {
			if i+1 >= len(args) {
				return "", false
			}
			if !known[i+1] {
				unknown = true
				i++
				return "", false
			}
			i++
			return args[i], true
		}
		switch {
		case arg == "-C":
			if v, ok := value(); ok {
				dir = a.join(dir, v)
			}
		case arg == "-c":
			if v, ok := value(); ok {
				if k, val, found := strings.Cut(v, "="); found && strings.HasPrefix(strings.ToLower(k), "alias.") {
					aliases[k[len("alias."):]] = val
				}
			}
		case arg == "--git-dir":
			if v, ok := value(); ok {
				gitDir = a.join(dir, v)
			}
		case arg == "--work-tree":
			if v, ok := value(); ok && gitDir == "" {
				dir = a.join(dir, v)
			}
		case arg == "--namespace" || arg == "--config-env" || arg == "--super-prefix":
			value()
		case strings.HasPrefix(arg, "--git-dir="):
			gitDir = a.join(dir, strings.TrimPrefix(arg, "--git-dir="))
		case strings.HasPrefix(arg, "--work-tree="):
			if gitDir == "" {
				dir = a.join(dir, strings.TrimPrefix(arg, "--work-tree="))
			}
		case strings.HasPrefix(arg, "-"):
			// --no-pager, -p, --paginate, -P, --bare, --literal-pathspecs,
			// --no-optional-locks, --exec-path[=...], --namespace=..., ...
		default:
			sub := arg
			if val, ok := aliases[sub]; ok {
				if strings.HasPrefix(val, "!") {
					// A shell alias runs its text with sh -c.
					return a.script(val[1:], state{dir: dir, unknown: unknown}, depth+1)
				}
				if f := strings.Fields(val); len(f) > 0 {
					sub = f[0]
				}
			}
			if sub == "commit" || sub == "push" {
				a.found = append(a.found, Invocation{Op: sub, Dir: dir, DirUnknown: unknown, GitDir: gitDir, Args: args})
			}
			return nil
		}
	}
	return nil
}
