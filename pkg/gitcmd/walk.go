package gitcmd

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/magehook/magehook/pkg/budget"
	"mvdan.cc/sh/v3/syntax"
)

// Analyze parses command once and returns every simple command bash would
// run and every file they would write. A command that does not parse is
// not an error: bash runs the complete lines before the broken one, and
// the result says so (SyntaxError, Unparsed). The errors are ErrTooLarge
// and ErrBudget, on which a gate fails closed.
func Analyze(command string, opts Options) (*Analysis, error) {
	if opts.MaxBytes <= 0 {
		opts.MaxBytes = DefaultMaxBytes
	}
	if opts.MaxDepth <= 0 {
		opts.MaxDepth = DefaultMaxDepth
	}
	if opts.MaxCommands <= 0 {
		opts.MaxCommands = DefaultMaxCommands
	}
	if len(command) > opts.MaxBytes {
		return nil, ErrTooLarge
	}
	if opts.PowerShell {
		if err := budget.CheckPowerShell("the command", command); err != nil {
			return nil, fmt.Errorf("%w (%v)", ErrBudget, err)
		}
	} else if err := shapeError("the command", command); err != nil {
		return nil, err
	}
	w := &walker{o: opts, a: &Analysis{}}
	sc := scope{dir: filepath.Clean(opts.Dir), fragile: -1, oldpwd: "", src: command}
	if opts.Dir == "" {
		sc.dir, sc.dirWhy = "", "the starting directory is not known"
	}
	if opts.PowerShell {
		w.powershell(command, sc)
		if w.err != nil {
			return nil, w.err
		}
		w.a.GitConfig, w.a.GitConfigDynamic = w.gitSets, w.configWhy
		return w.a, nil
	}
	f, perr := parse(command)
	if perr != nil {
		w.a.SyntaxError = perr
		f, w.a.Unparsed = parsePrefix(command, perr)
	}
	if f != nil {
		w.stmts(f.Stmts, sc)
	}
	if w.err != nil {
		return nil, w.err
	}
	w.a.GitConfig, w.a.GitConfigDynamic = w.gitSets, w.configWhy
	return w.a, nil
}

func parse(src string) (*syntax.File, error) {
	return syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
}

// parsePrefix parses the longest run of whole lines before the error,
// which is what bash runs before it stops.
func parsePrefix(src string, perr error) (*syntax.File, string) {
	end := len(src)
	var pe syntax.ParseError
	if errors.As(perr, &pe) && int(pe.Pos.Offset()) < end {
		end = int(pe.Pos.Offset())
	}
	for tries := 0; tries < 64; tries++ {
		nl := strings.LastIndexByte(src[:end], '\n')
		if nl < 0 {
			return nil, src
		}
		if f, err := parse(src[:nl]); err == nil {
			return f, src[nl+1:]
		}
		end = nl
	}
	return nil, src
}

type walker struct {
	o     Options
	a     *Analysis
	steps int
	depth int
	err   error
	// gitSets are configuration values (key=value) an earlier git config
	// in the command sets; configWhy is set when an earlier command
	// writes a git configuration file some other way.
	gitSets    []string
	configWhy  string
	stdinCache map[string]string
	// written are the files earlier commands write: their text when it is
	// known (echo, printf or a here-document redirected), else nil.
	written map[string]*string
	// links are the symbolic links earlier commands make: where, and to
	// what (absolute).
	links [][2]string
	// programs are the configuration keys whose programs are being
	// followed, configCache the configuration read per list of files
	// (gitconfig.go).
	programs    map[string]bool
	configCache map[string][]ConfigEntry
}

