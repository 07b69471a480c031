// Package pathguard denies the agent's writes to files the repository says
// it must not change: configured globs, and generated files.
//
// # PURPOSE
//
// Some files are not the agent's to edit on any branch: migrations that
// were applied, vendored code, files a generator owns. A hand edit of a
// generated file is lost at the next go generate and hides the change the
// generator's input needed. This gate denies every tool's write to them
// and tells the agent what to change instead.
//
//	pathguard.protect 'migrations/applied/**'   # a glob (repeat)
//	pathguard.protect vendor/**
//	pathguard.generated no                      # default yes: generated files too
//
// A glob without a slash matches a file name at any depth; one with a slash
// is anchored at the checkout root (the directory of .toolingrc), one
// starting with ~/ at the home directory, one starting with / at the file
// system's root; ** matches any number of directories; a trailing / means
// everything below. The lists add up over the .toolingrc files of the
// repository (a file below the top one adds globs, never removes them).
//
// # HOW IT WORKS
//
//  1. PreToolUse on the file tools (Edit, MultiEdit, Write, NotebookEdit,
//     apply_patch, as every harness's tools are mapped onto them: Codex's
//     and OpenCode's apply_patch, Copilot's create and edit, Gemini's
//     write_file and replace), Bash and PowerShell, and MCP tools whose
//     name says they write (write, edit, create, move, rename, delete,
//     remove, patch, append, save, upload, put).
//  2. The files a call changes: the edited file or every file of a patch;
//     a Bash command's writes as the shared command model finds them
//     (pkg/gitcmd: redirections, tee, sed -i, cp, mv, rm, touch, gofmt -w,
//     ... through wrappers, bash -c and aliases; a tree written whole such
//     as rm -r of a directory; a pattern); a PowerShell command's cmdlets
//     and redirections (pkg/pwsh) and its native commands; an MCP tool's
//     path arguments. Git's own work-tree writes (checkout, merge, stash
//     pop, rebase) are not the agent's edits and pass.
//  3. A path (as written and with its symbolic links resolved) matching a
//     pathguard.protect glob is denied, and so is a tree or pattern that
//     holds one. A write whose path is only known at run time is denied
//     when globs are configured and the command names a protected path.
//  4. Generated files (pathguard.generated, in a Go module: a go.mod at or
//     above the file, within the checkout): a file that exists and carries
//     Go's marker, a line "// Code generated ... DO NOT EDIT." (or the
//     same after #, -- or /*) before its first line of code. The reason
//     names the generator when the file says it — the marker's "by ..."
//     part, or the //go:generate directive of the package that names the
//     file (or the package's only one) — and the go generate command to
//     run instead. A file named explicitly counts; a tree written whole
//     (gofmt -w ., rm -r gen) is judged by the globs only.
//
// # EXIT CODES
//
//	0  allowed (no output), or denied with the decision on stdout
//	2  the gate failed (a bad glob, an analysis over its budget): the call
//	   is blocked
package pathguard

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/magehook/magehook/pkg/gitcmd"
	"github.com/magehook/magehook/pkg/glob"
	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/realpath"
	"github.com/magehook/magehook/pkg/toolargs"
	"github.com/magehook/magehook/pkg/toolingrc"
)

// Handler is the catalogue entry.
var Handler = hook.Handler{
	Name:    "pathguard",
	Purpose: "deny writes to protected globs (pathguard.protect) and, in a Go module, to generated files, naming the generator to run instead",
	Events:  []string{"PreToolUse"},
	Matcher: "Edit|MultiEdit|Write|NotebookEdit|apply_patch|Bash|PowerShell|mcp__.*",
	Policy:  hook.Gatekeeper,
	Run:     run,
}

func run(c *hook.Call) (hook.Result, error) {
	p := c.Payload
	var tc toolargs.Call
	if strings.HasPrefix(p.ToolName, "mcp__") {
		tc = toolargs.Read(p, toolargs.Options{Home: home(c), Relative: true})
	}
	mcpWrite := strings.HasPrefix(p.ToolName, "mcp__") && !tc.ReadOnly
	if !mcpWrite && !p.IsTool("Edit", "MultiEdit", "Write", "NotebookEdit", "apply_patch", "Bash", "PowerShell") {
		return hook.Result{}, nil
	}
	g, err := newGuard(c)
	if err != nil {
		return hook.Result{}, err
	}
	if len(g.globs) == 0 && !g.generated {
		return hook.Result{}, nil
	}
	var reasons []string
	switch {
	case p.IsTool("Bash"):
		command, _ := p.InputString("command")
		reasons, err = g.shell(command, false)
	case p.IsTool("PowerShell"):
		command, _ := p.InputString("command")
		reasons, err = g.shell(command, true)
	case mcpWrite:
		reasons = g.mcp(tc)
	}
	if err != nil {
		return hook.Result{}, err
	}
	for _, path := range p.EditedPaths() {
		if why := g.file(g.abs(path), true); why != "" {
			reasons = append(reasons, fmt.Sprintf("%s would change %s", p.ToolName, why))
		}
	}
	if len(reasons) == 0 {
		return hook.Result{}, nil
	}
	return hook.Deny("pathguard: " + strings.Join(dedupe(reasons), "; ") + "."), nil
}

