package gitcmd

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/magehook/magehook/pkg/pwsh"
)

// The PowerShell front end: a PowerShell command (Claude Code's PowerShell
// tool, Copilot's powershell, pwsh -Command from Bash) read into the same
// model as Bash's. pkg/pwsh reads its surface syntax; each command it
// finds is either a cmdlet, judged by its spec (cmdlets.go), or a native
// program, followed exactly as Bash's simple commands are (git's grammar,
// programTable, wrappers, shells, interpreters). The directory moves with
// Set-Location as it does with cd (a Set-Location to a directory that does
// not exist fails, and what follows runs where PowerShell was), and a
// writing cmdlet fed by a pipeline or a (...) is followed back to the
// listing cmdlet or literal values that produced its paths.

// powershellState is what one PowerShell script carries from one command
// to the next.
type powershellState struct {
	cmds []pwsh.Command
	// idx maps a pwsh command to its index in Analysis.Commands (-1:
	// none recorded).
	idx []int
	// vars are $x = <pipeline>: the index of the pipeline's first command.
	vars map[string]int
	// aliases are the Set-Alias of the script.
	aliases map[string]string
}

// powershell analyses a PowerShell script in scope sc and returns the
// scope after it.
func (w *walker) powershell(src string, sc scope) scope {
	cmds, err := pwsh.Parse(src)
	if err != nil {
		if w.depth == 0 {
			// PowerShell parses the whole script before running any of it.
			w.a.SyntaxError, w.a.Unparsed = err, src
		}
		return sc
	}
	st := &powershellState{cmds: cmds, idx: make([]int, len(cmds)), vars: map[string]int{}, aliases: map[string]string{}}
	for i := range st.idx {
		st.idx[i] = -1
	}
	for ci := range cmds {
		if !w.tick() {
			return sc
		}
		sc = w.psCommand(st, ci, sc)
	}
	return sc
}

// powershellCommand follows pwsh -Command and -EncodedCommand run from
// Bash as the PowerShell script they run; false when the script is not
// literal (or is a -File).
func (w *walker) powershellCommand(args []Word, sc scope) bool {
	ps := make([]pwsh.Word, len(args))
	for i, a := range args {
		if a.Dynamic != "" {
			return false
		}
		ps[i] = pwsh.Word{Text: a.Value, Literal: true, Inner: -1}
	}
	script, ok := pwsh.Nested(pwsh.Command{Args: ps})
	if !ok {
		return false
	}
	if _, err := pwsh.Parse(script); err != nil {
		return false
	}
	inner := childScope(sc)
	inner.via = appendVia(sc.via, progName(args[0].Value)+" -Command")
	w.nest(func() { w.powershell(script, inner) })
	return true
}

