package gitcmd

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// call walks a simple command: its assignments, words and redirections,
// then what it runs.
func (w *walker) call(c *syntax.CallExpr, sc scope, redirs []*syntax.Redirect) res {
	if len(c.Args) == 0 {
		// Assignments alone change the shell.
		for _, as := range c.Assigns {
			sc = w.assign(as, sc, sc.allexport)
		}
		w.redirects(redirs, sc, -1, nil)
		return same(sc)
	}
	env := sc.vars // VAR=value before a command is in that command's environment
	for _, as := range c.Assigns {
		if as.Name == nil {
			continue
		}
		v := w.assignValue(as, sc)
		env = &binding{name: as.Name.Value, val: v, exported: true, next: env}
	}
	var args []Word
	for _, word := range c.Args {
		args = append(args, w.fields(word, sc)...)
	}
	inner := sc
	inner.vars = env
	out, idx := w.run(args, inner, sc.text(c))
	var printedText *string
	if text, ok := w.printedCall(c, redirs, sc); ok {
		printedText = &text
	}
	w.redirects(redirs, sc, idx, printedText)
	if idx < 0 {
		return same(sc)
	}
	out.vars = sc.vars
	if changed := out.shellVars; changed != nil {
		out.vars = changed
	}
	return res{out: out.scope, succ: out.scope, last: []int{idx}}
}

// ran is what running a command leaves behind.
type ran struct {
	scope
	// shellVars are the shell's variables after a builtin that changes
	// them (export, unset, source, eval), or nil.
	shellVars *binding
}

func (w *walker) assignValue(as *syntax.Assign, sc scope) Word {
	if as.Array != nil {
		for _, el := range as.Array.Elems {
			w.fields(el.Value, sc)
		}
		return Word{Value: sc.text(as.Array), Dynamic: "an array value"}
	}
	if as.Value == nil {
		return Word{}
	}
	v := w.joined(as.Value, sc)
	if as.Append {
		old, _ := w.lookupVar(as.Name.Value, sc)
		if old.Dynamic != "" {
			return old
		}
		v.Value = old.Value + v.Value
	}
	if as.Index != nil {
		return Word{Value: sc.text(as.Value), Dynamic: "an array element"}
	}
	return v
}

// assign sets a shell variable (keeping it exported if it was).
func (w *walker) assign(as *syntax.Assign, sc scope, export bool) scope {
	if as == nil || as.Name == nil {
		return sc
	}
	v := w.assignValue(as, sc)
	if old := sc.vars.lookup(as.Name.Value); old != nil && old.exported {
		export = true
	}
	sc.vars = &binding{name: as.Name.Value, val: v, exported: export, next: sc.vars}
	return sc
}

// decl handles export, declare, typeset, local, readonly.
func (w *walker) decl(c *syntax.DeclClause, sc scope) scope {
	variant := ""
	if c.Variant != nil {
		variant = c.Variant.Value
	}
	export := variant == "export"
	unexport, funcs, nameref := false, false, false
	words := []string{variant}
	for _, as := range c.Args {
		if as.Name == nil && as.Value != nil {
			v := w.joined(as.Value, sc)
			if v.Dynamic != "" {
				sc.envWhy = fmt.Sprintf("%s %s names a variable only known at run time", variant, v.Value)
				continue
			}
			words = append(words, v.Value)
			if strings.HasPrefix(v.Value, "-") || strings.HasPrefix(v.Value, "+") {
				on := v.Value[0] == '-'
				for _, f := range v.Value[1:] {
					switch f {
					case 'x':
						export, unexport = on, !on
					case 'n':
						if variant == "export" {
							unexport, export = true, false
						} else {
							nameref = on
						}
					case 'f', 'F':
						funcs = true
					}
				}
				continue
			}
			if name, val, ok := strings.Cut(v.Value, "="); ok {
				sc.vars = &binding{name: name, val: Word{Value: val}, exported: export || sc.allexport, next: sc.vars}
			}
			continue
		}
		if as.Name == nil {
			continue
		}
		if nameref {
			// declare -n r=x: $r is $x, whatever x holds when it is read.
			sc.vars = &binding{name: as.Name.Value, val: Word{Value: "$" + as.Name.Value, Dynamic: "$" + as.Name.Value + " is a reference to another variable, read at run time"}, next: sc.vars}
			words = append(words, as.Name.Value)
			continue
		}
		words = append(words, as.Name.Value)
		name := as.Name.Value
		if funcs {
			if f := sc.funcs.lookup(name); f != nil {
				g := *f
				g.exported = export
				g.next = sc.funcs
				sc.funcs = &g
			}
			continue
		}
		old := sc.vars.lookup(name)
		switch {
		case as.Naked && old != nil:
			b := *old
			b.exported = (old.exported || export || sc.allexport) && !unexport
			b.next = sc.vars
			sc.vars = &b
		case as.Naked && export:
			v, set := w.lookupVar(name, sc)
			if set {
				sc.vars = &binding{name: name, val: v, exported: true, next: sc.vars}
			}
		case as.Naked:
		default:
			v := w.assignValue(as, sc)
			exp := (export || sc.allexport || (old != nil && old.exported)) && !unexport
			sc.vars = &binding{name: name, val: v, exported: exp, next: sc.vars}
		}
	}
	args := make([]Word, len(words))
	for i, s := range words {
		args[i] = Word{Value: s}
	}
	w.emit(args, sc, sc.vars, sc.text(c))
	return sc
}

