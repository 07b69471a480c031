package gitcmd

import (
	"strings"
	"sync"
)

// optSpec is one option of a git subcommand's grammar.
type optSpec struct {
	short byte   // 0 when it has no short form
	long  string // "" when it has no long form
	value byte   // 0: none; '=': a value (attached or the next word); '?': an optional value, attached only
}

// key is how GitArgs names the option: --long when it has a long name,
// else -s.
func (o *optSpec) key() string {
	if o.long != "" {
		return "--" + o.long
	}
	return "-" + string(o.short)
}

type grammar struct {
	short map[byte]*optSpec
	long  []*optSpec
}

var (
	grammarMu    sync.Mutex
	grammarCache map[string]*grammar // made on first use
)

// grammarOf returns the grammar of a subcommand key ("reset", "stash
// push"), or nil when gitGrammar does not know it.
func grammarOf(key string) *grammar {
	grammarMu.Lock()
	defer grammarMu.Unlock()
	if g, ok := grammarCache[key]; ok {
		return g
	}
	if grammarCache == nil {
		grammarCache = map[string]*grammar{}
	}
	text, ok := gitGrammar(key)
	if !ok {
		grammarCache[key] = nil
		return nil
	}
	g := &grammar{short: map[byte]*optSpec{}}
	for _, item := range strings.Fields(text) {
		o := &optSpec{}
		if n := len(item); item[n-1] == '=' || item[n-1] == '?' {
			o.value = item[n-1]
			item = item[:n-1]
		}
		s, l, ok := strings.Cut(item, "/")
		if !ok {
			if len(s) == 1 {
				o.short = s[0]
			} else {
				o.long = s
			}
		} else {
			if s != "" {
				o.short = s[0]
			}
			o.long = l
		}
		if o.short != 0 {
			g.short[o.short] = o
		}
		if o.long != "" {
			g.long = append(g.long, o)
		}
	}
	grammarCache[key] = g
	return g
}

// lookupLong finds the option a long word names, as git's parse-options
// does: the exact name, its negation (--no-x of x, --x of no-x), or an
// unambiguous prefix of one of those. It returns the option, the name to
// spell (negated or not), and whether the word negates it.
func (g *grammar) lookupLong(name string) (*optSpec, string, bool) {
	type cand struct {
		o       *optSpec
		name    string
		negated bool
	}
	var hits []cand
	for _, o := range g.long {
		forms := []cand{{o, o.long, false}}
		if pos, ok := strings.CutPrefix(o.long, "no-"); ok {
			forms = append(forms, cand{o, pos, true})
		} else {
			forms = append(forms, cand{o, "no-" + o.long, true})
		}
		for _, f := range forms {
			if f.name == name {
				return f.o, f.name, f.negated
			}
			if strings.HasPrefix(f.name, name) {
				hits = append(hits, f)
			}
		}
	}
	if len(hits) == 1 {
		return hits[0].o, hits[0].name, hits[0].negated
	}
	return nil, "", false
}

// grammarKey is the gitGrammar key for a subcommand and its arguments:
// the subcommand, or "stash push" for a subcommand whose first operand
// selects its own options (git stash with options only is a push). The
// second result is how many leading words that selection took.
func grammarKey(sub string, args []Word) (string, int) {
	switch sub {
	case "stash", "worktree", "reflog", "sparse-checkout", "maintenance":
		if len(args) > 0 && args[0].Dynamic == "" && !strings.HasPrefix(args[0].Value, "-") {
			return sub + " " + args[0].Value, 1
		}
		if sub == "stash" {
			return "stash push", 0
		}
		return sub, 0
	case "notes":
		for i, a := range args {
			if a.Dynamic == "" && !strings.HasPrefix(a.Value, "-") {
				return "notes " + a.Value, i + 1
			}
		}
	}
	return sub, 0
}

// canonGit spells a git subcommand's options out as its grammar reads
// them: an abbreviated long option in full (--har: --hard), bundled short
// options one by one (-qf: -q -f; -SW: -S -W), a short option's attached
// value as the next word (-mx: -m x). Words after "--", values of options
// and words the grammar does not know stay as they are (git rejects an
// unknown option, so what it runs is what the grammar reads).
func canonGit(sub string, args []Word) []Word {
	key, skip := grammarKey(sub, args)
	g := grammarOf(key)
	if g == nil {
		return args
	}
	changed := false
	out := make([]Word, 0, len(args)+2)
	out = append(out, args[:skip]...)
	for i := skip; i < len(args); i++ {
		a := args[i]
		v := a.Value
		if a.Dynamic != "" || len(v) < 2 || v[0] != '-' {
			out = append(out, a)
			continue
		}
		if v == "--" {
			out = append(out, args[i:]...)
			break
		}
		if strings.HasPrefix(v, "--") {
			name, val, hasVal := strings.Cut(v[2:], "=")
			o, spelled, negated := g.lookupLong(name)
			if o == nil {
				out = append(out, a)
				continue
			}
			w := "--" + spelled
			if hasVal {
				w += "=" + val
			}
			if w != v {
				changed = true
			}
			out = append(out, Word{Value: w})
			if !hasVal && !negated && o.value == '=' && i+1 < len(args) {
				i++
				out = append(out, args[i])
			}
			continue
		}
		// A bundle: every letter must be known up to the first that takes
		// a value, or the word stays as written (-3 of git log, say).
		known := true
		for j := 1; j < len(v); j++ {
			o := g.short[v[j]]
			if o == nil {
				known = false
				break
			}
			if o.value != 0 {
				break
			}
		}
		if !known {
			out = append(out, a)
			continue
		}
		if len(v) > 2 {
			changed = true
		}
		for j := 1; j < len(v); j++ {
			o := g.short[v[j]]
			if o.value == '?' {
				out = append(out, Word{Value: "-" + v[j:]})
				break
			}
			out = append(out, Word{Value: "-" + string(v[j])})
			if o.value == '=' {
				if j+1 < len(v) {
					out = append(out, Word{Value: v[j+1:]})
				} else if i+1 < len(args) {
					i++
					out = append(out, args[i])
				}
				break
			}
		}
	}
	if !changed {
		return args
	}
	return out
}

