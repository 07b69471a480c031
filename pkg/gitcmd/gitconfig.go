package gitcmd

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/magehook/magehook/pkg/gitx"
)

// alias looks alias.<sub> up the way git does: -c first, then values an
// earlier git config in the same command set, then the repository's and
// the user's configuration files (includes followed). why is set when it
// cannot be decided.
func (w *walker) alias(g *Git, sc scope) (val string, found bool, why string) {
	key := "alias." + strings.ToLower(g.Sub)
	if v, ok := lastConfig(g.Config, key); ok {
		return v, true, ""
	}
	v, ok, why := w.configValueWhy(g, sc, key)
	return v, ok, why
}

// configValue returns a configuration value, "" and false when unset or
// undecidable.
func (w *walker) configValue(g *Git, sc scope, key string) (string, bool) {
	if v, ok := lastConfig(g.Config, key); ok {
		return v, true
	}
	v, ok, why := w.configValueWhy(g, sc, key)
	if why != "" {
		return "", false
	}
	return v, ok
}

func lastConfig(kvs []string, key string) (string, bool) {
	val, found := "", false
	for _, kv := range kvs {
		k, v, _ := strings.Cut(kv, "=")
		if k == key {
			val, found = v, true
		}
	}
	return val, found
}

func (w *walker) configValueWhy(g *Git, sc scope, key string) (string, bool, string) {
	if v, ok := lastConfig(w.gitSets, key); ok {
		return v, true, ""
	}
	if w.configWhy != "" {
		return "", false, w.configWhy
	}
	if w.o.ReadFile == nil {
		return "", false, "git " + g.Sub + " may be an alias, and the configuration is not read"
	}
	files, why := w.configFiles(g, sc)
	if why != "" {
		return "", false, "git " + g.Sub + " may be an alias of a repository only known at run time (" + why + ")"
	}
	val, found := "", false
	for _, f := range files {
		if v, ok := w.configFile(f, key, 0); ok {
			val, found = v, true
		}
	}
	return val, found, ""
}

// configFiles are the files a git invocation reads its configuration
// from, in git's order: the system's ($GIT_CONFIG_SYSTEM, else
// /etc/gitconfig and the one of git's own prefix; none under
// GIT_CONFIG_NOSYSTEM), the user's ($GIT_CONFIG_GLOBAL, else
// $XDG_CONFIG_HOME/git/config or ~/.config/git/config, and ~/.gitconfig),
// the repository's config (the common directory's) and config.worktree.
// why is set when the repository is only known at run time.
func (w *walker) configFiles(g *Git, sc scope) (files []string, why string) {
	if v, ok := w.gitEnv("GIT_CONFIG_NOSYSTEM", sc); !ok || v.Dynamic != "" || !truthy(v.Value) {
		if v, ok := w.gitEnv("GIT_CONFIG_SYSTEM", sc); ok && v.Dynamic == "" && v.Value != "" {
			files = append(files, v.Value)
		} else {
			files = append(files, SystemConfigFiles()...)
		}
	}
	if v, ok := w.lookupVar("GIT_CONFIG_GLOBAL", sc); ok && v.Dynamic == "" && v.Value != "" {
		files = append(files, v.Value)
	} else if home := w.home(sc); home != "" {
		xdg, _ := w.lookupVar("XDG_CONFIG_HOME", sc)
		if xdg.Dynamic == "" && xdg.Value != "" {
			files = append(files, filepath.Join(xdg.Value, "git", "config"))
		} else {
			files = append(files, filepath.Join(home, ".config", "git", "config"))
		}
		files = append(files, filepath.Join(home, ".gitconfig"))
	}
	gitDir := g.GitDir
	if gitDir == "" {
		if g.GitDirDynamic != "" || g.DirDynamic != "" {
			why := g.GitDirDynamic
			if why == "" {
				why = g.DirDynamic
			}
			return files, why
		}
		start := g.Dir
		if g.WorkTree != "" {
			start = g.WorkTree
		}
		gitDir = w.findGitDir(start)
	}
	if gitDir != "" {
		common := gitDir
		if data, ok := w.readFile(filepath.Join(gitDir, "commondir")); ok {
			common = joinDir(gitDir, strings.TrimSpace(string(data)))
		}
		files = append(files, filepath.Join(common, "config"), filepath.Join(gitDir, "config.worktree"))
	}
	return files, ""
}

