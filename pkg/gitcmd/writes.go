package gitcmd

import (
	"path/filepath"
	"strings"
)

// opts is a command line split into options and operands.
type opts struct {
	short    string            // every short flag seen, in order
	long     []string          // every long option seen (without =value)
	values   map[string][]Word // option values, by option ("-t", "--target-directory")
	operands []Word
}

func (o *opts) has(short byte, long ...string) bool {
	if short != 0 && strings.IndexByte(o.short, short) >= 0 {
		return true
	}
	for _, l := range long {
		if contains(o.long, l) {
			return true
		}
	}
	return false
}

func (o *opts) value(keys ...string) (Word, bool) {
	for _, k := range keys {
		if v, ok := o.values[k]; ok && len(v) > 0 {
			return v[len(v)-1], true
		}
	}
	return Word{}, false
}

// parseOpts splits args (without the command name) by getopt rules:
// valued lists the short options taking a value, long the long ones
// (without "--", as a spec lists them).
func parseOpts(args []Word, valued string, long []string) opts {
	var o opts
	for i := 0; i < len(args); i++ {
		a := args[i]
		v := a.Value
		if a.Dynamic != "" || v == "-" || !strings.HasPrefix(v, "-") {
			o.operands = append(o.operands, a)
			continue
		}
		if v == "--" {
			o.operands = append(o.operands, args[i+1:]...)
			break
		}
		if strings.HasPrefix(v, "--") {
			name, val, hasVal := strings.Cut(v, "=")
			o.long = append(o.long, name)
			if hasVal {
				o.set(name, Word{Value: val})
			} else if contains(long, name[2:]) && i+1 < len(args) {
				i++
				o.set(name, args[i])
			}
			continue
		}
		for j := 1; j < len(v); j++ {
			o.short += string(v[j])
			if strings.IndexByte(valued, v[j]) >= 0 {
				if j+1 < len(v) {
					o.set("-"+string(v[j]), Word{Value: v[j+1:]})
				} else if i+1 < len(args) {
					i++
					o.set("-"+string(v[j]), args[i])
				}
				break
			}
		}
	}
	return o
}

func (o *opts) set(k string, v Word) {
	if o.values == nil {
		o.values = map[string][]Word{}
	}
	o.values[k] = append(o.values[k], v)
}

// commandWrites records the files a command changes through its operands
// and options, as its spec says (programs.go): the generic roles for most
// programs, customWrites for those whose writes are computed.
func (w *walker) commandWrites(args []Word, sc scope, idx int) {
	name := progName(args[0].Value)
	s := specOf(name)
	if s == nil {
		return
	}
	if c := canonArgs(s, args[1:]); c != nil {
		args = append([]Word{args[0]}, c...)
	}
	for _, t := range args[1:] {
		for _, k := range s.write.keyValues {
			if v, ok := strings.CutPrefix(t.Value, k+"="); ok {
				w.addWrite(Word{Value: v, Dynamic: t.Dynamic}, name, sc, idx, false) // dd of=
			}
		}
	}
	switch s.write.kind {
	case wkUnknown, wkNone:
		if len(s.write.values) == 0 && len(s.write.valueTrees) == 0 && len(s.write.dotWhen) == 0 && !s.write.dot {
			return
		}
	case wkCustom:
		w.customWrites(s, name, args[1:], sc, idx)
		return
	}
	w.specWrites(s, name, args[1:], sc, idx)
}

