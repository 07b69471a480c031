package gitcmd

import (
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// fieldBuilder accumulates the fields one word expands to.
type fieldBuilder struct {
	out     []Word
	cur     strings.Builder
	dynamic string
	glob    bool
	started bool // the current field exists (even if empty, as in "")
}

func (f *fieldBuilder) add(s string) {
	f.cur.WriteString(s)
	f.started = true
}

func (f *fieldBuilder) end() {
	if f.started {
		f.out = append(f.out, Word{Value: f.cur.String(), Dynamic: f.dynamic, Glob: f.glob})
	}
	f.cur.Reset()
	f.dynamic, f.glob, f.started = "", false, false
}

func (f *fieldBuilder) dyn(why string) {
	if f.dynamic == "" {
		f.dynamic = why
	}
	f.started = true
}

// fields expands a word the way bash does for a command's arguments:
// parameters (known values only), tilde, quote removal, field splitting of
// unquoted expansions; globs are marked, not matched. Substitutions inside
// it are walked, since they run.
func (w *walker) fields(word *syntax.Word, sc scope) []Word {
	if word == nil {
		return nil
	}
	if braced := braceCandidate(word); braced != nil && syntax.SplitBraces(braced) {
		// Brace expansion comes first: git {commit,} -m x is git commit
		// -m x, each word expanded on its own.
		words, ok := braceWords(braced, 0)
		if !ok {
			return []Word{{Value: sc.text(word), Dynamic: "a brace expansion the analysis does not expand (a sequence, or too many words)"}}
		}
		var out []Word
		for _, bw := range words {
			if emptyLiteral(bw) {
				continue // an unquoted empty word is no word ({commit,})
			}
			out = append(out, w.fieldsOf(bw, sc)...)
		}
		return out
	}
	return w.fieldsOf(word, sc)
}

// braceCandidate is a copy of word to split braces in (SplitBraces
// rewrites the parts it is given), or nil when no unquoted literal of it
// holds a brace.
func braceCandidate(word *syntax.Word) *syntax.Word {
	for _, part := range word.Parts {
		if l, ok := part.(*syntax.Lit); ok && strings.Contains(l.Value, "{") && strings.Contains(l.Value, "}") {
			return &syntax.Word{Parts: append([]syntax.WordPart(nil), word.Parts...)}
		}
	}
	return nil
}

// maxBraceWords bounds what one word may expand to before the analysis
// gives up on it (and the gates fail closed).
const maxBraceWords = 64

// braceWords expands the brace lists of a word SplitBraces rewrote into
// the words bash makes of it, in order; ok is false for a sequence
// ({1..9}) or more than maxBraceWords words.
func braceWords(word *syntax.Word, depth int) ([]*syntax.Word, bool) {
	if depth > 8 {
		return nil, false
	}
	for i, part := range word.Parts {
		be, isBrace := part.(*syntax.BraceExp)
		if !isBrace {
			continue
		}
		if be.Sequence {
			return nil, false
		}
		var out []*syntax.Word
		for _, elem := range be.Elems {
			parts := append(append(append([]syntax.WordPart(nil), word.Parts[:i]...), elem.Parts...), word.Parts[i+1:]...)
			more, ok := braceWords(&syntax.Word{Parts: parts}, depth+1)
			if !ok || len(out)+len(more) > maxBraceWords {
				return nil, false
			}
			out = append(out, more...)
		}
		return out, true
	}
	return []*syntax.Word{word}, true
}

// emptyLiteral reports a word made of empty unquoted literals alone.
func emptyLiteral(word *syntax.Word) bool {
	for _, part := range word.Parts {
		if l, ok := part.(*syntax.Lit); !ok || l.Value != "" {
			return false
		}
	}
	return true
}

// fieldsOf is fields of a word without brace lists.
func (w *walker) fieldsOf(word *syntax.Word, sc scope) []Word {
	var f fieldBuilder
	w.wordParts(word, sc, &f, true)
	f.end()
	if f.out != nil {
		for i := range f.out {
			if f.out[i].Dynamic != "" {
				f.out[i].Value = sc.text(word)
			}
		}
	}
	return f.out
}

// joined expands a word without field splitting (assignments, redirection
// targets, here-documents).
func (w *walker) joined(word *syntax.Word, sc scope) Word {
	if word == nil {
		return Word{}
	}
	var f fieldBuilder
	w.wordParts(word, sc, &f, false)
	f.started = true
	f.end()
	out := f.out[0]
	if out.Dynamic != "" {
		out.Value = sc.text(word)
	}
	return out
}

func (w *walker) wordParts(word *syntax.Word, sc scope, f *fieldBuilder, split bool) {
	for i, part := range word.Parts {
		switch p := part.(type) {
		case *syntax.Lit:
			v := p.Value
			if i == 0 && strings.HasPrefix(v, "~") {
				v = w.tilde(v, sc, f)
			}
			unquotedLit(v, f, split)
		case *syntax.SglQuoted:
			if p.Dollar {
				f.add(ansiC(p.Value))
			} else {
				f.add(p.Value)
			}
		case *syntax.DblQuoted:
			f.started = true
			for _, dp := range p.Parts {
				w.quotedPart(dp, sc, f)
			}
		case *syntax.ParamExp:
			v := w.param(p, sc)
			if v.Dynamic != "" {
				f.dyn(v.Dynamic)
				continue
			}
			f.glob = f.glob || v.Glob // a loop variable over a pattern's matches
			if !split {
				f.add(v.Value)
				continue
			}
			splitInto(v.Value, f, sc)
		case *syntax.CmdSubst:
			w.stmts(p.Stmts, sc)
			if out, ok := staticOutput(p); ok {
				if split {
					splitInto(out, f, sc)
				} else {
					f.add(out)
				}
				continue
			}
			if execPath(p, sc) {
				f.add("$(git --exec-path)")
				continue
			}
			if w.listsHere(p, sc) {
				f.add("*") // $(ls): the names * matches, dot files too
				f.glob = true
				continue
			}
			f.dyn("the output of $(" + sc.text(p)[2:])
		case *syntax.ArithmExp:
			w.substitutions(p, sc)
			f.dyn("an arithmetic expansion")
		case *syntax.ProcSubst:
			w.stmts(p.Stmts, sc)
			f.dyn("a process substitution")
		case *syntax.ExtGlob:
			f.add(p.Op.String() + p.Pattern.Value + ")")
			f.glob = true
		default:
			w.substitutions(part, sc)
			f.dyn("an expansion the analysis does not evaluate")
		}
	}
}

// listsHere reports $(ls) (through line filters): the names of the
// directory's entries, which a pattern * stands for.
func (w *walker) listsHere(p *syntax.CmdSubst, sc scope) bool {
	if len(p.Stmts) != 1 {
		return false
	}
	fl := w.findList(p.Stmts[0], sc)
	return fl != nil && fl.flat
}

// staticOutput is the output of a substitution that only prints literal
// words: $(echo ls), `echo a b`, $(printf 'x'), trailing newlines removed
// as bash removes them. ok is false for anything else (an option to echo,
// a format with % or \, an expansion, a redirection, more than one
// command).
func staticOutput(p *syntax.CmdSubst) (string, bool) {
	if len(p.Stmts) != 1 {
		return "", false
	}
	st := p.Stmts[0]
	call, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || st.Negated || st.Background || st.Coprocess || len(call.Assigns) > 0 || len(call.Args) == 0 {
		return "", false
	}
	if len(st.Redirs) > 0 {
		// $(cat <<'EOF' ... EOF): the here-document's text, when cat
		// alone reads it and it expands nothing.
		if len(st.Redirs) != 1 || len(call.Args) != 1 || (st.Redirs[0].Op != syntax.Hdoc && st.Redirs[0].Op != syntax.DashHdoc) || st.Redirs[0].Hdoc == nil {
			return "", false
		}
		if name, ok := plainWord(call.Args[0]); !ok || name != "cat" {
			return "", false
		}
		var b strings.Builder
		for _, part := range st.Redirs[0].Hdoc.Parts {
			l, ok := part.(*syntax.Lit)
			if !ok || strings.ContainsAny(l.Value, "\\$`") && !quotedDelim(st.Redirs[0].Word) {
				return "", false
			}
			b.WriteString(l.Value)
		}
		return strings.TrimRight(b.String(), "\n"), true
	}
	args := make([]string, 0, len(call.Args))
	for _, a := range call.Args {
		v, ok := plainWord(a)
		if !ok {
			return "", false
		}
		args = append(args, v)
	}
	switch args[0] {
	case "echo":
		if len(args) > 1 && strings.HasPrefix(args[1], "-") {
			return "", false
		}
		return strings.TrimRight(strings.Join(args[1:], " "), "\n"), true
	case "printf":
		if len(args) != 2 || strings.ContainsAny(args[1], "%\\") || strings.HasPrefix(args[1], "-") {
			return "", false
		}
		return strings.TrimRight(args[1], "\n"), true
	}
	return "", false
}

// quotedDelim reports a here-document delimiter with quotes ('EOF',
// "EOF", E\OF): the body is taken as written.
func quotedDelim(w *syntax.Word) bool {
	for _, part := range w.Parts {
		switch p := part.(type) {
		case *syntax.SglQuoted, *syntax.DblQuoted:
			return true
		case *syntax.Lit:
			if strings.Contains(p.Value, "\\") {
				return true
			}
		}
	}
	return false
}

// plainWord is the value of a word made of literal text and quotes only
// (no expansion, escape, pattern or brace list).
func plainWord(w *syntax.Word) (string, bool) {
	var b strings.Builder
	for _, part := range w.Parts {
		switch p := part.(type) {
		case *syntax.Lit:
			if strings.ContainsAny(p.Value, "\\*?[]{}~") {
				return "", false
			}
			b.WriteString(p.Value)
		case *syntax.SglQuoted:
			if p.Dollar {
				return "", false
			}
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			for _, dp := range p.Parts {
				l, ok := dp.(*syntax.Lit)
				if !ok || strings.Contains(l.Value, "\\") {
					return "", false
				}
				b.WriteString(l.Value)
			}
		default:
			return "", false
		}
	}
	return b.String(), true
}

// execPath reports $(git --exec-path), which names git's own directory.
func execPath(p *syntax.CmdSubst, sc scope) bool {
	t := strings.Join(strings.Fields(sc.text(p)), " ")
	return t == "$(git --exec-path)" || t == "`git --exec-path`"
}

func (w *walker) quotedPart(part syntax.WordPart, sc scope, f *fieldBuilder) {
	switch p := part.(type) {
	case *syntax.Lit:
		f.add(dqUnescape(p.Value))
	case *syntax.ParamExp:
		if args, ok := quotedAt(p, sc); ok {
			// "$@": one field per argument, the first and the last
			// joined to what stands before and after it ("a$@b").
			for i, a := range args {
				if i > 0 {
					f.end()
					f.started = true
				}
				if a.Dynamic != "" {
					f.dyn(a.Dynamic)
					continue
				}
				f.add(a.Value)
			}
			return
		}
		v := w.param(p, sc)
		if v.Dynamic != "" {
			f.dyn(v.Dynamic)
		} else {
			f.glob = f.glob || v.Glob // "$f" of for f in *.go: one of the matches
			f.add(v.Value)
		}
	case *syntax.CmdSubst:
		w.stmts(p.Stmts, sc)
		if out, ok := staticOutput(p); ok {
			f.add(out)
			return
		}
		if execPath(p, sc) {
			f.add("$(git --exec-path)")
			return
		}
		if w.listsHere(p, sc) {
			f.add("*")
			f.glob = true
			return
		}
		f.dyn("the output of $(" + sc.text(p)[2:])
	case *syntax.ArithmExp:
		w.substitutions(p, sc)
		f.dyn("an arithmetic expansion")
	default:
		w.substitutions(part, sc)
		f.dyn("an expansion the analysis does not evaluate")
	}
}

// quotedAt reports a plain "$@" or "${@}" of known arguments, and the
// arguments: expanded in double quotes, each is a field of its own (bash
// joins them only for "$*").
func quotedAt(p *syntax.ParamExp, sc scope) ([]Word, bool) {
	if p.Param == nil || p.Param.Value != "@" || !sc.hasArgs || p.Excl || p.Length || p.Width || p.Index != nil || p.Slice != nil || p.Repl != nil || p.Exp != nil || len(sc.args) == 0 {
		return nil, false
	}
	return sc.args, true
}

// unquotedLit adds an unquoted literal: backslashes quote the next
// character, pattern characters and brace lists mark a glob.
func unquotedLit(v string, f *fieldBuilder, split bool) {
	f.started = true
	braces := 0
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch c {
		case '\\':
			if i+1 < len(v) {
				i++
				if v[i] != '\n' {
					f.cur.WriteByte(v[i])
				}
			}
			continue
		case '*', '?', '[':
			if split {
				f.glob = true
			}
		case '{':
			braces++
		case '}':
			if braces > 0 && split && (strings.Contains(v, ",") || strings.Contains(v, "..")) {
				f.glob = true
			}
		}
		f.cur.WriteByte(c)
	}
}