// SystemConfigFiles are the system configuration files git may read:
// /etc/gitconfig, and the etc/gitconfig of the prefix the hooks' git is
// installed in (pkg/gitx: /opt/homebrew/etc/gitconfig).
func SystemConfigFiles() []string {
	out := []string{"/etc/gitconfig"}
	if bin := filepath.Dir(gitx.Path()); filepath.Base(bin) == "bin" || filepath.Base(bin) == "cmd" {
		if prefix := filepath.Dir(bin); prefix != "/usr" && prefix != "/" && prefix != "." {
			out = append(out, filepath.Join(prefix, "etc", "gitconfig"))
		}
	}
	return out
}

func truthy(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "1", "true", "yes", "on":
		return true
	}
	return false
}

// gitEnv is a variable of git's environment as git will see it: set,
// exported or unset by the command, else the hook process's own (the
// harness's) environment, which every command the agent runs inherits.
func (w *walker) gitEnv(name string, sc scope) (Word, bool) {
	if b := sc.vars.lookup(name); b != nil {
		if b.unset {
			return Word{}, false
		}
		if b.exported {
			return b.val, true
		}
		if v, ok := w.getenv(name); ok && v != "" {
			return b.val, true // an inherited variable stays exported
		}
		return Word{}, false
	}
	if v, ok := w.getenv(name); ok && v != "" {
		return Word{Value: v}, true
	}
	return Word{}, false
}

// ConfigParameters reads GIT_CONFIG_PARAMETERS as git writes it (for
// git -c in a command git starts): single-quoted 'key'='value' pairs, or
// 'key=value' in the older form, separated by spaces; ok is false for a
// value that does not read so.
func ConfigParameters(s string) (kvs []string, ok bool) {
	i := 0
	quoted := func() (string, bool) {
		if i >= len(s) || s[i] != '\'' {
			return "", false
		}
		i++
		var b strings.Builder
		for {
			j := strings.IndexByte(s[i:], '\'')
			if j < 0 {
				return "", false
			}
			b.WriteString(s[i : i+j])
			i += j + 1
			if strings.HasPrefix(s[i:], `\''`) {
				b.WriteByte('\'')
				i += 3
				continue
			}
			return b.String(), true
		}
	}
	for {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n') {
			i++
		}
		if i >= len(s) {
			return kvs, true
		}
		k, ok := quoted()
		if !ok {
			return nil, false
		}
		if i < len(s) && s[i] == '=' {
			i++
			v, ok := quoted()
			if !ok {
				return nil, false
			}
			kvs = append(kvs, k+"="+v)
			continue
		}
		if !strings.Contains(k, "=") {
			k += "=true"
		}
		kvs = append(kvs, k)
	}
}

