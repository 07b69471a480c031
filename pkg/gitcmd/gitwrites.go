package gitcmd

import (
	"path/filepath"
	"strings"
)

// isGitConfigPath reports a path git reads configuration (and so aliases)
// from.
func isGitConfigPath(p string) bool {
	base := filepath.Base(p)
	if base == ".gitconfig" || strings.HasSuffix(p, "/git/config") {
		return true
	}
	return (base == "config" || base == "config.worktree") && strings.Contains(p, ".git")
}

// gitWrites records what a git command changes in a working tree, and
// the configuration a git config sets (for aliases used later on).
func (w *walker) gitWrites(sc scope, idx int) {
	g := w.a.Commands[idx].Git
	if g == nil || g.Help || g.Exits || g.Sub == "" {
		return
	}
	dir := g.Dir
	if g.WorkTree != "" {
		dir = g.WorkTree
	}
	in := sc
	in.dir, in.dirWhy = dir, g.DirDynamic
	repo := func(op string) {
		wr := Write{Op: "git " + op, Command: idx, Repo: true, Tree: true, Path: dir, Dir: dir}
		if dir == "" {
			wr.Dynamic = "git " + op + " changes a working tree only known at run time"
			if g.DirDynamic != "" {
				wr.Dynamic += " (" + g.DirDynamic + ")"
			}
		}
		w.a.Writes = append(w.a.Writes, w.at(wr))
	}
	paths := func(op string, args []Word) {
		for _, a := range args {
			w.addWrite(a, "git "+op, in, idx, true)
			w.a.Writes[len(w.a.Writes)-1].Repo = true
		}
	}
	if g.Sub == "submodule" && w.submoduleWrites(g, dir, in, idx) {
		return
	}
	o := parseOpts(g.Args, "mbBcCsSnpuUoOXe", []string{"message", "strategy", "strategy-option", "onto", "exec", "source", "pathspec-from-file", "conflict", "orphan", "track", "create", "force-create"})
	switch g.Sub {
	case "checkout", "restore", "switch", "merge", "pull", "rebase", "cherry-pick", "revert", "stash", "reset", "read-tree", "checkout-index":
		// As the model of git's tree changes reads it (TreeChange): paths
		// it names, or the tree.
		tc, ok := g.TreeChange()
		if !ok {
			return
		}
		if g.Sub == "checkout-index" {
			if v, ok := g.Parse().Value("--prefix"); ok {
				// Each file goes to the prefix and its path joined as
				// strings (--prefix=.git/ writes .git/<path>).
				p := g.Parse()
				if v.Dynamic != "" || p.Has("--all", "--stdin") || len(p.Operands) == 0 {
					pre := Word{Value: filepath.Dir(v.Value + "x"), Dynamic: v.Dynamic}
					w.addWrite(pre, "git checkout-index --prefix", in, idx, true)
					return
				}
				for _, op := range p.Operands {
					w.addWrite(Word{Value: v.Value + op.Value, Dynamic: op.Dynamic}, "git checkout-index --prefix", in, idx, false)
				}
				return
			}
		}
		if tc.Unknown == "" && tc.Paths != nil && (g.Sub == "checkout" || g.Sub == "restore" || g.Sub == "checkout-index") {
			paths(g.Sub, tc.Paths)
			return
		}
		repo(g.Sub)
	case "am", "clean", "sparse-checkout", "bisect", "submodule", "filter-branch":
		if p := g.Parse(); len(p.Operands) > 0 && p.Operands[0].Dynamic == "" {
			switch g.Sub + " " + p.Operands[0].Value {
			case "bisect log", "bisect visualize", "bisect view", "bisect terms", "bisect help",
				"submodule status", "submodule summary", "sparse-checkout list", "submodule foreach":
				return // reads only (foreach: what it runs is followed on its own)
			}
		}
		if g.Sub == "am" && g.Parse().Has("--show-current-patch") {
			return
		}
		repo(g.Sub)
	case "diff", "log", "show", "format-patch", "archive", "bundle":
		// Options that write a file (or a directory) of their own.
		for i, a := range g.Args {
			v := a.Value
			if v == "--" {
				break
			}
			switch {
			case strings.HasPrefix(v, "--output="):
				w.addWrite(Word{Value: v[len("--output="):], Dynamic: a.Dynamic}, "git "+g.Sub+" --output", in, idx, false)
			case strings.HasPrefix(v, "--output-directory="):
				w.addWrite(Word{Value: v[len("--output-directory="):], Dynamic: a.Dynamic}, "git "+g.Sub+" -o", in, idx, true)
			case (v == "--output" || v == "-o" && g.Sub == "archive") && i+1 < len(g.Args):
				w.addWrite(g.Args[i+1], "git "+g.Sub+" --output", in, idx, false)
			case (v == "-o" || v == "--output-directory") && g.Sub == "format-patch" && i+1 < len(g.Args):
				w.addWrite(g.Args[i+1], "git format-patch -o", in, idx, true)
			case v == "create" && g.Sub == "bundle" && i+1 < len(g.Args):
				w.addWrite(g.Args[i+1], "git bundle create", in, idx, false)
			}
		}
	case "merge-file":
		// git merge-file <current> <base> <other> writes the result into
		// <current>, unless it prints it.
		if p := g.Parse(); !p.Has("--stdout") && len(p.Operands) > 0 {
			paths(g.Sub, p.Operands[:1])
		}
	case "rm", "mv":
		p := g.Parse()
		if p.Has("--cached", "--dry-run") {
			return
		}
		if p.Has("--pathspec-from-file") {
			repo(g.Sub)
			return
		}
		paths(g.Sub, append(p.Operands, p.Paths...))
	case "apply":
		if o.has(0, "--cached", "--check", "--stat", "--numstat", "--summary") {
			return
		}
		strip := 1
		if p, ok := o.value("-p"); ok {
			strip = atoiDefault(p.Value, 1)
		}
		if len(o.operands) == 0 {
			w.patchText(in, idx, "git apply", strip, "")
		}
		for _, f := range o.operands {
			if f.Dynamic != "" {
				w.a.Writes = append(w.a.Writes, w.at(Write{Op: "git apply", Command: idx, Repo: true, Tree: true, Path: dir, Dir: dir, Dynamic: "git apply reads a patch from " + f.Value}))
				continue
			}
			w.patchText(in, idx, "git apply", strip, f.Value)
		}
	case "worktree":
		if len(o.operands) >= 2 && o.operands[0].Value == "add" {
			w.addWrite(o.operands[1], "git worktree add", in, idx, true)
		}
	case "clone":
		if len(o.operands) >= 2 {
			w.addWrite(o.operands[1], "git clone", in, idx, true)
		} else {
			w.addWrite(Word{Value: "."}, "git clone", in, idx, true)
		}
	case "init", "init-db":
		// git init [dir]: the directory it makes a repository of.
		dir := Word{Value: "."}
		io := parseOpts(g.Args, "b", []string{"initial-branch", "template", "separate-git-dir", "object-format", "ref-format"})
		if len(io.operands) > 0 {
			dir = io.operands[0]
		}
		w.addWrite(dir, "git init", in, idx, true)
	case "config":
		w.gitConfig(g)
		// git config -f FILE writes FILE, whatever its name, unless it
		// only reads.
		var file *Word
		for i, a := range g.Args {
			v := a.Value
			switch {
			case (v == "-f" || v == "--file") && i+1 < len(g.Args):
				file = &g.Args[i+1]
			case strings.HasPrefix(v, "--file="):
				file = &Word{Value: strings.TrimPrefix(v, "--file="), Dynamic: a.Dynamic}
			case strings.HasPrefix(v, "--get") || v == "-l" || v == "--list" || v == "get" || v == "list":
				return
			}
		}
		if file != nil {
			w.addWrite(*file, "git config -f", in, idx, false)
		}
	}
}

