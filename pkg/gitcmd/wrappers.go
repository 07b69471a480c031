package gitcmd

import (
	"strings"
)

// how describes what a wrapper runs.
type how struct {
	scope scope
	via   string
	// shellCmd is a command string the wrapper hands a shell (su -c,
	// flock -c, watch), with its word.
	shellCmd  string
	shellWord Word
}

// unwrap returns the command a wrapper runs and the state it runs in.
func (w *walker) unwrap(args []Word, sc scope) ([]Word, how, bool) {
	name := progName(args[0].Value)
	s := wrapperOf(name)
	if s == nil {
		return nil, how{}, false
	}
	wr := &s.wrap
	h := how{scope: sc, via: name}
	i := 1
	if wr.subcmds != nil {
		if len(args) < 2 || !contains(wr.subcmds, args[1].Value) {
			return nil, how{}, false
		}
		h.via = name + " " + args[1].Value
		i = 2
	}
	env := sc.vars
	// opt applies one option and its value (valWord, when it takes one):
	// done is set when the option ends the wrapper's words.
	type result struct {
		inner []Word
		h     how
		ok    bool
	}
	var res *result
	apply := func(opt string, val string, valWord Word, hasVal bool) {
		switch {
		case !hasVal:
		case contains(wr.chdir, opt):
			if valWord.Dynamic != "" {
				h.scope.dir, h.scope.dirWhy = "", "the directory "+valWord.Value+" is only known at run time"
			} else {
				h.scope = chdir(w, h.scope, val)
			}
		case contains(wr.unset, opt):
			env = &binding{name: val, unset: true, exported: true, next: env}
		case contains(wr.split, opt):
			inner, h2, ok := w.splitString(val, args[i+1:], h, env)
			res = &result{inner, h2, ok}
		case contains(wr.shell, opt):
			h.shellCmd, h.shellWord = val, valWord
			h.via = name + " " + opt
			h.scope.vars = env
			res = &result{nil, h, true}
		}
	}
	for ; i < len(args); i++ {
		a := args[i]
		if a.Dynamic != "" {
			if strings.HasPrefix(a.Value, "-") {
				continue
			}
			break // the command itself is computed: reported by run
		}
		v := a.Value
		if v == "--" {
			i++
			break
		}
		if wr.assigns && !strings.HasPrefix(v, "-") {
			if n, val, ok := strings.Cut(v, "="); ok && isName(n) {
				env = &binding{name: n, val: Word{Value: val}, exported: true, next: env}
				continue
			}
		}
		if v == "-" && wr.dashOption {
			continue // env -: env -i
		}
		if !strings.HasPrefix(v, "-") || v == "-" {
			break
		}
		if contains(wr.printsOnly, v) {
			return nil, how{}, false // command -v only prints where it is
		}
		if strings.HasPrefix(v, "--") {
			opt, val, hasVal := strings.Cut(v, "=")
			valWord := Word{Value: val}
			if !hasVal && containsStr(s.long, opt[2:]) && i+1 < len(args) {
				i++
				val, valWord, hasVal = args[i].Value, args[i], true
			}
			apply(opt, val, valWord, hasVal)
			if res != nil {
				return res.inner, res.h, res.ok
			}
			continue
		}
		for j := 1; j < len(v); j++ {
			if strings.IndexByte(s.short, v[j]) < 0 {
				continue
			}
			val := v[j+1:]
			valWord := Word{Value: val}
			if val == "" && i+1 < len(args) {
				i++
				val, valWord = args[i].Value, args[i]
			}
			apply("-"+string(v[j]), val, valWord, true)
			if res != nil {
				return res.inner, res.h, res.ok
			}
			break
		}
	}
	i += wr.operands
	h.scope.vars = env
	if wr.operands > 0 && i+1 < len(args) && contains(wr.shell, args[i].Value) {
		// flock FILE -c COMMAND: the shell option may follow the operand.
		h.shellCmd, h.shellWord = args[i+1].Value, args[i+1]
		h.via = name + " " + args[i].Value
		return nil, h, true
	}
	if i >= len(args) {
		return nil, h, true
	}
	inner := args[i:]
	if wr.argLists {
		if text, ok := parallelCommands(inner); ok {
			h.shellCmd, h.shellWord = text, Word{Value: text}
			return nil, h, true
		}
		if !hasArgList(inner) && !hasInputOption(args[1:i]) {
			// No ::: list: parallel reads its arguments from its input,
			// one a line. A known input gives the command lines; an
			// unknown one is appended as xargs's is.
			if text, ok := w.stdinText(sc); ok && sc.stdin.find == nil {
				if lines, ok := parallelLines(inner, text); ok {
					h.shellCmd, h.shellWord = lines, Word{Value: lines}
					return nil, h, true
				}
			} else if len(inner) > 0 {
				return appendDynamic(inner, name, args[1:i]), h, true
			}
		}
	}
	if wr.joins || hasShellFlag(wr.shellFlags, args[1:i]) {
		parts := make([]string, 0, len(inner))
		for _, a := range inner {
			if a.Dynamic != "" {
				h.shellCmd, h.shellWord = a.Value, a
				return nil, h, true
			}
			parts = append(parts, a.Value)
		}
		joined := strings.Join(parts, " ")
		h.shellCmd, h.shellWord = joined, Word{Value: joined}
		if wr.appends {
			h.shellWord.Dynamic = ""
		}
		return nil, h, true
	}
	if wr.appends {
		if words, ok := w.xargsInput(wr, args[1:i], sc); ok {
			// xargs reading a known text (echo, printf, a file cat
			// into it, a here-string): its words are the arguments.
			return append(append([]Word(nil), inner...), words...), h, true
		}
		inner = appendDynamic(inner, name, args[1:i])
	}
	return inner, h, true
}