// scope is what the shell carries from one statement to the next. It is
// copied by value; its lists are immutable and shared.
type scope struct {
	dir, dirWhy string
	// fragile is the index of a cd to a directory that did not exist at
	// analysis time: a command it does not guard (&&) may still run in
	// fragileDir.
	fragile    int
	fragileDir string
	oldpwd     string
	dirs       *strList // pushd's stack
	vars       *binding
	aliases    *binding
	funcs      *function
	args       []Word // $1..., in a function or bash -c
	hasArgs    bool
	allexport  bool
	errexit    bool
	cdable     bool
	// dead: the shell has exited on this path (exit, exec).
	dead   bool
	envWhy string
	ok     *intList // commands that succeeded on this path
	stdin  *input   // what the command reads on stdin, when known
	via    []string
	src    string
}

type input struct {
	text string
	// file names a file redirected in (< f), read when needed.
	file string
	// find is what a find that only prints lists (find . -name x |).
	find *findList
}

// catFile returns the file a statement that is cat of one file prints
// (absolute), or "".
func (w *walker) catFile(s *syntax.Stmt, sc scope) string {
	c, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || len(c.Args) != 2 || len(c.Assigns) > 0 || len(s.Redirs) > 0 {
		return ""
	}
	name, file := w.joined(c.Args[0], sc), w.joined(c.Args[1], sc)
	if name.Dynamic != "" || progName(name.Value) != "cat" || file.Dynamic != "" || file.Glob || strings.HasPrefix(file.Value, "-") {
		return ""
	}
	return w.abs(sc, file.Value)
}

// lineFilter reports a command that only keeps, drops or reorders the
// lines it reads (so the paths it passes on are some of those it got).
func lineFilter(name string) bool {
	switch name {
	case "grep", "egrep", "fgrep", "rg", "sort", "uniq", "head", "tail", "tac", "shuf", "cat":
		return true
	}
	return false
}

// findList is what a find prints: paths under its roots that it selects.
type findList struct {
	roots []Word
	match *Match
	sc    scope
	// flat: the names of the entries of the directory it runs in, no
	// deeper (ls without operands or -R): what * matches.
	flat bool
}

// findList returns what a statement lists when it prints paths: a find
// printing its matches (no action but -print, -print0, -ls), an ls or git
// ls-files (what is in the directories it names, and in the one it runs
// in: names print relative to either), either through filters that only
// keep or reorder lines (grep, sort, head, ...); or nil.
func (w *walker) findList(s *syntax.Stmt, sc scope) *findList {
	if b, ok := s.Cmd.(*syntax.BinaryCmd); ok && (b.Op == syntax.Pipe || b.Op == syntax.PipeAll) {
		if y, ok := b.Y.Cmd.(*syntax.CallExpr); ok && len(y.Args) > 0 && lineFilter(progName(w.joined(y.Args[0], sc).Value)) {
			return w.findList(b.X, sc)
		}
		return nil
	}
	c, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || len(c.Args) == 0 || len(c.Assigns) > 0 {
		return nil
	}
	var args []Word
	for _, a := range c.Args {
		args = append(args, w.fields(a, sc)...)
	}
	if len(args) == 0 || args[0].Dynamic != "" {
		return nil
	}
	switch progName(args[0].Value) {
	case "ls", "git", "fd", "fdfind":
		if progName(args[0].Value) == "git" && (len(args) < 2 || args[1].Value != "ls-files") {
			return nil
		}
		roots := []Word{{Value: "."}}
		flat := progName(args[0].Value) == "ls"
		for _, a := range args[1:] {
			if a.Dynamic != "" {
				return nil
			}
			if strings.HasPrefix(a.Value, "-") && (strings.Contains(a.Value, "R") || a.Value == "--recursive") {
				flat = false
			}
			if !strings.HasPrefix(a.Value, "-") && a.Value != "ls-files" {
				roots = append(roots, a)
				flat = false
			}
		}
		return &findList{roots: roots, sc: sc, flat: flat}
	case "find":
	default:
		return nil
	}
	roots := findRoots(args[1:])
	expr := args[1+len(roots):]
	for i := 0; i < len(expr); i++ {
		a := expr[i]
		if findTakesValue(a.Value) {
			i++
			continue
		}
		switch a.Value {
		case "-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fprint0", "-fprintf", "-fls", "-printf":
			return nil
		}
	}
	for _, r := range roots {
		if r.Dynamic != "" || r.Glob {
			return nil
		}
	}
	return &findList{roots: roots, match: findMatch(args[1+len(roots):]), sc: sc}
}