// gitPrograms follows the programs a git invocation's configuration
// starts (core.fsmonitor, core.pager and pager.*, the editors,
// core.sshCommand, diff.external and the diff and merge drivers, the
// filters, credential helpers, gpg.program, uploadpack and receivepack:
// runsCommand), as the commands git runs: the values of the system's,
// the user's and the repository's files (includes followed) and those an
// earlier git config in the command sets, unless the invocation's own -c
// replaces them (the -c ones are followed already); and, for a git config
// that sets one, the program it sets, which every later git command will
// start. A program that is a script is read and followed as scripts are.
func (w *walker) gitPrograms(g *Git, sc scope, idx int) {
	if g.Help || g.Exits || g.Dynamic != "" {
		return
	}
	if w.programs == nil {
		w.programs = map[string]bool{}
	}
	run := func(k, v string) {
		v = strings.TrimSpace(v)
		if v == "" || w.programs[k] {
			return
		}
		if strings.HasSuffix(k, ".helper") && !strings.HasPrefix(v, "!") && !strings.ContainsAny(v, `/\ `) {
			return // credential.helper store: git runs its own git credential-store
		}
		if strings.HasPrefix(k, "submodule.") && strings.HasSuffix(k, ".update") && !strings.HasPrefix(v, "!") {
			return // checkout, rebase, merge, none: git's own update modes
		}
		w.programs[k] = true // a git the program runs does not start it again
		w.gitShell(strings.TrimPrefix(v, "!"), "git config "+k, g, sc, idx, nil)
		delete(w.programs, k)
	}
	if g.Sub == "config" {
		if k, v, ok := configSet(g.Args); ok && runsCommand(k) {
			run(k, v)
		}
	}
	files, why := w.configFiles(g, sc)
	if why != "" {
		return
	}
	if w.configCache == nil {
		w.configCache = map[string][]ConfigEntry{}
	}
	key := strings.Join(files, "\x00")
	entries, ok := w.configCache[key]
	if !ok {
		for _, f := range files {
			entries = w.configEntries(f, entries, 0)
		}
		w.configCache[key] = entries
	}
	last := map[string]string{}
	var order []string
	note := func(k, v string) {
		if !runsCommand(k) {
			return
		}
		if _, seen := last[k]; !seen {
			order = append(order, k)
		}
		last[k] = v
	}
	for _, e := range entries {
		note(e.Key, e.Value)
	}
	for _, kv := range w.gitSets {
		k, v, _ := strings.Cut(kv, "=")
		note(k, v)
	}
	for _, kv := range g.Config {
		k, _, _ := strings.Cut(kv, "=")
		delete(last, k) // -c wins, and is followed already
	}
	for _, k := range order {
		if v, ok := last[k]; ok {
			run(k, v)
		}
	}
}

// configSet is the key and value a git config command line sets, when it
// sets one literally.
func configSet(args []Word) (key, value string, ok bool) {
	var words []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a.Dynamic != "" {
			return "", "", false
		}
		v := a.Value
		switch {
		case v == "-f" || v == "--file" || v == "--blob" || v == "--type" || v == "--comment" || v == "--default":
			i++
		case v == "set" || v == "--add" || v == "--replace-all" || v == "--global" || v == "--local" || v == "--system" || v == "--worktree" || v == "--all":
		case v == "unset" || v == "--unset" || v == "--unset-all" || strings.HasPrefix(v, "--get") || v == "-l" || v == "--list" || v == "get" || v == "list" || v == "-e" || v == "--edit" || v == "edit":
			return "", "", false
		case strings.HasPrefix(v, "-"):
		default:
			words = append(words, v)
		}
	}
	if len(words) < 2 {
		return "", "", false
	}
	return strings.ToLower(words[0]), words[1], true
}

// findGitDir walks up from dir to the directory holding .git.
func (w *walker) findGitDir(dir string) string {
	for d := dir; d != ""; {
		dot := filepath.Join(d, ".git")
		if w.isDir(dot) {
			return dot
		}
		if data, ok := w.readFile(dot); ok {
			if t, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "gitdir:"); ok {
				return joinDir(d, strings.TrimSpace(t))
			}
		}
		parent := filepath.Dir(d)
		if parent == d {
			return ""
		}
		d = parent
	}
	return ""
}

// configFile returns the last value of key in a git configuration file
// and the files it includes.
func (w *walker) configFile(path, key string, depth int) (string, bool) {
	if depth > 10 {
		return "", false
	}
	data, ok := w.readFile(path)
	if !ok {
		return "", false
	}
	val, found := "", false
	for _, kv := range ParseConfig(string(data)) {
		if kv.Key == "include.path" || (strings.HasPrefix(kv.Key, "includeif.") && strings.HasSuffix(kv.Key, ".path")) {
			p := kv.Value
			if strings.HasPrefix(p, "~/") {
				p = filepath.Join(w.o.Home, p[2:])
			} else if !filepath.IsAbs(p) {
				p = filepath.Join(filepath.Dir(path), p)
			}
			// includeIf conditions are not evaluated: an alias behind
			// one is taken as defined, which only ever adds checks.
			if v, ok := w.configFile(p, key, depth+1); ok {
				val, found = v, true
			}
			continue
		}
		if kv.Key == key {
			val, found = kv.Value, true
		}
	}
	return val, found
}

