package gitcmd

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
)

// Git is a git invocation with its global options parsed and its alias
// expanded: what git itself would run.
type Git struct {
	// Sub is the subcommand ("commit"), after alias expansion and the
	// dashed form (git-commit); "" when git runs none (git --version, a
	// shell alias, a subcommand only known at run time).
	Sub string
	// Args are the subcommand's arguments, after alias expansion.
	Args []Word
	// Dir is where git works: the command's directory after -C. Empty
	// with DirDynamic set when unknown.
	Dir        string
	DirDynamic string
	// GitDir and WorkTree are --git-dir/GIT_DIR and --work-tree/
	// GIT_WORK_TREE, absolute, when given; GitDirDynamic when computed.
	GitDir, WorkTree string
	GitDirDynamic    string
	// Config are the name=value pairs of -c, --config-env and
	// GIT_CONFIG_COUNT/KEY/VALUE, names lower-cased.
	Config []string
	// Aliases lists the aliases expanded, outermost first.
	Aliases []string
	// Exits: a global option prints and exits before any subcommand
	// (--version, --exec-path, --html-path, -h, --help without a
	// subcommand).
	Exits bool
	// Help: the subcommand only prints its help (git help x, git x -h,
	// git x --help, git --help x).
	Help bool
	// Dynamic says why the subcommand (or an alias) cannot be decided.
	Dynamic string
	// Guesses are the commands help.autocorrect may run instead of an
	// unknown subcommand.
	Guesses []string

	shellAlias string
}

// gitRuns parses a git command and follows what git runs: shell aliases,
// -c commands, submodule foreach, rebase --exec, bisect run,
// filter-branch filters, for-each-repo.
func (w *walker) gitRuns(args []Word, sc scope, idx int) {
	g := w.parseGit(args, sc)
	w.a.Commands[idx].Git = g
	if g.Sub != "" && g.Dynamic == "" && !g.Help && !g.Exits && len(g.Aliases) == 0 && !isGitCommand(g.Sub) {
		// Not a git command: an alias, from configuration the analysis
		// may not have read.
		if why := configElsewhere(g, sc); why != "" {
			g.Dynamic = "git " + g.Sub + " is no git command, so it may be an alias from " + why
		}
	}
	for _, kv := range g.Config {
		k, v, _ := strings.Cut(kv, "=")
		if runsCommand(k) && v != "" {
			w.gitShell(strings.TrimPrefix(v, "!"), "git -c "+k, g, sc, idx, nil)
		}
	}
	for _, name := range []string{"GIT_EDITOR", "GIT_SEQUENCE_EDITOR", "GIT_PAGER", "GIT_SSH_COMMAND", "GIT_EXTERNAL_DIFF", "GIT_ASKPASS", "PAGER", "EDITOR", "VISUAL", "SSH_ASKPASS"} {
		if b := sc.vars.lookup(name); b != nil && b.exported && !b.unset {
			if b.val.Dynamic != "" {
				w.a.Commands[idx].Opaque = "git runs $" + name + ", which is only known at run time"
				continue
			}
			// Without the variable, so that a git it runs does not run it again.
			inner := sc
			inner.vars = &binding{name: name, unset: true, exported: true, next: sc.vars}
			w.gitShell(b.val.Value, "git $"+name, g, inner, idx, nil)
		}
	}
	w.gitPrograms(g, sc, idx)
	if g.shellAlias != "" {
		params := append([]Word{{Value: g.Aliases[len(g.Aliases)-1]}}, g.Args...)
		w.gitShell(g.shellAlias, "git alias "+g.Aliases[len(g.Aliases)-1], g, sc, idx, params)
		return
	}
	switch g.Sub {
	case "update-ref":
		w.updateRefStdin(g, sc, idx)
	case "submodule":
		for i, a := range g.Args {
			if a.Value == "foreach" {
				rest := g.Args[i+1:]
				for len(rest) > 0 && strings.HasPrefix(rest[0].Value, "-") {
					rest = rest[1:]
				}
				in := *g
				in.Dir, in.DirDynamic = "", "git submodule foreach runs in each submodule"
				w.gitJoined(rest, "git submodule foreach", &in, sc, idx)
				break
			}
		}
	case "rebase":
		for i, a := range g.Args {
			switch {
			case (a.Value == "-x" || a.Value == "--exec") && i+1 < len(g.Args):
				w.gitWord(g.Args[i+1], "git rebase --exec", g, sc, idx)
			case strings.HasPrefix(a.Value, "--exec="):
				w.gitWord(Word{Value: a.Value[len("--exec="):], Dynamic: a.Dynamic}, "git rebase --exec", g, sc, idx)
			case strings.HasPrefix(a.Value, "-x") && len(a.Value) > 2:
				w.gitWord(Word{Value: a.Value[2:], Dynamic: a.Dynamic}, "git rebase --exec", g, sc, idx)
			}
		}
	case "bisect":
		if len(g.Args) > 1 && g.Args[0].Value == "run" {
			w.gitJoined(g.Args[1:], "git bisect run", g, sc, idx)
		}
	case "filter-branch":
		for i, a := range g.Args {
			if strings.HasSuffix(a.Value, "-filter") && strings.HasPrefix(a.Value, "--") && i+1 < len(g.Args) {
				in := *g
				in.Dir, in.DirDynamic = "", "git filter-branch runs its filters in a temporary directory"
				w.gitWord(g.Args[i+1], "git filter-branch "+a.Value, &in, sc, idx)
			}
		}
	case "difftool", "mergetool":
		for i, a := range g.Args {
			if (a.Value == "-x" || a.Value == "--extcmd") && i+1 < len(g.Args) {
				w.gitWord(g.Args[i+1], "git "+g.Sub+" --extcmd", g, sc, idx)
			}
		}
	case "fetch", "pull", "clone", "ls-remote", "push", "archive":
		for i, a := range g.Args {
			v := a.Value
			for _, opt := range []string{"--upload-pack", "--receive-pack", "--exec"} {
				if v == opt && i+1 < len(g.Args) {
					w.gitWord(g.Args[i+1], "git "+g.Sub+" "+opt, g, sc, idx)
				} else if strings.HasPrefix(v, opt+"=") {
					w.gitWord(Word{Value: v[len(opt)+1:], Dynamic: a.Dynamic}, "git "+g.Sub+" "+opt, g, sc, idx)
				}
			}
			if strings.HasPrefix(v, "ext::") {
				w.a.Commands[idx].Opaque = "git " + g.Sub + " runs the command of an ext:: remote"
			}
		}
	case "for-each-repo":
		rest := g.Args
		for len(rest) > 0 && strings.HasPrefix(rest[0].Value, "--") {
			rest = rest[1:]
		}
		if len(rest) > 0 {
			in := sc
			in.dir, in.dirWhy = "", "git for-each-repo runs in every repository its configuration lists"
			in.via = appendVia(sc.via, "git for-each-repo")
			w.run(append([]Word{{Value: "git"}}, rest...), in, "")
		}
	}
}