type strList struct {
	v    string
	next *strList
}

type intList struct {
	v    int
	next *intList
}

func (l *intList) has(i int) bool {
	for ; l != nil; l = l.next {
		if l.v == i {
			return true
		}
	}
	return false
}

func (l *intList) slice() []int {
	var s []int
	for ; l != nil; l = l.next {
		s = append(s, l.v)
	}
	for i, j := 0, len(s)-1; i < j; i, j = i+1, j-1 {
		s[i], s[j] = s[j], s[i]
	}
	return s
}

type binding struct {
	name     string
	val      Word
	exported bool
	unset    bool
	next     *binding
}

func (b *binding) lookup(name string) *binding {
	for ; b != nil; b = b.next {
		if b.name == name {
			return b
		}
	}
	return nil
}

type function struct {
	name     string
	body     *syntax.Stmt
	src      string
	exported bool
	removed  bool
	next     *function
}

func (f *function) lookup(name string) *function {
	for ; f != nil; f = f.next {
		if f.name == name {
			if f.removed {
				return nil
			}
			return f
		}
	}
	return nil
}

// tick checks the budget at loop points.
func (w *walker) tick() bool {
	if w.err != nil {
		return false
	}
	w.steps++
	if w.steps%16 == 0 {
		if !w.o.Deadline.IsZero() && time.Now().After(w.o.Deadline) {
			w.err = ErrBudget
			return false
		}
		if w.o.Check != nil {
			if err := w.o.Check(); err != nil {
				w.err = err
				return false
			}
		}
	}
	if len(w.a.Commands) > w.o.MaxCommands {
		w.err = ErrBudget
		return false
	}
	return true
}

// nest runs f one level deeper, or fails the analysis past MaxDepth.
func (w *walker) nest(f func()) {
	if w.depth >= w.o.MaxDepth {
		w.err = ErrBudget
		return
	}
	w.depth++
	f()
	w.depth--
}

// text is a node's source.
func (sc *scope) text(n syntax.Node) string {
	s, e := int(n.Pos().Offset()), int(n.End().Offset())
	if s < 0 || e > len(sc.src) || s > e {
		return ""
	}
	return sc.src[s:e]
}

// res is what a statement leaves: the state after it (whichever way it
// went), the state when it succeeded, and the commands whose success is
// its success.
type res struct {
	out, succ scope
	last      []int
}

func (w *walker) stmts(list []*syntax.Stmt, sc scope) res {
	r := res{out: sc, succ: sc}
	for _, s := range list {
		if !w.tick() {
			return r
		}
		r = w.stmt(s, r.out)
		if r.out.errexit {
			// Under set -e the shell goes on only after a success.
			r.out = r.succ
			for _, i := range r.last {
				r.out.ok = &intList{i, r.out.ok}
			}
		}
	}
	return r
}