// specWrites records the writes a spec's generic roles name.
func (w *walker) specWrites(s *progSpec, name string, rest []Word, sc scope, idx int) {
	ws := &s.write
	p := parseArgs(rest, s)
	sub := len(ws.whenSub) > 0 && len(p.operands) > 0 && p.operands[0].Dynamic == "" && contains(ws.whenSub, p.operands[0].Value)
	if len(ws.when) > 0 && !sub && !p.has(ws.when...) || len(ws.unless) > 0 && p.has(ws.unless...) {
		return
	}
	op := ws.op
	if op == "" {
		op = name
		for _, o := range ws.when {
			if p.has(o) {
				op = name + " " + o // gofmt -w, eslint --fix
				break
			}
		}
	}
	tree := ws.treeAll || len(ws.trees) > 0 && p.has(ws.trees...)
	n := len(w.a.Writes)
	ops := p.operands
	if len(ops) < ws.atLeast {
		return
	}
	var rest2 []Word // the operands not written, which moves delete
	switch ws.kind {
	case wkOperands:
		skip := ws.skip
		if skip > 0 && (p.has("--reference") || len(ws.skipUnless) > 0 && p.has(ws.skipUnless...)) {
			skip = 0
		}
		if skip > 0 && ws.modeChars != "" {
			for _, a := range rest {
				if a.Dynamic == "" && isMinusMode(a.Value, ws.modeChars) {
					skip = 0 // chmod -x f: the mode was read as an option
					break
				}
			}
		}
		ops = ops[min(skip, len(ops)):]
	case wkFirst:
		ops, rest2 = ops[:min(1, len(ops))], ops[min(1, len(ops)):]
	case wkSecond:
		ops = ops[min(1, len(ops)):min(2, len(ops))]
	case wkLast:
		ops, rest2 = ops[max(0, len(ops)-1):], ops[:max(0, len(ops)-1)]
	default:
		ops = nil
	}
	for _, t := range ops {
		if ws.local && t.Dynamic == "" && strings.Contains(t.Value, ":") {
			continue // another host's
		}
		w.addWrite(t, op, sc, idx, tree)
	}
	if len(ws.moves) > 0 && p.has(ws.moves...) {
		for _, t := range rest2 {
			w.addWrite(t, name+" "+ws.moves[0], sc, idx, true)
		}
	}
	named := ws.urlNames && !p.has(ws.urlTrees...)
	toStdout := false
	var into *Word // the directory the URLs' files go to (wget -P)
	for _, o := range p.opts {
		files, trees := contains(ws.values, o.name), contains(ws.valueTrees, o.name)
		if !o.has || !files && !trees {
			continue
		}
		if trees && named {
			v := o.value
			into = &v
			continue
		}
		if files && o.value.Dynamic == "" && o.value.Value == "-" && ws.urlNames {
			toStdout = true
			continue // wget -O -, curl -o -: standard output
		}
		vop := ws.op
		if vop == "" {
			vop = name + " " + o.name // openssl -out, cmake -B
		}
		w.addWrite(o.value, vop, sc, idx, trees)
	}
	if len(ws.dotWhen) > 0 && p.has(ws.dotWhen...) || ws.dot && len(w.a.Writes) == n && !toStdout {
		if !named {
			w.addWrite(Word{Value: "."}, op, sc, idx, true)
			return
		}
		for _, u := range p.operands {
			name := urlBase(u.Value, ws.urlIndex)
			switch {
			case u.Dynamic != "":
				w.addWrite(u, op, sc, idx, false) // a computed URL: a computed name
				continue
			case name == "":
				continue
			}
			t := Word{Value: name}
			if into != nil {
				if into.Dynamic != "" {
					w.addWrite(*into, op, sc, idx, true)
					continue
				}
				t.Value = strings.TrimSuffix(into.Value, "/") + "/" + name
			}
			w.addWrite(t, op, sc, idx, false)
		}
	}
}

// urlBase is the file name a downloader saves a URL under: the last
// segment of its path, without query or fragment; index when there is
// none. A name that is no file name ("..") is index too.
func urlBase(u, index string) string {
	if i := strings.IndexAny(u, "?#"); i >= 0 {
		u = u[:i]
	}
	if i := strings.Index(u, "://"); i >= 0 {
		u = u[i+3:]
		if j := strings.IndexByte(u, '/'); j >= 0 {
			u = u[j:]
		} else {
			u = ""
		}
	}
	name := u[strings.LastIndexByte(u, '/')+1:]
	if name == "" || name == "." || name == ".." {
		return index
	}
	return name
}

