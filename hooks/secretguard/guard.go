package secretguard

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/magehook/magehook/pkg/gitcmd"
	"github.com/magehook/magehook/pkg/gitx"
	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/pwsh"
	"github.com/magehook/magehook/pkg/toolargs"
)

// MaxTreeEntries bounds the walk of a directory a command reads whole;
// past it, the tree is denied only when it holds the home directory or the
// checkout (where secret files are), else let through.
const MaxTreeEntries = 20000

type guard struct {
	c    *hook.Call
	s    *secrets
	home string
	// dir is where a shell command's relative paths start; cwd is the
	// payload's.
	dir, cwd string
}

func newGuard(c *hook.Call) (*guard, error) {
	home := ""
	if c.Getenv != nil {
		home = c.Getenv("HOME")
	}
	s, err := loadSecrets(c, home)
	if err != nil {
		return nil, err
	}
	g := &guard{c: c, s: s, home: home, cwd: c.Payload.CWD, dir: c.Payload.WorkDir(home)}
	if g.cwd == "" {
		g.cwd, _ = os.Getwd()
	}
	if g.dir == "" {
		g.dir = g.cwd
	}
	return g, nil
}

// abs makes a tool's path absolute: ~/ is the home directory, a relative
// path starts in the payload's cwd.
func (g *guard) abs(p string) string {
	p = strings.TrimPrefix(p, "file://")
	if strings.HasPrefix(p, "~/") && g.home != "" {
		return filepath.Join(g.home, p[2:])
	}
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(g.cwd, p)
}

// file judges one file a tool reads; a directory is not a read of its
// contents.
func (g *guard) file(what, p string) string {
	if w := g.s.what(p); w != "" {
		if info, err := os.Stat(p); err == nil && info.IsDir() {
			return ""
		}
		return fmt.Sprintf("%s would read %s (%s)", what, g.show(p), w)
	}
	return ""
}

// show writes a path as the agent knows it: relative to the cwd when
// inside it, ~/ in the home directory.
func (g *guard) show(p string) string {
	if rel, ok := under(filepath.ToSlash(p), filepath.ToSlash(g.cwd)); ok {
		return rel
	}
	if rel, ok := under(filepath.ToSlash(p), filepath.ToSlash(g.home)); ok {
		return "~/" + rel
	}
	return p
}

// readTool judges Read and NotebookRead (and Gemini's read_many_files,
// mapped onto Read: paths and include, which may be patterns).
func (g *guard) readTool() ([]string, error) {
	p := g.c.Payload
	var found []string
	tool := p.ToolName
	for _, f := range [...]string{"file_path", "notebook_path", "absolute_path", "path", "filePath"} {
		if v, ok := p.InputString(f); ok && v != "" {
			if hasMeta(v) {
				found = append(found, g.pattern(tool, g.abs(v))...)
			} else if why := g.file(tool, g.abs(v)); why != "" {
				found = append(found, why)
			}
		}
	}
	var many struct {
		Paths   []string `json:"paths"`
		Include []string `json:"include"`
	}
	if len(p.ToolInput) > 0 && (strings.Contains(string(p.ToolInput), `"paths"`) || strings.Contains(string(p.ToolInput), `"include"`)) {
		if err := json.Unmarshal(p.ToolInput, &many); err != nil {
			return nil, fmt.Errorf("tool_input of %s: %w", tool, err)
		}
	}
	for _, v := range append(many.Paths, many.Include...) {
		if hasMeta(v) || isDir(g.abs(v)) {
			found = append(found, g.pattern(tool, g.abs(v))...)
		} else if why := g.file(tool, g.abs(v)); why != "" {
			found = append(found, why)
		}
	}
	return found, nil
}

// pattern judges a path pattern a tool reads every match of (a directory
// stands for everything below it).
func (g *guard) pattern(tool, pat string) []string {
	if isDir(pat) {
		pat = filepath.Join(pat, "**")
	}
	base := pat
	for hasMeta(base) {
		base = filepath.Dir(base)
	}
	rel := strings.TrimPrefix(filepath.ToSlash(strings.TrimPrefix(pat, base)), "/")
	var found []string
	g.walk(base, nil, func(p string) bool {
		r, _ := filepath.Rel(base, p)
		if matchPath(rel, filepath.ToSlash(r)) {
			if why := g.file(tool, p); why != "" {
				found = append(found, why)
				return false
			}
		}
		return true
	})
	return found
}