func (w *walker) stmt(s *syntax.Stmt, sc scope) res {
	if s == nil {
		return res{out: sc, succ: sc}
	}
	in := sc
	var redirs []*syntax.Redirect
	for _, r := range s.Redirs {
		switch r.Op {
		case syntax.WordHdoc:
			in.stdin = &input{text: w.joined(r.Word, sc).Value + "\n"}
		case syntax.Hdoc, syntax.DashHdoc:
			body := ""
			if r.Hdoc != nil {
				if q := quoted(r.Word); q {
					body = lit(r.Hdoc)
				} else {
					body = w.joined(r.Hdoc, sc).Value
				}
			}
			in.stdin = &input{text: body}
		case syntax.RdrIn:
			if p := w.joined(r.Word, sc); p.Dynamic == "" {
				in.stdin = &input{file: w.abs(sc, p.Value)}
				w.inFile(sc, p)
			} else {
				in.stdin = nil
				w.inFile(sc, p)
			}
		case syntax.RdrInOut:
			w.inFile(sc, w.joined(r.Word, sc))
		}
		redirs = append(redirs, r)
	}
	var r res
	if call, ok := s.Cmd.(*syntax.CallExpr); ok {
		r = w.call(call, in, redirs)
	} else {
		w.redirects(redirs, in, -1, nil)
		r = w.command(s.Cmd, in)
	}
	if s.Negated {
		r.succ, r.last = r.out, nil
	}
	r.out.stdin, r.succ.stdin = sc.stdin, sc.stdin
	if s.Background {
		return res{out: sc, succ: sc} // a background job's effects on the shell are lost
	}
	return r
}