// psWord is a PowerShell word as the model's Word. A path (a cmdlet's
// path parameter, a redirection) takes \ for a separator, as PowerShell
// does everywhere, and ~ for the home directory.
func (w *walker) psWord(x pwsh.Word, path bool) Word {
	v := x.Text
	if !x.Literal {
		var getenv func(string) string
		if w.o.Getenv != nil {
			getenv = w.o.Getenv
		}
		e, ok := pwsh.ExpandEnv(x.Text, getenv)
		if !ok || x.Inner >= 0 {
			return Word{Value: x.Text, Dynamic: "PowerShell computes " + x.Text + " at run time"}
		}
		v = e
	}
	if path {
		if filepath.Separator == '/' {
			v = strings.ReplaceAll(v, `\`, "/")
		}
		if v == "~" || strings.HasPrefix(v, "~/") {
			if w.o.Home == "" {
				return Word{Value: x.Text, Dynamic: "~ is the home directory, which is not known"}
			}
			v = w.o.Home + v[1:]
		}
	}
	return Word{Value: v, Glob: !x.Quoted && strings.ContainsAny(v, "*?[")}
}

// psArgs splits a cmdlet's arguments by its spec: the named parameters'
// values and the positional arguments, each a list (a, b is an array).
// ok is false when a parameter is not the cmdlet's: PowerShell refuses the
// command.
type psArgs struct {
	named map[string][]pwsh.Word
	pos   [][]pwsh.Word
	flags map[string]bool
}

func parseCmdlet(s *cmdletSpec, args []pwsh.Word) (psArgs, bool) {
	out := psArgs{named: map[string][]pwsh.Word{}, flags: map[string]bool{}}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a.Literal && !a.Quoted && len(a.Text) > 1 && a.Text[0] == '-' && !strings.HasPrefix(a.Text, "--") && a.Text[1] != '-' {
			p, value, hasValue := strings.Cut(a.Text[1:], ":")
			full, takes, ok := s.param(p)
			if !ok {
				return out, false
			}
			if !takes {
				out.flags[full] = !hasValue || !strings.EqualFold(value, "$false")
				continue
			}
			var list []pwsh.Word
			if hasValue {
				list = append(list, pwsh.Word{Text: value, Literal: true, Inner: -1})
			} else if i+1 < len(args) {
				i++
				list, i = arrayAt(args, i)
			}
			out.named[full] = append(out.named[full], list...)
			continue
		}
		var list []pwsh.Word
		list, i = arrayAt(args, i)
		out.pos = append(out.pos, list)
	}
	return out, true
}

// arrayAt reads the argument at i and the words it continues into (a, b
// is one argument), split at its commas; it returns the last index used.
func arrayAt(args []pwsh.Word, i int) ([]pwsh.Word, int) {
	var list []pwsh.Word
	for {
		a := args[i]
		if a.Literal {
			for _, part := range strings.Split(a.Text, ",") {
				if part = strings.TrimSpace(part); part != "" {
					list = append(list, pwsh.Word{Text: part, Literal: true, Quoted: a.Quoted, Inner: -1})
				}
			}
		} else {
			list = append(list, a)
		}
		if i+1 < len(args) && (strings.HasSuffix(a.Text, ",") || strings.HasPrefix(args[i+1].Text, ",")) {
			i++
			continue
		}
		return list, i
	}
}

// paths are the words of the spec's path parameters and positions.
func (p psArgs) paths(s *cmdletSpec) []pwsh.Word {
	var out []pwsh.Word
	for _, n := range s.paths {
		out = append(out, p.named[n]...)
	}
	if len(p.named["path"])+len(p.named["literalpath"])+len(p.named["filepath"]) > 0 {
		// A path bound by name: the positions go to the next parameters.
		return out
	}
	for _, i := range s.positions {
		if i < len(p.pos) {
			out = append(out, p.pos[i]...)
		}
	}
	return out
}

// pathGiven: the command names what it works on, by a path parameter or
// its first position (so it does not bind its pipeline).
func (p psArgs) pathGiven() bool {
	return len(p.named["path"]) > 0 || len(p.named["literalpath"]) > 0 || len(p.pos) > 0
}

// psUnixNames are PowerShell's aliases that PowerShell on Linux and macOS
// leaves out, so that the program of that name runs.
func psUnixName(name string) bool {
	switch name {
	case "rm", "cp", "mv", "ls", "cat", "sort", "tee", "ps", "sleep", "diff", "rmdir", "mkdir", "echo", "kill", "man", "mount", "write", "start", "clear", "pwd", "type":
		return true
	}
	return false
}

func psText(args []pwsh.Word) string {
	parts := make([]string, len(args))
	for i, a := range args {
		parts[i] = a.Text
	}
	return strings.Join(parts, " ")
}

func (w *walker) psCommand(st *powershellState, ci int, sc scope) scope {
	c := st.cmds[ci]
	args := c.Args
	if len(args) > 1 && strings.HasPrefix(args[0].Text, "$") && psAssign(args[1].Text) {
		// $x = <command>: the right-hand side runs, and $x holds what its
		// pipeline prints.
		if args[1].Text == "=" {
			st.vars[strings.ToLower(args[0].Text)] = ci
		}
		args = args[2:]
	}
	idx := -1
	defer func() {
		st.idx[ci] = idx
		for _, r := range c.Redirects {
			if strings.EqualFold(r.Text, "$null") || r.Text == "" && r.Literal {
				continue
			}
			w.addWrite(w.psWord(r, true), ">", sc, idx, false)
		}
	}()
	if len(args) == 0 {
		return sc
	}
	if why, ok := pwsh.Opaque(pwsh.Command{Args: args}); ok && !strings.HasSuffix(why, "another shell") && !strings.Contains(why, "runs a program") && !strings.Contains(why, "Invoke-Expression") {
		idx = w.emit(w.psWords(args), sc, sc.vars, psText(args))
		w.psOpaque(idx, "PowerShell: "+why, sc)
		return sc
	}
	if args[0].Quoted || strings.HasPrefix(args[0].Text, "$") {
		return sc // a value, not a command
	}
	if n := strings.ToLower(args[0].Text); (n == "&" || n == ".") && len(args) > 1 {
		if n == "." && strings.HasSuffix(strings.ToLower(args[1].Text), ".ps1") {
			idx = w.emit(w.psWords(args[1:]), sc, sc.vars, psText(args))
			w.psOpaque(idx, "PowerShell dot-sources the script "+args[1].Text+", which the analysis does not read", sc)
			return sc
		}
		args = args[1:]
	}
	name := progName(args[0].Text)
	if to, ok := st.aliases[name]; ok {
		args = append([]pwsh.Word{{Text: to, Literal: true, Inner: -1}}, args[1:]...)
		name = progName(to)
	}
	if script, ok := pwsh.Nested(pwsh.Command{Args: args}); ok {
		idx = w.emit(w.psWords(args), sc, sc.vars, psText(args))
		inner := sc
		inner.via = appendVia(sc.via, name+" -Command")
		w.nest(func() { w.powershell(script, inner) })
		return sc
	}
	if (name == "pwsh" || name == "powershell") && len(args) > 1 {
		idx = w.emit(w.psWords(args), sc, sc.vars, psText(args))
		w.psOpaque(idx, name+" runs a PowerShell script or command the analysis cannot read", sc)
		return sc
	}
	if s := cmdletOf(name); s != nil {
		if p, ok := parseCmdlet(s, args[1:]); ok {
			// Its words as paths (\ a separator, ~ the home directory),
			// as its path parameters take them.
			words := w.psWords(args[:1])
			for _, a := range args[1:] {
				words = append(words, w.psWord(a, true))
			}
			idx = w.emit(words, sc, sc.vars, psText(args))
			w.a.Commands[idx].cmdlet = cmdletIndex(s)
			return w.cmdlet(st, s, p, ci, idx, sc)
		}
		if !psUnixName(name) {
			// PowerShell refuses a parameter the cmdlet does not take.
			idx = w.emit(w.psWords(args), sc, sc.vars, psText(args))
			w.a.Commands[idx].cmdlet = cmdletIndex(s)
			return sc
		}
	}
	if name == "cmd" {
		idx = w.emit(w.psWords(args), sc, sc.vars, psText(args))
		w.psOpaque(idx, "cmd runs cmd.exe's own syntax, which the analysis does not read", sc)
		return sc
	}
	// A native program, as a shell runs it.
	words := w.psWords(args)
	idx = w.emit(words, sc, sc.vars, psText(args))
	if words[0].Dynamic == "" {
		child := sc
		child.dir, child.dirWhy = w.a.Commands[idx].Dir, w.a.Commands[idx].DirDynamic
		w.follow(words, child, idx)
	}
	return sc
}

// psOpaque marks a command the analysis cannot see into: it may run
// anything and write any file.
func (w *walker) psOpaque(idx int, why string, sc scope) {
	w.a.Commands[idx].Opaque = why
	w.a.Writes = append(w.a.Writes, w.at(Write{Op: "PowerShell", Command: idx, Dynamic: why + ", and may write any file", Dir: dirOf(sc)}))
}

func (w *walker) psWords(args []pwsh.Word) []Word {
	out := make([]Word, len(args))
	for i, a := range args {
		out[i] = w.psWord(a, false)
	}
	return out
}

func psAssign(op string) bool {
	switch op {
	case "=", "+=", "-=", "*=", "/=", "%=", "??=":
		return true
	}
	return false
}

// cmdlet records what a cmdlet does by its spec.
func (w *walker) cmdlet(st *powershellState, s *cmdletSpec, p psArgs, ci, idx int, sc scope) scope {
	op := s.names[0]
	tree := s.recurse != "" && p.flags[s.recurse]
	from := st.cmds[ci].From
	switch s.role {
	case cmWrite, cmDelete:
		for _, x := range p.paths(s) {
			if w.psFollow(st, x, s, sc, idx) {
				continue
			}
			wd := w.psWord(x, true)
			w.addWrite(wd, op, sc, idx, s.role == cmDelete && (tree || w.isDir(w.abs(sc, wd.Value))))
		}
		if s.names[0] == "new-item" {
			// New-Item -Path dir -Name file makes dir/file.
			for _, n := range p.named["name"] {
				dirs := p.named["path"]
				if len(dirs) == 0 && len(p.pos) > 0 {
					dirs = p.pos[0]
				}
				if len(dirs) == 0 {
					dirs = []pwsh.Word{{Text: ".", Literal: true, Inner: -1}}
				}
				for _, d := range dirs {
					dw, nw := w.psWord(d, true), w.psWord(n, true)
					if nw.Dynamic != "" {
						dw = nw
					} else {
						dw.Value = filepath.Join(dw.Value, nw.Value)
					}
					w.addWrite(dw, op, sc, idx, false)
				}
			}
		}
		if !p.pathGiven() && s.piped && from >= 0 {
			w.psSource(st, from, s, sc, idx, 0)
		}
	case cmCopy, cmMove:
		var dst []pwsh.Word
		dst = p.named[s.dest]
		if len(dst) == 0 && len(p.pos) > 1 {
			dst = p.pos[1]
		}
		srcs := p.paths(s)
		if s.role == cmMove {
			for _, x := range srcs {
				if !w.psFollow(st, x, s, sc, idx) {
					w.addWrite(w.psWord(x, true), op, sc, idx, true)
				}
			}
			if !p.pathGiven() && from >= 0 {
				w.psSource(st, from, s, sc, idx, 0)
			}
		}
		for _, d := range dst {
			dw := w.psWord(d, true)
			switch {
			case dw.Dynamic != "":
				w.addWrite(dw, op, sc, idx, true)
			case s.dest == "newname":
				// The new name is in the item's own directory.
				for _, x := range srcs {
					sw := w.psWord(x, true)
					if sw.Dynamic != "" || strings.ContainsAny(dw.Value, `/\`) {
						w.addWrite(dw, op, sc, idx, true)
						continue
					}
					sw.Value = filepath.Join(filepath.Dir(sw.Value), dw.Value)
					w.addWrite(sw, op, sc, idx, true)
				}
			case w.isDir(w.abs(sc, dw.Value)) && len(srcs) > 0:
				// Into a directory: each source under its own name.
				for _, x := range srcs {
					sw := w.psWord(x, true)
					if sw.Dynamic != "" {
						w.addWrite(sw, op, sc, idx, true)
						continue
					}
					in := dw
					in.Value = filepath.Join(dw.Value, filepath.Base(sw.Value))
					w.addWrite(in, op, sc, idx, tree || s.role == cmMove || w.isDir(w.abs(sc, sw.Value)))
				}
			default:
				w.addWrite(dw, op, sc, idx, tree || s.role == cmMove)
			}
		}
	case cmLocation:
		var to []pwsh.Word
		to = append(to, p.named["path"]...)
		to = append(to, p.named["literalpath"]...)
		if len(p.pos) > 0 {
			to = append(to, p.pos[0]...)
		}
		if len(to) == 0 {
			return sc
		}
		name := "cd"
		if strings.HasPrefix(op, "push") {
			name = "pushd"
		}
		return w.cd(name, []Word{w.psWord(to[0], true)}, sc, idx)
	case cmPopLocation:
		return w.cd("popd", nil, sc, idx)
	case cmAlias:
		var n, v []pwsh.Word
		n, v = p.named["name"], p.named["value"]
		rest := p.pos
		if len(n) == 0 && len(rest) > 0 {
			n, rest = rest[0], rest[1:]
		}
		if len(v) == 0 && len(rest) > 0 {
			v = rest[0]
		}
		if len(n) == 1 && len(v) == 1 {
			if !n[0].Literal || !v[0].Literal {
				w.a.Commands[idx].Opaque = "PowerShell sets an alias only known at run time"
			} else {
				st.aliases[strings.ToLower(n[0].Text)] = v[0].Text
			}
		}
	case cmEval:
		code := p.named["command"]
		if len(code) == 0 && len(p.pos) > 0 {
			code = p.pos[0]
		}
		if len(code) != 1 || !code[0].Literal {
			w.psOpaque(idx, "Invoke-Expression runs text only known at run time", sc)
			return sc
		}
		inner := sc
		inner.via = appendVia(sc.via, "Invoke-Expression")
		w.nest(func() { w.powershell(code[0].Text, inner) })
	case cmStart:
		file := p.named["filepath"]
		if len(file) == 0 && len(p.pos) > 0 {
			file = p.pos[0]
		}
		list := append(p.named["argumentlist"], p.named["args"]...)
		if len(list) == 0 && len(p.pos) > 1 {
			list = p.pos[1]
		}
		for _, n := range []string{"redirectstandardoutput", "redirectstandarderror"} {
			for _, x := range p.named[n] {
				w.addWrite(w.psWord(x, true), op, sc, idx, false)
			}
		}
		if len(file) != 1 {
			return sc // Start-Job -ScriptBlock {...}: its commands are read already
		}
		// The program gets its arguments joined by blanks and splits them
		// again (a Windows command line).
		words := []Word{w.psWord(file[0], false)}
		for _, a := range list {
			x := w.psWord(a, false)
			if x.Dynamic != "" {
				words = append(words, x)
				continue
			}
			for _, f := range strings.Fields(x.Value) {
				words = append(words, Word{Value: f})
			}
		}
		inner := sc
		if wd := p.named["workingdirectory"]; len(wd) == 1 {
			d := w.psWord(wd[0], true)
			if d.Dynamic != "" {
				inner.dir, inner.dirWhy = "", "Start-Process -WorkingDirectory "+d.Dynamic
			} else if a := w.abs(sc, d.Value); a != "" {
				inner.dir, inner.dirWhy = a, ""
			}
		}
		inner.via = appendVia(sc.via, "Start-Process")
		if words[0].Dynamic != "" {
			w.psOpaque(idx, "Start-Process runs a program only known at run time", sc)
			return sc
		}
		i := w.emit(words, inner, inner.vars, psText(file))
		w.follow(words, inner, i)
	}
	return sc
}

// psFollow follows a writer's path argument that is a (...) group or a
// variable holding a listing to what it lists; false when it is neither.
func (w *walker) psFollow(st *powershellState, x pwsh.Word, s *cmdletSpec, sc scope, idx int) bool {
	if x.Inner >= 0 {
		w.psSource(st, x.Inner, s, sc, idx, 0)
		return true
	}
	if !x.Literal {
		if first, ok := st.vars[strings.ToLower(x.Text)]; ok && psListing(st.cmds[first]) {
			w.psSource(st, psLastOf(st.cmds, first), s, sc, idx, 0)
			return true
		}
	}
	return false
}

// psListing reports an assignment of a listing cmdlet's output ($f = gci
// ...): the only kind of variable a writer's paths are followed into.
func psListing(c pwsh.Command) bool {
	if len(c.Args) > 2 && psAssign(c.Args[1].Text) {
		c.Args = c.Args[2:]
	}
	s := cmdletOf(c.Name())
	return s != nil && s.role == cmList
}

// psLastOf is the last command of the pipeline that starts at first (what
// an assignment of it holds).
func psLastOf(cmds []pwsh.Command, first int) int {
	last := first
	for j := first + 1; j < len(cmds); j++ {
		if cmds[j].From == last {
			last = j
		}
	}
	return last
}

// psSource follows the output a writing cmdlet takes its paths from (the
// command at index i) back to what produced it, through the cmdlets that
// only pass it on, and records what the writer reaches.
func (w *walker) psSource(st *powershellState, i int, writer *cmdletSpec, sc scope, idx, depth int) {
	c := st.cmds[i]
	op := writer.names[0]
	subtree := !writer.contentOnly
	if len(c.Args) > 2 && strings.HasPrefix(c.Args[0].Text, "$") && psAssign(c.Args[1].Text) {
		c.Args = c.Args[2:]
	}
	unknown := func(why string) {
		// Paths it cannot follow: any file, from here (a relative path) or
		// anywhere.
		wr := Write{Op: op, Command: idx, Tree: true, Path: sc.dir, Dir: sc.dir,
			Dynamic: fmt.Sprintf("%s takes the paths it changes from %s, which %s", writer.names[0], psText(c.Args), why)}
		if sc.dirWhy != "" {
			wr.Path, wr.Dir = "", ""
		}
		w.a.Writes = append(w.a.Writes, w.at(wr))
	}
	if len(c.Args) == 0 || depth > pwsh.MaxDepth {
		unknown("the analysis cannot follow")
		return
	}
	if len(c.Args) == 1 && strings.HasPrefix(c.Args[0].Text, "$") && !c.Args[0].Literal {
		if first, ok := st.vars[strings.ToLower(c.Args[0].Text)]; ok && psListing(st.cmds[first]) {
			w.psSource(st, psLastOf(st.cmds, first), writer, sc, idx, depth+1) // $files | Remove-Item
			return
		}
	}
	if c.Args[0].Quoted || c.Args[0].Literal && strings.Contains(c.Args[0].Text, ",") && len(c.Args) == 1 {
		// Literal values: 'a.txt', 'b.txt' | Remove-Item.
		for j := 0; j < len(c.Args); j++ {
			var list []pwsh.Word
			list, j = arrayAt(c.Args, j)
			for _, x := range list {
				if !x.Literal {
					unknown("is computed at run time")
					return
				}
				wd := w.psWord(x, true)
				w.addWrite(wd, op, sc, idx, subtree && w.isDir(w.abs(sc, wd.Value)))
			}
		}
		return
	}
	s := cmdletOf(c.Name())
	if s == nil {
		unknown("the analysis cannot follow")
		return
	}
	p, ok := parseCmdlet(s, c.Args[1:])
	switch {
	case !ok:
		unknown("is called with a parameter the analysis does not know")
	case s.role == cmFilter || s.names[0] == "tee-object":
		if c.From >= 0 {
			w.psSource(st, c.From, writer, sc, idx, depth+1)
			return
		}
		unknown("has no input the analysis can see")
	case s.role == cmList:
		children := s.names[0] == "get-childitem"
		recurse := p.flags["recurse"] || len(p.named["depth"]) > 0
		var names []string
		for _, n := range append(p.named["filter"], p.named["include"]...) {
			if !n.Literal {
				unknown("lists paths computed at run time")
				return
			}
			names = append(names, n.Text)
		}
		paths := append(p.named["path"], p.named["literalpath"]...)
		if len(p.pos) > 0 {
			paths = append(paths, p.pos[0]...)
		}
		if children && len(p.pos) > 1 {
			for _, n := range p.pos[1] {
				names = append(names, n.Text) // Get-ChildItem's second position is -Filter
			}
		}
		if len(paths) == 0 {
			paths = []pwsh.Word{{Text: ".", Literal: true, Inner: -1}}
		}
		for _, x := range paths {
			if x.Inner >= 0 || !x.Literal && !strings.HasPrefix(strings.ToLower(x.Text), "$env:") {
				unknown("lists paths computed at run time")
				return
			}
			wd := w.psWord(x, true)
			if wd.Dynamic != "" {
				unknown("lists paths computed at run time")
				return
			}
			dir := w.abs(sc, wd.Value)
			switch {
			case children && (!wd.Glob || recurse) && (recurse || w.isDir(dir) || !wd.Glob):
				// The entries below it (all of them with -Recurse) whose
				// names match the filters; what is below them too for a
				// writer that changes trees.
				var m *Match
				if len(names) > 0 {
					m = &Match{Names: names, Fold: true, Subtree: subtree}
				}
				wr := Write{Op: op, Command: idx, Tree: true, Match: m, Glob: wd.Glob}
				if dir == "" {
					wr.Dynamic = "the directory " + wd.Value + " is only known at run time"
				} else {
					wr.Path, wr.Written, wr.Dir = dir, dir, sc.dir
				}
				w.a.Writes = append(w.a.Writes, w.at(wr))
			default:
				w.addWrite(wd, op, sc, idx, subtree)
			}
		}
	default:
		unknown("the analysis cannot follow")
	}
}