// splitInto adds an unquoted expansion's value: split on IFS whitespace.
func splitInto(v string, f *fieldBuilder, sc scope) {
	if b := sc.vars.lookup("IFS"); b != nil {
		f.dyn("IFS is changed, so the words of $" + "IFS-split values are not known")
		return
	}
	if strings.ContainsAny(v, "*?[") {
		f.glob = true
	}
	parts := strings.Fields(v)
	if len(parts) == 0 {
		return // an empty unquoted expansion adds no field of its own
	}
	if v[0] == ' ' || v[0] == '\t' || v[0] == '\n' {
		f.end()
	}
	for i, p := range parts {
		if i > 0 {
			f.end()
		}
		f.add(p)
	}
	if last := v[len(v)-1]; last == ' ' || last == '\t' || last == '\n' {
		f.end()
	}
}

func (w *walker) tilde(v string, sc scope, f *fieldBuilder) string {
	name, rest, _ := strings.Cut(v[1:], "/")
	if rest != "" || strings.HasSuffix(v, "/") {
		rest = "/" + rest
	}
	switch name {
	case "":
		if home := w.home(sc); home != "" {
			f.add(home)
			return rest
		}
	case "+":
		if sc.dirWhy == "" && sc.dir != "" {
			f.add(sc.dir)
			return rest
		}
	case "-":
		if sc.oldpwd != "" {
			f.add(sc.oldpwd)
			return rest
		}
	}
	f.dyn("~" + name + " is only known at run time")
	return rest
}

