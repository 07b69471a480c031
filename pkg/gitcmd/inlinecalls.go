package gitcmd

import "strings"

// inlineCall is a process an interpreter's literal code starts: a shell
// command (os.system('...'), execSync('...'), `...`) or an argument
// vector (subprocess.run(['git', 'push']), spawnSync('git', ['push'])).
type inlineCall struct {
	shell string
	argv  []string
}

// text is the call as a shell command line.
func (c inlineCall) text() string {
	if c.argv == nil {
		return c.shell
	}
	q := make([]string, len(c.argv))
	for i, a := range c.argv {
		q[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
	}
	return strings.Join(q, " ")
}

// spawnCalls are, per language, the calls that start a process whose
// command is their first argument; argv marks those whose first argument
// is a program (and a list its arguments), not a shell command line.
// (Knowledge of the languages' process APIs as data: a call not listed,
// or one whose arguments are not literals, leaves its token in the text,
// and the command stays opaque.)
type spawnCall struct {
	name string
	argv bool
}

// (A switch, not a map: a package-level map is built at every hook start.)
func spawnCalls(lang string) []spawnCall {
	switch lang {
	case "python":
		return []spawnCall{{"os.system(", false}, {"os.popen(", false}, {"subprocess.run(", false}, {"subprocess.call(", false},
			{"subprocess.check_call(", false}, {"subprocess.check_output(", false}, {"subprocess.Popen(", false},
			{"subprocess.getoutput(", false}, {"subprocess.getstatusoutput(", false}}
	case "js":
		return []spawnCall{{"execSync(", false}, {"exec(", false}, {"execFileSync(", true}, {"execFile(", true}, {"spawnSync(", true}, {"spawn(", true}}
	case "perl":
		return []spawnCall{{"system(", false}, {"exec(", false}, {"qx(", false}, {"qx{", false}, {"system ", false}, {"exec ", false}}
	case "ruby":
		return []spawnCall{{"system(", false}, {"exec(", false}, {"spawn(", false}, {"%x(", false}, {"IO.popen(", false}, {"system ", false}, {"exec ", false}, {"spawn ", false}}
	case "php":
		return []spawnCall{{"shell_exec(", false}, {"system(", false}, {"exec(", false}, {"passthru(", false}}
	}
	return nil
}

// deleteCall is a call that deletes the files its literal arguments name,
// as the command argv with those paths appended would (shutil.rmtree(p)
// is rm -rf -- p): the analysis follows it as that command, so every gate
// judges the deletion as it judges rm's.
type deleteCall struct {
	name string
	argv []string
}

var (
	rmTree = []string{"rm", "-rf", "--"}
	rmFile = []string{"rm", "-f", "--"}
	rmDir  = []string{"rmdir", "--"}
)

// deleteCalls are, per language, the calls that delete the paths given
// as their literal arguments (a switch, not a map, as spawnCalls).
func deleteCalls(lang string) []deleteCall {
	switch lang {
	case "python":
		return []deleteCall{{"shutil.rmtree(", rmTree}, {"os.remove(", rmFile}, {"os.unlink(", rmFile}, {"os.rmdir(", rmDir}, {"os.removedirs(", rmDir}}
	case "js":
		return []deleteCall{{"rmSync(", rmTree}, {"rm(", rmTree}, {"rmdirSync(", rmTree}, {"rmdir(", rmTree}, {"unlinkSync(", rmFile}, {"unlink(", rmFile},
			{"removeSync(", rmTree}, {"remove(", rmTree}}
	case "ruby":
		return []deleteCall{{"rm_rf(", rmTree}, {"rm_r(", rmTree}, {"remove_dir(", rmTree}, {"remove_entry(", rmTree}, {"remove_entry_secure(", rmTree},
			{"rm_f(", rmFile}, {"FileUtils.rm(", rmFile}, {"File.delete(", rmFile}, {"File.unlink(", rmFile}, {"Dir.rmdir(", rmDir}, {"Dir.delete(", rmDir}}
	case "perl":
		return []deleteCall{{"rmtree(", rmTree}, {"remove_tree(", rmTree}, {"unlink(", rmFile}, {"unlink ", rmFile}, {"rmdir(", rmDir}}
	case "php":
		return []deleteCall{{"unlink(", rmFile}, {"rmdir(", rmDir}}
	}
	return nil
}

// deletions finds the literal deletions of code (deleteCalls) as the
// commands they amount to, and returns the code with those calls (their
// receivers too: shutil., FileUtils., fs.) blanked out, so that what is
// left shows whether the code can write anything else.
func deletions(lang, text string) ([]inlineCall, string) {
	var calls []inlineCall
	var b []byte
	for _, dc := range deleteCalls(lang) {
		for from := 0; ; {
			i := strings.Index(text[from:], dc.name)
			if i < 0 {
				break
			}
			start := from + i
			from = start + len(dc.name)
			if start > 0 && isIdent(text[start-1]) && dc.name[0] >= 'a' && dc.name[0] <= 'z' {
				continue // rm( inside form(, unlink( inside my_unlink(
			}
			args, end, ok := literalArgs(text, from, dc.name[len(dc.name)-1])
			if !ok || len(args) == 0 || !wholeLiteral(text, from) || (lang == "perl" || lang == "ruby" || lang == "php") && !allLiterals(text, from) {
				continue // os.remove("." + name), unlink "a", $b: a computed path, left unseen
			}
			if b == nil {
				b = []byte(text)
			}
			for j := start; j > 0 && (isIdent(text[j-1]) || text[j-1] == '.'); j-- {
				start = j - 1
			}
			for j := start; j < end && j < len(b); j++ {
				if b[j] != '\n' {
					b[j] = ' '
				}
			}
			argv := append([]string(nil), dc.argv...)
			for _, a := range args {
				if a.list != nil {
					argv = append(argv, a.list...)
				} else {
					argv = append(argv, a.s)
				}
			}
			if lang != "perl" && lang != "ruby" && len(args) > 0 && args[0].list == nil {
				argv = argv[:len(dc.argv)+1] // the path; what follows are options (rmSync(p, {recursive: true}))
			}
			calls = append(calls, inlineCall{argv: argv})
		}
	}
	if b == nil {
		return nil, text
	}
	rest := string(b)
	if lang == "python" && !strings.Contains(strings.ReplaceAll(rest, "import shutil", ""), "shutil") {
		rest = strings.ReplaceAll(rest, "import shutil", "             ")
	}
	return calls, rest
}

// wholeLiteral reports that the argument at i (after the call's opening
// bracket) is a string literal on its own: what follows it ends the
// argument (a comma, the closing bracket, the statement's end), so it is
// not part of an expression ("." + name, '/tmp/' . $x).
func wholeLiteral(text string, i int) bool {
	for i < len(text) && (text[i] == ' ' || text[i] == '\t') {
		i++
	}
	if i < len(text) && text[i] == '[' {
		return true // a list of literals: literalArgs read every element
	}
	_, j, ok := stringLit(text, i)
	if !ok {
		return false
	}
	for j < len(text) && (text[j] == ' ' || text[j] == '\t') {
		j++
	}
	return j >= len(text) || strings.IndexByte(",);\n}", text[j]) >= 0
}

// allLiterals reports that every comma-separated argument from i is a
// whole string literal (perl's and ruby's deletions take several paths).
func allLiterals(text string, i int) bool {
	for {
		if !wholeLiteral(text, i) {
			return false
		}
		for i < len(text) && (text[i] == ' ' || text[i] == '\t') {
			i++
		}
		_, j, _ := stringLit(text, i)
		for j < len(text) && (text[j] == ' ' || text[j] == '\t') {
			j++
		}
		if j >= len(text) || text[j] != ',' {
			return true
		}
		i = j + 1
	}
}

// inlineCalls finds the processes literal code starts, and returns the
// code with those calls (and the plain imports of the modules they come
// from) blanked out, so that what is left shows whether the code can
// start anything else.
func inlineCalls(lang, text string) ([]inlineCall, string) {
	specs := spawnCalls(lang)
	if len(specs) == 0 {
		return nil, text
	}
	var calls []inlineCall
	b := []byte(text)
	blank := func(from, to int) {
		for i := from; i < to && i < len(b); i++ {
			if b[i] != '\n' {
				b[i] = ' '
			}
		}
	}
	for _, sp := range specs {
		for from := 0; ; {
			i := strings.Index(string(b[from:]), sp.name)
			if i < 0 {
				break
			}
			start := from + i
			from = start + len(sp.name)
			if start > 0 && isIdent(b[start-1]) && !strings.HasPrefix(sp.name, "%") {
				continue // os.system( inside my_os.system(, exec( inside execSync(
			}
			if strings.HasPrefix(sp.name, "qx") || strings.HasPrefix(sp.name, "%x") {
				// qx{...}, %x(...): the text itself is a shell command.
				closer := byte(')')
				if sp.name[len(sp.name)-1] == '{' {
					closer = '}'
				}
				j := strings.IndexByte(string(b[from:]), closer)
				if j < 0 || strings.ContainsAny(string(b[from:from+j]), "$@#") {
					continue
				}
				calls = append(calls, inlineCall{shell: string(b[from : from+j])})
				blank(start, from+j+1)
				continue
			}
			args, end, ok := literalArgs(string(b), from, sp.name[len(sp.name)-1])
			if !ok || len(args) == 0 {
				continue
			}
			c := inlineCall{}
			switch {
			case args[0].list != nil:
				c.argv = args[0].list
			case sp.argv || len(args) > 1 && lang != "python" && lang != "js":
				c.argv = []string{args[0].s}
				for _, a := range args[1:] {
					if a.list != nil {
						c.argv = append(c.argv, a.list...)
					} else {
						c.argv = append(c.argv, a.s)
					}
				}
			default:
				c.shell = args[0].s
			}
			calls = append(calls, c)
			blank(start, end)
		}
	}
	// Backticks: perl, ruby and php run them as shell commands.
	if lang == "perl" || lang == "ruby" || lang == "php" {
		for from := 0; ; {
			i := strings.IndexByte(string(b[from:]), '`')
			if i < 0 {
				break
			}
			start := from + i
			j := strings.IndexByte(string(b[start+1:]), '`')
			if j < 0 {
				break
			}
			end := start + 1 + j
			cmd := string(b[start+1 : end])
			from = end + 1
			if strings.ContainsAny(cmd, "$#@") {
				continue // interpolation: the command is computed
			}
			calls = append(calls, inlineCall{shell: cmd})
			blank(start, end+1)
		}
	}
	dels, _ := deletions(lang, text)
	calls = append(calls, dels...)
	rest := string(b)
	if len(calls) > 0 {
		rest = blankImports(lang, rest)
	}
	return calls, rest
}

// blankImports blanks plain imports of the process modules (import os,
// import subprocess, require('child_process')): an alias (import
// subprocess as s) or a from-import is left, since calls through it are
// not read.
func blankImports(lang, text string) string {
	switch lang {
	case "python":
		var out []string
		for _, line := range strings.Split(text, "\n") {
			var stmts []string
			for _, st := range strings.Split(line, ";") {
				f := strings.Fields(strings.ReplaceAll(st, ",", " , "))
				plain := len(f) >= 2 && f[0] == "import"
				for j := 1; plain && j < len(f); j++ {
					if m := f[j]; m != "," && m != "os" && m != "subprocess" && m != "sys" && m != "shlex" {
						plain = false
					}
				}
				if plain {
					st = ""
				}
				stmts = append(stmts, st)
			}
			out = append(out, strings.Join(stmts, ";"))
		}
		return strings.Join(out, "\n")
	case "js":
		for _, r := range []string{`require('child_process')`, `require("child_process")`, "require(`child_process`)"} {
			text = strings.ReplaceAll(text, r, "")
		}
	}
	return text
}

// litArg is one literal argument: a string, or a list of strings.
type litArg struct {
	s    string
	list []string
}

// literalArgs reads the arguments of a call from i (after its opening
// bracket, or after "system " without one) to the closing bracket: each a
// string literal or a list of them; keyword arguments and option objects
// are allowed when they cannot change what runs or where (not cwd, env,
// executable). It returns where the call ends.
func literalArgs(text string, i int, open byte) ([]litArg, int, bool) {
	closer := byte(0)
	switch open {
	case '(':
		closer = ')'
	case '{':
		closer = '}'
	}
	var args []litArg
	for {
		for i < len(text) && (text[i] == ' ' || text[i] == '\t') {
			i++
		}
		if i >= len(text) {
			return args, i, closer == 0
		}
		switch c := text[i]; {
		case c == '\'' || c == '"' || c == '`':
			s, j, ok := stringLit(text, i)
			if !ok {
				return nil, 0, false
			}
			args = append(args, litArg{s: s})
			i = j
		case c == '[':
			var list []string
			i++
			for {
				for i < len(text) && (text[i] == ' ' || text[i] == ',') {
					i++
				}
				if i < len(text) && text[i] == ']' {
					i++
					break
				}
				s, j, ok := stringLit(text, i)
				if !ok {
					return nil, 0, false
				}
				list = append(list, s)
				i = j
			}
			if list == nil {
				list = []string{}
			}
			args = append(args, litArg{list: list})
		case closer != 0 && c == closer:
			return args, i + 1, true
		case closer == 0 && (c == ';' || c == '\n'):
			return args, i, true
		case c == ',':
			i++
			continue
		default:
			// A keyword argument or an options object, up to the end of
			// the call (no nesting followed).
			if len(args) == 0 || closer == 0 {
				return nil, 0, false
			}
			end := strings.IndexByte(text[i:], closer)
			if end < 0 {
				return nil, 0, false
			}
			opts := text[i : i+end]
			for _, bad := range []string{"cwd", "env", "executable", "preexec", "(", "shell: ", "argv0"} {
				if strings.Contains(opts, bad) {
					return nil, 0, false
				}
			}
			return args, i + end + 1, true
		}
		for i < len(text) && text[i] == ' ' {
			i++
		}
		if i < len(text) && text[i] == ',' {
			i++
		}
	}
}

// stringLit reads a quoted literal at i without escapes other than \\,
// \' and \" and without interpolation; it returns the value and where it
// ends.
func stringLit(text string, i int) (string, int, bool) {
	if i >= len(text) {
		return "", 0, false
	}
	q := text[i]
	if q != '\'' && q != '"' && q != '`' {
		return "", 0, false
	}
	var sb strings.Builder
	for j := i + 1; j < len(text); j++ {
		c := text[j]
		switch {
		case c == '\\' && j+1 < len(text):
			j++
			switch text[j] {
			case '\\', '\'', '"', '`':
				sb.WriteByte(text[j])
			default:
				return "", 0, false
			}
		case c == q:
			return sb.String(), j + 1, true
		case q != '\'' && (c == '$' || c == '#' && q == '"' && j+1 < len(text) && text[j+1] == '{'):
			return "", 0, false // interpolation
		default:
			sb.WriteByte(c)
		}
	}
	return "", 0, false
}

func isIdent(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}