func home(c *hook.Call) string {
	if c.Getenv == nil {
		return ""
	}
	return c.Getenv("HOME")
}

type guard struct {
	c         *hook.Call
	root      string
	home      string
	dir, cwd  string
	globs     []string
	generated bool
}

func newGuard(c *hook.Call) (*guard, error) {
	g := &guard{c: c, generated: true}
	if c.Getenv != nil {
		g.home = c.Getenv("HOME")
	}
	g.cwd = c.Payload.CWD
	if g.cwd == "" {
		g.cwd, _ = os.Getwd()
	}
	g.dir = c.Payload.WorkDir(g.home)
	if g.dir == "" {
		g.dir = g.cwd
	}
	if c.Config == nil {
		return g, nil
	}
	g.root = c.Config.Root()
	v, err := c.Config.Get(toolingrc.KeyPathguardProtect)
	if err != nil {
		return nil, err
	}
	for i, gl := range v.Values {
		gl = unquote(gl)
		if !glob.Valid(strings.TrimPrefix(gl, "~/")) {
			return nil, fmt.Errorf("%s:%d: pathguard.protect %q is not a valid glob; write a path pattern such as migrations/applied/**", v.Origins[i].File, v.Origins[i].Line, gl)
		}
		g.globs = append(g.globs, gl)
	}
	gen, err := c.Config.Get(toolingrc.KeyPathguardGenerated)
	if err != nil {
		return nil, err
	}
	g.generated = gen.String() != "no"
	return g, nil
}

func unquote(s string) string {
	if len(s) >= 2 && (s[0] == '\'' || s[0] == '"') && s[len(s)-1] == s[0] {
		return s[1 : len(s)-1]
	}
	return s
}

func (g *guard) abs(p string) string {
	if strings.HasPrefix(p, "~/") && g.home != "" {
		return filepath.Join(g.home, p[2:])
	}
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(g.cwd, p)
}

// show writes a path relative to the checkout when inside it.
func (g *guard) show(p string) string {
	if rel, ok := under(p, g.root); ok {
		return rel
	}
	return p
}