func (w *walker) home(sc scope) string {
	if b := sc.vars.lookup("HOME"); b != nil {
		if b.val.Dynamic != "" || b.unset {
			return ""
		}
		return b.val.Value
	}
	return w.o.Home
}

// param evaluates a parameter expansion when its value is known.
func (w *walker) param(p *syntax.ParamExp, sc scope) Word {
	if p.Param == nil {
		return Word{Dynamic: "a parameter expansion the analysis does not evaluate"}
	}
	name := p.Param.Value
	dyn := Word{Dynamic: "$" + name + " is only known at run time"}
	if p.Excl || p.Length || p.Width || p.Index != nil || p.Slice != nil || p.Repl != nil || p.Names != 0 {
		w.substitutions(p, sc)
		return dyn
	}
	v, set := w.lookupVar(name, sc)
	if p.Exp != nil {
		switch p.Exp.Op {
		case syntax.DefaultUnset, syntax.DefaultUnsetOrNull, syntax.AssignUnset, syntax.AssignUnsetOrNull:
			if v.Dynamic != "" {
				w.substitutions(p.Exp.Word, sc)
				return v
			}
			if !set || (v.Value == "" && (p.Exp.Op == syntax.DefaultUnsetOrNull || p.Exp.Op == syntax.AssignUnsetOrNull)) {
				return w.joined(p.Exp.Word, sc)
			}
			return v
		case syntax.AlternateUnset, syntax.AlternateUnsetOrNull:
			if v.Dynamic != "" {
				w.substitutions(p.Exp.Word, sc)
				return v
			}
			if !set || (v.Value == "" && p.Exp.Op == syntax.AlternateUnsetOrNull) {
				return Word{}
			}
			return w.joined(p.Exp.Word, sc)
		case syntax.ErrorUnset, syntax.ErrorUnsetOrNull:
			w.substitutions(p.Exp.Word, sc)
			return v
		}
		w.substitutions(p.Exp.Word, sc)
		return dyn
	}
	return v
}