// customWrites records the writes of the programs whose spec says they are
// computed: what a sed script writes, where cp puts a copy, what tar
// extracts, what go and npm change, ... The option grammar is the spec's.
func (w *walker) customWrites(s *progSpec, name string, rest []Word, sc scope, idx int) {
	add := func(t Word, op string, tree bool) { w.addWrite(t, op, sc, idx, tree) }
	switch name {
	case "sed", "gsed":
		o := parseOpts(rest, s.short, s.long)
		inPlace := o.has('i', "--in-place")
		for _, l := range o.long {
			if strings.HasPrefix(l, "--in-place") {
				inPlace = true
			}
		}
		files := o.operands
		if _, ok := o.value("-e", "--expression", "-f", "--file"); !ok && len(files) > 0 {
			files = files[1:] // the script
		}
		if inPlace {
			for _, t := range files {
				add(t, "sed -i", false)
			}
		}
		// The script's own w and W commands, and s///w, write the file
		// they name; its e command and s///e run shell commands.
		scripts := o.values["-e"]
		scripts = append(scripts, o.values["--expression"]...)
		if _, ok := o.value("-e", "--expression", "-f", "--file"); !ok && len(o.operands) > 0 {
			scripts = append(scripts, o.operands[0])
		}
		for _, sc2 := range scripts {
			if sc2.Dynamic != "" {
				continue
			}
			out, runs := sedScript(sc2.Value)
			for _, f := range out {
				add(Word{Value: f}, "sed w", false)
			}
			if runs && w.a.Commands[idx].Opaque == "" {
				w.a.Commands[idx].Opaque = "sed's e command runs text as shell commands"
				w.a.Writes = append(w.a.Writes, w.at(Write{Op: "sed e", Command: idx, Dynamic: w.a.Commands[idx].Opaque, Dir: dirOf(sc)}))
			}
		}
	case "npm", "pnpm", "yarn", "bun":
		w.packageWrites(name, rest, sc, idx)
	case "cp", "install", "ln", "mv", "gcp", "gmv":
		w.copyWrites(s, name, rest, sc, idx)
	case "go", "mage":
		// go build -o, go test -o, go tool mage -compile, mage -compile:
		// the output file is written (a hook binary among them).
		args := rest
		if name == "go" && len(args) > 0 && (args[0].Value == "-C" || strings.HasPrefix(args[0].Value, "-C=")) {
			// go -C dir: the go command changes to dir first (a flag it
			// takes only first), and its paths are dir's.
			d, n := Word{}, 2
			if v, ok := strings.CutPrefix(args[0].Value, "-C="); ok {
				d, n = Word{Value: v, Dynamic: args[0].Dynamic}, 1
			} else if len(args) > 1 {
				d = args[1]
			}
			if len(args) < n {
				break
			}
			if d.Dynamic != "" || d.Value == "" {
				sc.dir, sc.dirWhy = "", "go -C of a directory only known at run time"
			} else {
				sc.dir, sc.dirWhy = w.abs(sc, d.Value), ""
			}
			args = args[n:]
		}
		if name == "go" && len(args) > 1 && args[0].Value == "tool" && args[1].Value == "mage" {
			args, name = args[2:], "mage"
		}
		if name == "go" && len(args) > 0 && w.goToolWrites(args, sc, idx) {
			break
		}
		if name == "go" && len(args) > 0 && args[0].Value == "install" {
			// go install writes into GOBIN, else GOPATH's bin.
			bin, set := w.lookupVar("GOBIN", sc)
			if bin.Dynamic != "" && sc.vars.lookup("GOBIN") == nil && w.o.Getenv != nil {
				set = false // the environment leaves it empty: not set
			}
			if !set || bin.Value == "" && bin.Dynamic == "" {
				if gp, ok := w.lookupVar("GOPATH", sc); ok && gp.Value != "" && gp.Dynamic == "" {
					bin = Word{Value: filepath.Join(strings.Split(gp.Value, ":")[0], "bin")}
				} else if h := w.home(sc); h != "" {
					bin = Word{Value: filepath.Join(h, "go", "bin")}
				} else {
					bin = Word{Value: "$HOME/go/bin", Dynamic: "GOPATH is only known at run time"}
				}
			}
			if names, ok := w.goMains(args[1:], sc); ok && bin.Dynamic == "" {
				for _, n := range names {
					add(Word{Value: filepath.Join(bin.Value, n)}, "go install", false)
					add(Word{Value: filepath.Join(bin.Value, n+".exe")}, "go install", false)
				}
				break
			}
			add(bin, "go install", true)
			break
		}
		flag := "-compile"
		if name == "go" {
			if len(args) == 0 || (args[0].Value != "build" && args[0].Value != "test") {
				break
			}
			flag = "-o"
		}
		for i, a := range args {
			out := Word{}
			if v, ok := strings.CutPrefix(a.Value, flag+"="); ok {
				out = Word{Value: v, Dynamic: a.Dynamic}
			} else if a.Value == flag && i+1 < len(args) {
				out = args[i+1]
			} else {
				continue
			}
			// -o into a directory writes a file named after each package
			// built there (bin/ with ./cmd/magehook writes bin/magehook);
			// packages it cannot name (./..., an import path pattern) may
			// write any name there.
			dir := strings.HasSuffix(out.Value, "/") || out.Dynamic == "" && w.isDir(w.abs(sc, out.Value))
			if !dir {
				add(out, name+" "+flag, false)
				continue
			}
			if names, ok := w.goMains(args[1:], sc); ok && name == "go" {
				for _, n := range names {
					add(Word{Value: filepath.Join(out.Value, n)}, name+" "+flag, false)
					add(Word{Value: filepath.Join(out.Value, n+".exe")}, name+" "+flag, false)
				}
				continue
			}
			add(out, name+" "+flag, true)
		}
	case "tar", "bsdtar", "gtar":
		w.tarWrites(s, rest, sc, idx)
	case "patch":
		w.patchWrites(s, rest, sc, idx)
	case "apply_patch", "applypatch":
		w.patchText(sc, idx, "apply_patch", 0, "")
	case "find":
		w.findWrites(rest, sc, idx)
	case "gzip", "gunzip", "pigz", "unpigz", "bzip2", "bunzip2", "xz", "unxz", "lzma", "unlzma", "zstd", "unzstd", "lz4", "compress", "uncompress", "brotli":
		// Each file is replaced by its (de)compressed form: the original
		// goes, unless kept or written to stdout (zstd, lz4 and brotli keep
		// it unless told to remove it); decompressing writes the name
		// without the suffix.
		o := parseOpts(rest, s.short, s.long)
		if o.has('c', "--stdout", "--to-stdout") || o.has('t', "--test") || o.has('l', "--list") {
			break
		}
		keep := o.has('k', "--keep")
		if name == "zstd" || name == "unzstd" || name == "lz4" || name == "brotli" {
			keep = !o.has(0, "--rm") && !o.has('j', "--rm")
		}
		decompress := o.has('d', "--decompress", "--uncompress") || strings.HasPrefix(name, "un") || name == "gunzip" || name == "bunzip2"
		for _, t := range o.operands {
			if !keep {
				add(t, name, false)
			}
			if decompress && t.Dynamic == "" {
				if ext := filepath.Ext(t.Value); ext != "" {
					add(Word{Value: strings.TrimSuffix(t.Value, ext), Glob: t.Glob}, name+" -d", false)
				}
			}
		}
	case "emacs", "emacsclient":
		// emacs --batch FILE -f save-buffer, --eval code: every file it
		// opens may be saved.
		o := parseOpts(rest, s.short, s.long)
		batch := o.has(0, "--batch", "--script", "--eval", "--execute")
		for _, a := range rest {
			batch = batch || a.Value == "-batch" || a.Value == "-script"
		}
		if batch {
			for _, t := range o.operands {
				add(t, name, false)
			}
			for _, k := range []string{"--file", "--visit"} {
				for _, v := range o.values[k] {
					add(v, name, false)
				}
			}
		}
	case "script":
		// script [options] [file]: the typescript it writes.
		o := parseOpts(rest, s.short, s.long)
		if o.has('V', "--version") || o.has('h', "--help") {
			break
		}
		logs := false
		for _, k := range []string{"-I", "-O", "-B", "-T", "--log-in", "--log-out", "--log-io", "--log-timing"} {
			for _, v := range o.values[k] {
				add(v, "script", false)
				logs = true
			}
		}
		if len(o.operands) > 0 {
			add(o.operands[len(o.operands)-1], "script", false)
		} else if !logs { // the typescript, unless a log option names it
			add(Word{Value: "typescript"}, "script", false)
		}
	case "docker", "podman", "kubectl":
		// cp between hosts or containers: a local destination is written.
		ops := parseOpts(rest, s.short, s.long).operands
		if len(ops) == 0 || ops[0].Value != "cp" {
			break
		}
		ops = ops[1:]
		if len(ops) >= 2 {
			if dest := ops[len(ops)-1]; dest.Dynamic != "" || !strings.Contains(dest.Value, ":") {
				add(dest, name+" cp", true)
			}
		}
	case "cpio", "7z", "7za", "7zr", "rar", "unrar", "ar", "jar":
		// Archives extracted where they are run (or into -o<dir>, -D);
		// 7z a and rar a write the archive they name.
		o := parseOpts(rest, s.short, s.long)
		seven := name == "7z" || name == "7za" || name == "7zr" || name == "rar" || name == "unrar"
		if seven && len(o.operands) > 1 {
			switch sub := o.operands[0].Value; sub {
			case "a", "u", "d", "m", "mf":
				add(o.operands[1], name+" "+sub, false)
				// rar m and 7z a -sdel delete the files they archive.
				sdel := false
				for _, a := range rest {
					sdel = sdel || a.Value == "-sdel" && a.Dynamic == ""
				}
				if sub == "m" || sub == "mf" || sdel {
					for _, t := range o.operands[2:] {
						add(t, name+" "+sub+" (moved into the archive)", true)
					}
				}
				return
			}
		}
		extract := name == "cpio" && (o.has('i', "--extract")) || name == "jar" && len(rest) > 0 && strings.Contains(rest[0].Value, "x") ||
			name == "ar" && len(rest) > 0 && strings.Contains(rest[0].Value, "x") ||
			seven && len(o.operands) > 0 && (o.operands[0].Value == "x" || o.operands[0].Value == "e")
		if !extract {
			break
		}
		out := Word{Value: "."}
		if d, ok := o.value("-D", "--directory"); ok {
			out = d
		}
		for _, a := range rest {
			if v, ok := strings.CutPrefix(a.Value, "-o"); ok && v != "" && name != "cpio" {
				out = Word{Value: v, Dynamic: a.Dynamic}
			}
		}
		add(out, name+" x", true)
	}
}

