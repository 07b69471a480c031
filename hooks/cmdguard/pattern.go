package cmdguard

import (
	"fmt"
	"path"
	"path/filepath"
	"strings"

	"github.com/magehook/magehook/pkg/gitcmd"
	"github.com/magehook/magehook/pkg/glob"
)

// Pattern is an argv-shaped rule: a program and constraints on its
// arguments, all of which must hold. See the package doc for the syntax.
type Pattern struct {
	Program []string // base names or globs; "*" is any program
	Terms   []term
}

// term is one constraint: alternatives, any of which holds, or (negated)
// none of which holds.
type term struct {
	negate bool
	alts   []atom
}

type atomKind int

const (
	atomShort    atomKind = iota // -x: the short option letter x, clustered or not
	atomExact                    // -word: an argument equal to it
	atomLong                     // --long, or --long=...
	atomLongVal                  // --long=GLOB, or --long followed by a matching value
	atomPosition                 // a bare word: the n-th operand
	atomClass                    // {class}: some operand, or the command, has a property
)

type atom struct {
	kind  atomKind
	text  string // the letter, the word, the option, the glob, the class
	value string // atomLongVal's glob; atomClass's argument (writes:GLOB)
}

// Classes are the {class} atoms a pattern may use.
func Classes() []string {
	return []string{"root", "home", "checkout", "outside", "writes-outside", "dir", "dirty", "download-pipe", "past-ceiling", "writes-device", "writes:GLOB", "destroys:root|home|checkout", "sql:WORD|WORD", "glob:GLOB"}
}

// ParsePattern parses the words of a pattern.
func ParsePattern(words []string) (Pattern, error) {
	if len(words) == 0 {
		return Pattern{}, fmt.Errorf("the pattern is empty; start it with the program (rm, git, *)")
	}
	p := Pattern{Program: splitAlts(words[0])}
	for _, prog := range p.Program {
		if !glob.Valid(prog) || strings.HasPrefix(prog, "-") || strings.HasPrefix(prog, "{") {
			return Pattern{}, fmt.Errorf("the program %q is not a name or a glob", prog)
		}
	}
	for _, w := range words[1:] {
		t := term{}
		if strings.HasPrefix(w, "!") {
			t.negate, w = true, w[1:]
		}
		positional := false
		for _, a := range splitAlts(w) {
			at, err := parseAtom(a)
			if err != nil {
				return Pattern{}, err
			}
			if at.kind == atomPosition {
				if t.negate {
					return Pattern{}, fmt.Errorf("%q: a positional word cannot be negated", w)
				}
				positional = true
			}
			t.alts = append(t.alts, at)
		}
		if positional {
			for _, a := range t.alts {
				if a.kind != atomPosition {
					return Pattern{}, fmt.Errorf("%q mixes a positional word with options or classes; write them as separate terms", w)
				}
			}
		}
		p.Terms = append(p.Terms, t)
	}
	return p, nil
}

// splitAlts splits on '|' outside braces.
func splitAlts(s string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '{':
			depth++
		case '}':
			depth--
		case '|':
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}

func parseAtom(a string) (atom, error) {
	switch {
	case a == "":
		return atom{}, fmt.Errorf("an empty alternative (a stray '|')")
	case strings.HasPrefix(a, "{") && strings.HasSuffix(a, "}"):
		name, arg, _ := strings.Cut(a[1:len(a)-1], ":")
		switch name {
		case "root", "home", "checkout", "outside", "writes-outside", "dir", "dirty", "download-pipe", "past-ceiling", "writes-device":
			if arg != "" {
				return atom{}, fmt.Errorf("{%s} takes no argument", name)
			}
		case "writes", "glob":
			for _, g := range splitAlts(arg) {
				if g == "" || !glob.Valid(g) {
					return atom{}, fmt.Errorf("{%s:%s}: %q is not a glob", name, arg, g)
				}
			}
		case "destroys":
			for _, t := range splitAlts(arg) {
				if t != "root" && t != "home" && t != "checkout" {
					return atom{}, fmt.Errorf("{destroys:%s}: %q is not root, home or checkout", arg, t)
				}
			}
		case "sql":
			if arg == "" {
				return atom{}, fmt.Errorf("{sql:...} needs the statement words, e.g. {sql:drop|truncate}")
			}
		default:
			return atom{}, fmt.Errorf("%s: no such class; use one of %s", a, strings.Join(Classes(), ", "))
		}
		return atom{kind: atomClass, text: name, value: arg}, nil
	case strings.HasPrefix(a, "--") && len(a) > 2:
		if name, val, ok := strings.Cut(a, "="); ok {
			if !glob.Valid(val) {
				return atom{}, fmt.Errorf("%q: the value is not a glob", a)
			}
			return atom{kind: atomLongVal, text: name, value: val}, nil
		}
		return atom{kind: atomLong, text: a}, nil
	case strings.HasPrefix(a, "-") && len(a) == 2:
		return atom{kind: atomShort, text: a[1:]}, nil
	case strings.HasPrefix(a, "-") && len(a) > 2:
		return atom{kind: atomExact, text: a}, nil
	case strings.ContainsAny(a, "{}"):
		return atom{}, fmt.Errorf("%q: a class is written {name}", a)
	}
	if !glob.Valid(a) {
		return atom{}, fmt.Errorf("%q is not a glob", a)
	}
	return atom{kind: atomPosition, text: a}, nil
}