// configElsewhere says where a git command's configuration may come from
// that the analysis does not read: a file the command line names
// (GIT_CONFIG_GLOBAL, GIT_CONFIG_SYSTEM, GIT_CONFIG, GIT_CONFIG_PARAMETERS)
// or includes (-c include.path); "" when none.
func configElsewhere(g *Git, sc scope) string {
	for _, name := range []string{"GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "GIT_CONFIG", "GIT_CONFIG_PARAMETERS", "XDG_CONFIG_HOME", "HOME"} {
		if b := sc.vars.lookup(name); b != nil && b.exported && !b.unset {
			return "the configuration $" + name + " points git at"
		}
	}
	for _, kv := range g.Config {
		if k, _, _ := strings.Cut(kv, "="); strings.HasPrefix(strings.ToLower(k), "include") {
			return "the file " + kv + " includes"
		}
	}
	return ""
}

// runsCommand reports configuration that git runs as a shell command.
func runsCommand(key string) bool {
	switch key {
	case "core.editor", "core.pager", "sequence.editor", "core.sshcommand", "diff.external", "core.askpass", "core.fsmonitor", "gpg.program", "credential.helper",
		"core.gitproxy", "interactive.difffilter", "uploadpack.packobjectshook", "gpg.ssh.defaultkeycommand", "sendemail.sendmailcmd", "sendemail.tocmd", "sendemail.cccmd", "sendemail.headercmd":
		return true
	}
	for _, suf := range []string{".cmd", ".command", ".textconv", ".clean", ".smudge", ".process", ".driver", ".helper", ".program", ".uploadpack", ".receivepack"} {
		if strings.HasSuffix(key, suf) {
			return true
		}
	}
	// submodule.<name>.update = !command: git submodule update runs it.
	return strings.HasPrefix(key, "pager.") || strings.HasPrefix(key, "submodule.") && strings.HasSuffix(key, ".update")
}