// gitConfig notes the values a git config command sets.
func (w *walker) gitConfig(g *Git) {
	args := g.Args
	var words []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a.Dynamic != "" {
			if len(words) == 0 || strings.HasPrefix(strings.ToLower(words[0]), "alias") || strings.HasPrefix(strings.ToLower(words[0]), "include") {
				w.configWhy = "an earlier git config sets configuration only known at run time"
			}
			return
		}
		v := a.Value
		switch {
		case v == "-e" || v == "--edit" || v == "edit":
			w.configWhy = "an earlier git config --edit changes the configuration"
			return
		case v == "-f" || v == "--file" || v == "--blob" || v == "--type" || v == "--comment" || v == "--default":
			i++
		case v == "set" || v == "unset" || v == "--add" || v == "--replace-all" || v == "--unset" || v == "--unset-all" || v == "--global" || v == "--local" || v == "--system" || v == "--worktree" || v == "--all":
			if v == "--unset" || v == "--unset-all" || v == "unset" {
				words = append(words, "\x00unset")
			}
		case strings.HasPrefix(v, "-"):
			if strings.HasPrefix(v, "--get") || v == "-l" || v == "--list" || v == "get" || v == "list" {
				return
			}
		default:
			words = append(words, v)
		}
	}
	unset := len(words) > 0 && words[0] == "\x00unset"
	if unset {
		words = words[1:]
	}
	if len(words) == 0 {
		return
	}
	key := strings.ToLower(words[0])
	if i := strings.IndexByte(key, '.'); i >= 0 && strings.HasPrefix(key, "alias.") {
		key = "alias." + strings.ToLower(words[0][i+1:])
	}
	switch {
	case unset:
		w.gitSets = append(w.gitSets, key+"=")
	case len(words) >= 2:
		w.gitSets = append(w.gitSets, key+"="+words[1])
	}
	if strings.HasPrefix(key, "include") {
		w.configWhy = "an earlier git config includes another configuration file"
	}
}