func quoted(w *syntax.Word) bool {
	if w == nil {
		return false
	}
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.SglQuoted, *syntax.DblQuoted:
			return true
		case *syntax.Lit:
			if strings.Contains(p.Value, `\`) {
				return true
			}
		}
	}
	return false
}

// lit is the raw text of a here-document body that is not expanded.
func lit(w *syntax.Word) string {
	var b strings.Builder
	for _, p := range w.Parts {
		if l, ok := p.(*syntax.Lit); ok {
			b.WriteString(l.Value)
		}
	}
	return b.String()
}

func same(sc scope) res { return res{out: sc, succ: sc} }

func withOK(sc scope, last []int) scope {
	for _, i := range last {
		sc.ok = &intList{i, sc.ok}
	}
	return sc
}

func (w *walker) command(cmd syntax.Command, sc scope) res {
	switch c := cmd.(type) {
	case nil:
	case *syntax.BinaryCmd:
		switch c.Op {
		case syntax.Pipe, syntax.PipeAll:
			// Each element of a pipeline runs in a subshell; the next
			// reads what the previous prints.
			w.stmt(c.X, sc)
			next := sc
			if text, ok := w.printed(c.X, sc); ok {
				next.stdin = &input{text: text}
			} else if f := w.findList(c.X, sc); f != nil {
				next.stdin = &input{find: f}
			} else if file := w.catFile(c.X, sc); file != "" {
				next.stdin = &input{file: file}
			} else {
				next.stdin = nil
			}
			y := w.stmt(c.Y, next)
			return res{out: sc, succ: sc, last: y.last}
		case syntax.AndStmt:
			x := w.stmt(c.X, sc)
			y := w.stmt(c.Y, withOK(x.succ, x.last))
			y.out.ok, y.succ.ok = sc.ok, sc.ok
			return res{out: merge(x.out, y.out), succ: y.succ, last: append(append([]int(nil), x.last...), y.last...)}
		case syntax.OrStmt:
			x := w.stmt(c.X, sc)
			y := w.stmt(c.Y, x.out)
			y.out.ok, y.succ.ok = sc.ok, sc.ok
			x.succ.ok = sc.ok
			return res{out: merge(x.succ, y.out), succ: merge(x.succ, y.succ)}
		}
	case *syntax.Subshell:
		r := w.stmts(c.Stmts, sc)
		return res{out: sc, succ: sc, last: r.last}
	case *syntax.Block:
		r := w.stmts(c.Stmts, sc)
		r.out.ok, r.succ.ok = sc.ok, sc.ok
		return r
	case *syntax.IfClause:
		cur := sc
		var outs []scope
		for ic := c; ic != nil; ic = ic.Else {
			cond := w.stmts(ic.Cond, cur)
			then := w.stmts(ic.Then, withOK(cond.succ, cond.last))
			then.out.ok = sc.ok
			outs = append(outs, then.out)
			cur = cond.out
			cur.ok = sc.ok
		}
		out := cur
		for _, o := range outs {
			out = merge(out, o)
		}
		return same(out)
	case *syntax.WhileClause:
		out := sc
		for range 2 { // twice: the second pass sees what the first changed
			cond := w.stmts(c.Cond, out)
			body := w.stmts(c.Do, cond.out)
			out = merge(cond.out, body.out)
			out.ok = sc.ok
		}
		return same(out)
	case *syntax.ForClause:
		return same(w.forClause(c, sc))
	case *syntax.CaseClause:
		w.joined(c.Word, sc)
		out := sc
		for _, item := range c.Items {
			for _, p := range item.Patterns {
				w.joined(p, sc)
			}
			o := w.stmts(item.Stmts, sc)
			o.out.ok = sc.ok
			out = merge(out, o.out)
		}
		return same(out)
	case *syntax.FuncDecl:
		if c.Name != nil && c.Body != nil {
			sc.funcs = &function{name: c.Name.Value, body: c.Body, src: sc.src, next: sc.funcs}
		}
	case *syntax.TimeClause:
		return w.stmt(c.Stmt, sc)
	case *syntax.CoprocClause:
		w.stmt(c.Stmt, sc)
	case *syntax.DeclClause:
		return same(w.decl(c, sc))
	default:
		// Arithmetic, [[ ]] tests, let: only their substitutions run.
		w.substitutions(cmd, sc)
	}
	return same(sc)
}

// merge is the state after one of two paths ran: what they agree on.
func merge(a, b scope) scope {
	if a.dead {
		return b
	}
	if b.dead {
		return a
	}
	if a.dir != b.dir || a.dirWhy != b.dirWhy {
		if a.dirWhy == "" && b.dirWhy == "" {
			a.dirWhy = fmt.Sprintf("the directory is %s or %s, depending on which branch of the command ran", a.dir, b.dir)
		} else if a.dirWhy == "" {
			a.dirWhy = b.dirWhy
		}
		a.dir = ""
	}
	if a.vars != b.vars {
		// Keep the later path's bindings: both sets are visible to the
		// consumer through the commands recorded on each path. A
		// variable that differs becomes dynamic.
		a.vars = mergeVars(a.vars, b.vars)
	}
	if b.funcs != a.funcs {
		a.funcs = b.funcs
	}
	a.allexport = a.allexport || b.allexport
	a.errexit = a.errexit && b.errexit
	a.cdable = a.cdable || b.cdable
	if a.envWhy == "" {
		a.envWhy = b.envWhy
	}
	if a.fragile < 0 {
		a.fragile, a.fragileDir = b.fragile, b.fragileDir
	}
	return a
}

// mergeVars binds every name the two lists disagree on to a dynamic
// value (exported if either exports it).
func mergeVars(a, b *binding) *binding {
	out := b
	seen := map[string]bool{}
	for _, l := range []*binding{a, b} {
		for x := l; x != nil; x = x.next {
			if seen[x.name] {
				continue
			}
			seen[x.name] = true
			va, vb := a.lookup(x.name), b.lookup(x.name)
			if va != nil && vb != nil && va.val == vb.val && va.unset == vb.unset && va.exported == vb.exported {
				continue
			}
			exp := (va != nil && va.exported) || (vb != nil && vb.exported)
			out = &binding{name: x.name, val: Word{Value: "$" + x.name, Dynamic: "$" + x.name + " depends on which branch of the command ran"}, exported: exp, next: out}
		}
	}
	return out
}

func (w *walker) forClause(c *syntax.ForClause, sc scope) scope {
	wi, ok := c.Loop.(*syntax.WordIter)
	if !ok {
		w.substitutions(c.Loop, sc)
		out := sc
		for range 2 {
			out = w.stmts(c.Do, out).out
			out.ok = sc.ok
		}
		return merge(sc, out)
	}
	var items []Word
	if wi.InPos.IsValid() {
		for _, word := range wi.Items {
			items = append(items, w.fields(word, sc)...)
		}
	} else {
		items = sc.args
		if !sc.hasArgs {
			items = []Word{{Value: `"$@"`, Dynamic: "the loop runs over the script's arguments"}}
		}
	}
	out := sc
	for _, it := range items {
		if !w.tick() {
			return sc
		}
		if it.Glob {
			it = Word{Value: it.Value, Glob: true} // each path the pattern matches
		}
		body := out
		body.vars = &binding{name: wi.Name.Value, val: it, next: body.vars}
		o := w.stmts(c.Do, body).out
		o.ok = sc.ok
		out = merge(out, o)
	}
	if len(items) > 0 {
		// Once more with the variable unknown, so that a later
		// iteration sees what an earlier one changed.
		body := out
		body.vars = &binding{name: wi.Name.Value, val: items[len(items)-1], next: body.vars}
		o := w.stmts(c.Do, body).out
		o.ok = sc.ok
		out = merge(out, o)
	}
	return merge(sc, out)
}

// substitutions walks the command and process substitutions inside a node:
// they run wherever the node is evaluated.
func (w *walker) substitutions(node syntax.Node, sc scope) {
	syntax.Walk(node, func(n syntax.Node) bool {
		if w.err != nil {
			return false
		}
		switch s := n.(type) {
		case *syntax.CmdSubst:
			w.stmts(s.Stmts, sc)
			return false
		case *syntax.ProcSubst:
			w.stmts(s.Stmts, sc)
			return false
		}
		return true
	})
}

// abs makes a path absolute against the scope's directory; "" when it is
// relative and the directory is unknown.
func (w *walker) abs(sc scope, p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	if sc.dirWhy != "" || sc.dir == "" {
		return ""
	}
	return filepath.Join(sc.dir, p)
}

func (w *walker) isDir(p string) bool {
	if w.o.Stat == nil || p == "" {
		return false
	}
	info, err := w.o.Stat(p)
	return err == nil && info.IsDir()
}

func (w *walker) readFile(p string) ([]byte, bool) {
	if w.o.ReadFile == nil || p == "" {
		return nil, false
	}
	data, err := w.o.ReadFile(p)
	if err != nil || len(data) > w.o.MaxBytes {
		return nil, false
	}
	return data, true
}

// getenv reads the starting environment.
func (w *walker) getenv(name string) (string, bool) {
	if w.o.Getenv == nil {
		return "", false
	}
	return w.o.Getenv(name), true
}

// emit records a command and returns its index.
func (w *walker) emit(args []Word, sc scope, env *binding, text string) int {
	c := Command{Args: args, Dir: sc.dir, DirDynamic: sc.dirWhy, Via: sc.via, EnvDynamic: sc.envWhy, Text: text}
	if c.DirDynamic == "" && sc.fragile >= 0 && !sc.ok.has(sc.fragile) {
		c.DirDynamic = fmt.Sprintf("the cd before it may fail (its directory does not exist now), leaving the command in %s", sc.fragileDir)
	}
	if c.DirDynamic != "" {
		c.Dir = ""
	}
	c.After = sc.ok.slice()
	if sc.stdin != nil {
		c.Stdin, c.StdinKnown = w.stdinText(sc)
	}
	c.Env = exported(env)
	w.a.Commands = append(w.a.Commands, c)
	return len(w.a.Commands) - 1
}

// exported lists the exported bindings, oldest first, latest per name.
func exported(b *binding) []Var {
	var out []Var
	var seen []string
outer:
	for ; b != nil; b = b.next {
		for _, s := range seen {
			if s == b.name {
				continue outer
			}
		}
		seen = append(seen, b.name)
		if !b.exported {
			continue
		}
		out = append(out, Var{Name: b.name, Value: b.val.Value, Dynamic: b.val.Dynamic, Unset: b.unset})
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}
