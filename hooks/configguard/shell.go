package configguard

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/magehook/magehook/pkg/gitcmd"
	"github.com/magehook/magehook/pkg/gitrepo"
	"github.com/magehook/magehook/pkg/gitx"
	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/proc"
	"github.com/magehook/magehook/pkg/realpath"
	"github.com/magehook/magehook/pkg/regfile"
)

// shell judges the files a Bash command writes, as the shared shell
// analysis finds them (gitcmd: redirections, tee, sed -i, cp, mv, rm, ln,
// install, dd, curl -o, git's own working-tree writes, patches, ...),
// starting in dir. A write whose path is computed at run time is denied
// when the command names a guarded file; a command too large or too
// complex for the budget is an error, which fails the gate closed.
func (g *guard) shell(c *hook.Call, command, dir string) ([]string, error) {
	return g.shellIn(c, command, dir, false)
}

// shellIn is shell for a Bash or (powershell) a PowerShell command, read
// into the same model.
func (g *guard) shellIn(c *hook.Call, command, dir string, powershell bool) ([]string, error) {
	// The analysis every gate on this call shares (one parse per command).
	opts := gitcmd.HookOptions(dir, g.home, c.Getenv, c.Budget.Until(), c.Budget.Limit())
	opts.PowerShell = powershell
	a, err := gitcmd.Shared(command, opts)
	if err != nil {
		return nil, err
	}
	return g.judge(c, a, command, dir, false)
}

// judge decides an analysis of command run in dir; inHook: it is a git
// hook's, whose git commands do not read hooks again.
func (g *guard) judge(c *hook.Call, a *gitcmd.Analysis, command, dir string, inHook bool) ([]string, error) {
	p := c.Payload
	var err error
	var reasons, blind []string
	for _, w := range a.Writes {
		if err := c.Budget.Check(); err != nil {
			return nil, err
		}
		var what string
		switch {
		case w.Dynamic != "" && w.Tree && w.Path != "":
			// A patch it cannot see, a git apply of a computed file:
			// anything under the directory.
			what, err = g.under(w.Path)
		case w.Dynamic != "":
			blind = append(blind, w.Op+": "+w.Dynamic)
			continue
		case w.Match != nil:
			what, err = g.matched(w)
		case w.Glob:
			what, err = g.glob(w.Path, w.Tree)
		case w.Repo && w.Command >= 0 && w.Command < len(a.Commands) && g.gitChanges(c, a, w.Command) != nil:
			// git's own working-tree write, as git lists it: the files
			// that differ between what is checked out and what it applies.
			what = g.gitChanged[w.Command].what
			if what == "" || g.gitChanged[w.Command].said {
				continue
			}
			g.gitChanged[w.Command].said = true
		case w.Tree && w.Repo && w.Command >= 0 && w.Command < len(a.Commands) && a.Commands[w.Command].Runs("clean") && g.cleanKeeps(a.Commands[w.Command].Git, w.Path):
			continue
		case w.Op == "chmod" && addsOnly(a, w):
			continue // chmod +x, u+w: takes no one's access away
		case w.Tree && w.Written != "":
			what, err = g.under(w.Written)
		case w.Tree:
			what, err = g.under(w.Path)
		case modeOp(w.Op) && isDir(w.Path):
			// A directory's mode or owner decides who can reach what is
			// below it (chmod 000 bin: the hook binary cannot run).
			what, err = g.under(w.Path)
		case w.Written != "":
			// As written: the kernel resolves link/.. through the link.
			what, err = g.guarded(dir, w.Written)
		default:
			what, err = g.guarded(dir, w.Path)
		}
		if err != nil {
			return nil, err
		}
		if what != "" {
			reasons = append(reasons, fmt.Sprintf("%s (%s) would change %s, %s", p.ToolName, w.Op, w.Path, what))
		}
	}
	if len(reasons) == 0 && !inHook && isBash(p) {
		// A command whose name only run time knows ($(echo rm) x,
		// "$(which rm)" x) may write any of its arguments.
		for _, cmd := range a.Commands {
			if len(cmd.Args) > 0 && cmd.Args[0].Dynamic != "" && g.mentioned(cmd.Text) {
				reasons = append(reasons, fmt.Sprintf("%s runs a command only known at run time (%s) on a file that configures magehook's gates", p.ToolName, cmd.Args[0].Dynamic))
				break
			}
		}
	}
	if len(reasons) == 0 && !inHook && p.IsTool("Bash", "PowerShell") && unknownProgram(a) && g.names(command) {
		// A program the analysis has no model of (gitcmd.Knows) that
		// names a guarded file may write it: fail closed.
		more, err := g.unknownPrograms(a, dir)
		if err != nil {
			return nil, err
		}
		reasons = append(reasons, more...)
	}
	if len(reasons) == 0 {
		more, err := g.linksMade(a)
		if err != nil {
			return nil, err
		}
		reasons = append(reasons, more...)
	}
	if len(blind) > 0 && len(reasons) == 0 && !inHook && isBash(p) {
		// Code the analysis cannot follow (python -c, node -e, a sed
		// script) names what it writes in its string literals: each one
		// that reaches a guarded file, or a directory holding one, is
		// taken for a write (os.rename('bin', 'b2') moves the binary).
		more, err := g.literals(a, dir)
		if err != nil {
			return nil, err
		}
		reasons = append(reasons, more...)
	}
	if len(blind) > 0 && len(reasons) == 0 && (!inHook && g.mentioned(command) || inHook && g.names(command)) {
		reasons = append(reasons, fmt.Sprintf("%s names a file that configures magehook's gates and writes a file the analysis cannot name (%s)", p.ToolName, strings.Join(blind, "; ")))
	}
	if len(reasons) == 0 && !inHook {
		more, err := g.gitHooks(c, a)
		if err != nil {
			return nil, err
		}
		reasons = append(reasons, more...)
	}
	return reasons, nil
}

