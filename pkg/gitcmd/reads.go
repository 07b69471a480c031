package gitcmd

import (
	"os"
	"path/filepath"
	"strings"
)

// Read is a file whose contents a command hands on: prints (cat, grep,
// base64), copies elsewhere (cp, tar, zip, curl -d @f), or loads into the
// shell (source). A gate that keeps secrets out of a session judges these.
type Read struct {
	// Path is absolute and clean; empty when Dynamic is set. A path
	// inline code expands itself keeps its "~/" (the caller's home).
	Path string
	// Dynamic says why the path is only known at run time.
	Dynamic string
	// Glob: Path is a shell pattern; the files it matches are read.
	Glob bool
	// Tree: every file below Path is read (grep -r, rg, tar of a
	// directory, cp -r); Filter narrows what a search reads.
	Tree   bool
	Filter *TreeFilter
	// To is where a copy puts it (cp, ln, scp, install: the destination,
	// absolute), so that a copy from one secret file to another is told
	// apart from one that takes it elsewhere; empty for a read that
	// prints or sends it.
	To string
	// Rev is set for a read of a revision's blob (git show REV:path): the
	// path is then resolved in the repository's top, which Path holds
	// already when it could be found.
	Rev string
	// Op names the reader ("cat", "grep", "<", "git show", "python -c").
	Op string
	// Command is the index in Analysis.Commands of the reading command,
	// -1 for a redirection.
	Command int
}

// TreeFilter is what a recursive search leaves out of the tree it reads.
type TreeFilter struct {
	// Include and Exclude are base-name patterns (grep --include,
	// --exclude; rg -g GLOB and -g '!GLOB'); ExcludeDir names directories
	// not entered.
	Include, Exclude, ExcludeDir []string
	// Hidden: entries whose name starts with '.' are searched (rg
	// --hidden, -uu; grep always).
	Hidden bool
	// Ignored: files git ignores are searched (rg --no-ignore, -u; grep
	// always).
	Ignored bool
}

// Dump is a command that prints the whole environment (env or printenv
// without a command, set, export -p, declare -p): every secret the session
// was started with.
type Dump struct {
	Command int
	Op      string
	// Credential: the command prints a stored credential (gh auth token,
	// gcloud auth print-access-token, git credential fill, ...) rather
	// than the environment.
	Credential bool
}

// InFile is a file redirected into a command (< f, <> f, $(< f)).
type InFile struct {
	Path, Dynamic string
}

// readRole is how a program's operands are read.
type readRole int

const (
	rdAll     readRole = iota + 1 // every operand is read (cat, head, base64)
	rdPattern                     // the first operand is a pattern unless -e/-f gave one (grep, rg)
	rdScript                      // the first operand is a script unless -e/-f gave one (sed, awk, jq)
	rdFirst                       // the first operand is read (source, .)
	rdCopy                        // all operands but the destination are copied (cp, ln, scp)
	rdArchive                     // an archive's members (tar -c, zip)
	rdValues                      // only option values name files (curl -d @f, openssl -in)
)

// Reads returns the files the analysed commands read and hand on, the
// files redirected into them, and the whole-environment dumps among them.
// What it knows of each program is data (programs.go, git's own readers,
// interpreters' literal code); a program it does not know reads nothing.
func (a *Analysis) Reads() ([]Read, []Dump) {
	var reads []Read
	var dumps []Dump
	for _, f := range a.InFiles {
		reads = append(reads, Read{Path: f.Path, Dynamic: f.Dynamic, Op: "<", Command: -1})
	}
	for i, c := range a.Commands {
		r, d := commandReads(c, i)
		reads = append(reads, r...)
		if d != "" {
			dumps = append(dumps, Dump{Command: i, Op: d})
		} else if p := credentialPrinter(c); p != "" {
			dumps = append(dumps, Dump{Command: i, Op: p, Credential: true})
		}
	}
	return reads, dumps
}

// parsed is a command's arguments split into options and operands.
type parsed struct {
	opts     []opt
	operands []Word
}

type opt struct {
	name  string // "-n", "--lines"
	value Word
	has   bool
}

func (p parsed) has(names ...string) bool {
	for _, o := range p.opts {
		for _, n := range names {
			if k, v, ok := strings.Cut(n, " "); ok {
				if o.name == k && o.value.Value == v {
					return true
				}
				continue
			}
			if k, v, ok := strings.Cut(n, "="); ok {
				if o.name == k && o.value.Value == v {
					return true
				}
				continue
			}
			if o.name == n {
				return true
			}
		}
	}
	return false
}