// run records one command and follows what it runs; idx is its index.
func (w *walker) run(args []Word, sc scope, text string) (ran, int) {
	if len(args) == 0 {
		return ran{scope: sc}, -1
	}
	if !w.tick() {
		return ran{scope: sc}, -1
	}
	idx := w.emit(args, sc, sc.vars, text)
	out := ran{scope: sc}
	name := args[0].Value
	if args[0].Dynamic != "" || args[0].Glob {
		return out, idx
	}
	base := filepath.Base(name)
	rest := args[1:]
	switch name {
	case "cd", "pushd", "popd":
		out.scope = w.cd(name, rest, sc, idx)
		return out, idx
	case "builtin", "command":
		// builtin cd .., command cd ..: the same builtin, which changes
		// this shell's directory (a wrapper's command would not).
		if len(rest) > 0 && rest[0].Dynamic == "" && (rest[0].Value == "cd" || rest[0].Value == "pushd" || rest[0].Value == "popd") {
			out.scope = w.cd(rest[0].Value, rest[1:], sc, idx)
			return out, idx
		}
	case "export", "declare", "typeset", "local", "readonly":
		out.shellVars = w.declWords(name, rest, sc)
		return out, idx
	case "unset":
		out.shellVars, out.funcs = unset(rest, sc)
		return out, idx
	case "set":
		out.scope = setOptions(rest, sc)
		return out, idx
	case "shift":
		out.scope = shiftArgs(rest, sc)
		return out, idx
	case "shopt":
		if len(rest) >= 2 && rest[0].Value == "-s" {
			for _, o := range rest[1:] {
				if o.Value == "cdable_vars" {
					out.cdable = true
				}
			}
		}
		return out, idx
	case "source", ".":
		out.scope, out.shellVars = w.source(rest, sc, idx)
		return out, idx
	case "eval":
		out.scope, out.shellVars = w.eval(rest, sc, idx)
		return out, idx
	case "trap":
		// trap 'code' SIGNAL...: the code runs later in this shell (at
		// exit, on a signal): it is part of what the command runs.
		ops := rest
		for len(ops) > 0 && ops[0].Dynamic == "" && (ops[0].Value == "-p" || ops[0].Value == "-l" || ops[0].Value == "--") {
			ops = ops[1:]
		}
		if len(ops) >= 2 && !(ops[0].Dynamic == "" && (ops[0].Value == "-" || ops[0].Value == "")) {
			w.shellString(ops[0].Value, ops[0], "trap", sc, idx, nil)
		}
		return out, idx
	case "alias":
		for _, a := range rest {
			if n, v, ok := strings.Cut(a.Value, "="); ok && a.Dynamic == "" {
				out.aliases = &binding{name: n, val: Word{Value: v}, next: out.aliases}
			} else if ok {
				out.aliases = &binding{name: n, val: Word{Value: a.Value, Dynamic: a.Dynamic}, next: out.aliases}
			}
		}
		return out, idx
	case "unalias":
		for _, a := range rest {
			out.aliases = &binding{name: a.Value, unset: true, next: out.aliases}
		}
		return out, idx
	}
	if al := sc.aliases.lookup(name); al != nil && !al.unset && args[0].Value == name {
		// An alias (shell start-up files or expand_aliases) is text the
		// shell reads again, followed by the rest of the words.
		if al.val.Dynamic != "" {
			w.a.Commands[idx].Opaque = "the alias " + name + " is only known at run time (" + al.val.Dynamic + ")"
			return out, idx
		}
		words := []Word{{Value: "eval"}}
		words = append(words, Word{Value: al.val.Value})
		for _, a := range rest {
			words = append(words, Word{Value: quoteWord(a.Value), Dynamic: a.Dynamic})
		}
		inner := sc
		inner.aliases = &binding{name: name, unset: true, next: sc.aliases} // no recursion
		out.scope, out.shellVars = w.eval(words[1:], inner, idx)
		out.aliases = sc.aliases
		return out, idx
	}
	switch name {
	case "exec":
		if len(rest) == 0 {
			return out, idx // exec with only redirections
		}
		out.dead = true
	case "exit", "logout":
		out.dead = true
		return out, idx
	}
	if f := sc.funcs.lookup(name); f != nil && name == base {
		inner := sc
		inner.funcs = removeFunc(sc.funcs, name) // no recursion into itself
		inner.args, inner.hasArgs = rest, true
		inner.via = appendVia(sc.via, "function "+name)
		inner.src = f.src
		w.nest(func() {
			r := w.stmt(f.body, inner)
			out.scope = r.out
			out.dead = false // return, not exit
			out.src, out.via, out.args, out.hasArgs, out.funcs = sc.src, sc.via, sc.args, sc.hasArgs, sc.funcs
			out.shellVars = r.out.vars
		})
		return out, idx
	}
	// A child process runs where the command does (a cd that may have
	// failed included).
	child := sc
	child.dir, child.dirWhy = w.a.Commands[idx].Dir, w.a.Commands[idx].DirDynamic
	w.follow(args, child, idx)
	return out, idx
}