// lookupVar returns a variable's value and whether it is set.
func (w *walker) lookupVar(name string, sc scope) (Word, bool) {
	if b := sc.vars.lookup(name); b != nil {
		if b.unset {
			return Word{}, false
		}
		return b.val, true
	}
	if n, err := strconv.Atoi(name); err == nil {
		if !sc.hasArgs {
			return Word{Dynamic: "$" + name + " is the script's argument"}, true
		}
		if n == 0 {
			return Word{Dynamic: "$0 is only known at run time"}, true
		}
		if n <= len(sc.args) {
			return sc.args[n-1], true
		}
		return Word{}, false
	}
	switch name {
	case "@", "*":
		if !sc.hasArgs {
			return Word{Dynamic: "$" + name + " is the script's arguments"}, true
		}
		var vals []string
		for _, a := range sc.args {
			if a.Dynamic != "" {
				return Word{Dynamic: "$" + name + " holds a value only known at run time"}, true
			}
			vals = append(vals, a.Value)
		}
		return Word{Value: strings.Join(vals, " ")}, len(vals) > 0
	case "#":
		if sc.hasArgs {
			return Word{Value: strconv.Itoa(len(sc.args))}, true
		}
	case "HOME":
		if w.o.Home != "" {
			return Word{Value: w.o.Home}, true
		}
	case "PWD":
		if sc.dirWhy == "" && sc.dir != "" {
			return Word{Value: sc.dir}, true
		}
	case "OLDPWD":
		if sc.oldpwd != "" {
			return Word{Value: sc.oldpwd}, true
		}
	case "?", "$", "!", "-", "_", "RANDOM", "SECONDS", "LINENO", "BASHPID", "EPOCHSECONDS", "EPOCHREALTIME", "SRANDOM", "PPID":
		return Word{Dynamic: "$" + name + " is only known at run time"}, true
	}
	if v, ok := w.getenv(name); ok && v != "" {
		return Word{Value: v}, true
	}
	return Word{Dynamic: "$" + name + " is only known at run time"}, true
}