func (w *walker) gitScope(g *Git, sc scope, via string) scope {
	in := sc
	in.dir, in.dirWhy = g.Dir, g.DirDynamic
	if g.WorkTree != "" && g.GitDir == "" {
		in.dir = g.WorkTree
	}
	in.via = appendVia(sc.via, via)
	return in
}

func (w *walker) gitShell(text, via string, g *Git, sc scope, idx int, params []Word) {
	in := w.gitScope(g, sc, "")
	in.via = sc.via
	w.shellString(text, Word{Value: text}, via, in, idx, params)
}

func (w *walker) gitWord(word Word, via string, g *Git, sc scope, idx int) {
	in := w.gitScope(g, sc, "")
	in.via = sc.via
	w.shellString(word.Value, word, via, in, idx, nil)
}

// gitJoined runs words as git does for submodule foreach and bisect run:
// one word is a shell string, several are joined.
func (w *walker) gitJoined(words []Word, via string, g *Git, sc scope, idx int) {
	if len(words) == 0 {
		return
	}
	parts := make([]string, 0, len(words))
	for _, a := range words {
		if a.Dynamic != "" {
			w.gitWord(a, via, g, sc, idx)
			return
		}
		parts = append(parts, a.Value)
	}
	text := strings.Join(parts, " ")
	w.gitWord(Word{Value: text}, via, g, sc, idx)
}

// parseGit reads git's global options and expands aliases.
func (w *walker) parseGit(args []Word, sc scope) *Git {
	g := &Git{Dir: sc.dir, DirDynamic: sc.dirWhy}
	// The command's environment, else the harness's (gitEnv).
	if v, ok := w.gitEnv("GIT_DIR", sc); ok {
		g.setGitDir(w, v, sc.dir)
	}
	if v, ok := w.gitEnv("GIT_WORK_TREE", sc); ok {
		if v.Dynamic != "" {
			g.GitDirDynamic = "GIT_WORK_TREE is only known at run time"
		} else {
			g.WorkTree = joinDir(sc.dir, v.Value)
		}
	}
	if _, ok := w.gitEnv("GIT_COMMON_DIR", sc); ok {
		g.GitDirDynamic = "GIT_COMMON_DIR moves where git keeps its refs"
	}
	if sc.envWhy != "" && g.GitDir == "" {
		g.GitDirDynamic = sc.envWhy
	}
	w.gitConfigEnv(g, sc)
	base := progName(args[0].Value)
	rest := args[1:]
	if sub, ok := strings.CutPrefix(base, "git-"); ok {
		g.Sub = sub
		g.Args = canonGit(sub, rest)
		if rest := g.helpForm(); rest {
			g.Help = true
		}
		return g
	}
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		v := a.Value
		if a.Dynamic != "" {
			if i > 0 && (rest[i-1].Value == "-C" || rest[i-1].Value == "--git-dir" || rest[i-1].Value == "--work-tree") {
				continue
			}
			g.Dynamic = "the git subcommand " + v + " is only known at run time (" + a.Dynamic + ")"
			return g
		}
		next := func() (Word, bool) {
			if i+1 >= len(rest) {
				return Word{}, false
			}
			i++
			return rest[i], true
		}
		switch {
		case v == "-C":
			if d, ok := next(); ok {
				if d.Dynamic != "" {
					g.Dir, g.DirDynamic = "", "git -C "+d.Value+": "+d.Dynamic
				} else if d.Value != "" {
					if g.DirDynamic == "" {
						g.Dir = joinDir(g.Dir, d.Value)
					} else if filepath.IsAbs(d.Value) {
						g.Dir, g.DirDynamic = filepath.Clean(d.Value), ""
					}
				}
			}
		case v == "-c":
			if kv, ok := next(); ok {
				g.addConfig(kv)
			}
		case strings.HasPrefix(v, "--config-env="):
			name, env, _ := strings.Cut(v[len("--config-env="):], "=")
			val, _ := w.lookupVar(env, sc)
			g.addConfig(Word{Value: name + "=" + val.Value, Dynamic: val.Dynamic})
		case v == "--git-dir":
			if d, ok := next(); ok {
				g.setGitDir(w, d, g.Dir)
			}
		case strings.HasPrefix(v, "--git-dir="):
			g.setGitDir(w, Word{Value: v[len("--git-dir="):]}, g.Dir)
		case v == "--work-tree":
			if d, ok := next(); ok {
				if d.Dynamic != "" {
					g.GitDirDynamic = "--work-tree " + d.Value + ": " + d.Dynamic
				} else {
					g.WorkTree = joinDir(g.Dir, d.Value)
				}
			}
		case strings.HasPrefix(v, "--work-tree="):
			g.WorkTree = joinDir(g.Dir, v[len("--work-tree="):])
		case v == "--namespace" || v == "--super-prefix" || v == "--list-cmds" || v == "--attr-source":
			next()
		case v == "--version" || v == "-v" || v == "--html-path" || v == "--man-path" || v == "--info-path" || v == "--exec-path" || strings.HasPrefix(v, "--list-cmds="):
			g.Exits = true
			return g
		case v == "-h" || v == "--help":
			g.Exits, g.Help = true, true
			return g
		case strings.HasPrefix(v, "-"):
			// --no-pager, -p, -P, --bare, --literal-pathspecs,
			// --no-optional-locks, --exec-path=..., --namespace=...
		default:
			g.Sub = v
			g.Args = rest[i+1:]
			w.expandAlias(g, sc)
			g.Args = canonGit(g.Sub, g.Args)
			if g.Sub != "" && g.helpForm() {
				g.Help = true
			}
			return g
		}
	}
	g.Exits = true // git alone prints its usage
	return g
}