// noSave reports npm install --no-save: node_modules changes, the
// manifest and the lock file do not.
func noSave(args []Word) bool {
	for _, a := range args {
		if a.Dynamic == "" && (a.Value == "--no-save" || a.Value == "--save=false") {
			return true
		}
	}
	return false
}

// goMains names the binaries go build writes into an -o directory: the
// last element of each package directory it is given (the directory it
// runs in for none, or "."); ok is false for a pattern (./...) or an
// import path, whose names it cannot know.
func (w *walker) goMains(args []Word, sc scope) ([]string, bool) {
	var names []string
	skip := false
	for _, a := range args {
		v := a.Value
		switch {
		case skip:
			skip = false
			continue
		case a.Dynamic != "" || a.Glob:
			return nil, false
		case v == "-o" || v == "-tags" || v == "-ldflags" || v == "-gcflags" || v == "-p" || v == "-mod" || v == "-C" || v == "-pgo" || v == "-toolexec" || v == "-overlay" || v == "-modfile" || v == "-buildmode" || v == "-compiler" || v == "-installsuffix" || v == "-asmflags" || v == "-gccgoflags":
			skip = true
			continue
		case strings.HasPrefix(v, "-"):
			continue
		case strings.Contains(v, "...") || !(v == "." || strings.HasPrefix(v, "./") || strings.HasPrefix(v, "../") || filepath.IsAbs(v)) || strings.HasSuffix(v, ".go"):
			return nil, false
		}
		p := w.abs(sc, v)
		if p == "" {
			return nil, false
		}
		names = append(names, filepath.Base(p))
	}
	if len(names) == 0 {
		d := dirOf(sc)
		if d == "" {
			return nil, false
		}
		names = []string{filepath.Base(d)}
	}
	return names, true
}