// dqUnescape removes the backslashes that quote inside double quotes.
func dqUnescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			switch s[i+1] {
			case '$', '`', '"', '\\':
				i++
			case '\n':
				i++
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// ansiC decodes the escapes of $'...'.
func ansiC(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch s[i] {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case 'a':
			b.WriteByte(7)
		case 'b':
			b.WriteByte(8)
		case 'e', 'E':
			b.WriteByte(27)
		case 'f':
			b.WriteByte(12)
		case 'v':
			b.WriteByte(11)
		case 'x':
			j := i + 1
			for j < len(s) && j < i+3 && isHex(s[j]) {
				j++
			}
			if n, err := strconv.ParseUint(s[i+1:j], 16, 8); err == nil {
				b.WriteByte(byte(n))
				i = j - 1
			} else {
				b.WriteString(`\x`)
			}
		case 'u', 'U':
			max := 4
			if s[i] == 'U' {
				max = 8
			}
			j := i + 1
			for j < len(s) && j < i+1+max && isHex(s[j]) {
				j++
			}
			if n, err := strconv.ParseUint(s[i+1:j], 16, 32); err == nil {
				b.WriteRune(rune(n))
				i = j - 1
			}
		case '0', '1', '2', '3', '4', '5', '6', '7':
			j := i
			for j < len(s) && j < i+3 && s[j] >= '0' && s[j] <= '7' {
				j++
			}
			n, _ := strconv.ParseUint(s[i:j], 8, 8)
			b.WriteByte(byte(n))
			i = j - 1
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// printed is the text an echo, printf or cat of a here-document prints,
// when it is known: what a shell at the other end of a pipe reads.
func (w *walker) printed(s *syntax.Stmt, sc scope) (string, bool) {
	c, ok := s.Cmd.(*syntax.CallExpr)
	if !ok {
		return "", false
	}
	return w.printedCall(c, s.Redirs, sc)
}

func (w *walker) printedCall(c *syntax.CallExpr, redirs []*syntax.Redirect, sc scope) (string, bool) {
	if len(c.Args) == 0 {
		return "", false
	}
	var words []string
	for _, word := range c.Args {
		for _, f := range w.fieldsQuiet(word, sc) {
			if f.Dynamic != "" {
				return "", false
			}
			words = append(words, f.Value)
		}
	}
	if len(words) == 0 {
		return "", false
	}
	switch words[0] {
	case "echo":
		args := words[1:]
		for len(args) > 0 && (args[0] == "-n" || args[0] == "-e" || args[0] == "-E") {
			args = args[1:]
		}
		return strings.Join(args, " ") + "\n", true
	case "printf":
		if len(words) < 2 {
			return "", false
		}
		if strings.Contains(words[1], "%") {
			return strings.Join(words[2:], "\n") + "\n", true
		}
		return strings.ReplaceAll(words[1], `\n`, "\n"), true
	case "cat":
		if len(words) == 1 {
			for _, r := range redirs {
				if r.Op == syntax.Hdoc || r.Op == syntax.DashHdoc {
					if r.Hdoc == nil {
						return "", true
					}
					if quoted(r.Word) {
						return lit(r.Hdoc), true
					}
					v := w.joinedQuiet(r.Hdoc, sc)
					return v.Value, v.Dynamic == ""
				}
				if r.Op == syntax.WordHdoc {
					v := w.joinedQuiet(r.Word, sc)
					return v.Value + "\n", v.Dynamic == ""
				}
			}
		}
	}
	return "", false
}

// fieldsQuiet and joinedQuiet expand without recording the commands of
// substitutions (they were recorded when the statement itself was walked).
func (w *walker) fieldsQuiet(word *syntax.Word, sc scope) []Word {
	n := len(w.a.Commands)
	nw := len(w.a.Writes)
	out := w.fields(word, sc)
	w.a.Commands = w.a.Commands[:n]
	w.a.Writes = w.a.Writes[:nw]
	return out
}

func (w *walker) joinedQuiet(word *syntax.Word, sc scope) Word {
	n := len(w.a.Commands)
	nw := len(w.a.Writes)
	out := w.joined(word, sc)
	w.a.Commands = w.a.Commands[:n]
	w.a.Writes = w.a.Writes[:nw]
	return out
}