func (p parsed) values(names ...string) []Word {
	var out []Word
	for _, o := range p.opts {
		if !o.has {
			continue
		}
		for _, n := range names {
			if o.name == n {
				out = append(out, o.value)
			}
		}
	}
	return out
}

// parseArgs splits args (after the program name) by the spec's grammar.
// Options a spec does not list are flags; a cluster (-rn) is split into
// its letters, a value option ending it takes the rest or the next word.
// A wrapper's options end at its first operand (the command it runs).
func parseArgs(args []Word, s *progSpec) parsed {
	var p parsed
	for i := 0; i < len(args); i++ {
		a := args[i]
		v := a.Value
		switch {
		case a.Dynamic != "" || v == "-" || !strings.HasPrefix(v, "-"):
			if s.wrap.on {
				p.operands = append(p.operands, args[i:]...)
				return p
			}
			p.operands = append(p.operands, a)
		case v == "--":
			p.operands = append(p.operands, args[i+1:]...)
			return p
		case s.singleDash:
			// openssl's -in file: every option is one word.
			o := opt{name: v}
			if containsStr(s.long, v[1:]) && i+1 < len(args) {
				o.value, o.has = args[i+1], true
				i++
			}
			p.opts = append(p.opts, o)
		case strings.HasPrefix(v, "--"):
			name, val, eq := strings.Cut(v, "=")
			o := opt{name: name}
			if eq {
				o.value, o.has = Word{Value: val, Glob: a.Glob}, true
			} else if containsStr(s.long, name[2:]) && i+1 < len(args) {
				o.value, o.has = args[i+1], true
				i++
			}
			p.opts = append(p.opts, o)
		default:
			for j := 1; j < len(v); j++ {
				c := v[j]
				o := opt{name: "-" + string(c)}
				if strings.IndexByte(s.short, c) >= 0 {
					if j+1 < len(v) {
						o.value, o.has = Word{Value: v[j+1:]}, true
					} else if i+1 < len(args) {
						o.value, o.has = args[i+1], true
						i++
					}
					p.opts = append(p.opts, o)
					break
				}
				p.opts = append(p.opts, o)
			}
		}
	}
	return p
}