// sedScript reads a sed script for the files its w and W commands (and
// the w flag of s) write, and whether it runs shell commands (e, the e
// flag). It reads commands, not every corner of sed: a script it cannot
// follow past a brace or a label still has its plain commands read.
func sedScript(script string) (files []string, runs bool) {
	i := 0
	skipAddr := func() {
		for i < len(script) {
			c := script[i]
			switch {
			case c >= '0' && c <= '9' || c == '$' || c == ',' || c == '!' || c == ' ' || c == '\t' || c == '~' || c == '+':
				i++
			case c == '/' || c == '\\':
				d := c
				if c == '\\' && i+1 < len(script) {
					i++
					d = script[i]
				}
				for i++; i < len(script) && script[i] != d; i++ {
					if script[i] == '\\' {
						i++
					}
				}
				i++
			default:
				return
			}
		}
	}
	rest := func() string {
		j := strings.IndexAny(script[i:], "\n;")
		if j < 0 {
			j = len(script) - i
		}
		v := strings.TrimSpace(script[i : i+j])
		i += j
		return v
	}
	for i < len(script) {
		skipAddr()
		if i >= len(script) {
			break
		}
		c := script[i]
		i++
		switch c {
		case 'w', 'W':
			// The file name runs to the end of the line.
			j := strings.IndexByte(script[i:], '\n')
			if j < 0 {
				j = len(script) - i
			}
			if f := strings.TrimSpace(script[i : i+j]); f != "" {
				files = append(files, f)
			}
			i += j
		case 'e':
			runs = true
			rest()
		case 's', 'y':
			if i >= len(script) {
				return
			}
			d := script[i]
			for n := 0; n < 2 && i < len(script); n++ {
				for i++; i < len(script) && script[i] != d; i++ {
					if script[i] == '\\' {
						i++
					}
				}
			}
			i++
			for i < len(script) && strings.IndexByte("gpiImMe0123456789w", script[i]) >= 0 {
				f := script[i]
				i++
				if f == 'e' && c == 's' {
					runs = true
				}
				if f == 'w' && c == 's' {
					j := strings.IndexByte(script[i:], '\n')
					if j < 0 {
						j = len(script) - i
					}
					if name := strings.TrimSpace(script[i : i+j]); name != "" {
						files = append(files, name)
					}
					i += j
					break
				}
			}
		case 'a', 'i', 'c', 'r', 'R', 'b', 't', 'T', ':', 'q', 'Q', 'l', 'L', 'v':
			rest() // text, a file read, a label
		}
	}
	return files, runs
}

func defaultDot(ops []Word) []Word {
	if len(ops) == 0 {
		return []Word{{Value: "."}}
	}
	return ops
}

// copyWrites handles cp, mv, install and ln: the destination (a directory
// when -t is given, the operand is an existing directory or there are
// several sources), and mv's sources.
func (w *walker) copyWrites(s *progSpec, name string, rest []Word, sc scope, idx int) {
	o := parseOpts(rest, s.short, s.long)
	op := strings.TrimPrefix(name, "g")
	tree := o.has('r', "--recursive") || o.has('R') || o.has('a', "--archive") || op == "mv"
	if name == "install" && o.has('d', "--directory") {
		for _, t := range o.operands {
			w.addWrite(t, "install -d", sc, idx, false)
		}
		return
	}
	srcs := o.operands
	if (op == "ln" && !o.has('s', "--symbolic")) || (op == "cp" && o.has('l', "--link")) {
		// A hard link makes the source and the new name one file: a later
		// write through the new name changes the source.
		for _, s := range srcs[:max(0, len(srcs)-1)] {
			w.addWrite(s, op+" (hard link)", sc, idx, tree)
		}
		if _, ok := o.value("-t", "--target-directory"); ok || len(srcs) == 1 && op == "ln" {
			w.addWrite(srcs[len(srcs)-1], op+" (hard link)", sc, idx, tree)
		}
	}
	var dest Word
	intoDir := false
	if t, ok := o.value("-t", "--target-directory"); ok {
		dest, intoDir = t, true
	} else if len(srcs) >= 2 {
		dest, srcs = srcs[len(srcs)-1], srcs[:len(srcs)-1]
		intoDir = len(srcs) > 1 || strings.HasSuffix(dest.Value, "/") || (dest.Dynamic == "" && w.isDir(w.abs(sc, dest.Value)))
		if o.has('T', "--no-target-directory") {
			intoDir = false
		}
	} else if name == "ln" && len(srcs) == 1 {
		dest, intoDir = Word{Value: "."}, true
	} else {
		return
	}
	if op == "mv" {
		for _, s := range srcs {
			w.addWrite(s, "mv", sc, idx, true)
		}
	}
	symbolic := op == "ln" && o.has('s', "--symbolic")
	if !intoDir {
		w.addWrite(dest, op, sc, idx, tree)
		if symbolic && len(srcs) == 1 {
			w.link(dest, srcs[0], sc)
		}
		return
	}
	for _, s := range srcs {
		if dest.Dynamic != "" || s.Dynamic != "" || s.Glob {
			d := dest
			if d.Dynamic == "" {
				d.Glob = d.Glob || s.Glob
			}
			w.addWrite(d, op, sc, idx, true)
			continue
		}
		at := Word{Value: filepath.Join(dest.Value, filepath.Base(s.Value)), Glob: dest.Glob}
		w.addWrite(at, op, sc, idx, tree)
		if symbolic {
			w.link(at, s, sc)
		}
	}
}