// world is what matching needs besides the command: the analysis it came
// from, the checkout, the home, the deploy ceiling, and how to ask git.
type world struct {
	a        *gitcmd.Analysis
	home     string
	checkout string
	// tmpdir is $TMPDIR as the hook sees it (scratch space, as /tmp is).
	tmpdir string
	// past are the environments past deploy.ceiling.
	past []string
	// assume makes the state classes ({dirty}) hold without looking:
	// hook:verify checks the pattern, not the checkout's state.
	assume bool
	dirty  func(dir, gitDir string) (bool, error)
}

// command is one analysed command as a pattern sees it: its program, its
// options and its operands.
type command struct {
	c        gitcmd.Command
	idx      int
	program  string // base name, "" when computed at run time
	options  []gitcmd.Word
	operands []gitcmd.Word
	// paths are the operands classes look at: git's subcommand is not one.
	paths []gitcmd.Word
	all   []gitcmd.Word // every argument after the program
}

// views are the commands of an analysis as the rules see them, with the
// null command's (program ":", index -1) when a redirection belongs to no
// command or to a compound (> f, { ...; } > f), as in : > f: the rules of
// any program ("*") judge what it writes.
func views(a *gitcmd.Analysis, text string) []command {
	vs := make([]command, 0, len(a.Commands)+1)
	for i, c := range a.Commands {
		vs = append(vs, view(c, i))
	}
	for _, wr := range a.Writes {
		if wr.Command == -1 {
			vs = append(vs, command{c: gitcmd.Command{Text: text}, idx: -1, program: ":"})
			break
		}
	}
	return vs
}

func view(c gitcmd.Command, idx int) command {
	if eq := c.Equivalent(); eq != nil {
		// A cmdlet: the program that does what it does (Remove-Item
		// -Recurse x is rm -r x), so that a rule means the same for both.
		c = gitcmd.Command{Args: eq, Dir: c.Dir, DirDynamic: c.DirDynamic, Env: c.Env, EnvDynamic: c.EnvDynamic, Via: c.Via, After: c.After, Text: c.Text}
	}
	v := command{c: c, idx: idx, program: c.Name()}
	args := c.Args
	if len(args) > 0 {
		args = args[1:]
	}
	if c.Git != nil && c.Git.Sub != "" {
		// git: the subcommand and its arguments, after global options and aliases.
		args = append([]gitcmd.Word{{Value: c.Git.Sub}}, c.Git.Args...)
	}
	v.all = args
	ended := false
	for _, w := range args {
		switch {
		case !ended && w.Dynamic == "" && w.Value == "--":
			ended = true
		case !ended && w.Dynamic == "" && strings.HasPrefix(w.Value, "-") && w.Value != "-":
			v.options = append(v.options, w)
		default:
			v.operands = append(v.operands, w)
		}
	}
	v.paths = v.operands
	if c.Git != nil && c.Git.Sub != "" && len(v.paths) > 0 {
		v.paths = v.paths[1:]
	}
	return v
}

// match reports whether the pattern matches the command, and why the
// match rests on something computed at run time (the command fails
// closed on it), or "".
func (p Pattern) match(v command, w *world) (bool, string, error) {
	dynamic := ""
	if v.program == "" {
		dynamic = "the program is only known at run time"
	} else if !anyGlob(p.Program, v.program) {
		return false, "", nil
	}
	// Positional terms are matched together; state classes ask git, so
	// they go last, after everything cheap held.
	var state, positional []term
	for _, t := range p.Terms {
		if len(t.alts) > 0 && t.alts[0].kind == atomPosition {
			positional = append(positional, t)
			continue
		}
		if t.hasClass("dirty") {
			state = append(state, t)
			continue
		}
		ok, why := t.holds(v, w)
		if !ok {
			return false, "", nil
		}
		if dynamic == "" {
			dynamic = why
		}
	}
	if len(positional) > 0 {
		ok, why := positions(positional, v)
		if !ok {
			return false, "", nil
		}
		if dynamic == "" {
			dynamic = why
		}
	}
	for _, t := range state {
		ok, why, err := t.holdsState(v, w)
		if err != nil || !ok {
			return false, "", err
		}
		if dynamic == "" {
			dynamic = why
		}
	}
	return true, dynamic, nil
}