// submoduleWrites records what git submodule changes where that is known,
// and reports whether it did: init and sync write only configuration (the
// git directory's and the submodules'), status and summary read, and
// update and absorbgitdirs change the submodules' own directories, every
// path the repository's .gitmodules names (a pathspec only narrows that;
// the write's Op is "git submodule update" for an update to the commits
// the superproject records, "git submodule update --remote" for one that
// moves them).
// Otherwise (add, deinit, set-url, a .gitmodules the analysis cannot read
// or name a path of) the caller judges it as a write of the tree.
func (w *walker) submoduleWrites(g *Git, dir string, in scope, idx int) bool {
	p := g.Parse()
	if len(p.Operands) == 0 {
		return true // git submodule: status
	}
	op := p.Operands[0]
	if op.Dynamic != "" {
		return false
	}
	switch op.Value {
	case "init", "sync", "status", "summary", "foreach":
		return true // (foreach: what it runs is followed on its own)
	case "update", "absorbgitdirs":
	default:
		return false
	}
	if dir == "" || g.GitDir != "" {
		return false
	}
	top := ""
	for d := dir; ; {
		if w.isDir(filepath.Join(d, ".git")) {
			top = d
			break
		}
		if _, ok := w.readFile(filepath.Join(d, ".git")); ok {
			top = d
			break
		}
		parent := filepath.Dir(d)
		if parent == d {
			return false
		}
		d = parent
	}
	data, ok := w.readFile(filepath.Join(top, ".gitmodules"))
	if !ok {
		return false
	}
	var paths []string
	for _, line := range strings.Split(string(data), "\n") {
		k, v, found := strings.Cut(strings.TrimSpace(line), "=")
		if !found || !strings.EqualFold(strings.TrimSpace(k), "path") {
			continue
		}
		v = strings.Trim(strings.TrimSpace(v), `"`)
		if v == "" || filepath.IsAbs(v) || strings.ContainsAny(v, `\"`) {
			return false
		}
		clean := filepath.Clean(v)
		if clean == "." || clean == ".." || strings.HasPrefix(clean, "../") {
			return false
		}
		paths = append(paths, filepath.Join(top, clean))
	}
	// The op says whether the update checks out what the superproject
	// records (git submodule update, --init, --checkout) or moves the
	// submodules elsewhere (--remote, --merge, --rebase, absorbgitdirs).
	name := "git submodule " + op.Value
	if op.Value == "update" {
		for _, a := range g.Args {
			if a.Value == "--" {
				break
			}
			if a.Dynamic != "" || a.Value == "--remote" || a.Value == "--merge" || a.Value == "--rebase" || strings.HasPrefix(a.Value, "-") && !strings.HasPrefix(a.Value, "--") && strings.ContainsAny(a.Value, "mr") {
				name += " --remote"
				break
			}
		}
	}
	for _, path := range paths {
		w.addWrite(Word{Value: path}, name, in, idx, true)
	}
	return true
}