func containsStr(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// commandReads is one command's reads, and the dump it is ("" if none).
func commandReads(c Command, idx int) ([]Read, string) {
	if c.cmdlet != 0 {
		return cmdletReads(c, idx)
	}
	name := c.Name()
	if name == "" || len(c.Args) == 0 {
		return nil, ""
	}
	if d := dumpOf(name, c.Args[1:]); d != "" {
		return nil, d
	}
	if c.Git != nil {
		return gitReads(c, idx), ""
	}
	if lang, ok := readInterpreter(name); ok {
		reads := interpreterReads(c, idx, lang)
		for i := 1; i+1 < len(c.Args); i++ {
			if strings.HasPrefix(c.Args[i].Value, "-") && c.Args[i+1].Dynamic == "" && envDumpInCode(c.Args[i+1].Value) {
				return reads, name + " " + c.Args[i].Value
			}
		}
		return reads, ""
	}
	s := specOf(name)
	if s == nil || s.role == 0 {
		return nil, ""
	}
	if name == "dd" {
		return ddReads(c, idx), ""
	}
	words := c.Args[1:]
	if w := canonArgs(s, words); w != nil {
		words = w
	}
	p := parseArgs(words, s)
	if len(s.quiet) > 0 && p.has(s.quiet...) {
		return nil, ""
	}
	mk := func(w Word, op string) Read {
		r := Read{Op: op, Command: idx, Glob: w.Glob}
		if w.Dynamic != "" {
			r.Dynamic = w.Dynamic
			return r
		}
		r.Path = joinDir(c.Dir, w.Value)
		if r.Path == "" {
			r.Dynamic = "a relative path in a directory only known at run time"
		}
		return r
	}
	var out []Read
	for _, w := range p.values(s.valueReads...) {
		out = append(out, mk(w, name))
	}
	for _, w := range p.values(s.atReads...) {
		// curl -d @file, -F name=@file;type=x, -F name=<file.
		v := w.Value
		if k, rest, ok := strings.Cut(v, "="); ok && !strings.HasPrefix(v, "@") && !strings.ContainsAny(k, "@<") {
			v = rest
		}
		if strings.HasPrefix(v, "@") || strings.HasPrefix(v, "<") {
			f, _, _ := strings.Cut(v[1:], ";")
			if f != "-" && f != "" {
				out = append(out, mk(Word{Value: f, Dynamic: w.Dynamic, Glob: w.Glob}, name))
			}
		}
	}
	ops := p.operands
	switch s.role {
	case rdPattern:
		if len(p.values("-e", "--regexp", "-f", "--file")) == 0 && len(ops) > 0 {
			ops = ops[1:]
		}
	case rdScript:
		if len(p.values("-e", "--expression", "-f", "--file", "--from-file")) == 0 && len(ops) > 0 {
			ops = ops[1:]
		}
		if name == "jq" || name == "gojq" || name == "jaq" || name == "yq" {
			ops = jqFiles(ops, p)
		}
	case rdFirst:
		if len(ops) > 1 {
			ops = ops[:1]
		}
	case rdValues:
		ops = nil
	case rdArchive:
		ops = archiveMembers(name, words, p, ops)
	}
	tree := s.tree || name == "rgrep" || len(s.recursive) > 0 && p.has(s.recursive...)
	if name == "grep" || name == "egrep" || name == "fgrep" {
		for _, w := range p.values("-d") {
			tree = tree || w.Value == "recurse"
		}
	}
	var filter *TreeFilter
	if tree && s.role == rdPattern {
		filter = searchFilter(name, p)
	}
	var to string
	if s.role == rdCopy {
		dest := p.values("-t", "--target-directory")
		if len(dest) == 0 && len(ops) > 1 {
			dest = ops[len(ops)-1:]
			ops = ops[:len(ops)-1]
		} else if len(dest) == 0 {
			ops = nil // ln -s x: a link here, nothing copied elsewhere
		}
		if len(dest) > 0 && dest[0].Dynamic == "" {
			to = joinDir(c.Dir, dest[0].Value)
			if (name == "scp" || name == "rsync" || name == "rclone") && remote(dest[0].Value) {
				to = "?" // another host
			}
		}
		if name == "scp" || name == "rsync" || name == "rclone" {
			// host:path operands are remote: not read here.
			var local []Word
			for _, w := range ops {
				if !remote(w.Value) {
					local = append(local, w)
				}
			}
			ops = local
		}
	}
	for _, w := range ops {
		if w.Value == "-" && w.Dynamic == "" {
			continue
		}
		r := mk(w, name)
		r.Tree, r.Filter, r.To = tree, filter, to
		if r.To == "" && s.role == rdCopy {
			r.To = "?"
		}
		out = append(out, r)
	}
	if tree && len(ops) == 0 && s.role == rdPattern {
		// rg PATTERN, grep -r PATTERN: the directory it runs in.
		r := mk(Word{Value: "."}, name)
		r.Tree, r.Filter = true, filter
		out = append(out, r)
	}
	return out, ""
}

func remote(v string) bool {
	i := strings.IndexByte(v, ':')
	return i > 0 && !strings.ContainsRune(v[:i], '/')
}

// jqFiles drops jq's --arg NAME VALUE pairs' second words from the
// operands (the parser took the first as the option's value).
func jqFiles(ops []Word, p parsed) []Word {
	n := len(p.values("--arg", "--argjson", "--slurpfile", "--rawfile"))
	if n > len(ops) {
		n = len(ops)
	}
	return ops[n:]
}

// searchFilter reads a recursive search's filters.
func searchFilter(name string, p parsed) *TreeFilter {
	f := &TreeFilter{Hidden: true, Ignored: true}
	switch name {
	case "rg", "ag", "pt", "ugrep", "ug", "ack", "ack-grep":
		f.Hidden = p.has("--hidden", "-.", "--unrestricted")
		f.Ignored = p.has("--no-ignore", "--no-ignore-vcs", "--unrestricted", "--skip-vcs-ignores", "-U")
		u := 0
		for _, o := range p.opts {
			if o.name == "-u" {
				u++
			}
		}
		if u >= 1 {
			f.Ignored = true
		}
		if u >= 2 {
			f.Hidden = true
		}
		for _, w := range p.values("-g", "--glob", "--iglob") {
			if g, ok := strings.CutPrefix(w.Value, "!"); ok {
				f.Exclude = append(f.Exclude, g)
			} else {
				f.Include = append(f.Include, w.Value)
			}
		}
	default:
		for _, w := range p.values("--include") {
			f.Include = append(f.Include, w.Value)
		}
		for _, w := range p.values("--exclude") {
			f.Exclude = append(f.Exclude, w.Value)
		}
		for _, w := range p.values("--exclude-dir") {
			f.ExcludeDir = append(f.ExcludeDir, w.Value)
		}
	}
	return f
}

// archiveMembers picks the files an archiver reads: tar's operands when
// it creates or appends (-c, -r, -u, -A), zip's and 7z a's after the
// archive.
func archiveMembers(name string, args []Word, p parsed, ops []Word) []Word {
	switch name {
	case "tar", "bsdtar", "gtar":
		create := p.has("-c", "-r", "-u", "-A", "--create", "--append", "--update", "--concatenate")
		if !create && len(args) > 0 && args[0].Dynamic == "" && !strings.HasPrefix(args[0].Value, "-") {
			// Old style: tar czf out.tgz files (the first word is the
			// letters, f's value the next operand).
			letters := args[0].Value
			create = strings.ContainsAny(letters, "cruA")
			if create && strings.Contains(letters, "f") && len(ops) > 1 {
				return ops[2:]
			}
		}
		if !create {
			return nil
		}
		return ops
	case "7z", "7za", "7zr", "rar", "unrar":
		if len(ops) < 2 || ops[0].Value != "a" && ops[0].Value != "u" && ops[0].Value != "m" && ops[0].Value != "mf" {
			return nil
		}
		return ops[2:]
	}
	// zip archive files...
	if len(ops) < 2 {
		return nil
	}
	return ops[1:]
}

// dumpOf names a command that prints the whole environment: env and
// printenv without a command or name, set without arguments, export and
// declare/typeset printing what they export.
func dumpOf(name string, args []Word) string {
	switch name {
	case "env":
		for i := 0; i < len(args); i++ {
			v := args[i].Value
			switch {
			case args[i].Dynamic != "":
				return "" // a command computed at run time, judged as run
			case v == "-u" || v == "--unset" || v == "-C" || v == "--chdir" || v == "-S" || v == "--split-string":
				if v == "-S" || v == "--split-string" {
					return ""
				}
				i++
			case strings.HasPrefix(v, "-"):
			case strings.Contains(v, "="):
			default:
				return "" // env runs a command
			}
		}
		return "env"
	case "printenv":
		for _, a := range args {
			if !strings.HasPrefix(a.Value, "-") || a.Dynamic != "" {
				return "" // printenv NAME prints one variable
			}
		}
		return "printenv"
	case "set":
		if len(args) == 0 {
			return "set"
		}
	case "export", "declare", "typeset":
		if len(args) == 0 && name == "export" {
			return "export"
		}
		if len(args) == 0 {
			return name
		}
		dump := false
		for _, a := range args {
			if !strings.HasPrefix(a.Value, "-") {
				return ""
			}
			if strings.Contains(a.Value, "p") || strings.Contains(a.Value, "x") {
				dump = true
			}
		}
		if dump {
			return name + " " + args[0].Value
		}
	}
	return ""
}

// gitReads are the reads of git's own readers: the blobs of git show
// REV:path and git cat-file, and the files git diff, log -p, show and
// blame print (operands that name files, after -- or not).
func gitReads(c Command, idx int) []Read {
	g := c.Git
	if g.Sub == "" || g.Help || g.Exits {
		return nil
	}
	dir := g.Dir
	mk := func(w Word, rev string) Read {
		r := Read{Op: "git " + g.Sub, Command: idx, Rev: rev, Glob: w.Glob}
		switch {
		case w.Dynamic != "":
			r.Dynamic = w.Dynamic
		case rev != "" || strings.HasPrefix(w.Value, ":"):
			p := strings.TrimPrefix(w.Value, ":")
			if strings.HasPrefix(p, "./") || strings.HasPrefix(p, "../") {
				r.Path = joinDir(dir, p)
			} else {
				r.Path = joinDir(repoTop(dir, g.WorkTree), p)
			}
		default:
			r.Path = joinDir(dir, w.Value)
		}
		if r.Path == "" && r.Dynamic == "" {
			r.Dynamic = "a path in a repository only known at run time"
		}
		return r
	}
	var out []Read
	switch g.Sub {
	case "show", "cat-file", "diff", "log", "blame", "annotate", "grep", "archive", "difftool", "whatchanged":
	default:
		return nil
	}
	seenDashes := false
	for _, w := range g.Args {
		v := w.Value
		if v == "--" && w.Dynamic == "" {
			seenDashes = true
			continue
		}
		if w.Dynamic != "" {
			if seenDashes {
				out = append(out, mk(w, ""))
			}
			continue
		}
		if strings.HasPrefix(v, "-") && !seenDashes {
			continue
		}
		if rev, p, ok := strings.Cut(v, ":"); ok && !seenDashes && p != "" && !strings.Contains(rev, "/") || ok && rev == "" {
			if rev == "" {
				rev = ":" // the index
			}
			out = append(out, mk(Word{Value: p, Glob: w.Glob}, rev))
			continue
		}
		if seenDashes || g.Sub == "blame" || g.Sub == "annotate" || g.Sub == "diff" || g.Sub == "log" || g.Sub == "show" {
			// An operand naming a file (a revision names none).
			out = append(out, mk(w, ""))
		}
	}
	return out
}

// repoTop finds the top of the work tree holding dir (the directory with
// .git), or the work tree git was given; dir when none is found.
func repoTop(dir, workTree string) string {
	if workTree != "" {
		return workTree
	}
	for d := dir; d != ""; {
		if exists(filepath.Join(d, ".git")) {
			return d
		}
		up := filepath.Dir(d)
		if up == d {
			break
		}
		d = up
	}
	return dir
}

// readInterpreter tells the interpreters whose inline code (a literal
// -c/-e) is read for the files it opens.
func readInterpreter(name string) (string, bool) {
	switch {
	case strings.HasPrefix(name, "python") || name == "pypy" || name == "pypy3":
		return "-c", true
	case name == "node" || name == "nodejs" || name == "bun" || name == "deno":
		return "-e", true
	case strings.HasPrefix(name, "perl") || name == "ruby" || name == "lua":
		return "-e", true
	case strings.HasPrefix(name, "php"):
		return "-r", true
	}
	return "", false
}

// interpreterReads reads inline code for the paths its string literals
// name: code that opens a file names it, and a literal that is a path is
// taken to be opened. Code computed at run time is a dynamic read.
func interpreterReads(c Command, idx int, flag string) []Read {
	var out []Read
	for i := 1; i < len(c.Args); i++ {
		v := c.Args[i].Value
		isCode := v == flag || (flag == "-e" && (v == "-E" || v == "--eval" || v == "-p" || v == "--print" || v == "eval")) ||
			(flag == "-e" && strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "--") && strings.HasSuffix(v, "e") && len(v) > 2)
		if !isCode || i+1 >= len(c.Args) {
			continue
		}
		code := c.Args[i+1]
		i++
		op := c.Name() + " " + v
		if code.Dynamic != "" {
			out = append(out, Read{Dynamic: "inline code only known at run time (" + code.Dynamic + ")", Op: op, Command: idx})
			continue
		}
		for _, lit := range stringLiterals(code.Value) {
			if lit == "" || strings.ContainsAny(lit, "\n\x00") || len(lit) > 4096 {
				continue
			}
			p := lit
			if strings.HasPrefix(p, "~/") {
				// Expanded by the code (expanduser, os.homedir()), not
				// the shell: left for the caller to resolve in its home.
				out = append(out, Read{Path: p, Op: op, Command: idx})
				continue
			}
			if path := joinDir(c.Dir, p); path != "" {
				out = append(out, Read{Path: path, Op: op, Command: idx})
			}
		}
	}
	return out
}