// follow analyses what a command runs in a child process: wrappers,
// shells, scripts, interpreters, git, find -exec.
func (w *walker) follow(args []Word, sc scope, idx int) {
	name := args[0].Value
	base := progName(name)
	if base == "git" || strings.HasPrefix(base, "git-") {
		w.gitRuns(args, sc, idx)
		w.gitWrites(sc, idx)
		return
	}
	w.commandWrites(args, sc, idx)
	if inner, how, ok := w.unwrap(args, sc); ok {
		if how.shellCmd != "" {
			w.shellString(how.shellCmd, how.shellWord, how.via, how.scope, idx, nil)
			return
		}
		if len(inner) > 0 {
			sub := how.scope
			sub.via = appendVia(sc.via, how.via)
			first := len(w.a.Writes)
			w.run(inner, sub, "")
			if in := sc.stdin; in != nil && in.find != nil && how.via == "xargs" {
				w.xargsFromFind(in.find, first)
			}
		}
		return
	}
	switch {
	case isShell(base):
		w.shell(args, sc, idx)
		return
	case base == "find":
		w.findExec(args, sc)
		return
	}
	if lang, ok := interpreter(base); ok {
		w.interpreter(lang, args, sc, idx)
		return
	}
	if strings.Contains(name, "/") {
		w.script(name, args[1:], sc, idx, "")
	}
}

func appendVia(via []string, s string) []string {
	out := make([]string, len(via), len(via)+1)
	copy(out, via)
	return append(out, s)
}

func removeFunc(f *function, name string) *function {
	return &function{name: name, removed: true, next: f}
}

func isShell(base string) bool {
	switch base {
	case "sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "busybox", "rbash", "yash", "posh", "fish":
		return true
	}
	return false
}

// shell follows sh -c 'string', sh script, and a shell reading stdin.
func (w *walker) shell(args []Word, sc scope, idx int) {
	base := progName(args[0].Value)
	i := 1
	if base == "busybox" {
		if len(args) < 2 || !isShell(progName(args[1].Value)) {
			return
		}
		i = 2
	}
	// A non-interactive bash first sources $BASH_ENV (and sh, ksh and
	// an interactive shell $ENV): what that file runs, the shell runs.
	for _, name := range []string{"BASH_ENV", "ENV"} {
		if b := sc.vars.lookup(name); b != nil && b.exported && !b.unset && (b.val.Value != "" || b.val.Dynamic != "") {
			w.source([]Word{b.val}, sc, idx)
		}
	}
	hasC := false
	for ; i < len(args); i++ {
		a := args[i]
		if a.Dynamic != "" && !hasC {
			w.a.Commands[idx].Opaque = fmt.Sprintf("%s runs a script or options only known at run time (%s)", base, a.Dynamic)
			return
		}
		v := a.Value
		if a.Dynamic != "" || v == "--" || v == "-" || (!strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "+")) {
			if v == "--" || v == "-" {
				i++
			}
			break
		}
		if strings.HasPrefix(v, "--") {
			if v == "--rcfile" || v == "--init-file" {
				i++
			}
			continue
		}
		if strings.ContainsRune(v[1:], 'c') {
			hasC = true
		}
		if strings.ContainsAny(v[1:], "oO") && i+1 < len(args) {
			i++ // -o option takes a value
		}
	}
	if hasC {
		if i >= len(args) {
			return
		}
		cmd := args[i]
		w.shellString(cmd.Value, cmd, base+" -c", sc, idx, args[i+1:])
		return
	}
	if i < len(args) {
		w.script(args[i].Value, args[i+1:], sc, idx, base)
		return
	}
	w.stdinScript(base, sc, idx)
}

// stdinScript follows a shell that reads its script on stdin.
func (w *walker) stdinScript(base string, sc scope, idx int) {
	text, ok := w.stdinText(sc)
	if !ok {
		w.a.Commands[idx].Opaque = base + " reads a script from its standard input, which the analysis cannot see"
		return
	}
	inner := sc
	inner.stdin = nil
	w.shellString(text, Word{Value: text}, base+" (stdin)", inner, idx, nil)
}

