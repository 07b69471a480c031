package gitcmd

import (
	"path/filepath"
	"strings"
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
	var files []string
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
			return "", false, "git " + g.Sub + " may be an alias of a repository only known at run time (" + why + ")"
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
	val, found := "", false
	for _, f := range files {
		if v, ok := w.configFile(f, key, 0); ok {
			val, found = v, true
		}
	}
	return val, found, ""
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
	return out
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