// xargsInput returns the words xargs appends when what it reads is known
// and it splits it plainly (no -I, -d, -0, -a, -E, which change how).
func (w *walker) xargsInput(wr *wrapSide, opts []Word, sc scope) ([]Word, bool) {
	if wr.joins || sc.stdin == nil || sc.stdin.find != nil {
		return nil, false
	}
	for _, o := range opts {
		v := o.Value
		if o.Dynamic != "" || strings.HasPrefix(v, "-I") || strings.HasPrefix(v, "-i") || strings.HasPrefix(v, "--replace") ||
			strings.HasPrefix(v, "-d") || strings.HasPrefix(v, "--delimiter") || v == "-0" || v == "--null" || strings.HasPrefix(v, "-a") || strings.HasPrefix(v, "--arg-file") || strings.HasPrefix(v, "-E") || strings.HasPrefix(v, "-e") {
			return nil, false
		}
	}
	text, ok := w.stdinText(sc)
	if !ok || strings.ContainsAny(text, "'\"\\") {
		return nil, false // xargs's own quoting: not read here
	}
	var words []Word
	for _, f := range strings.Fields(text) {
		if len(words) >= 1000 {
			return nil, false
		}
		words = append(words, Word{Value: f, Glob: false})
	}
	return words, true
}

// xargsFromFind turns the writes to the paths xargs reads (from index
// first on) into writes of the trees a find printing into it walks,
// narrowed to the names it selects: find . -name '*.json' | xargs rm.
func (w *walker) xargsFromFind(f *findList, first int) {
	var out []Write
	for _, wr := range w.a.Writes[first:] {
		value, ok := strings.CutSuffix(wr.Dynamic, ", and xargs appends words read from its input")
		if !ok {
			value, ok = strings.CutSuffix(wr.Dynamic, ", and xargs replaces {} with its input")
		}
		if _, v, cut := strings.Cut(value, " writes to "); !ok || !cut || (v != "<input>" && v != "{}") {
			out = append(out, wr)
			continue
		}
		var m *Match
		if f.match != nil {
			mm := *f.match
			mm.Subtree = wr.Tree
			m = &mm
		}
		for _, r := range defaultDot(f.roots) {
			n := len(w.a.Writes)
			w.addWrite(r, wr.Op, f.sc, wr.Command, true)
			for _, nw := range w.a.Writes[n:] {
				nw.Match, nw.At = m, wr.At
				out = append(out, nw)
			}
			w.a.Writes = w.a.Writes[:n]
		}
	}
	w.a.Writes = append(w.a.Writes[:first], out...)
}