func (t term) hasClass(name string) bool {
	for _, a := range t.alts {
		if a.kind == atomClass && a.text == name {
			return true
		}
	}
	return false
}

func (t term) holds(v command, w *world) (bool, string) {
	for _, a := range t.alts {
		ok, why := a.holds(v, w)
		if ok {
			if t.negate {
				return false, ""
			}
			return true, why
		}
	}
	return t.negate, ""
}

func (t term) holdsState(v command, w *world) (bool, string, error) {
	for _, a := range t.alts {
		if a.kind == atomClass && a.text == "dirty" {
			ok, why, err := dirty(v, w)
			if err != nil {
				return false, "", err
			}
			if ok != t.negate {
				return true, why, nil
			}
			return false, "", nil
		}
		if ok, why := a.holds(v, w); ok != t.negate {
			return true, why, nil
		}
	}
	return false, "", nil
}

func (a atom) holds(v command, w *world) (bool, string) {
	switch a.kind {
	case atomShort:
		for _, o := range v.options {
			if !strings.HasPrefix(o.Value, "--") && strings.Contains(o.Value[1:], a.text) {
				return true, ""
			}
		}
	case atomExact:
		for _, o := range v.options {
			if o.Value == a.text {
				return true, ""
			}
		}
	case atomLong:
		for _, o := range v.options {
			if o.Value == a.text || strings.HasPrefix(o.Value, a.text+"=") {
				return true, ""
			}
		}
	case atomLongVal:
		for i, o := range v.all {
			if val, ok := strings.CutPrefix(o.Value, a.text+"="); ok && o.Dynamic == "" && anyGlob(splitAlts(a.value), val) {
				return true, ""
			}
			if o.Value == a.text && i+1 < len(v.all) {
				next := v.all[i+1]
				if next.Dynamic != "" {
					return true, "the value of " + a.text + " is only known at run time"
				}
				if anyGlob(splitAlts(a.value), next.Value) {
					return true, ""
				}
			}
		}
	case atomClass:
		return class(a, v, w)
	}
	return false, ""
}

// positions matches the positional terms against the operands. For git
// they are the subcommand and the words right after it, in place (git
// stash clear); for other programs, whose options may take values the
// pattern cannot know (kubectl --context prod delete), they match in
// order with other operands between. A computed operand matches.
func positions(terms []term, v command) (bool, string) {
	anchored := v.c.Git != nil && v.c.Git.Sub != ""
	at, why := 0, ""
	for _, t := range terms {
		found := false
		for ; at < len(v.operands); at++ {
			op := v.operands[at]
			if op.Dynamic != "" || anyAtom(t.alts, op.Value) {
				if op.Dynamic != "" && why == "" {
					why = op.Dynamic
				}
				found = true
				at++
				break
			}
			if anchored {
				return false, ""
			}
		}
		if !found {
			return false, ""
		}
	}
	return true, why
}

func anyAtom(alts []atom, s string) bool {
	for _, a := range alts {
		if anyGlob([]string{a.text}, s) {
			return true
		}
	}
	return false
}

func anyGlob(globs []string, s string) bool {
	for _, g := range globs {
		if g == "*" || g == s {
			return true
		}
		if !strings.ContainsAny(g, `*?[\`) {
			continue // a plain name matches only itself
		}
		if ok, _ := path.Match(g, s); ok {
			return true
		}
	}
	return false
}

// operandPath resolves an operand against the command's directory; a
// glob stands for the directory its first pattern segment is in.
func operandPath(v command, op gitcmd.Word) (string, string) {
	if op.Dynamic != "" {
		return "", op.Dynamic
	}
	p := op.Value
	if op.Glob {
		segs := strings.Split(p, "/")
		for i, s := range segs {
			if strings.ContainsAny(s, "*?[{") {
				p = strings.Join(segs[:i], "/")
				if p == "" && strings.HasPrefix(op.Value, "/") {
					p = "/"
				}
				break
			}
		}
		if p == "" {
			p = "."
		}
	}
	if !filepath.IsAbs(p) {
		if v.c.DirDynamic != "" {
			return "", "the command runs in a directory only known at run time (" + v.c.DirDynamic + ")"
		}
		p = filepath.Join(v.c.Dir, p)
	}
	return filepath.Clean(p), ""
}

// atOrAbove reports whether p is target or one of its ancestors.
func atOrAbove(p, target string) bool {
	if target == "" {
		return false
	}
	target = filepath.Clean(target)
	return p == target || p == "/" || strings.HasPrefix(target, strings.TrimSuffix(p, "/")+"/")
}