func (w *walker) stdinText(sc scope) (string, bool) {
	if sc.stdin == nil {
		return "", false
	}
	if sc.stdin.file != "" {
		if text, ok := w.stdinCache[sc.stdin.file]; ok {
			return text, true
		}
		data, ok := w.readFile(sc.stdin.file)
		if ok {
			if w.stdinCache == nil {
				w.stdinCache = map[string]string{}
			}
			w.stdinCache[sc.stdin.file] = string(data)
		}
		return string(data), ok
	}
	return sc.stdin.text, true
}

// shellString parses and walks a command string run by a child shell.
func (w *walker) shellString(text string, word Word, via string, sc scope, idx int, params []Word) {
	if word.Dynamic != "" {
		w.a.Commands[idx].Opaque = fmt.Sprintf("%s runs a command string only known at run time (%s)", via, word.Dynamic)
		return
	}
	if len(text) > w.o.MaxBytes {
		w.err = ErrTooLarge
		return
	}
	inner := childScope(sc)
	inner.via = appendVia(sc.via, via)
	inner.src = text
	if params != nil {
		if len(params) > 0 {
			params = params[1:] // $0
		}
		inner.args, inner.hasArgs = params, true
	}
	w.nest(func() { w.walkText(text, inner, idx, via) })
}

// childScope is what a child process inherits: exported variables and
// functions, the directory, nothing else of the shell's state.
func childScope(sc scope) scope {
	out := scope{dir: sc.dir, dirWhy: sc.dirWhy, fragile: sc.fragile, fragileDir: sc.fragileDir, oldpwd: sc.oldpwd, envWhy: sc.envWhy, ok: sc.ok, via: sc.via, stdin: sc.stdin}
	var vars []*binding
	for b := sc.vars; b != nil; b = b.next {
		vars = append(vars, b)
	}
	for i := len(vars) - 1; i >= 0; i-- {
		if b := vars[i]; b.exported {
			out.vars = &binding{name: b.name, val: b.val, exported: true, unset: b.unset, next: out.vars}
		} else if sc.vars.lookup(b.name) == b {
			out.vars = &binding{name: b.name, unset: true, next: out.vars}
		}
	}
	for f := sc.funcs; f != nil; f = f.next {
		if f.exported {
			out.funcs = &function{name: f.name, body: f.body, src: f.src, exported: true, next: out.funcs}
		}
	}
	return out
}

// walkText parses text as a script and walks it; a part that does not
// parse is opaque to the analysis, and the command is marked so.
func (w *walker) walkText(text string, sc scope, idx int, what string) scope {
	if err := shapeError("the text "+what, text); err != nil {
		w.err = err
		return sc
	}
	f, err := parse(text)
	if err != nil {
		var rest string
		f, rest = parsePrefix(text, err)
		if strings.TrimSpace(rest) != "" && idx >= 0 {
			w.a.Commands[idx].Opaque = fmt.Sprintf("%s runs text that does not parse as shell (%v)", what, err)
		}
	}
	if f == nil {
		return sc
	}
	return w.stmts(f.Stmts, sc).out
}

// script follows a script the command runs: read from the checkout and
// analysed as shell, or as inline code of its interpreter.
func (w *walker) script(path string, params []Word, sc scope, idx int, shell string) {
	p := w.abs(sc, path)
	data, ok := w.readScript(p, idx, "runs the script "+path)
	if w.a.Commands[idx].Opaque != "" {
		return
	}
	if !ok {
		if shell != "" {
			w.a.Commands[idx].Opaque = fmt.Sprintf("%s runs the script %s, which could not be read", shell, path)
		}
		return
	}
	if bytes.IndexByte(data, 0) >= 0 {
		return // a compiled program
	}
	text := string(data)
	lang := "sh"
	if shell == "" {
		lang = shebang(text)
		if lang == "" {
			return
		}
	}
	if lang != "sh" {
		w.code(lang, path, text, sc, idx)
		return
	}
	inner := childScope(sc)
	inner.via = appendVia(sc.via, "script "+path)
	inner.src = text
	inner.args, inner.hasArgs = params, true
	w.nest(func() { w.walkText(text, inner, idx, "the script "+path) })
}

// shebang names the language of a script from its #! line: "sh" for a
// shell (or none: the kernel refuses it, and bash runs it as shell), the
// interpreter's kind otherwise, "" when it is not a script.
func shebang(text string) string {
	if !strings.HasPrefix(text, "#!") {
		return "sh"
	}
	line, _, _ := strings.Cut(text[2:], "\n")
	f := strings.Fields(line)
	if len(f) == 0 {
		return "sh"
	}
	prog := filepath.Base(f[0])
	if prog == "env" {
		for _, a := range f[1:] {
			if !strings.HasPrefix(a, "-") && !strings.Contains(a, "=") {
				prog = filepath.Base(a)
				break
			}
		}
	}
	if isShell(prog) {
		return "sh"
	}
	if lang, ok := interpreter(prog); ok {
		return lang
	}
	return ""
}