func matchPath(pattern, rel string) bool {
	if !strings.Contains(pattern, "/") {
		ok, _ := path.Match(pattern, rel)
		return ok
	}
	return matchSegments(strings.Split(pattern, "/"), strings.Split(rel, "/"))
}

func matchSegments(pat, p []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			for i := 0; i <= len(p); i++ {
				if matchSegments(pat[1:], p[i:]) {
					return true
				}
			}
			return false
		}
		if len(p) == 0 {
			return false
		}
		if ok, _ := path.Match(pat[0], p[0]); !ok {
			return false
		}
		pat, p = pat[1:], p[1:]
	}
	return len(p) == 0
}

// grepTool judges Grep (ripgrep, as Claude Code runs it: --hidden, the
// version-control directories left out, .gitignore respected): a file
// path is read; a directory is searched without the git-ignored files,
// unless the glob (include) names them.
func (g *guard) grepTool() ([]string, error) {
	p := g.c.Payload
	dir := g.cwd
	for _, f := range [...]string{"path", "dir_path", "file_path"} {
		if v, ok := p.InputString(f); ok && v != "" {
			dir = g.abs(v)
			break
		}
	}
	f := &gitcmd.TreeFilter{Hidden: true}
	for _, k := range [...]string{"glob", "include"} {
		if v, ok := p.InputString(k); ok && v != "" {
			f.Include = append(f.Include, v)
		}
	}
	if why := g.tree(p.ToolName, dir, f); why != "" {
		return []string{why}, nil
	}
	return nil, nil
}

// tree judges a read of everything below dir (a file: that file) that a
// filter narrows.
func (g *guard) tree(what, dir string, f *gitcmd.TreeFilter) string {
	info, err := os.Stat(dir)
	if err != nil {
		return g.file(what, dir) // nothing there yet: a name that is a secret
	}
	if !info.IsDir() {
		return g.file(what, dir) // named explicitly: no filter leaves it out
	}
	var found string
	complete := g.walk(dir, f, func(p string) bool {
		w := g.s.what(p)
		if w == "" {
			return true
		}
		if f != nil && !f.Ignored && !named(f, p) && g.c.Config != nil && gitx.Ignored(g.c.Config.Root(), p, false) {
			return true
		}
		found = fmt.Sprintf("%s would read %s (%s) in searching %s", what, g.show(p), w, g.show(dir))
		return false
	})
	if found != "" {
		return found + hint(f)
	}
	if !complete {
		for _, inside := range []string{g.home, g.rootDir()} {
			if inside != "" && (inside == dir || strings.HasPrefix(inside, dir+string(filepath.Separator)) || strings.HasPrefix(dir, inside+string(filepath.Separator))) {
				return fmt.Sprintf("%s reads everything below %s, more than secretguard can check for secret files; narrow it to the directories you mean", what, g.show(dir))
			}
		}
	}
	return ""
}

func hint(f *gitcmd.TreeFilter) string {
	if f == nil {
		return "; name the files you mean instead"
	}
	return "; leave secret files out (grep --exclude='.env*', rg -g '!.env*', a Grep glob) or search the directories you mean"
}

func (g *guard) rootDir() string {
	if g.c.Config == nil {
		return ""
	}
	return g.c.Config.Root()
}

// named reports whether a filter's include globs name the file, which
// makes ripgrep search it whether hidden or ignored.
func named(f *gitcmd.TreeFilter, p string) bool {
	for _, inc := range f.Include {
		if ok, _ := path.Match(inc, filepath.Base(p)); ok {
			return true
		}
		if matchPath(strings.TrimPrefix(inc, "**/"), filepath.Base(p)) {
			return true
		}
	}
	return false
}