// helpForm reports a subcommand asked only for its help.
func (g *Git) helpForm() bool {
	if g.Sub == "help" {
		return true
	}
	if len(g.Args) == 1 && g.Args[0].Dynamic == "" && (g.Args[0].Value == "-h" || g.Args[0].Value == "--help") {
		return true
	}
	for _, a := range g.Args {
		if a.Value == "--" {
			break
		}
		if a.Value == "--help" {
			return true
		}
	}
	return false
}

func (g *Git) setGitDir(w *walker, d Word, dir string) {
	if d.Dynamic != "" {
		g.GitDir, g.GitDirDynamic = "", "the git directory "+d.Value+" is only known at run time ("+d.Dynamic+")"
		return
	}
	if dir == "" && !filepath.IsAbs(d.Value) {
		g.GitDirDynamic = "the git directory " + d.Value + " is relative to a directory only known at run time"
		return
	}
	g.GitDir = joinDir(dir, d.Value)
}

func (g *Git) addConfig(kv Word) {
	k, v, _ := strings.Cut(kv.Value, "=")
	k = strings.ToLower(k)
	if kv.Dynamic != "" {
		if strings.HasPrefix(k, "alias.") || k == "help.autocorrect" || runsCommand(k) || strings.HasPrefix(k, "include") {
			g.Dynamic = "git -c " + kv.Value + " is only known at run time"
		}
		return
	}
	// Case of the subsection is kept for alias names, which are not.
	g.Config = append(g.Config, k+"="+v)
}

// gitConfigEnv reads GIT_CONFIG_COUNT/KEY_n/VALUE_n and
// GIT_CONFIG_PARAMETERS set by the command line.
func (w *walker) gitConfigEnv(g *Git, sc scope) {
	if b, ok := w.gitEnv("GIT_CONFIG_PARAMETERS", sc); ok {
		kvs, ok := ConfigParameters(b.Value)
		if b.Dynamic != "" || !ok {
			g.Dynamic = "GIT_CONFIG_PARAMETERS sets git configuration the analysis cannot read"
			return
		}
		for _, kv := range kvs {
			g.addConfig(Word{Value: kv})
		}
	}
	b, ok := w.gitEnv("GIT_CONFIG_COUNT", sc)
	if !ok {
		return
	}
	n := atoiDefault(b.Value, -1)
	if b.Dynamic != "" || n < 0 || n > 64 {
		g.Dynamic = "GIT_CONFIG_COUNT is only known at run time"
		return
	}
	for i := 0; i < n; i++ {
		k, _ := w.gitEnv(fmt.Sprintf("GIT_CONFIG_KEY_%d", i), sc)
		v, _ := w.gitEnv(fmt.Sprintf("GIT_CONFIG_VALUE_%d", i), sc)
		if k.Dynamic != "" || v.Dynamic != "" {
			g.Dynamic = "GIT_CONFIG_KEY/VALUE are only known at run time"
			return
		}
		g.addConfig(Word{Value: k.Value + "=" + v.Value})
	}
}