// source runs a file in the current shell: its effects persist.
func (w *walker) source(args []Word, sc scope, idx int) (scope, *binding) {
	if len(args) == 0 {
		return sc, nil
	}
	if args[0].Dynamic != "" {
		sc.envWhy = "a file sourced from a computed path may export anything"
		w.a.Commands[idx].Opaque = "source of a path only known at run time (" + args[0].Dynamic + ")"
		return sc, nil
	}
	p := w.abs(sc, args[0].Value)
	data, ok := w.readScript(p, idx, "sources "+args[0].Value)
	if !ok {
		sc.envWhy = fmt.Sprintf("the sourced file %s was not read, so it may set any variable", args[0].Value)
		w.a.Commands[idx].Opaque = fmt.Sprintf("source runs %s, which could not be read", args[0].Value)
		return sc, nil
	}
	inner := sc
	inner.via = appendVia(sc.via, "source "+args[0].Value)
	inner.src = string(data)
	if len(args) > 1 {
		inner.args, inner.hasArgs = args[1:], true
	}
	out := sc
	w.nest(func() {
		out = w.walkText(string(data), inner, idx, "the sourced file "+args[0].Value)
	})
	out.via, out.src, out.args, out.hasArgs = sc.via, sc.src, sc.args, sc.hasArgs
	return out, out.vars
}

// eval runs its words, joined, in the current shell.
func (w *walker) eval(args []Word, sc scope, idx int) (scope, *binding) {
	parts := make([]string, 0, len(args))
	for _, a := range args {
		if a.Dynamic != "" {
			w.a.Commands[idx].Opaque = "eval runs a string only known at run time (" + a.Dynamic + ")"
			return sc, nil
		}
		parts = append(parts, a.Value)
	}
	text := strings.Join(parts, " ")
	inner := sc
	inner.via = appendVia(sc.via, "eval")
	inner.src = text
	out := sc
	w.nest(func() { out = w.walkText(text, inner, idx, "eval") })
	out.via, out.src = sc.via, sc.src
	return out, out.vars
}

// declWords handles export/declare given as plain words (builtin export).
func (w *walker) declWords(name string, args []Word, sc scope) *binding {
	export := name == "export"
	nameref := false
	vars := sc.vars
	for _, a := range args {
		if a.Dynamic != "" {
			continue
		}
		v := a.Value
		if strings.HasPrefix(v, "-") {
			if strings.Contains(v, "x") {
				export = true
			}
			if name != "export" && strings.Contains(v, "n") {
				nameref = true // declare -n r=x: $r is $x, whatever x holds then
			}
			if name == "export" && strings.Contains(v, "n") {
				export = false
			}
			continue
		}
		if n, val, ok := strings.Cut(v, "="); ok {
			w := Word{Value: val}
			if nameref {
				w = Word{Value: "$" + val, Dynamic: "$" + n + " names the variable " + val + ", whose value is only known at run time"}
			}
			vars = &binding{name: n, val: w, exported: export || sc.allexport, next: vars}
		} else if old := vars.lookup(v); old != nil {
			b := *old
			b.exported = export
			b.next = vars
			vars = &b
		}
	}
	return vars
}

func unset(args []Word, sc scope) (*binding, *function) {
	vars, funcs := sc.vars, sc.funcs
	fn := false
	for _, a := range args {
		switch {
		case a.Value == "-f":
			fn = true
		case a.Value == "-v":
			fn = false
		case fn:
			funcs = removeFunc(funcs, a.Value)
		default:
			exp := false
			if old := vars.lookup(a.Value); old != nil {
				exp = old.exported
			}
			_ = exp // unsetting a variable the environment may hold changes it
			vars = &binding{name: a.Value, unset: true, exported: true, next: vars}
		}
	}
	return vars, funcs
}

// setOptions handles set -a, set -e, set -o ..., set -- args.
func setOptions(args []Word, sc scope) scope {
	for i := 0; i < len(args); i++ {
		v := args[i].Value
		if v == "--" {
			sc.args, sc.hasArgs = args[i+1:], true
			for _, a := range sc.args {
				if a.Dynamic != "" {
					// One computed word may be any number of
					// arguments: every position is unknown.
					sc.args, sc.hasArgs = nil, false
					break
				}
			}
			return sc
		}
		if (v == "-o" || v == "+o") && i+1 < len(args) {
			on := v == "-o"
			switch args[i+1].Value {
			case "allexport":
				sc.allexport = on
			case "errexit":
				sc.errexit = on
			}
			i++
			continue
		}
		if len(v) > 1 && (v[0] == '-' || v[0] == '+') {
			on := v[0] == '-'
			for _, f := range v[1:] {
				switch f {
				case 'a':
					sc.allexport = on
				case 'e':
					sc.errexit = on
				}
			}
			continue
		}
		sc.args, sc.hasArgs = args[i:], true
		return sc
	}
	return sc
}