// envDumpInCode reports whether inline code prints the whole environment
// (os.environ, process.env, %ENV, ENV.to_h, getenv() without a name).
func envDumpInCode(code string) bool {
	for _, whole := range []string{"os.environ", "process.env", "%ENV", "ENV.to_h", "ENV.each", "ENV.inspect", "ENV.to_a", "getenv()", "$_ENV", "Deno.env.toObject", "Bun.env"} {
		for rest := code; ; {
			i := strings.Index(rest, whole)
			if i < 0 {
				break
			}
			rest = rest[i+len(whole):]
			// A lookup of one variable names it: os.environ['X'],
			// os.environ.get(, process.env.X, $ENV{X}.
			if strings.HasPrefix(rest, "[") || strings.HasPrefix(rest, ".get") || strings.HasPrefix(rest, ".setdefault") || strings.HasPrefix(rest, ".pop") ||
				whole == "process.env" && (strings.HasPrefix(rest, ".") || strings.HasPrefix(rest, "?.")) || whole == "Bun.env" && strings.HasPrefix(rest, ".") {
				continue
			}
			return true
		}
	}
	return false
}

// stringLiterals returns the quoted strings of code ('...', "...", `...`),
// with backslash escapes of the quote kept simple.
func stringLiterals(code string) []string {
	var out []string
	for i := 0; i < len(code); i++ {
		q := code[i]
		if q != '\'' && q != '"' && q != '`' {
			continue
		}
		var b strings.Builder
		j := i + 1
		for ; j < len(code) && code[j] != q; j++ {
			if code[j] == '\\' && j+1 < len(code) {
				j++
			}
			b.WriteByte(code[j])
		}
		out = append(out, b.String())
		i = j
	}
	return out
}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