// gitHooks judges the hooks the command's git invocations run
// (gitcmd.RunsHooks) as scripts of their own: a post-checkout hook that
// writes .toolingrc makes git switch -c x write it. A hook in another
// language is denied when it names a guarded file; one the command writes
// first cannot be read before it runs, and is denied.
func (g *guard) gitHooks(c *hook.Call, a *gitcmd.Analysis) ([]string, error) {
	var reasons []string
	seen := map[string]bool{}
	for i, cmd := range a.Commands {
		gc := cmd.Git
		if gc == nil || gc.Help || gc.Exits || !gitcmd.RunsHooks(gc.Sub) {
			continue
		}
		d, gitDir, dyn := gc.Where()
		if dyn != "" || d == "" || gitDir != "" {
			continue
		}
		repo, err := c.Repo(d)
		if err != nil {
			continue
		}
		hp := ""
		for _, e := range gitcmd.LoadConfig(repo.GitDir, g.home, c.Getenv, regfile.Reader(regfile.MaxText)) {
			if strings.EqualFold(e.Key, "core.hookspath") {
				hp = e.Value
			}
		}
		for _, kv := range gc.Config {
			if k, v, _ := strings.Cut(kv, "="); strings.EqualFold(k, "core.hookspath") {
				hp = v
			}
		}
		dir := gitrepo.HooksDir(repo, hp, g.home)
		if dir == "" || seen[dir] {
			continue
		}
		seen[dir] = true
		for _, w := range a.Writes {
			if w.At < i && w.Dynamic == "" && !w.Repo && realpath.Within(w.Path, dir) {
				reasons = append(reasons, fmt.Sprintf("the command writes the git hook %s before git %s runs it", w.Path, gc.Sub))
			}
		}
		for _, h := range gitrepo.Hooks(dir, gitrepo.HookNames(gc.Sub)...) {
			if err := c.Budget.Check(); err != nil {
				return nil, err
			}
			if h.Err != nil || !h.Shell {
				if h.Err == nil && g.names(h.Text) {
					reasons = append(reasons, fmt.Sprintf("git %s runs the hook %s, which configguard cannot follow and which names a file that configures magehook's gates", gc.Sub, h.Path))
				}
				continue
			}
			ha, err := gitcmd.Analyze(h.Text, gitcmd.HookOptions(repo.Root, g.home, c.Getenv, c.Budget.Until(), c.Budget.Limit()))
			if err != nil {
				continue // too large or complex to follow: the hook's own business
			}
			more, err := g.judge(c, ha, h.Text, repo.Root, true)
			if err != nil {
				return nil, err
			}
			for _, r := range more {
				reasons = append(reasons, fmt.Sprintf("git %s runs the hook %s: %s", gc.Sub, h.Path, r))
			}
		}
	}
	return reasons, nil
}

// modeOp reports a write that changes a file's mode, owner or attributes.
func modeOp(op string) bool {
	switch op {
	case "chmod", "chown", "chgrp", "chattr", "setfacl", "chcon":
		return true
	}
	return false
}