func under(p, dir string) (string, bool) {
	if dir == "" {
		return "", false
	}
	rel, err := filepath.Rel(dir, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || rel == "." {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// protected returns the glob that protects the absolute path p, or "".
func (g *guard) protected(p string) string {
	for _, gl := range g.globs {
		if matches(gl, p, g.root, g.home) {
			return gl
		}
	}
	return ""
}

func matches(gl, p, root, home string) bool {
	switch {
	case strings.HasPrefix(gl, "~/"):
		rel, ok := under(p, home)
		return ok && glob.Match("/"+gl[2:], rel)
	case strings.HasPrefix(gl, "/"):
		return glob.Match(gl, strings.TrimPrefix(filepath.ToSlash(p), "/"))
	}
	rel, ok := under(p, root)
	if !ok {
		if !strings.Contains(strings.TrimSuffix(gl, "/"), "/") {
			return glob.Match(gl, filepath.Base(p))
		}
		return false
	}
	return glob.Match(gl, rel)
}

// file describes why writing the absolute path p is denied, "" when it is
// not: a protected glob, or (named explicitly) a generated file.
func (g *guard) file(p string, named bool) string {
	paths := []string{p}
	if r, err := realpath.Resolve(p); err == nil && r != p {
		paths = append(paths, r)
	}
	for _, q := range paths {
		if gl := g.protected(q); gl != "" {
			return fmt.Sprintf("%s, which pathguard.protect %s keeps from the agent on every branch; if it must change, ask the user", g.show(q), gl)
		}
	}
	if named && g.generated {
		for _, q := range paths {
			if why := g.generatedFile(q); why != "" {
				return why
			}
		}
	}
	return ""
}

// tree describes why a write of everything below dir (or a pattern's
// matches) is denied: it holds a protected path.
func (g *guard) tree(dir string) string {
	if gl := g.protected(dir); gl != "" {
		return fmt.Sprintf("%s, which pathguard.protect %s keeps from the agent on every branch; if it must change, ask the user", g.show(dir), gl)
	}
	for _, gl := range g.globs {
		// The glob's fixed directory part lies below the tree.
		base := gl
		for strings.ContainsAny(base, "*?[{") {
			base = filepath.Dir(base)
		}
		var fixed string
		switch {
		case strings.HasPrefix(base, "~/") && g.home != "":
			fixed = filepath.Join(g.home, base[2:])
		case filepath.IsAbs(base):
			fixed = base
		case strings.Contains(strings.TrimSuffix(gl, "/"), "/") && g.root != "" && base != ".":
			fixed = filepath.Join(g.root, base)
		case !strings.Contains(strings.TrimSuffix(gl, "/"), "/"):
			// A name at any depth: the tree holds one when it exists there.
			if found := findName(dir, gl); found != "" {
				return fmt.Sprintf("%s, which holds %s (pathguard.protect %s); if it must change, ask the user", g.show(dir), g.show(found), gl)
			}
			continue
		default:
			continue
		}
		if fixed == dir || realpath.Within(fixed, dir) {
			return fmt.Sprintf("%s, which holds %s (pathguard.protect %s); if it must change, ask the user", g.show(dir), g.show(fixed), gl)
		}
	}
	return ""
}

// findName looks below dir (bounded) for an entry whose name matches a
// slashless glob.
func findName(dir, gl string) string {
	n := 0
	found := ""
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if n++; n > 20000 {
			return filepath.SkipAll
		}
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		if p != dir && glob.Match(gl, d.Name()) {
			found = p
			return filepath.SkipAll
		}
		return nil
	})
	return found
}

// shell judges a Bash command's writes, or (powershell) a PowerShell
// command's, read into the same model.
func (g *guard) shell(command string, powershell bool) ([]string, error) {
	c := g.c
	a, err := gitcmd.ForGate(command, g.dir, g.home, c.Getenv, c.Budget, powershell)
	if err != nil {
		return nil, err
	}
	var reasons []string
	var mentioned *bool
	for _, w := range a.Writes {
		if err := c.Budget.Check(); err != nil {
			return nil, err
		}
		if w.Repo {
			continue // git's own work-tree writes: a checkout, a merge, a stash pop
		}
		what := "the command"
		if w.Command >= 0 && w.Command < len(a.Commands) {
			what = fmt.Sprintf("%q", strings.TrimSpace(a.Commands[w.Command].Text))
		}
		if w.Dynamic != "" {
			if len(g.globs) == 0 {
				continue
			}
			if mentioned == nil {
				m := g.mentions(command) || g.mentions(gitcmd.Decoded(command))
				mentioned = &m
			}
			if *mentioned {
				reasons = append(reasons, fmt.Sprintf("%s writes a path only known at run time (%s) and names a protected path; write the path out", what, w.Dynamic))
			}
			continue
		}
		path := w.Path
		var why string
		switch {
		case w.Glob:
			why = g.globWrite(path, w.Tree)
		case w.Tree && isDir(path):
			why = g.tree(path)
		default:
			why = g.file(path, true)
			if why == "" && w.Written != "" && w.Written != path {
				why = g.file(w.Written, true)
			}
		}
		if why != "" {
			reasons = append(reasons, fmt.Sprintf("%s would change %s", what, why))
		}
	}
	return reasons, nil
}

// globWrite judges a pattern's current matches one by one (as trees
// for a tree write).
func (g *guard) globWrite(pat string, tree bool) string {
	matches, _ := filepath.Glob(pat)
	for _, m := range matches {
		why := g.file(m, true)
		if why == "" && tree && isDir(m) {
			why = g.tree(m)
		}
		if why != "" {
			return why
		}
	}
	return ""
}

// mentions reports whether a command names a protected path: a glob's
// longest literal part.
func (g *guard) mentions(text string) bool {
	for _, gl := range g.globs {
		best := ""
		for _, part := range strings.FieldsFunc(gl, func(r rune) bool { return strings.ContainsRune("*?[]{}~", r) }) {
			part = strings.Trim(part, "/")
			if len(part) > len(best) {
				best = part
			}
		}
		if len(best) >= 3 && strings.Contains(text, best) {
			return true
		}
	}
	return false
}

// mcp judges an MCP tool that writes by the paths its arguments name
// (pkg/toolargs, relative ones by their shape too): a protected file, or a
// directory holding one.
func (g *guard) mcp(tc toolargs.Call) []string {
	var reasons []string
	for _, a := range tc.Paths {
		path := g.abs(a.Value)
		why := g.file(path, true)
		if why == "" && isDir(path) {
			why = g.tree(path)
		}
		if why != "" {
			reasons = append(reasons, fmt.Sprintf("%s would change %s", g.c.Payload.ToolName, why))
		}
	}
	return reasons
}

func dedupe(list []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, s := range list {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

func isDir(p string) bool {
	info, err := os.Stat(p)
	return err == nil && info.IsDir()
}