// inFile records a file redirected in.
func (w *walker) inFile(sc scope, p Word) {
	f := InFile{Dynamic: p.Dynamic}
	if f.Dynamic == "" {
		if f.Path = w.abs(sc, p.Value); f.Path == "" {
			f.Dynamic = "a relative path in a directory only known at run time"
		}
	}
	w.a.InFiles = append(w.a.InFiles, f)
}

// ddReads is dd's if= (to of=, else printed).
func ddReads(c Command, idx int) []Read {
	var in, out Word
	found := false
	for _, a := range c.Args[1:] {
		if v, ok := strings.CutPrefix(a.Value, "if="); ok {
			in, found = Word{Value: v, Dynamic: a.Dynamic, Glob: a.Glob}, true
		}
		if v, ok := strings.CutPrefix(a.Value, "of="); ok {
			out = Word{Value: v, Dynamic: a.Dynamic}
		}
	}
	if !found {
		return nil
	}
	r := Read{Op: "dd", Command: idx, Glob: in.Glob}
	if in.Dynamic != "" {
		r.Dynamic = in.Dynamic
	} else if r.Path = joinDir(c.Dir, in.Value); r.Path == "" {
		r.Dynamic = "a relative path in a directory only known at run time"
	}
	switch {
	case out.Dynamic != "":
		r.To = "?"
	case out.Value != "":
		r.To = joinDir(c.Dir, out.Value)
	}
	return []Read{r}
}