// addsOnly reports a chmod whose mode only adds permissions (+x, u+rw,
// a+r): it can take no one's access away.
func addsOnly(a *gitcmd.Analysis, w gitcmd.Write) bool {
	if w.Op != "chmod" || w.Command < 0 || w.Command >= len(a.Commands) {
		return false
	}
	for _, arg := range a.Commands[w.Command].Args[1:] {
		v := arg.Value
		if arg.Dynamic != "" {
			return false
		}
		if strings.HasPrefix(v, "--") {
			continue
		}
		if strings.HasPrefix(v, "-") && !strings.ContainsAny(v, "rwxXst") {
			continue // -R, -v, -f
		}
		// The first operand is the mode.
		for _, clause := range strings.Split(v, ",") {
			who, perms, ok := strings.Cut(clause, "+")
			if !ok || strings.ContainsAny(who, "-=") || strings.ContainsAny(perms, "-=+") || strings.Trim(who, "ugoa") != "" {
				return false
			}
		}
		return true
	}
	return false
}

// glob judges a pattern a command writes: the pattern itself (rm
// .claude/settings*.json, each {a,b} alternative) and every path it
// matches now, as a tree when the write is one (rm -rf .c*). A pattern
// matching too many paths to list is judged by the directory it starts
// in.
func (g *guard) glob(pattern string, tree bool) (string, error) {
	for _, p := range braces(pattern, 64) {
		if what := g.what(p); what != "" {
			return what, nil
		}
	}
	matches, complete := glob(pattern, 10000)
	if !complete {
		return g.under(globBase(pattern))
	}
	for _, m := range matches {
		var what string
		var err error
		if tree {
			what, err = g.under(m)
		} else {
			what, err = g.guarded("", m)
		}
		if what != "" || err != nil {
			return what, err
		}
	}
	return "", nil
}

// globBase is the directory part of a pattern before its first pattern
// character.
func globBase(p string) string {
	i := strings.IndexAny(p, "*?[{")
	if i < 0 {
		return p
	}
	return filepath.Dir(p[:i] + "x")
}

// matched judges what find selects under a tree (find -name x -delete,
// -exec rm {} +): only files that exist can be selected, so the tree is
// guarded when an existing guarded file below it has a name the find's
// patterns match (or, for a subtree write, a directory on its way does).
func (g *guard) matched(w gitcmd.Write) (string, error) {
	root, err := realpath.Resolve(w.Path)
	if err != nil {
		return "", fmt.Errorf("cannot resolve %s: %w", w.Path, err)
	}
	for _, f := range g.existing() {
		for _, top := range []string{root, filepath.Clean(w.Path)} {
			if !within(f, top) {
				continue
			}
			rel := split(filepath.ToSlash(strings.TrimPrefix(foldPath(f), foldPath(top))))
			if len(rel) == 0 {
				rel = []string{fold(filepath.Base(f))}
			}
			names := rel[len(rel)-1:]
			if w.Match.Subtree {
				names = rel
			}
			for _, n := range names {
				all := true
				for _, pat := range w.Match.Names {
					all = all && matchName(pat, n)
				}
				if all {
					return "which holds " + f + ", " + g.what(f) + ", a file find selects", nil
				}
			}
		}
	}
	return "", nil
}

// linksMade judges the symbolic links a command makes to a guarded file
// or to a directory holding one, when the same command writes anything
// else: ln -s .claude c && rm c/settings.json writes through a link the
// judgement of the later write cannot see, since it does not exist yet.
func (g *guard) linksMade(a *gitcmd.Analysis) ([]string, error) {
	var reasons []string
	for i, cmd := range a.Commands {
		if cmd.Name() != "ln" || cmd.Dir == "" {
			continue
		}
		symbolic := false
		var ops []string
		for _, arg := range cmd.Args[1:] {
			v := arg.Value
			switch {
			case arg.Dynamic != "":
				ops = append(ops, "")
			case v == "--symbolic" || strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "--") && strings.Contains(v, "s"):
				symbolic = true
			case strings.HasPrefix(v, "-"):
			default:
				ops = append(ops, v)
			}
		}
		if !symbolic || len(ops) == 0 || !writesBesides(a, i) {
			continue
		}
		targets := ops
		if len(ops) > 1 {
			targets = ops[:len(ops)-1]
		}
		linkDir := cmd.Dir
		if len(ops) > 1 {
			last := ops[len(ops)-1]
			if !filepath.IsAbs(last) {
				last = filepath.Join(cmd.Dir, last)
			}
			if isDir(last) || strings.HasSuffix(ops[len(ops)-1], "/") {
				linkDir = last
			} else {
				linkDir = filepath.Dir(last)
			}
		}
		for _, t := range targets {
			if t == "" {
				continue
			}
			for _, base := range []string{linkDir, cmd.Dir} {
				path := t
				if !filepath.IsAbs(path) {
					path = filepath.Join(base, path)
				}
				what, err := g.under(path)
				if err != nil {
					return nil, err
				}
				if what != "" {
					reasons = append(reasons, fmt.Sprintf("ln -s makes a link to %s, %s, and the same command writes through links it cannot judge yet", path, what))
					break
				}
			}
		}
	}
	return reasons, nil
}

