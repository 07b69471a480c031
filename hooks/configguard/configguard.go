// Package configguard keeps the agent from switching its own gates off.
//
// # PURPOSE
//
// The agent is not trusted to keep its gates on: a prompt-injected or
// careless agent that can edit .toolingrc, the settings file that runs
// magehook, or the hook binary can turn every gate off with the very tools
// the gates watch. This gate denies those writes, on every branch, and
// tells the agent to ask the user to make the change by hand.
//
// # HOW IT WORKS
//
//  1. It needs no hook.enable line: it runs wherever some enabled handler
//     is a gatekeeper (hook.Handler.Implied).
//  2. The files it guards: any file named .toolingrc (every one on the
//     walk, the home directory's and those above the repository included,
//     and any new one); every file that wires magehook into a harness, at
//     any depth, as pkg/settings lists them (settings.WiringPatterns:
//     .claude/settings*.json, .codex/hooks.json, .gemini/settings.json,
//     .github/hooks/*.json, .cursor/hooks.json,
//     .opencode/plugins/magehook.js; under the home directory they are the
//     user-scope files); Codex's .codex/config.toml, which holds its hook
//     trust (hooks.state) and can switch hooks off; and the hook binary (hook.binary, the main
//     checkout's for a linked worktree, and the binary answering the call).
//  3. The files a call changes: the file of Edit, MultiEdit, Write and
//     NotebookEdit, and every file of an apply_patch patch, moves included,
//     whether it comes as Codex's tool or through a shell (payload
//     EditedPaths); the files a Bash command writes, as the shared shell
//     analysis finds them (pkg/gitcmd: redirections, tee, sed -i, cp, mv,
//     rm, ...; a tree such as rm -r of a directory holding a guarded
//     file; a pattern matching one; a computed path in a command that
//     names a guarded file); the files a PowerShell command writes (its cmdlets and
//     redirections, pkg/pwsh; a directory as the tree it holds), the
//     native commands it runs (git, python -c, tar, ... read as the shell
//     analysis reads them), and a PowerShell command that names a
//     guarded file in a part that reader cannot see into. Each path is judged as written (a Bash
//     write's link/.. included: gitcmd's Write.Written, not its cleaned
//     Path) and after its symbolic links are resolved as the operating
//     system will, so a link never hides a guarded file.
//
// # EXIT CODES
//
//	0  allowed (no output), or denied with the decision on stdout
//	2  the gate failed (a path that does not resolve): the call is blocked
package configguard

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/pwsh"
	"github.com/magehook/magehook/pkg/realpath"
	"github.com/magehook/magehook/pkg/settings"
	"github.com/magehook/magehook/pkg/toolingrc"
)

// Handler is the catalogue entry.
var Handler = hook.Handler{
	Name:    "configguard",
	Purpose: "deny the agent's own changes to the gates' configuration (.toolingrc, the settings that run magehook, the hook binary); implied by any gatekeeper",
	Events:  []string{"PreToolUse"},
	Matcher: "Edit|MultiEdit|Write|NotebookEdit|Bash|PowerShell|apply_patch",
	Policy:  hook.Gatekeeper,
	Implied: true,
	Run:     run,
}

const byHand = "the agent may not change the configuration of the gates that watch it; ask the user to make this change by hand"

func run(c *hook.Call) (hook.Result, error) {
	p := c.Payload
	g, err := newGuard(c)
	if err != nil {
		return hook.Result{}, err
	}
	paths := p.EditedPaths()
	var reasons []string
	if p.IsTool("Bash") {
		command, _ := p.InputString("command")
		more, err := g.shell(c, command)
		if err != nil {
			return hook.Result{}, err
		}
		reasons = append(reasons, more...)
	}
	if p.IsTool("PowerShell") {
		command, _ := p.InputString("command")
		a, err := pwsh.Analyze(command, p.CWD)
		blind := a.Opaque
		if err != nil {
			blind = []string{err.Error()}
		}
		for _, w := range a.Writes {
			switch {
			case strings.ContainsAny(w, "$("):
				// A path computed at run time: judged as the blind parts.
				blind = append(blind, "a path computed at run time: "+w)
			case isDir(w):
				// Move-Item, Rename-Item, Remove-Item -Recurse, Copy-Item
				// into it: the tree as a whole.
				what, err := g.under(c.Config, homeOf(c), w)
				if err != nil {
					return hook.Result{}, err
				}
				if what != "" {
					reasons = append(reasons, fmt.Sprintf("%s would change %s, %s", p.ToolName, w, what))
				}
			default:
				paths = append(paths, w)
			}
		}
		// The native commands it runs (git, python -c, tar, cp, ...) are
		// judged as a shell would run them; text that is not shell syntax
		// adds nothing.
		if more, err := g.shell(c, command); err == nil {
			reasons = append(reasons, more...)
		}
		if len(blind) > 0 && g.mentioned(command) {
			reasons = append(reasons, fmt.Sprintf("PowerShell names a file that configures magehook's gates in a part configguard cannot see into (%s)", strings.Join(blind, "; ")))
		}
	}
	for _, path := range paths {
		if err := c.Budget.Check(); err != nil {
			return hook.Result{}, err
		}
		what, err := g.guarded(p.CWD, path)
		if err != nil {
			return hook.Result{}, err
		}
		if what != "" {
			reasons = append(reasons, fmt.Sprintf("%s would change %s, %s", p.ToolName, path, what))
		}
	}
	if len(reasons) == 0 {
		return hook.Result{}, nil
	}
	return hook.Deny(strings.Join(reasons, "; ") + "; " + byHand + "."), nil
}