// appendDynamic marks the words xargs or parallel add from their input:
// a {} (or -I string) becomes dynamic, and a run-time word is appended.
func appendDynamic(inner []Word, name string, opts []Word) []Word {
	// The replacement string: {} (parallel, xargs -i, --replace), or
	// what -I, -i<R>, --replace=<R> or BSD's -J name.
	repl := []string{"{}"}
	for j, o := range opts {
		v := o.Value
		switch {
		case (v == "-I" || v == "-J") && j+1 < len(opts):
			repl = append(repl, opts[j+1].Value)
		case (strings.HasPrefix(v, "-I") || strings.HasPrefix(v, "-J") || strings.HasPrefix(v, "-i")) && len(v) > 2:
			repl = append(repl, v[2:])
		case strings.HasPrefix(v, "--replace="):
			repl = append(repl, v[len("--replace="):])
		}
	}
	out := make([]Word, 0, len(inner)+1)
	for _, a := range inner {
		for _, r := range repl {
			if r != "" && strings.Contains(a.Value, r) {
				a = Word{Value: a.Value, Dynamic: name + " replaces " + r + " with its input"}
				break
			}
		}
		out = append(out, a)
	}
	return append(out, Word{Value: "<input>", Dynamic: name + " appends words read from its input"})
}

func hasShellFlag(flags []string, opts []Word) bool {
	for _, o := range opts {
		if contains(flags, o.Value) {
			return true
		}
	}
	return false
}

// splitString is env -S: the string is split into words that lead the
// command.
func (w *walker) splitString(s string, rest []Word, h how, env *binding) ([]Word, how, bool) {
	var words []Word
	for _, f := range strings.Fields(s) {
		words = append(words, Word{Value: f})
	}
	words = append(words, rest...)
	h.scope.vars = env
	h.via = "env -S"
	// The split words may themselves be NAME=value or options of env.
	words = append([]Word{{Value: "env"}}, words...)
	inner, h2, ok := w.unwrap(words, h.scope)
	if !ok {
		return nil, h, true
	}
	h2.via = "env -S"
	return inner, h2, true
}

func chdir(w *walker, sc scope, dir string) scope {
	p := w.abs(sc, dir)
	if p == "" {
		sc.dir, sc.dirWhy = "", "a relative directory "+dir+" in a directory only known at run time"
		return sc
	}
	sc.dir, sc.dirWhy = p, ""
	return sc
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func isName(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		if c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || (i > 0 && c >= '0' && c <= '9') {
			continue
		}
		return false
	}
	return true
}

// findExec follows the commands find runs with -exec, -execdir, -ok and
// -okdir (up to ";" or "+"); {} is a path only run time knows, and
// -execdir runs in each match's directory.
// findEach is the reason of find -exec's {} word.
const findEach = "find replaces {} with each path it matches"

// findNarrow turns the writes to {} that find -exec's command made (from
// index first on) into writes of the trees find walks: narrowed to the
// names its tests select when the word is {} or {}<suffix> (rm {},
// mv {} {}.bak) and the tests bound them, else the whole trees (rm -rf
// {}/.., find . -exec rm {} +).
func (w *walker) findNarrow(args []Word, action, first int, sc scope) {
	roots := findRoots(args[1:])
	m := findMatch(args[1+len(roots) : action])
	var out []Write
	for _, wr := range w.a.Writes[first:] {
		value, ok := strings.CutSuffix(wr.Dynamic, ", and "+findEach)
		if !ok {
			out = append(out, wr)
			continue
		}
		_, value, _ = strings.Cut(value, " writes to ")
		var mm *Match
		if suffix, ok := strings.CutPrefix(value, "{}"); ok && m != nil && !strings.ContainsAny(suffix, "/{") {
			mm = &Match{Fold: m.Fold, Subtree: wr.Tree}
			for _, n := range m.Names {
				mm.Names = append(mm.Names, n+suffix)
			}
		}
		for _, r := range defaultDot(roots) {
			n := len(w.a.Writes)
			w.addWrite(r, wr.Op, sc, wr.Command, true)
			for _, nw := range w.a.Writes[n:] {
				nw.Match, nw.At = mm, wr.At
				out = append(out, nw)
			}
			w.a.Writes = w.a.Writes[:n]
		}
	}
	w.a.Writes = append(w.a.Writes[:first], out...)
}