// shiftArgs handles shift [n]: the known arguments lose their first n;
// a count only known at run time leaves every position unknown.
func shiftArgs(args []Word, sc scope) scope {
	if !sc.hasArgs {
		return sc
	}
	n := 1
	if len(args) > 0 {
		v, err := strconv.Atoi(args[0].Value)
		if args[0].Dynamic != "" || err != nil || v < 0 {
			sc.args, sc.hasArgs = nil, false
			return sc
		}
		n = v
	}
	if n > len(sc.args) {
		return sc // bash refuses: the arguments stay
	}
	sc.args = sc.args[n:]
	return sc
}

// cd handles cd, pushd and popd.
func (w *walker) cd(name string, args []Word, sc scope, idx int) scope {
	if name == "popd" {
		if sc.dirs == nil {
			sc.dir, sc.dirWhy = "", "popd returns to a directory pushed before this command"
			return sc
		}
		sc.oldpwd = sc.dir
		top := sc.dirs.v
		sc.dirs = sc.dirs.next
		if top == "" {
			sc.dir, sc.dirWhy = "", "popd returns to a directory only known at run time"
		} else {
			sc.dir, sc.dirWhy = top, ""
		}
		return sc
	}
	for len(args) > 0 && len(args[0].Value) > 1 && args[0].Value[0] == '-' && args[0].Dynamic == "" {
		if args[0].Value == "--" {
			args = args[1:]
			break
		}
		if name == "pushd" && (args[0].Value[1] >= '0' && args[0].Value[1] <= '9') {
			sc.dir, sc.dirWhy = "", "pushd rotates the directory stack"
			return sc
		}
		args = args[1:]
	}
	prev := sc.dir
	if sc.dirWhy != "" {
		prev = ""
	}
	if name == "pushd" {
		sc.dirs = &strList{prev, sc.dirs}
	}
	target := ""
	switch {
	case len(args) == 0:
		if name == "pushd" {
			sc.dir, sc.dirWhy = "", "pushd without a directory swaps the top of the stack"
			return sc
		}
		target = w.home(sc)
		if target == "" {
			sc.dir, sc.dirWhy = "", "cd goes to $HOME, which is not known"
			return sc
		}
	case args[0].Dynamic != "":
		sc.oldpwd = prev
		sc.dir, sc.dirWhy = "", "cd goes to "+args[0].Value+", and "+args[0].Dynamic
		return sc
	case args[0].Glob:
		sc.oldpwd = prev
		sc.dir, sc.dirWhy = "", "cd goes to the first match of the pattern "+args[0].Value
		return sc
	case args[0].Value == "-":
		if sc.oldpwd == "" {
			sc.dir, sc.dirWhy = "", "cd - returns to a directory only known at run time"
			return sc
		}
		target = sc.oldpwd
	default:
		target = args[0].Value
	}
	dir, why := w.cdTarget(target, sc)
	switch {
	case why == "" && w.makes(dir, idx) == madeLink:
		// ln -s there ...; cd there: where the link leads is the link's
		// business, which only run time settles.
		sc.oldpwd = prev
		sc.dir, sc.dirWhy = "", "cd "+target+" goes through a link an earlier part of the command makes"
		sc.fragile = -1
		return sc
	case why != "" || w.isDir(dir) || w.makes(dir, idx) == madeDir:
		// It exists, or an earlier command makes it (mkdir, git init,
		// git clone, git worktree add): cd goes there.
		sc.fragile = -1
	case w.makes(dir, idx) == madeNothing:
		// Nothing in the command can make it: the cd fails, as in a
		// shell, and every command after it runs where the shell was
		// (those after && never run; judging them there only adds).
		if name == "pushd" {
			sc.dirs = sc.dirs.next
		}
		return sc
	default:
		// Something earlier may make it: a command it does not guard
		// (;, ||) runs in one of the two directories.
		sc.fragile, sc.fragileDir = idx, prev
		if prev == "" {
			sc.fragileDir = "a directory only known at run time"
		}
	}
	sc.oldpwd = prev
	sc.dir, sc.dirWhy = dir, why
	return sc
}

// What the commands before a cd may have made of its directory.
const (
	madeNothing = iota // nothing earlier writes it
	madeDir            // an earlier command makes it a directory
	madeMaybe          // an earlier write or opaque command may make it
	madeLink           // an earlier ln makes it, or a directory above it, a link
)