func isDir(path string) bool {
	info, err := os.Stat(path)
	return err == nil && info.IsDir()
}

func homeOf(c *hook.Call) string {
	if c.Getenv == nil {
		return ""
	}
	return c.Getenv("HOME")
}

// guard holds what is guarded for one call.
type guard struct {
	patterns [][]string // settings.WiringPatterns, split into components
	// binaries are the hook binary's paths, as configured: resolved (and
	// the main checkout's added) only when a command or an edit is judged
	// against them, which an ordinary call never needs.
	configured string
	c          *hook.Call
	binary     []string // the hook binary, as configured and resolved
	resolved   bool
}

// wiring is settings.WiringPatterns split into components, made once per
// process.
var wiring = sync.OnceValue(func() [][]string {
	var out [][]string
	for _, pat := range settings.WiringPatterns() {
		out = append(out, split(filepath.ToSlash(pat)))
	}
	// Codex keeps its hook trust (hooks.state) and its feature switches in
	// config.toml: writing it can untrust or disable every hook.
	return append(out, []string{".codex", "config.toml"})
})

func newGuard(c *hook.Call) (*guard, error) {
	g := &guard{patterns: wiring(), c: c}
	if c.Config != nil {
		v, err := c.Config.Get(toolingrc.KeyHookBinary)
		if err != nil {
			return nil, err
		}
		g.configured = v.String()
	}
	return g, nil
}

// binaries are the hook binary's paths: the configured one, the main
// checkout's for a linked worktree, and the one answering this call, each
// as written and resolved.
func (g *guard) binaries() []string {
	if g.resolved {
		return g.binary
	}
	g.resolved = true
	add := func(path string) {
		g.binary = append(g.binary, filepath.Clean(path))
		if r, err := realpath.Resolve(path); err == nil {
			g.binary = append(g.binary, r)
		}
	}
	if cfg := g.c.Config; cfg != nil {
		if v, err := cfg.Get(toolingrc.KeyHookBinary); err == nil {
			add(v.Abs())
		}
		// A linked worktree's sessions may run the main checkout's binary.
		if main := mainCheckout(g.c, cfg.Root()); main != "" {
			add(filepath.Join(main, filepath.FromSlash(g.configured)))
		}
	}
	// The binary answering this call is the hook binary, wherever it lives.
	if exe, err := os.Executable(); err == nil {
		add(exe)
	}
	return g.binary
}

// mainCheckout is the main checkout of the linked worktree holding dir, or
// "" when dir is not in one.
func mainCheckout(c *hook.Call, dir string) string {
	repo, err := c.Repo(dir)
	if err != nil {
		return ""
	}
	gitDir := filepath.ToSlash(repo.GitDir)
	if i := strings.LastIndex(gitDir, "/.git/worktrees/"); i >= 0 {
		return filepath.FromSlash(gitDir[:i])
	}
	return ""
}

// guarded says what a path is when it is guarded ("" when it is not). It
// judges the directory entry the write replaces (the path with its
// directories resolved) and the file a write through it reaches (the path
// fully resolved), both as the operating system resolves them.
func (g *guard) guarded(cwd, path string) (string, error) {
	lit := path
	if !filepath.IsAbs(lit) {
		lit = cwd + string(filepath.Separator) + lit
	}
	// The directory as written: filepath.Dir would clean "link/.." away.
	cut := strings.LastIndexAny(lit, `/`+string(filepath.Separator))
	dir, err := realpath.Resolve(lit[:cut+1])
	if err != nil {
		return "", fmt.Errorf("cannot resolve %s: %w", path, err)
	}
	entry := filepath.Join(dir, lit[cut+1:])
	resolved, err := realpath.Resolve(lit)
	if err != nil {
		return "", fmt.Errorf("cannot resolve %s: %w", path, err)
	}
	for _, p := range []string{entry, resolved} {
		if what := g.what(p); what != "" {
			if p != filepath.Clean(lit) {
				what += " (resolved through symbolic links: " + p + ")"
			}
			return what, nil
		}
	}
	return "", nil
}

// mentioned reports whether a command's text names a guarded file: a
// .toolingrc, a directory of the wiring files, or the hook binary. It
// judges the parts of a command no analysis can see into.
func (g *guard) mentioned(command string) bool {
	lower := strings.ToLower(command)
	if strings.Contains(lower, strings.ToLower(toolingrc.FileName)) {
		return true
	}
	for _, pat := range g.patterns {
		if strings.Contains(lower, strings.ToLower(pat[0])) {
			return true
		}
	}
	for _, b := range g.binaries() {
		if strings.Contains(lower, strings.ToLower(filepath.Base(b))) {
			return true
		}
	}
	return false
}

func (g *guard) what(path string) string {
	if filepath.Base(path) == toolingrc.FileName {
		return "a " + toolingrc.FileName + " (magehook's configuration)"
	}
	parts := split(filepath.ToSlash(path))
	for _, pat := range g.patterns {
		if tailMatches(parts, pat) {
			return "a settings file that runs magehook (" + strings.Join(pat, "/") + ")"
		}
	}
	for _, b := range g.binaries() {
		if path == b {
			return "the hook binary"
		}
	}
	return ""
}

// tailMatches reports whether the last components of a path match a
// pattern's, component by component.
func tailMatches(parts, pat []string) bool {
	if len(parts) < len(pat) {
		return false
	}
	tail := parts[len(parts)-len(pat):]
	for i, p := range pat {
		if ok, err := filepath.Match(p, tail[i]); err != nil || !ok {
			return false
		}
	}
	return true
}

func split(p string) []string {
	return strings.FieldsFunc(p, func(r rune) bool { return r == '/' || r == os.PathSeparator })
}