func (w *walker) findExec(args []Word, sc scope) {
	for i := 1; i < len(args); i++ {
		switch args[i].Value {
		case "-exec", "-execdir", "-ok", "-okdir":
			inner := sc
			if strings.HasSuffix(args[i].Value, "dir") {
				inner.dir, inner.dirWhy = "", "find "+args[i].Value+" runs in the directory of each match"
			}
			inner.via = appendVia(sc.via, "find "+args[i].Value)
			end := i + 1
			for end < len(args) && args[end].Value != ";" && args[end].Value != "+" {
				end++
			}
			cmd := make([]Word, 0, end-i-1)
			for _, a := range args[i+1 : end] {
				if strings.Contains(a.Value, "{}") {
					a = Word{Value: a.Value, Dynamic: findEach}
				}
				cmd = append(cmd, a)
			}
			first := len(w.a.Writes)
			w.run(cmd, inner, "")
			w.findNarrow(args, i, first, sc)
			i = end
		}
	}
}

// parallelCommands reads GNU parallel's command and its ::: arguments:
// each argument fills the command's {} (or is appended to it), and
// without a command each argument is a command line of its own. ok is
// false when there is no ::: list, or when a word or the input (::::, a
// file) is only known at run time.
func parallelCommands(inner []Word) (string, bool) {
	k := -1
	for j, a := range inner {
		if a.Dynamic == "" && (a.Value == ":::" || a.Value == ":::+") {
			k = j
			break
		}
	}
	if k < 0 {
		return "", false
	}
	var cmd, vals []string
	for _, a := range inner[:k] {
		if a.Dynamic != "" {
			return "", false
		}
		cmd = append(cmd, a.Value)
	}
	for _, a := range inner[k+1:] {
		switch {
		case a.Dynamic != "" || a.Value == "::::" || a.Value == "::::+":
			return "", false
		case a.Value == ":::" || a.Value == ":::+":
			continue
		}
		vals = append(vals, a.Value)
	}
	return parallelJoin(cmd, vals), true
}

// parallelJoin is the command lines parallel runs for cmd and its
// arguments: each argument, shell-quoted as parallel quotes it, fills the
// command's {} (or is appended); without a command each argument is a
// command line of its own.
func parallelJoin(cmd, vals []string) string {
	line := strings.Join(cmd, " ")
	var lines []string
	for _, v := range vals {
		switch {
		case line == "":
			lines = append(lines, v)
		case strings.Contains(line, "{}"):
			lines = append(lines, strings.ReplaceAll(line, "{}", quoteWord(v)))
		default:
			lines = append(lines, line+" "+quoteWord(v))
		}
	}
	return strings.Join(lines, "\n")
}

// parallelLines is parallel's command lines for a known input, one
// argument a line (ok is false for a computed command word or a very long
// input).
func parallelLines(inner []Word, text string) (string, bool) {
	cmd := make([]string, 0, len(inner))
	for _, a := range inner {
		if a.Dynamic != "" {
			return "", false
		}
		cmd = append(cmd, a.Value)
	}
	var vals []string
	for _, l := range strings.Split(text, "\n") {
		if l == "" {
			continue
		}
		if len(vals) >= 1000 {
			return "", false
		}
		vals = append(vals, l)
	}
	return parallelJoin(cmd, vals), true
}

// hasArgList reports a :::, :::: (or their + forms) among parallel's words.
func hasArgList(inner []Word) bool {
	for _, a := range inner {
		if a.Dynamic != "" {
			continue
		}
		switch a.Value {
		case ":::", ":::+", "::::", "::::+":
			return true
		}
	}
	return false
}

// hasInputOption reports parallel's options that read the arguments
// elsewhere than one a line from stdin (-a file, -d, -0, --colsep, -N,
// --pipe, ...): the input is then not read here.
func hasInputOption(opts []Word) bool {
	for _, o := range opts {
		if o.Dynamic != "" || strings.HasPrefix(o.Value, "-") && o.Value != "-q" && o.Value != "-k" && o.Value != "--keep-order" && !strings.HasPrefix(o.Value, "-j") && !strings.HasPrefix(o.Value, "--jobs") {
			return true
		}
	}
	return false
}