// makes says what the commands before index idx may have made of dir,
// which does not exist now: a directory (mkdir, mkdir -p of a path below
// it, install -d, git init, git clone, git worktree add of it), maybe
// something (another write to it or above it, a write or code the
// analysis cannot name), or nothing.
func (w *walker) makes(dir string, idx int) int {
	made := madeNothing
	for _, wr := range w.a.Writes {
		if wr.At >= idx {
			continue
		}
		switch {
		case wr.Op == "ln" && wr.Dynamic == "" && within(dir, wr.Path):
			return madeLink
		case wr.Dynamic != "" || wr.Glob:
			made = madeMaybe
		case wr.Path == dir && (wr.Op == "mkdir" || wr.Op == "install -d" || wr.Op == "git init" || wr.Op == "git clone" || wr.Op == "git worktree add"):
			return madeDir
		case wr.Op == "mkdir" && within(wr.Path, dir):
			return madeDir // mkdir -p a/b makes a
		case within(dir, wr.Path) || within(wr.Path, dir):
			made = madeMaybe
		}
	}
	for i := 0; i < idx && i < len(w.a.Commands); i++ {
		if w.a.Commands[i].Opaque != "" {
			made = madeMaybe
		}
	}
	return made
}

// within reports whether path is dir or below it (both clean).
func within(path, dir string) bool {
	return path == dir || strings.HasPrefix(path, strings.TrimSuffix(dir, string(filepath.Separator))+string(filepath.Separator))
}

// cdTarget resolves cd's operand as bash does: absolute, CDPATH (for a
// name not starting with / . or ..), relative to the directory, then a
// variable's value under cdable_vars.
func (w *walker) cdTarget(t string, sc scope) (string, string) {
	if filepath.IsAbs(t) {
		return filepath.Clean(t), ""
	}
	rel := t == "." || t == ".." || strings.HasPrefix(t, "./") || strings.HasPrefix(t, "../")
	if !rel {
		cdpath, set := w.lookupVar("CDPATH", sc)
		if cdpath.Dynamic != "" && w.o.Getenv != nil && sc.vars.lookup("CDPATH") == nil {
			cdpath, set = Word{}, false // not in the environment
		}
		if cdpath.Dynamic != "" {
			return "", "cd " + t + " searches CDPATH, which is only known at run time"
		}
		if set && cdpath.Value != "" {
			for _, entry := range strings.Split(cdpath.Value, ":") {
				base := entry
				if base == "" {
					base = "."
				}
				cand := filepath.Join(base, t)
				if !filepath.IsAbs(cand) {
					cand = w.abs(sc, cand)
				}
				if w.o.Stat == nil {
					return "", "cd " + t + " searches CDPATH=" + cdpath.Value
				}
				if w.isDir(cand) {
					return cand, ""
				}
			}
		}
	}
	p := w.abs(sc, t)
	if p == "" {
		return "", "cd " + t + " is relative to a directory only known at run time"
	}
	if sc.cdable && !w.isDir(p) && !strings.Contains(t, "/") {
		v, set := w.lookupVar(t, sc)
		if v.Dynamic != "" || (set && v.Value != "") {
			if v.Dynamic != "" {
				return "", "cd " + t + " may go to the value of $" + t + " (cdable_vars)"
			}
			return w.cdTarget(v.Value, sc)
		}
	}
	return p, ""
}

// redirects records the files a statement's redirections write.
func (w *walker) redirects(redirs []*syntax.Redirect, sc scope, idx int, printedText *string) {
	for _, r := range redirs {
		var op string
		switch r.Op {
		case syntax.RdrOut, syntax.AppOut, syntax.RdrClob, syntax.AppClob, syntax.RdrAll, syntax.AppAll, syntax.RdrAllClob, syntax.AppAllClob, syntax.RdrInOut:
			op = r.Op.String()
		case syntax.DplOut:
			op = ">&"
		default:
			if r.Op == syntax.Hdoc || r.Op == syntax.DashHdoc || r.Op == syntax.WordHdoc {
				if r.Hdoc != nil && !quoted(r.Word) {
					w.substitutions(r.Hdoc, sc)
				}
				continue
			}
			w.joined(r.Word, sc)
			continue
		}
		target := w.joined(r.Word, sc)
		if r.Op == syntax.DplOut && target.Dynamic == "" && (target.Value == "-" || isDigits(target.Value)) {
			continue // a file descriptor, not a file
		}
		// bash expands a pattern in a redirection's target when it
		// matches one file (> .toolingr? writes .toolingrc).
		target.Glob = target.Glob || unquotedPattern(r.Word)
		w.addWrite(target, op, sc, idx, false)
		if p := w.abs(sc, target.Value); target.Dynamic == "" && p != "" && r.N == nil {
			if w.written == nil {
				w.written = map[string]*string{}
			}
			if printedText != nil && (r.Op == syntax.RdrOut || r.Op == syntax.RdrClob || r.Op == syntax.RdrAll) {
				t := *printedText
				w.written[p] = &t
			} else if old, ok := w.written[p]; ok && old != nil && printedText != nil && r.Op == syntax.AppOut {
				t := *old + *printedText
				w.written[p] = &t
			} else {
				w.written[p] = nil
			}
		}
	}
}