// writesBesides reports a write by a command other than command i.
func writesBesides(a *gitcmd.Analysis, i int) bool {
	for _, w := range a.Writes {
		if w.Command != i {
			return true
		}
	}
	return false
}

// under judges a tree a command may change as a whole (rm -r, mv of a
// directory, tar -x): it is guarded when it holds a guarded file that
// exists: a .toolingrc of the configuration, the hook binary, or a wiring
// file of the checkout or the home directory.
func (g *guard) under(tree string) (string, error) {
	if what, err := g.guarded("", tree); what != "" || err != nil {
		return what, err
	}
	dir, err := realpath.Resolve(tree)
	if err != nil {
		return "", fmt.Errorf("cannot resolve %s: %w", tree, err)
	}
	for _, f := range g.existing() {
		if within(f, dir) || within(f, filepath.Clean(tree)) {
			return "which holds " + f + ", " + g.what(f), nil
		}
	}
	return "", nil
}

// existing lists the guarded files that exist, resolved (computed once a
// call, and only when a write needs it).
func (g *guard) existing() []string {
	if g.haveSet {
		return g.have
	}
	g.haveSet = true
	add := func(p string) {
		if r, err := realpath.Resolve(p); err == nil {
			if _, err := os.Lstat(r); err == nil {
				g.have = append(g.have, r)
			}
		}
	}
	roots := []string{g.home}
	if g.cfg != nil {
		for _, f := range g.cfg.Files {
			add(f.Path)
		}
		roots = append(roots, g.cfg.Root(), g.cfg.RepoTop)
	}
	for _, b := range g.binaries() {
		add(b)
	}
	for _, f := range g.existingArtefacts() {
		add(f)
	}
	for _, f := range g.startupFiles() {
		if !strings.ContainsAny(f, "*?[") {
			add(f)
			continue
		}
		matches, _ := filepath.Glob(f)
		for _, m := range matches {
			add(m)
		}
	}
	seen := map[string]bool{}
	for _, root := range roots {
		if root == "" || seen[root] {
			continue
		}
		seen[root] = true
		missing := map[string]bool{} // a first directory that is not there
		for _, pat := range g.wiring() {
			if missing[pat[0]] {
				continue
			}
			if _, err := os.Lstat(filepath.Join(root, pat[0])); err != nil {
				missing[pat[0]] = true
				continue
			}
			matches, _ := filepath.Glob(filepath.Join(append([]string{root}, pat...)...))
			for _, m := range matches {
				add(m)
			}
		}
	}
	return g.have
}

// gitChange is what one git command changes, as git lists it.
type gitChange struct {
	what  string // the first guarded file it changes, described; "" for none
	said  bool   // the reason was given (once per command, not per write)
	files int    // how many files it changes
}