// walk visits the regular files and links below dir that a filter lets a
// search read, until visit returns false or the walk passes
// MaxTreeEntries; it reports whether it saw everything.
func (g *guard) walk(dir string, f *gitcmd.TreeFilter, visit func(string) bool) bool {
	n := 0
	complete := true
	stop := false
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || stop {
			return nil
		}
		if n++; n > MaxTreeEntries {
			complete = false
			return filepath.SkipAll
		}
		if g.c.Budget != nil && g.c.Budget.Check() != nil {
			complete = false
			return filepath.SkipAll
		}
		name := d.Name()
		if p == dir {
			return nil
		}
		if d.IsDir() {
			if name == ".git" {
				return filepath.SkipDir
			}
			if f != nil && (!f.Hidden && !named(f, p) && strings.HasPrefix(name, ".") || anyMatch(f.ExcludeDir, name)) {
				return filepath.SkipDir
			}
			return nil
		}
		if f != nil {
			if anyMatch(f.Exclude, name) {
				return nil
			}
			if len(f.Include) > 0 && !named(f, p) {
				return nil
			}
			if !f.Hidden && strings.HasPrefix(name, ".") && !named(f, p) {
				return nil
			}
		}
		if !visit(p) {
			stop = true
			return filepath.SkipAll
		}
		return nil
	})
	return complete
}

func anyMatch(globs []string, name string) bool {
	for _, gl := range globs {
		if ok, _ := path.Match(gl, name); ok {
			return true
		}
	}
	return false
}

func hasMeta(s string) bool { return strings.ContainsAny(s, "*?[") }

func isDir(p string) bool {
	info, err := os.Stat(p)
	return err == nil && info.IsDir()
}

// shell judges a Bash command, or (powershell) a PowerShell one, read into
// the same model.
func (g *guard) shell(command string, powershell bool) ([]string, error) {
	c := g.c
	a, err := gitcmd.ForGate(command, g.dir, g.home, c.Getenv, c.Budget, powershell)
	if a == nil {
		return nil, err
	}
	reads, dumps := a.Reads()
	var found []string
	for _, d := range dumps {
		text := strings.TrimSpace(a.Commands[d.Command].Text)
		if d.Credential {
			found = append(found, fmt.Sprintf("%q prints a stored credential (%s)", text, d.Op))
			continue
		}
		found = append(found, fmt.Sprintf("%q prints the whole environment, secrets included; print only the variable you need (printenv NAME)", text))
	}
	text := func(r gitcmd.Read) string {
		if r.Command >= 0 && r.Command < len(a.Commands) {
			return fmt.Sprintf("%q", strings.TrimSpace(a.Commands[r.Command].Text))
		}
		return "a redirection (" + r.Op + ")"
	}
	var mentioned *bool
	for _, r := range reads {
		if err := c.Budget.Check(); err != nil {
			return nil, err
		}
		what := text(r)
		switch {
		case r.Dynamic != "":
			if mentioned == nil {
				m := g.s.mentions(command) || g.s.mentions(gitcmd.Decoded(command))
				mentioned = &m
			}
			if *mentioned {
				found = append(found, fmt.Sprintf("%s reads a file only known at run time (%s) in a command that names a secret file, so secretguard cannot tell it is not one; write the path out", what, r.Dynamic))
			}
			continue
		case r.To != "" && r.To != "?" && g.s.what(r.To) != "":
			continue // a copy from one secret file to another
		}
		p := r.Path
		if strings.HasPrefix(p, "~/") {
			if g.home == "" {
				continue
			}
			p = filepath.Join(g.home, p[2:])
		}
		var why string
		switch {
		case r.Glob:
			for _, m := range expand(p) {
				if why = g.file(what, m); why != "" {
					break
				}
			}
			if why == "" && r.Tree {
				for _, m := range expand(p) {
					if why = g.tree(what, m, r.Filter); why != "" {
						break
					}
				}
			}
		case r.Tree:
			why = g.tree(what, p, r.Filter)
		case r.Rev != "":
			// A blob: what the path names in that revision, whether or
			// not it exists in the work tree.
			if w := g.s.what(p); w != "" {
				why = fmt.Sprintf("%s would read %s at %s (%s)", what, g.show(p), r.Rev, w)
			}
		default:
			why = g.file(what, p)
		}
		if why != "" {
			found = append(found, why)
		}
	}
	return found, nil
}