// link notes a symbolic link the command makes (ln -s target at), so that
// a later write through it is also recorded where it lands: the link does
// not exist when the command is analysed, so nothing else could follow it.
func (w *walker) link(at, target Word, sc scope) {
	p := w.abs(sc, at.Value)
	if p == "" || at.Dynamic != "" || at.Glob || target.Dynamic != "" || target.Glob {
		return
	}
	t := target.Value
	if !filepath.IsAbs(t) {
		t = filepath.Join(filepath.Dir(p), t) // relative to the link's directory
	}
	w.links = append(w.links, [2]string{p, filepath.Clean(t)})
}

// throughLinks returns where a path lands after the links the command made
// before it, or "" when it goes through none.
func (w *walker) throughLinks(p string) string {
	for i := len(w.links) - 1; i >= 0; i-- {
		at, t := w.links[i][0], w.links[i][1]
		if p == at {
			return t
		}
		if rest, ok := strings.CutPrefix(p, at+string(filepath.Separator)); ok {
			return filepath.Join(t, rest)
		}
	}
	return ""
}

func (w *walker) tarWrites(s *progSpec, rest []Word, sc scope, idx int) {
	if len(rest) == 0 {
		return
	}
	// tar's first word may be a bundle of letters without a dash (tar xzf a.tgz).
	first := rest[0].Value
	extract := false
	args := rest
	var bundled []Word
	if first != "" && !strings.HasPrefix(first, "-") && rest[0].Dynamic == "" {
		// The bundle's letters become options; f and C take the next words.
		args = nil
		next := 1
		for _, c := range first {
			if (c == 'f' || c == 'C') && next < len(rest) {
				bundled = append(bundled, Word{Value: "-" + string(c)}, rest[next])
				next++
			} else {
				bundled = append(bundled, Word{Value: "-" + string(c)})
			}
		}
		args = append(bundled, rest[next:]...)
	}
	o := parseOpts(args, s.short, s.long)
	if o.has('x', "--extract", "--get") {
		extract = true
	}
	if !extract {
		if o.has('c', "--create") || o.has('r', "--append") || o.has('u', "--update") {
			if f, ok := o.value("-f", "--file"); ok && (f.Value != "-" || f.Dynamic != "") { // -f -: standard output
				w.addWrite(f, "tar", sc, idx, false)
			}
		}
		return
	}
	if o.has(0, "--to-command") {
		w.a.Commands[idx].Opaque = "tar --to-command runs a command for each file"
	}
	dir, ok := o.value("-C", "--directory")
	if !ok {
		dir = Word{Value: "."}
	}
	w.addWrite(dir, "tar -x", sc, idx, true)
}

// findWrites: find -delete removes what it matches under its roots;
// -fprint and friends write a file.
func (w *walker) findWrites(rest []Word, sc scope, idx int) {
	roots := findRoots(rest)
	for i := len(roots); i < len(rest); i++ {
		if findTakesValue(rest[i].Value) {
			i++ // -name -delete: a pattern, not the action
			continue
		}
		switch rest[i].Value {
		case "-exec", "-execdir", "-ok", "-okdir":
			// The command's words run up to ; or + (as findExec reads
			// them): a -delete among them is its argument (find . -exec
			// echo -delete \;), not the action.
			for i++; i < len(rest) && rest[i].Value != ";" && rest[i].Value != "+"; i++ {
			}
		case "-delete":
			for _, r := range defaultDot(roots) {
				w.addWrite(r, "find -delete", sc, idx, true)
				if m := findMatch(rest[len(roots):i]); m != nil {
					w.a.Writes[len(w.a.Writes)-1].Match = m
				}
			}
		case "-fprint", "-fprint0", "-fprintf", "-fls":
			if i+1 < len(rest) {
				w.addWrite(rest[i+1], "find "+rest[i].Value, sc, idx, false)
			}
		}
	}
}

// findTakesValue reports a find primary whose next word is its argument
// (-name x, -newer f, -type d, ...): that word is no primary itself.
func findTakesValue(v string) bool {
	switch v {
	case "-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex", "-lname", "-ilname",
		"-type", "-xtype", "-user", "-group", "-uid", "-gid", "-perm", "-size", "-mtime", "-atime", "-ctime", "-mmin", "-amin", "-cmin",
		"-newer", "-anewer", "-cnewer", "-samefile", "-inum", "-links", "-maxdepth", "-mindepth", "-fstype", "-context", "-used", "-regextype":
		return true
	}
	return strings.HasPrefix(v, "-newer") && len(v) == len("-newerXY")
}

// findRoots are find's starting points: the words before its expression.
func findRoots(rest []Word) []Word {
	for i, a := range rest {
		if v := a.Value; strings.HasPrefix(v, "-") && v != "-" || v == "(" || v == "!" {
			return rest[:i]
		}
	}
	return rest
}