// gitChanges asks git which files the git command of index i changes
// (gitcmd.Git.TreeChange: a merge, rebase, pull, cherry-pick, revert,
// stash pop or apply, checkout, switch, restore, reset --hard, read-tree
// -u, checkout-index) and judges each one; nil when the command is not
// modelled, names its repository only at run time, or git cannot list
// the files (an unknown revision): then the write is judged as the tree.
// (Off the hot path: only a command that writes the working tree gets
// here; git reads, it never writes: no locks, no fsmonitor.)
func (g *guard) gitChanges(c *hook.Call, a *gitcmd.Analysis, i int) *gitChange {
	if ch, ok := g.gitChanged[i]; ok {
		return ch
	}
	if g.gitChanged == nil {
		g.gitChanged = map[int]*gitChange{}
	}
	g.gitChanged[i] = nil
	git := a.Commands[i].Git
	if ch := g.poppedInLine(c, a, i); ch != nil {
		g.gitChanged[i] = ch
		return ch
	}
	tc, ok := git.TreeChange()
	if !ok || tc.Unknown != "" {
		return nil
	}
	if tc.FromIndex && refsMayChangeBefore(a, i) {
		// The index git lists from now is not the one it writes from
		// (git update-index --cacheinfo ... && git checkout-index -f f).
		return nil
	}
	dir, gitDir, dyn := git.Where()
	if dyn != "" || dir == "" || gitDir != "" || !isDir(dir) {
		return nil
	}
	repo, err := c.Repo(dir)
	if err != nil || repo.Root == "" {
		return nil
	}
	run := func(args ...string) ([]byte, error) {
		return proc.Output(dir, readOnlyGit, "git", append([]string{"-c", "core.fsmonitor=false", "-c", "core.untrackedCache=false", "-c", "diff.external=", "-c", "core.quotePath=false"}, args...)...)
	}
	files, err := tc.Files(run)
	if err != nil {
		// A revision that names no commit: git refuses and the tree
		// stays as it is, unless something earlier in the line may
		// create it (a fetch, a branch, a script).
		if r := tc.Unresolved(run); r != "" && !refsMayChangeBefore(a, i) {
			g.gitChanged[i] = &gitChange{}
			return g.gitChanged[i]
		}
		return nil
	}
	ch := &gitChange{files: len(files)}
	for _, f := range files {
		if err := c.Budget.Check(); err != nil {
			return nil
		}
		what, err := g.guarded("", filepath.Join(repo.Root, filepath.FromSlash(f)))
		if err != nil {
			return nil
		}
		if what != "" {
			ch.what = fmt.Sprintf("and git %s would change %s there, %s", git.Sub, filepath.Join(repo.Root, filepath.FromSlash(f)), what)
			break
		}
	}
	g.gitChanged[i] = ch
	return ch
}

// poppedInLine judges a git stash pop or apply of the newest entry that
// an earlier git stash of the same line, in the same directory, made
// (git stash && git pull --rebase && git stash pop): it brings back what
// that stash took, the files that differ from HEAD now, and so changes
// the files the stash changed. nil when it is not that case: another
// command in between may touch the stash list (a stash command, one the
// analysis cannot see into), or the stash may make no entry (nothing to
// save, so the pop would take an older one).
func (g *guard) poppedInLine(c *hook.Call, a *gitcmd.Analysis, i int) *gitChange {
	e, ok := a.Commands[i].Git.Stash()
	if !ok || e.Unknown != "" || e.Restore != 0 && e.Apply != 0 {
		return nil
	}
	dir, gitDir, dyn := a.Commands[i].Git.Where()
	if dyn != "" || gitDir != "" || dir == "" {
		return nil
	}
	for j := i - 1; j >= 0; j-- {
		cmd := a.Commands[j]
		if cmd.Git == nil {
			if cmd.Opaque != "" || cmd.Name() == "" || !gitcmd.Knows(cmd.Name()) {
				return nil
			}
			continue
		}
		se, touches := cmd.Git.Stash()
		if !touches {
			if cmd.Git.Sub == "" || cmd.Git.Dynamic != "" {
				return nil
			}
			continue
		}
		d, gd, dy := cmd.Git.Where()
		if !se.Push || se.Unknown != "" || dy != "" || gd != "" || d != dir {
			return nil
		}
		pushed := g.gitChanges(c, a, j)
		if pushed == nil || pushed.files == 0 {
			return nil
		}
		ch := &gitChange{files: pushed.files}
		if pushed.what != "" {
			ch.what = strings.Replace(pushed.what, "and git stash would change", "and git stash "+stashVerb(e)+" would bring back", 1)
		}
		return ch
	}
	return nil
}

func stashVerb(e gitcmd.StashEffect) string {
	if e.Restore == 0 {
		return "pop"
	}
	return "apply"
}

// refsMayChangeBefore reports a command before the i-th that may create
// or move refs: a git command that is not a read, or a command the
// analysis cannot see into.
func refsMayChangeBefore(a *gitcmd.Analysis, i int) bool {
	for j := 0; j < i && j < len(a.Commands); j++ {
		c := a.Commands[j]
		switch {
		case c.Git != nil:
			if !c.Git.ReadsRefsOnly() {
				return true
			}
		case c.Opaque != "" || c.Name() == "" || !gitcmd.Knows(c.Name()):
			return true
		}
	}
	return false
}