func joinDir(dir, p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	if dir == "" {
		return ""
	}
	return filepath.Join(dir, p)
}

// updateRefStdin follows git update-ref --stdin: each line of a known
// input (delete, update, create) is the git update-ref command it stands
// for, so that a deletion of refs/stash or a move of main read from the
// input is judged as the same command written out; an input the analysis
// cannot see (or -z's format) leaves the command opaque.
func (w *walker) updateRefStdin(g *Git, sc scope, idx int) {
	stdin, nul := false, false
	for _, a := range g.Args {
		switch {
		case a.Dynamic != "":
			return // judged as it stands
		case a.Value == "--stdin":
			stdin = true
		case a.Value == "-z":
			nul = true
		}
	}
	if !stdin {
		return
	}
	text, ok := w.stdinText(sc)
	if !ok || nul {
		w.a.Commands[idx].Opaque = "git update-ref --stdin reads the refs it changes from an input the analysis cannot read"
		return
	}
	var lines []string
	for _, l := range strings.Split(text, "\n") {
		f := strings.Fields(l)
		if len(f) < 2 || len(lines) >= 256 {
			continue
		}
		switch f[0] {
		case "delete":
			lines = append(lines, "git update-ref -d "+quoteWord(f[1]))
		case "update", "create":
			if len(f) >= 3 {
				lines = append(lines, "git update-ref "+quoteWord(f[1])+" "+quoteWord(f[2]))
			}
		}
	}
	if len(lines) > 0 {
		w.gitShell(strings.Join(lines, "\n"), "git update-ref --stdin", g, sc, idx, nil)
	}
}

// expandAlias replaces an alias by its expansion (repeatedly, bounded);
// a shell alias (!...) is left in shellAlias.
func (w *walker) expandAlias(g *Git, sc scope) {
	for range 10 {
		if isGitCommand(g.Sub) {
			return
		}
		val, found, why := w.alias(g, sc)
		if why != "" {
			g.Dynamic = why
			return
		}
		if !found {
			w.autocorrect(g, sc)
			return
		}
		g.Aliases = append(g.Aliases, g.Sub)
		if strings.HasPrefix(val, "!") {
			g.shellAlias = val[1:]
			g.Sub = ""
			return
		}
		words, ok := splitAlias(val)
		if !ok || len(words) == 0 {
			g.Dynamic = "the alias " + g.Sub + " does not split into words"
			return
		}
		// Options in an alias are git's global options.
		for len(words) > 0 && strings.HasPrefix(words[0], "-") {
			switch words[0] {
			case "-c":
				if len(words) > 1 {
					g.addConfig(Word{Value: words[1]})
					words = words[1:]
				}
			case "-C":
				if len(words) > 1 {
					g.Dir = joinDir(g.Dir, words[1])
					words = words[1:]
				}
			}
			words = words[1:]
		}
		if len(words) == 0 {
			g.Sub = ""
			return
		}
		args := make([]Word, 0, len(words)-1+len(g.Args))
		for _, s := range words[1:] {
			args = append(args, Word{Value: s})
		}
		g.Sub = words[0]
		g.Args = append(args, g.Args...)
	}
	g.Dynamic = "the aliases nest too deep"
}

// splitAlias splits an alias value as git does (quotes and backslashes).
func splitAlias(s string) ([]string, bool) {
	var out []string
	var cur strings.Builder
	in := false
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			} else if c == '\\' && quote == '"' && i+1 < len(s) {
				i++
				cur.WriteByte(s[i])
			} else {
				cur.WriteByte(c)
			}
		case c == '\'' || c == '"':
			quote, in = c, true
		case c == '\\' && i+1 < len(s):
			i++
			cur.WriteByte(s[i])
			in = true
		case c == ' ' || c == '\t' || c == '\n':
			if in {
				out = append(out, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteByte(c)
			in = true
		}
	}
	if quote != 0 {
		return nil, false
	}
	if in {
		out = append(out, cur.String())
	}
	return out, true
}

// autocorrect fills Guesses when help.autocorrect would run a command
// close to an unknown subcommand.
func (w *walker) autocorrect(g *Git, sc scope) {
	v, ok := w.configValue(g, sc, "help.autocorrect")
	if !ok {
		return
	}
	switch strings.ToLower(v) {
	case "", "0", "false", "no", "off", "never", "show":
		return
	}
	for _, c := range gitCommands {
		if editDistance(g.Sub, c) <= 3 {
			g.Guesses = append(g.Guesses, c)
		}
	}
}