// ConfigEntry is one key = value of a git configuration file; Key is
// section[.subsection].name with the section and name lower-cased.
type ConfigEntry struct{ Key, Value string }

// ParseConfig reads git's configuration format: sections ([core], [remote
// "origin"], [a.b]), quoted values, escapes, comments, continuation lines.
// A key without = is true.
func ParseConfig(text string) []ConfigEntry {
	var out []ConfigEntry
	section := ""
	i := 0
	for i < len(text) {
		// Skip blank space.
		for i < len(text) && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r') {
			i++
		}
		if i >= len(text) {
			break
		}
		switch c := text[i]; {
		case c == '#' || c == ';':
			for i < len(text) && text[i] != '\n' {
				i++
			}
		case c == '[':
			end := strings.IndexByte(text[i:], ']')
			if end < 0 {
				return out
			}
			section = sectionName(text[i+1 : i+end])
			i += end + 1
		default:
			start := i
			for i < len(text) && (isAlnum(text[i]) || text[i] == '-') {
				i++
			}
			name := strings.ToLower(text[start:i])
			if name == "" {
				for i < len(text) && text[i] != '\n' {
					i++
				}
				continue
			}
			for i < len(text) && (text[i] == ' ' || text[i] == '\t') {
				i++
			}
			value := "true"
			if i < len(text) && text[i] == '=' {
				i++
				value, i = configValueAt(text, i)
			}
			out = append(out, ConfigEntry{Key: section + "." + name, Value: value})
		}
	}
	return out
}