// findMatch reads the tests before an action of a find expression: when
// they are joined by "and" alone, the entries the action reaches have base
// names matching every -name and -iname pattern among them. Anything else
// (-o, a comma, parentheses, a negated or computed name) selects what
// this reading cannot bound: nil.
func findMatch(expr []Word) *Match {
	m := &Match{}
	for i := 0; i < len(expr); i++ {
		a := expr[i]
		if a.Dynamic != "" {
			return nil
		}
		switch a.Value {
		case "-o", "-or", ",", "(", ")", "\\(", "\\)":
			return nil
		case "!", "-not":
			if i+1 < len(expr) && (expr[i+1].Value == "-name" || expr[i+1].Value == "-iname") {
				i += 2 // a name it must not have bounds nothing
			}
		case "-name", "-iname":
			if i+1 >= len(expr) || expr[i+1].Dynamic != "" {
				return nil
			}
			m.Names = append(m.Names, expr[i+1].Value)
			m.Fold = m.Fold || a.Value == "-iname"
			i++
		}
	}
	if len(m.Names) == 0 {
		return nil
	}
	return m
}

// patchWrites: the files a patch changes, from its text (stdin or -i).
func (w *walker) patchWrites(s *progSpec, rest []Word, sc scope, idx int) {
	o := parseOpts(rest, s.short, s.long)
	strip := -1
	if p, ok := o.value("-p", "--strip"); ok {
		strip = atoiDefault(p.Value, -1)
	}
	in := sc
	if d, ok := o.value("-d", "--directory"); ok {
		in = chdir(w, sc, d.Value)
	}
	if out, ok := o.value("-o", "--output"); ok {
		w.addWrite(out, "patch -o", sc, idx, false)
	}
	file := ""
	if f, ok := o.value("-i", "--input"); ok {
		file = f.Value
	} else if len(o.operands) >= 2 {
		file = o.operands[1].Value
	}
	if len(o.operands) >= 1 {
		w.addWrite(o.operands[0], "patch", in, idx, false)
		if file == "" {
			return
		}
	}
	w.patchText(in, idx, "patch", strip, file)
}

// patchText reads a patch (from file, else stdin) and records the paths
// it changes; a patch it cannot see changes anything under the directory.
func (w *walker) patchText(sc scope, idx int, op string, strip int, file string) {
	var text string
	ok := false
	if file != "" {
		var data []byte
		if data, ok = w.readFile(w.abs(sc, file)); ok {
			text = string(data)
		}
	} else {
		text, ok = w.stdinText(sc)
	}
	if !ok {
		w.a.Writes = append(w.a.Writes, w.at(Write{Op: op, Command: idx, Path: w.abs(sc, "."), Tree: true, Dir: dirOf(sc),
			Dynamic: op + " applies a patch the analysis cannot see"}))
		return
	}
	for _, p := range PatchPaths(text, strip) {
		w.addWrite(Word{Value: p}, op, sc, idx, false)
	}
}

// PatchPaths lists the paths a patch changes: unified and git diffs
// (---, +++, rename and copy lines) and the apply_patch envelope (***
// Add/Update/Delete File, *** Move to). strip is patch's -p (1 for git
// apply); -1 records a path both as written and with one component
// stripped, since patch guesses.
func PatchPaths(text string, strip int) []string {
	var out []string
	add := func(p string) {
		p = strings.TrimSpace(p)
		if i := strings.IndexByte(p, '\t'); i >= 0 {
			p = p[:i]
		}
		p = strings.Trim(p, `"`)
		if p == "" || p == "/dev/null" {
			return
		}
		cands := []string{p}
		switch {
		case strip < 0:
			cands = append(cands, stripPath(p, 1))
		case strip > 0:
			cands = []string{stripPath(p, strip)}
		}
		for _, c := range cands {
			if c != "" && !contains(out, c) {
				out = append(out, c)
			}
		}
	}
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimRight(line, "\r")
		switch {
		case strings.HasPrefix(line, "+++ "), strings.HasPrefix(line, "--- "):
			add(line[4:])
		case strings.HasPrefix(line, "*** Add File: "), strings.HasPrefix(line, "*** Update File: "), strings.HasPrefix(line, "*** Delete File: "):
			_, p, _ := strings.Cut(line, ": ")
			out = appendUnique(out, strings.TrimSpace(p))
		case strings.HasPrefix(line, "*** Move to: "):
			out = appendUnique(out, strings.TrimSpace(strings.TrimPrefix(line, "*** Move to: ")))
		case strings.HasPrefix(line, "rename to "), strings.HasPrefix(line, "copy to "), strings.HasPrefix(line, "rename from "):
			_, p, _ := strings.Cut(line, " from ")
			if strings.Contains(line, " to ") {
				_, p, _ = strings.Cut(line, " to ")
			}
			out = appendUnique(out, strings.TrimSpace(p))
		}
	}
	return out
}

func appendUnique(out []string, p string) []string {
	if p != "" && !contains(out, p) {
		out = append(out, p)
	}
	return out
}