// editDistance is the Damerau-Levenshtein distance (adjacent swaps cost 1).
func editDistance(a, b string) int {
	if len(a) > 32 || len(b) > 32 {
		return 99
	}
	var d [34][34]int
	for i := 0; i <= len(a); i++ {
		d[i][0] = i
	}
	for j := 0; j <= len(b); j++ {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}

// isGitCommand reports a command built into git (which no alias can
// shadow).
func isGitCommand(s string) bool {
	_, found := slices.BinarySearch(gitCommands[:], s)
	return found
}

// gitCommands are git's built-in commands, sorted (isGitCommand searches
// them; TestGitCommandsAreSorted keeps the order). A fixed array, not a
// slice literal built on every lookup.
var gitCommands = [...]string{"add", "am", "annotate", "apply", "archive", "backfill", "bisect", "blame", "branch", "bugreport", "bundle", "cat-file", "check-attr", "check-ignore", "check-mailmap", "check-ref-format", "checkout", "checkout-index", "cherry", "cherry-pick", "citool", "clean", "clone", "column", "commit", "commit-graph", "commit-tree", "config", "count-objects", "credential", "credential-cache", "credential-store", "daemon", "describe", "diagnose", "diff", "diff-files", "diff-index", "diff-tree", "difftool", "fast-export", "fast-import", "fetch", "fetch-pack", "filter-branch", "fmt-merge-msg", "for-each-ref", "for-each-repo", "format-patch", "fsck", "fsck-objects", "fsmonitor--daemon", "gc", "get-tar-commit-id", "grep", "gui", "hash-object", "help", "hook", "http-backend", "index-pack", "init", "init-db", "instaweb", "interpret-trailers", "last-modified", "log", "ls-files", "ls-remote", "ls-tree", "mailinfo", "mailsplit", "maintenance", "merge", "merge-base", "merge-file", "merge-index", "merge-octopus", "merge-one-file", "merge-ours", "merge-recursive", "merge-recursive-ours", "merge-recursive-theirs", "merge-resolve", "merge-subtree", "merge-tree", "mergetool", "mktag", "mktree", "multi-pack-index", "mv", "name-rev", "notes", "pack-objects", "pack-redundant", "pack-refs", "patch-id", "prune", "prune-packed", "pull", "push", "range-diff", "read-tree", "rebase", "receive-pack", "reflog", "refs", "remote", "repack", "replace", "replay", "repo", "request-pull", "rerere", "reset", "restore", "rev-list", "rev-parse", "revert", "rm", "send-email", "send-pack", "shortlog", "show", "show-branch", "show-index", "show-ref", "sparse-checkout", "stage", "stash", "status", "stripspace", "submodule", "submodule--helper", "survey", "switch", "symbolic-ref", "tag", "unpack-file", "unpack-objects", "update-index", "update-ref", "update-server-info", "upload-archive", "upload-pack", "var", "verify-commit", "verify-pack", "verify-tag", "version", "whatchanged", "worktree", "write-tree"}

// Where returns the directory git works in (the work tree when one is
// given without a git directory), the git directory when given, and why
// either is only known at run time.
func (g *Git) Where() (dir, gitDir, dynamic string) {
	dir = g.Dir
	if g.WorkTree != "" && g.GitDir == "" {
		dir = g.WorkTree
	}
	dynamic = g.DirDynamic
	if dynamic == "" {
		dynamic = g.GitDirDynamic
	}
	return dir, g.GitDir, dynamic
}

// Runs reports a git command that runs the subcommand sub (not only its
// help, not a print-and-exit form).
func (c Command) Runs(sub string) bool {
	return c.Git != nil && c.Git.Sub == sub && !c.Git.Help && !c.Git.Exits
}

// RunsHooks reports a git subcommand that runs the repository's hooks
// (pre-commit, post-commit, post-merge, pre-push, post-checkout,
// reference-transaction, ...): what a hook does, the command does.
func RunsHooks(sub string) bool {
	switch sub {
	case "commit", "merge", "pull", "rebase", "am", "checkout", "switch", "push", "cherry-pick", "revert",
		"worktree", "gc", "stash", "reset", "update-ref", "fetch", "clone":
		return true
	}
	return false
}
