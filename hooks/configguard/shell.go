package configguard

import (
	"fmt"
	"github.com/magehook/magehook/pkg/proc"
	"os"
	"path/filepath"
	"strings"

	"github.com/magehook/magehook/pkg/gitcmd"
	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/realpath"
	"github.com/magehook/magehook/pkg/toolingrc"
)

// shell judges the files a Bash command writes, as the shared shell
// analysis finds them (gitcmd: redirections, tee, sed -i, cp, mv, rm, ln,
// install, dd, curl -o, git's own working-tree writes, patches, ...). A
// write whose path is computed at run time is denied when the command
// names a guarded file; a command too large or too complex for the budget
// is an error, which fails the gate closed.
func (g *guard) shell(c *hook.Call, command string) ([]string, error) {
	p := c.Payload
	home := ""
	if c.Getenv != nil {
		home = c.Getenv("HOME")
	}
	// The analysis every gate on this call shares (one parse per command).
	a, err := gitcmd.Shared(command, gitcmd.HookOptions(p.CWD, home, c.Getenv, c.Budget.Until(), c.Budget.Limit()))
	if err != nil {
		return nil, err
	}
	var reasons, blind []string
	for _, w := range a.Writes {
		if err := c.Budget.Check(); err != nil {
			return nil, err
		}
		var what string
		switch {
		case w.Dynamic != "":
			blind = append(blind, w.Op+": "+w.Dynamic)
			continue
		case w.Glob:
			what, err = g.glob(w.Path)
		case w.Tree && w.Repo && g.keepsGuarded(a, w):
			continue
		case w.Tree && w.Written != "":
			what, err = g.under(c.Config, home, w.Written)
		case w.Tree:
			what, err = g.under(c.Config, home, w.Path)
		case w.Written != "":
			// As written: the kernel resolves link/.. through the link.
			what, err = g.guarded(p.CWD, w.Written)
		default:
			what, err = g.guarded(p.CWD, w.Path)
		}
		if err != nil {
			return nil, err
		}
		if what != "" {
			reasons = append(reasons, fmt.Sprintf("%s (%s) would change %s, %s", p.ToolName, w.Op, w.Path, what))
		}
	}
	if len(blind) > 0 && len(reasons) == 0 && g.mentioned(command) {
		reasons = append(reasons, fmt.Sprintf("%s names a file that configures magehook's gates and writes a file the analysis cannot name (%s)", p.ToolName, strings.Join(blind, "; ")))
	}
	return reasons, nil
}

// glob judges a pattern a command writes: the pattern itself (rm
// .claude/settings*.json) and every file it matches now.
func (g *guard) glob(pattern string) (string, error) {
	if what := g.what(pattern); what != "" {
		return what, nil
	}
	matches, _ := filepath.Glob(pattern)
	for _, m := range matches {
		if what, err := g.guarded("", m); what != "" || err != nil {
			return what, err
		}
	}
	return "", nil
}

// under judges a tree a command may change as a whole (rm -r, mv of a
// directory, tar -x): it is guarded when it holds a guarded file that
// exists: a .toolingrc of the configuration, the hook binary, or a wiring
// file of the checkout or the home directory.
func (g *guard) under(cfg *toolingrc.Config, home, tree string) (string, error) {
	if what, err := g.guarded("", tree); what != "" || err != nil {
		return what, err
	}
	dir, err := realpath.Resolve(tree)
	if err != nil {
		return "", fmt.Errorf("cannot resolve %s: %w", tree, err)
	}
	for _, f := range g.existing(cfg, home) {
		if realpath.Within(f, dir) || realpath.Within(f, filepath.Clean(tree)) {
			return "which holds " + f + ", " + g.what(f), nil
		}
	}
	return "", nil
}

// existing lists the guarded files that exist, resolved.
func (g *guard) existing(cfg *toolingrc.Config, home string) []string {
	var out []string
	add := func(p string) {
		if r, err := realpath.Resolve(p); err == nil {
			if _, err := os.Lstat(r); err == nil {
				out = append(out, r)
			}
		}
	}
	roots := []string{home}
	if cfg != nil {
		for _, f := range cfg.Files {
			add(f.Path)
		}
		roots = append(roots, cfg.Root(), cfg.RepoTop)
	}
	for _, b := range g.binaries() {
		add(b)
	}
	for _, root := range roots {
		if root == "" {
			continue
		}
		for _, pat := range g.patterns {
			matches, _ := filepath.Glob(filepath.Join(append([]string{root}, pat...)...))
			for _, m := range matches {
				add(m)
			}
		}
	}
	return out
}

// keepsGuarded reports whether git's own working-tree write leaves every
// gate configuration file as it is, asking git (off the hot path: only a
// command that switches, checks out or stashes gets here). A switch or
// checkout of one commit, or a reset --hard to one, keeps them when git
// diff <commit> -- <guarded names> finds no difference with the working
// tree; a stash (of tracked changes only) when it finds none against HEAD. Without -f, git refuses
// to overwrite an untracked file, so an untracked guarded file stays too.
// Anything else (a force, paths, a computed word, merge, reset --hard,
// ...) keeps the judgement by tree.
func (g *guard) keepsGuarded(a *gitcmd.Analysis, w gitcmd.Write) bool {
	if w.Command < 0 || w.Command >= len(a.Commands) || w.Path == "" {
		return false
	}
	git := a.Commands[w.Command].Git
	if git == nil {
		return false
	}
	var operands []string
	skip := false
	for _, arg := range git.Args {
		v := arg.Value
		switch {
		case arg.Dynamic != "":
			return false
		case skip:
			skip = false
		case v == "--" || v == "-f" || v == "--force" || v == "--discard-changes" || v == "-m" || v == "--merge" ||
			v == "-p" || v == "--patch" || v == "-u" || v == "--include-untracked" || v == "-a" || v == "--all":
			return false
		case v == "-c" || v == "-C" || v == "-b" || v == "-B" || v == "--orphan" || v == "--create" || v == "--force-create" || v == "-m" || v == "--message":
			skip = true
		case strings.HasPrefix(v, "-"):
		default:
			operands = append(operands, v)
		}
	}
	target := ""
	switch git.Sub {
	case "switch", "checkout":
		if len(operands) != 1 {
			return false
		}
		target = operands[0]
	case "stash":
		if len(operands) > 0 && operands[0] != "push" && operands[0] != "save" {
			return false
		}
		target = "HEAD"
	case "reset":
		if len(operands) > 1 {
			return false
		}
		target = "HEAD"
		if len(operands) == 1 {
			target = operands[0]
		}
	default:
		return false
	}
	specs := []string{":(glob)**/" + toolingrc.FileName}
	for _, pat := range g.patterns {
		specs = append(specs, ":(glob)"+strings.Join(pat, "/"), ":(glob)**/"+strings.Join(pat, "/"))
	}
	for _, b := range g.binaries() {
		if rel, err := filepath.Rel(w.Path, b); err == nil && !strings.HasPrefix(rel, "..") {
			specs = append(specs, ":(literal)"+filepath.ToSlash(rel))
		}
	}
	args := append([]string{"-C", w.Path, "diff", "--quiet", target, "--"}, specs...)
	_, err := proc.Output(w.Path, nil, "git", args...)
	return err == nil
}