func sectionName(h string) string {
	h = strings.TrimSpace(h)
	if q := strings.IndexByte(h, '"'); q >= 0 {
		name := strings.ToLower(strings.TrimSpace(h[:q]))
		sub := strings.TrimSuffix(h[q+1:], `"`)
		sub = strings.ReplaceAll(sub, `\"`, `"`)
		sub = strings.ReplaceAll(sub, `\\`, `\`)
		return name + "." + sub
	}
	// [a.b] is the old form of [a "b"], subsection lower-cased.
	return strings.ToLower(h)
}

// configValueAt reads a value from i to the end of its (logical) line.
func configValueAt(text string, i int) (string, int) {
	var b strings.Builder
	quoted := false
	pendingSpace := ""
	for i < len(text) && (text[i] == ' ' || text[i] == '\t') {
		i++
	}
	for ; i < len(text); i++ {
		c := text[i]
		switch {
		case c == '\n' && !quoted:
			return b.String(), i + 1
		case c == '\n':
			return b.String(), i + 1 // an unterminated quote ends the value
		case (c == '#' || c == ';') && !quoted:
			for i < len(text) && text[i] != '\n' {
				i++
			}
			return b.String(), i
		case c == '"':
			b.WriteString(pendingSpace)
			pendingSpace = ""
			quoted = !quoted
		case c == '\\' && i+1 < len(text):
			i++
			b.WriteString(pendingSpace)
			pendingSpace = ""
			switch text[i] {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'b':
				s := b.String()
				if s != "" {
					b.Reset()
					b.WriteString(s[:len(s)-1])
				}
			case '\n':
			case '\r':
				if i+1 < len(text) && text[i+1] == '\n' {
					i++
				}
			default:
				b.WriteByte(text[i])
			}
		case (c == ' ' || c == '\t' || c == '\r') && !quoted:
			pendingSpace += string(c)
		default:
			b.WriteString(pendingSpace)
			pendingSpace = ""
			b.WriteByte(c)
		}
	}
	return b.String(), i
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// LoadConfig reads the configuration git reads for a git directory, in
// git's order (a later entry wins): the user's file ($XDG_CONFIG_HOME or
// ~/.config/git/config, then ~/.gitconfig), the repository's config (the
// common directory's, for a linked worktree) and config.worktree, with
// include and includeIf files followed (conditions not evaluated).
func LoadConfig(gitDir, home string, getenv func(string) string, readFile func(string) ([]byte, error)) []ConfigEntry {
	w := &walker{o: Options{Home: home, ReadFile: readFile, MaxBytes: DefaultMaxBytes}}
	var files []string
	env := func(k string) string {
		if getenv == nil {
			return ""
		}
		return getenv(k)
	}
	if !truthy(env("GIT_CONFIG_NOSYSTEM")) {
		if sys := env("GIT_CONFIG_SYSTEM"); sys != "" {
			files = append(files, sys)
		} else {
			files = append(files, SystemConfigFiles()...)
		}
	}
	if g := env("GIT_CONFIG_GLOBAL"); g != "" {
		files = append(files, g)
	} else if home != "" {
		if x := env("XDG_CONFIG_HOME"); x != "" {
			files = append(files, filepath.Join(x, "git", "config"))
		} else {
			files = append(files, filepath.Join(home, ".config", "git", "config"))
		}
		files = append(files, filepath.Join(home, ".gitconfig"))
	}
	if gitDir != "" {
		common := gitDir
		if data, ok := w.readFile(filepath.Join(gitDir, "commondir")); ok {
			common = joinDir(gitDir, strings.TrimSpace(string(data)))
		}
		files = append(files, filepath.Join(common, "config"), filepath.Join(gitDir, "config.worktree"))
	}
	var out []ConfigEntry
	for _, f := range files {
		out = w.configEntries(f, out, 0)
	}
	// The environment's configuration comes last, as git reads it.
	if kvs, ok := ConfigParameters(env("GIT_CONFIG_PARAMETERS")); ok {
		for _, kv := range kvs {
			k, v, _ := strings.Cut(kv, "=")
			out = append(out, ConfigEntry{Key: configKey(k), Value: v})
		}
	}
	if n, err := strconv.Atoi(env("GIT_CONFIG_COUNT")); err == nil && n > 0 && n <= 1000 {
		for i := 0; i < n; i++ {
			out = append(out, ConfigEntry{Key: configKey(env(fmt.Sprintf("GIT_CONFIG_KEY_%d", i))), Value: env(fmt.Sprintf("GIT_CONFIG_VALUE_%d", i))})
		}
	}
	return out
}

// configKey is a key as ParseConfig gives it: section and name lower
// case, a subsection as written.
func configKey(k string) string {
	first, rest, ok := strings.Cut(k, ".")
	if !ok {
		return strings.ToLower(k)
	}
	i := strings.LastIndexByte(rest, '.')
	if i < 0 {
		return strings.ToLower(first) + "." + strings.ToLower(rest)
	}
	return strings.ToLower(first) + "." + rest[:i] + "." + strings.ToLower(rest[i+1:])
}

func (w *walker) configEntries(path string, out []ConfigEntry, depth int) []ConfigEntry {
	if depth > 10 {
		return out
	}
	data, ok := w.readFile(path)
	if !ok {
		return out
	}
	for _, kv := range ParseConfig(string(data)) {
		if kv.Key == "include.path" || (strings.HasPrefix(kv.Key, "includeif.") && strings.HasSuffix(kv.Key, ".path")) {
			p := kv.Value
			if strings.HasPrefix(p, "~/") {
				p = filepath.Join(w.o.Home, p[2:])
			} else if !filepath.IsAbs(p) {
				p = filepath.Join(filepath.Dir(path), p)
			}
			out = w.configEntries(p, out, depth+1)
			continue
		}
		out = append(out, kv)
	}
	return out
}