func stripPath(p string, n int) string {
	for ; n > 0; n-- {
		i := strings.IndexByte(p, '/')
		if i < 0 {
			return ""
		}
		p = p[i+1:]
	}
	return p
}

func atoiDefault(s string, def int) int {
	n := 0
	if s == "" {
		return def
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return def
		}
		n = n*10 + int(c-'0')
	}
	return n
}

// isMinusMode reports a chmod mode that starts with '-' (-x, -w,+r,
// -rwx), which chmod takes as the mode, not as an option.
func isMinusMode(s, chars string) bool {
	if len(s) < 2 || s[0] != '-' {
		return false
	}
	for _, c := range s[1:] {
		if !strings.ContainsRune(chars, c) {
			return false
		}
	}
	return true
}

// goToolWrites records what the go tool's source-changing commands write
// (go fmt, go fix, go mod tidy/edit/init/vendor, go get, go work): the
// packages' .go files, go.mod and go.sum, vendor/, go.work. It reports
// whether the command was one of them.
func (w *walker) goToolWrites(args []Word, sc scope, idx int) bool {
	add := func(p string, op string, tree bool) { w.addWrite(Word{Value: p}, op, sc, idx, tree) }
	switch args[0].Value {
	case "fmt", "fix", "vet":
		if args[0].Value == "vet" {
			return true // reads only
		}
		op := "go " + args[0].Value
		pkgs := 0
		for _, a := range args[1:] {
			if strings.HasPrefix(a.Value, "-") && a.Dynamic == "" {
				continue
			}
			pkgs++
			dir := strings.TrimSuffix(strings.TrimSuffix(a.Value, "..."), "/")
			if a.Dynamic != "" || !strings.HasPrefix(a.Value, ".") && !strings.HasPrefix(a.Value, "/") {
				// An import path: its directory is only known to the go tool.
				w.a.Writes = append(w.a.Writes, w.at(Write{Op: op, Command: idx, Dynamic: op + " rewrites the .go files of " + a.Value + ", wherever the go tool finds it", Dir: dirOf(sc)}))
				continue
			}
			if dir == "" {
				dir = "."
			}
			w.addWrite(Word{Value: dir}, op, sc, idx, true)
			w.a.Writes[len(w.a.Writes)-1].Match = &Match{Names: []string{"*.go"}}
		}
		if pkgs == 0 {
			w.addWrite(Word{Value: "."}, op, sc, idx, true)
			w.a.Writes[len(w.a.Writes)-1].Match = &Match{Names: []string{"*.go"}}
		}
		return true
	case "get":
		add("go.mod", "go get", false)
		add("go.sum", "go get", false)
		return true
	case "mod":
		if len(args) < 2 {
			return true
		}
		switch args[1].Value {
		case "tidy", "init", "edit":
			for _, a := range args[2:] {
				if a.Value == "-json" || a.Value == "-print" {
					return true
				}
			}
			add("go.mod", "go mod "+args[1].Value, false)
			if args[1].Value == "tidy" {
				add("go.sum", "go mod tidy", false)
			}
		case "vendor":
			add("vendor", "go mod vendor", true)
		}
		return true
	case "work":
		if len(args) > 1 && args[1].Value != "sync" {
			add("go.work", "go work "+args[1].Value, false)
		} else if len(args) > 1 {
			add("go.work.sum", "go work sync", false)
		}
		return true
	}
	return false
}

// packageWrites records the manifest files package managers change:
// npm pkg set, npm install <pkg> (package.json, the lock file and
// node_modules), npm version (package.json and the lock; its commit and
// tag are the ref rules'), yarn and pnpm add and remove.
func (w *walker) packageWrites(name string, rest []Word, sc scope, idx int) {
	var ops []Word
	for _, a := range rest {
		if a.Dynamic != "" || !strings.HasPrefix(a.Value, "-") {
			ops = append(ops, a)
		}
	}
	if len(ops) == 0 {
		return
	}
	add := func(p string, tree bool) { w.addWrite(Word{Value: p}, name+" "+ops[0].Value, sc, idx, tree) }
	lock := "package-lock.json"
	switch name {
	case "pnpm":
		lock = "pnpm-lock.yaml"
	case "yarn":
		lock = "yarn.lock"
	case "bun":
		lock = "bun.lockb"
	}
	manifest := func() {
		add("package.json", false)
		add(lock, false)
		add("node_modules", true)
	}
	switch ops[0].Value {
	case "pkg":
		if len(ops) > 1 && (ops[1].Value == "set" || ops[1].Value == "delete" || ops[1].Value == "fix") {
			add("package.json", false)
		}
	case "install", "i", "add", "uninstall", "remove", "rm", "un", "update", "up", "upgrade", "dedupe", "link", "unlink", "prune":
		if len(ops) == 1 && (ops[0].Value == "install" || ops[0].Value == "i") || name == "npm" && noSave(rest) {
			add("node_modules", true) // what the lock file says (or --no-save), into node_modules
			return
		}
		manifest()
	case "ci":
		add("node_modules", true)
	case "version":
		if len(ops) > 1 {
			add("package.json", false)
			add(lock, false)
		}
	case "init", "create":
		if name == "npm" || ops[0].Value == "init" {
			add("package.json", false)
		}
	}
}