// credentialPrinter names a command that prints a stored credential, "" for
// any other: gh auth token, gh auth status --show-token, gcloud auth
// print-access-token and print-identity-token, aws configure get of a
// secret and aws configure export-credentials, kubectl config view --raw,
// git credential fill, docker-credential-* get, and macOS's security
// find-*-password -w.
func credentialPrinter(c Command) string {
	name := c.Name()
	var words []string
	for _, a := range c.Args[1:] {
		if a.Dynamic == "" {
			words = append(words, a.Value)
		}
	}
	has := func(ws ...string) bool {
		for _, w := range ws {
			if containsStr(words, w) {
				return true
			}
		}
		return false
	}
	switch {
	case name == "gh" && has("auth") && (has("token") || has("--show-token", "-t") && has("status")):
		return "gh auth token"
	case name == "gcloud" && has("auth") && has("print-access-token", "print-identity-token"):
		return "gcloud auth print-access-token"
	case name == "aws" && has("configure") && has("export-credentials"):
		return "aws configure export-credentials"
	case name == "aws" && has("configure") && has("get"):
		for _, w := range words {
			if l := strings.ToLower(w); strings.Contains(l, "secret") || strings.Contains(l, "token") {
				return "aws configure get " + w
			}
		}
	case name == "kubectl" && has("config") && has("view") && has("--raw", "--raw=true"):
		return "kubectl config view --raw"
	case c.Git != nil && c.Git.Sub == "credential" && len(c.Git.Args) > 0 && (c.Git.Args[0].Value == "fill" || c.Git.Args[0].Value == "get"):
		return "git credential " + c.Git.Args[0].Value
	case strings.HasPrefix(name, "docker-credential-") && has("get"):
		return name + " get"
	case name == "security" && has("-w") && (has("find-generic-password") || has("find-internet-password")):
		return "security find-password -w"
	}
	return ""
}