// expand is a pattern's matches as bash makes them: * and ? do not match
// a leading dot.
func expand(pat string) []string {
	matches, _ := filepath.Glob(pat)
	pparts := strings.Split(filepath.ToSlash(pat), "/")
	var out []string
	for _, m := range matches {
		mparts := strings.Split(filepath.ToSlash(m), "/")
		ok := len(mparts) == len(pparts)
		for i := 0; ok && i < len(mparts); i++ {
			if strings.HasPrefix(mparts[i], ".") && !strings.HasPrefix(pparts[i], ".") {
				ok = false
			}
		}
		if ok {
			out = append(out, m)
		}
	}
	return out
}

// powershell judges PowerShell as the shell model reads it (its cmdlets'
// reads, an Env: listing and its native commands, gitcmd.Options.PowerShell),
// and the .NET calls that model cannot see into ([IO.File]::ReadAllText,
// GetEnvironmentVariables()).
func (g *guard) powershell(command string) ([]string, error) {
	found, err := g.shell(command, true)
	if err != nil {
		return nil, err
	}
	cmds, err := pwsh.Parse(command)
	if err != nil {
		if g.s.mentions(command) {
			return append(found, "PowerShell names a secret file in a command secretguard cannot read ("+err.Error()+")"), nil
		}
		return found, nil
	}
	for _, cmd := range cmds {
		name := cmd.Name()
		var paths []string
		dump := false
		for _, w := range cmd.Args {
			t := strings.ToLower(w.Text)
			if strings.Contains(t, "getenvironmentvariables(") {
				dump = true
			}
			if strings.Contains(t, "[system.io.file]::") || strings.Contains(t, "[io.file]::") {
				paths = append(paths, quoted(w.Text)...)
				if w.Group && w.Inner >= 0 && w.Inner < len(cmds) {
					// The method's arguments: the group's command.
					for _, a := range cmds[w.Inner].Args {
						if a.Literal {
							paths = append(paths, unquote(a.Text))
						}
					}
				}
			}
		}
		if dump {
			found = append(found, "PowerShell lists the whole environment (Env:), secrets included; print only the variable you need ($env:NAME)")
		}
		for _, p := range paths {
			if why := g.file("PowerShell "+name, g.pabs(p)); why != "" {
				found = append(found, why)
			}
		}
	}
	return found, nil
}

func (g *guard) pabs(p string) string {
	p = strings.ReplaceAll(p, `\`, "/")
	if strings.HasPrefix(p, "~/") || strings.HasPrefix(strings.ToLower(p), "$home/") || strings.HasPrefix(strings.ToLower(p), "$env:userprofile/") {
		if g.home != "" {
			_, rest, _ := strings.Cut(p, "/")
			return filepath.Join(g.home, rest)
		}
	}
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(g.dir, p)
}

func unquote(s string) string {
	if len(s) >= 2 && (s[0] == '\'' || s[0] == '"') && s[len(s)-1] == s[0] {
		return s[1 : len(s)-1]
	}
	return s
}

func quoted(s string) []string {
	var out []string
	for i := 0; i < len(s); i++ {
		if q := s[i]; q == '\'' || q == '"' {
			if j := strings.IndexByte(s[i+1:], q); j >= 0 {
				out = append(out, s[i+1:i+1+j])
				i += j + 1
			}
		}
	}
	return out
}

// mcp judges an MCP tool by the paths its arguments name (pkg/toolargs,
// relative ones by their shape too): any that names a secret file (not a
// directory) is denied, whatever the tool does with it.
func (g *guard) mcp() ([]string, error) {
	p := g.c.Payload
	var found []string
	for _, a := range toolargs.Read(p, toolargs.Options{Home: g.home, Readers: true, Relative: true}).Paths {
		if why := g.file(p.ToolName, g.abs(a.Value)); why != "" {
			found = append(found, why)
		}
	}
	return found, nil
}