// readOnlyGit is the environment of the gate's own git reads: no prompt,
// no optional locks, untranslated messages.
var readOnlyGit = []string{"GIT_TERMINAL_PROMPT=0", "GIT_OPTIONAL_LOCKS=0", "LC_ALL=C"}

// literals judges the quoted strings of each command that writes a path
// the analysis cannot name, as paths in the directory it runs in.
func (g *guard) literals(a *gitcmd.Analysis, dir string) ([]string, error) {
	var reasons []string
	seen := map[int]bool{}
	for _, w := range a.Writes {
		if w.Dynamic == "" || w.Command < 0 || w.Command >= len(a.Commands) || seen[w.Command] {
			continue
		}
		seen[w.Command] = true
		cmd := a.Commands[w.Command]
		base := cmd.Dir
		if base == "" {
			base = dir
		}
		for _, lit := range gitcmd.Literals(cmd.Text) {
			if lit == "" || len(lit) > 4096 || strings.ContainsAny(lit, "\n;(){}") {
				continue
			}
			what, err := g.under(realpathJoin(base, lit))
			if err != nil {
				continue // not a path this system can resolve: not one it writes
			}
			if what != "" {
				reasons = append(reasons, fmt.Sprintf("%s may write %q, %s", w.Op, lit, what))
				break
			}
		}
	}
	return reasons, nil
}

func realpathJoin(dir, p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(dir, p)
}

// cleanKeeps reports whether git clean (without -x or -X, and without
// paths) leaves every guarded file that exists under dir: it removes only
// untracked files git does not ignore, so each must be tracked or ignored
// (asking git, only for a clean).
func (g *guard) cleanKeeps(git *gitcmd.Git, dir string) bool {
	// Read by git clean's own grammar (gitcmd): -x, -X and -e widen what
	// it removes; paths are judged as the tree.
	p := git.Parse()
	if p.Dynamic != "" || p.Unknown != "" || p.Has("-x", "-X", "--exclude") || len(p.Operands) > 0 || len(p.Paths) > 0 {
		return false
	}
	for _, f := range g.existing() {
		if !within(f, dir) || inGitDir(f) {
			continue // git clean never touches a repository's .git
		}
		if _, err := proc.Output(dir, nil, "git", "-C", dir, "ls-files", "--error-unmatch", "--", f); err == nil {
			continue // tracked: clean leaves it
		}
		if !gitx.Ignored(dir, f, false) {
			return false
		}
	}
	return true
}

// inGitDir reports a path inside a .git directory.
func inGitDir(path string) bool {
	for _, c := range foldParts(path) {
		if c == ".git" {
			return true
		}
	}
	return false
}

// unknownPrograms judges the commands whose program the analysis does not
// know (no model of what it does to the files it names): one that names a
// guarded file, as an operand or an option's value, is taken to write it.
func (g *guard) unknownPrograms(a *gitcmd.Analysis, dir string) ([]string, error) {
	var reasons []string
	for _, cmd := range a.Commands {
		name := cmd.Name()
		if name == "" || gitcmd.Knows(name) || cmd.Git != nil || !g.names(cmd.Text) {
			continue
		}
		base := cmd.Dir
		if base == "" {
			base = dir
		}
		for _, arg := range cmd.Args[1:] {
			v := arg.Value
			if arg.Dynamic != "" {
				continue
			}
			if _, val, ok := strings.Cut(v, "="); ok && strings.HasPrefix(v, "-") {
				v = val
			}
			if v == "" || strings.HasPrefix(v, "-") || len(v) > 4096 {
				continue
			}
			what, err := g.guarded(base, v)
			if err != nil {
				continue // not a path this system resolves
			}
			if what != "" {
				reasons = append(reasons, fmt.Sprintf("%s runs %s, a program whose effect on the files it names the analysis does not know, and it names %s, %s", "the command", name, v, what))
				break
			}
		}
	}
	return reasons, nil
}

// unknownProgram reports a command whose program the analysis has no
// model of (cheap: the hot path asks it first).
func unknownProgram(a *gitcmd.Analysis) bool {
	for _, cmd := range a.Commands {
		if n := cmd.Name(); n != "" && cmd.Git == nil && !gitcmd.Knows(n) {
			return true
		}
	}
	return false
}