// GitArgs is a git subcommand's arguments read by its grammar.
type GitArgs struct {
	// Opts holds each option given, by its key (--hard, --source, -b for
	// a short-only option; a negated one as --no-verify), with its values
	// (an empty Word for an option without one), in order.
	Opts map[string][]Word
	// Operands are the words that are no options, before "--"; Paths the
	// words after it; DashDash says there was one.
	Operands []Word
	Paths    []Word
	DashDash bool
	// Unknown is the first option word the grammar does not know (a
	// subcommand it has no grammar for leaves every option unknown).
	Unknown string
	// Dynamic is the first option-position word only known at run time.
	Dynamic string
	gr      *grammar
}

// Spelling tells of an option key its short spelling ("-f" of --force,
// "" when it has none) and whether it takes a value, as the grammar
// declares it; a gate that asks for either spelling reads both.
func (a GitArgs) Spelling(key string) (short string, valued bool) {
	if a.gr == nil {
		return "", false
	}
	if len(key) == 2 && key[0] == '-' {
		if o := a.gr.short[key[1]]; o != nil {
			return "", o.value != 0
		}
		return "", false
	}
	for _, o := range a.gr.long {
		if "--"+o.long == key {
			if o.short != 0 {
				short = "-" + string(o.short)
			}
			return short, o.value != 0
		}
	}
	return "", false // a negated key (--no-verify): no value
}

// Has reports whether any of the options (by key) was given.
func (a GitArgs) Has(keys ...string) bool {
	for _, k := range keys {
		if _, ok := a.Opts[k]; ok {
			return true
		}
	}
	return false
}

// Value returns the last value of the first of the options given.
func (a GitArgs) Value(keys ...string) (Word, bool) {
	for _, k := range keys {
		if vs, ok := a.Opts[k]; ok && len(vs) > 0 {
			return vs[len(vs)-1], true
		}
	}
	return Word{}, false
}

// Parse reads the subcommand's (canonical) arguments by its grammar.
func (g *Git) Parse() GitArgs {
	return parseGitArgs(g.Sub, g.Args)
}

func parseGitArgs(sub string, args []Word) GitArgs {
	key, skip := grammarKey(sub, args)
	gr := grammarOf(key)
	r := GitArgs{Opts: map[string][]Word{}, gr: gr}
	r.Operands = append(r.Operands, args[:skip]...)
	add := func(k string, v Word) { r.Opts[k] = append(r.Opts[k], v) }
	for i := skip; i < len(args); i++ {
		a := args[i]
		v := a.Value
		if a.Dynamic != "" {
			if r.Dynamic == "" && strings.HasPrefix(v, "-") {
				r.Dynamic = v + ": " + a.Dynamic
			}
			r.Operands = append(r.Operands, a)
			continue
		}
		if v == "--" {
			r.DashDash = true
			r.Paths = append(r.Paths, args[i+1:]...)
			break
		}
		if len(v) < 2 || v[0] != '-' {
			r.Operands = append(r.Operands, a)
			continue
		}
		if gr == nil {
			if r.Unknown == "" {
				r.Unknown = v
			}
			continue
		}
		if strings.HasPrefix(v, "--") {
			name, val, hasVal := strings.Cut(v[2:], "=")
			o, spelled, negated := gr.lookupLong(name)
			if o == nil {
				if r.Unknown == "" {
					r.Unknown = v
				}
				continue
			}
			k := o.key()
			if negated {
				k = "--" + spelled
			}
			switch {
			case hasVal:
				add(k, Word{Value: val})
			case !negated && o.value == '=' && i+1 < len(args):
				i++
				add(k, args[i])
			default:
				add(k, Word{})
			}
			continue
		}
		for j := 1; j < len(v); j++ {
			o := gr.short[v[j]]
			if o == nil {
				if r.Unknown == "" {
					r.Unknown = v
				}
				break
			}
			switch {
			case o.value == '?':
				add(o.key(), Word{Value: v[j+1:]})
			case o.value == '=' && j+1 < len(v):
				add(o.key(), Word{Value: v[j+1:]})
			case o.value == '=' && i+1 < len(args):
				i++
				add(o.key(), args[i])
			default:
				add(o.key(), Word{})
				continue
			}
			break
		}
	}
	return r
}