// unquotedPattern reports a pattern character (*, ?, [) in an unquoted
// literal of word, not escaped by a backslash.
func unquotedPattern(word *syntax.Word) bool {
	if word == nil {
		return false
	}
	for _, part := range word.Parts {
		l, ok := part.(*syntax.Lit)
		if !ok {
			continue
		}
		for i := 0; i < len(l.Value); i++ {
			switch l.Value[i] {
			case '\\':
				i++
			case '*', '?', '[':
				return true
			}
		}
	}
	return false
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// addWrite records one written path, unless it is a device.
func (w *walker) addWrite(target Word, op string, sc scope, idx int, tree bool) {
	wr := Write{Op: op, Command: idx, Tree: tree, Glob: target.Glob}
	if sc.dirWhy == "" {
		wr.Dir = sc.dir
	}
	if sc.fragile >= 0 && !sc.ok.has(sc.fragile) && sc.dirWhy == "" && !filepath.IsAbs(target.Value) {
		// After a cd that may fail (;): relative to either directory.
		sc.dir, sc.dirWhy = "", "the cd before it may fail (its directory does not exist now), leaving the command in "+sc.fragileDir
		wr.Dir = ""
	}
	switch {
	case target.Dynamic != "":
		wr.Dynamic = fmt.Sprintf("%s writes to %s, and %s", op, target.Value, target.Dynamic)
	default:
		p := w.abs(sc, target.Value)
		if p == "" {
			wr.Dynamic = fmt.Sprintf("%s writes to the relative path %s in a directory only known at run time (%s)", op, target.Value, sc.dirWhy)
			break
		}
		if isDevice(p) {
			return
		}
		wr.Path = p
		wr.Written = target.Value
		if !filepath.IsAbs(wr.Written) {
			wr.Written = sc.dir + string(filepath.Separator) + wr.Written
		}
		if isGitConfigPath(p) {
			w.configWhy = "an earlier command writes the git configuration file " + p
		}
	}
	w.a.Writes = append(w.a.Writes, w.at(wr))
	if wr.Path != "" && op != "ln" {
		if t := w.throughLinks(wr.Path); t != "" {
			// Through a link made earlier in the command: where it lands.
			through := wr
			through.Path, through.Written, through.Op = t, t, op+" (through a link the command makes)"
			w.a.Writes = append(w.a.Writes, w.at(through))
		}
	}
}

func isDevice(p string) bool {
	switch p {
	case "/dev/null", "/dev/stdout", "/dev/stderr", "/dev/stdin", "/dev/tty", "/dev/zero", "/dev/full":
		return true
	}
	return strings.HasPrefix(p, "/dev/fd/") || strings.HasPrefix(p, "/proc/self/fd/")
}

// dirOf is the scope's directory, or "" when unknown.
func dirOf(sc scope) string {
	if sc.dirWhy != "" {
		return ""
	}
	return sc.dir
}

// at places a write in the command sequence.
func (w *walker) at(wr Write) Write {
	wr.At = wr.Command
	if wr.Command < 0 {
		wr.At = len(w.a.Commands)
	}
	return wr
}

// readScript reads a file the command runs. One an earlier part of the
// command writes is read from what it writes, when that is known (cat >
// x.sh <<EOF), else the command is opaque: the file on disk is not what
// will run.
func (w *walker) readScript(p string, idx int, what string) ([]byte, bool) {
	if text, ok := w.written[p]; ok {
		if text != nil {
			return []byte(*text), true
		}
		w.a.Commands[idx].Opaque = "it " + what + ", whose content is only known at run time (an earlier part of the command writes it)"
		return nil, false
	}
	for _, wr := range w.a.Writes {
		switch wr.Op {
		case "chmod", "chown", "chgrp", "chattr", "setfacl", "chcon", "touch", "mkdir":
			continue // the mode or times change, not the text
		}
		hit := wr.Dynamic != "" || wr.Path == p || (wr.Tree && strings.HasPrefix(p, wr.Path+"/"))
		if wr.Glob {
			if ok, _ := filepath.Match(wr.Path, p); ok {
				hit = true
			}
		}
		if hit {
			w.a.Commands[idx].Opaque = "it " + what + ", whose content is only known at run time (an earlier part of the command may write it)"
			return nil, false
		}
	}
	return w.readFile(p)
}

// quoteWord quotes a value for the shell to read back as one word.
func quoteWord(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\n'\"\\$`;&|<>()*?[]{}~#!") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
