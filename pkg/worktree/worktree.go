// Package worktree creates, removes, lists and bootstraps the git
// worktrees of a checkout: <root>/<worktree.base>/<name>, each on its own
// branch <name> started at the main checkout's local HEAD.
//
// Git always runs as an argument list, and every git message goes to the
// diagnostics writer, so a hook's stdout carries only the worktree path.
package worktree

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/magehook/magehook/pkg/gitx"
	"github.com/magehook/magehook/pkg/proc"
)

// Manager manages the worktrees of one main checkout.
type Manager struct {
	// Root is the main checkout.
	Root string
	// Base is the absolute directory worktrees go in.
	Base string
	// Bootstrap is the Mage target run in a new worktree when its
	// magefiles define it ("bootstrap" by default).
	Bootstrap string
	// Log receives git's and the bootstrap's output.
	Log io.Writer
}

func (m Manager) git(dir string) gitx.Git { return gitx.Git{Dir: dir, Log: m.log()} }

func (m Manager) log() io.Writer {
	if m.Log == nil {
		return io.Discard
	}
	return m.Log
}

// ValidName checks a worktree name: letters, digits, '.', '-', '_' and
// '/', starting with a letter or digit (a leading dash would reach git as
// an option), with no empty, "." or ".." segment.
func ValidName(name string) error {
	if name == "" {
		return errors.New("the worktree name is empty")
	}
	if !isAlnum(name[0]) {
		return fmt.Errorf("worktree name %q must start with a letter or digit", name)
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !isAlnum(c) && c != '.' && c != '-' && c != '_' && c != '/' {
			return fmt.Errorf("worktree name %q holds %q; use letters, digits, '.', '-', '_' and '/'", name, string(rune(c)))
		}
	}
	for _, seg := range strings.Split(name, "/") {
		switch {
		case seg == "" || seg == ".":
			return fmt.Errorf("worktree name %q has an empty or '.' segment", name)
		case seg == "..":
			return fmt.Errorf("worktree name %q has a '..' segment", name)
		case strings.HasPrefix(seg, ".") || strings.HasSuffix(seg, ".") || strings.HasSuffix(seg, ".lock"):
			return fmt.Errorf("worktree name %q has a segment git refuses as a branch name", name)
		}
	}
	if strings.Contains(name, "..") {
		return fmt.Errorf("worktree name %q holds '..'", name)
	}
	return nil
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// Path is where the worktree of name goes.
func (m Manager) Path(name string) string {
	return filepath.Join(m.Base, filepath.FromSlash(name))
}

// entry is one worktree git knows.
type entry struct {
	Path   string
	Branch string
	Locked bool
}

func (m Manager) list(ctx context.Context) ([]entry, error) {
	out, err := gitx.Git{Dir: m.Root}.Output(ctx, "worktree", "list", "--porcelain")
	if err != nil {
		return nil, err
	}
	var list []entry
	var cur *entry
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "worktree "):
			list = append(list, entry{Path: strings.TrimPrefix(line, "worktree ")})
			cur = &list[len(list)-1]
		case cur == nil:
		case strings.HasPrefix(line, "branch refs/heads/"):
			cur.Branch = strings.TrimPrefix(line, "branch refs/heads/")
		case line == "locked" || strings.HasPrefix(line, "locked "):
			cur.Locked = true
		}
	}
	return list, nil
}

func sameFile(a, b string) bool {
	ra, err1 := filepath.EvalSymlinks(a)
	rb, err2 := filepath.EvalSymlinks(b)
	if err1 != nil || err2 != nil {
		return filepath.Clean(a) == filepath.Clean(b)
	}
	return ra == rb
}

func within(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != "." && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// Create makes the worktree of name and bootstraps it, and returns its
// path. When it already exists (Claude Code re-runs WorktreeCreate when a
// session reconnects) it bootstraps it again. The branch is created first,
// on its own: it is the lock against a parallel create of the same name.
// After a failure, SIGINT or SIGTERM, the bootstrap's process group is
// stopped and waited for, and everything the create made is removed.
func (m Manager) Create(ctx context.Context, name string) (string, error) {
	if err := ValidName(name); err != nil {
		return "", err
	}
	path := m.Path(name)
	common, err := gitx.Git{Dir: m.Root}.Output(ctx, "rev-parse", "--path-format=absolute", "--git-common-dir")
	if err != nil {
		return "", fmt.Errorf("%s is not a git checkout: %w", m.Root, err)
	}
	unlock, held, err := proc.TryLock(filepath.Join(common, "magehook-worktree-"+strings.ReplaceAll(name, "/", "%")+".lock"))
	if err != nil {
		return "", err
	}
	if held {
		return "", fmt.Errorf("another create of worktree %s is running; it will print the path", name)
	}
	defer unlock()
	wts, err := m.list(ctx)
	if err != nil {
		return "", err
	}
	for _, w := range wts {
		if sameFile(w.Path, path) && exists(path) {
			fmt.Fprintf(m.log(), "magehook: worktree %s exists; bootstrapping it again\n", path)
			if err := m.bootstrap(ctx, path); err != nil {
				return "", err
			}
			return path, nil
		}
	}
	for _, w := range wts {
		if !sameFile(w.Path, m.Root) && within(path, w.Path) {
			return "", fmt.Errorf("worktree %s would sit inside the worktree %s; pick another name", path, w.Path)
		}
	}
	if exists(path) {
		return "", fmt.Errorf("%s exists and git does not know it as a worktree; remove it (worktree:remove %s) or pick another name", path, name)
	}

	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	g := m.git(m.Root)
	if err := g.Run(ctx, "branch", name, "HEAD"); err != nil {
		return "", fmt.Errorf("cannot create branch %s (another create of this name won, or a branch is left over: worktree:remove %s): %w", name, name, err)
	}
	made := missingDirs(filepath.Dir(path), m.Root)
	fail := func(cause error) (string, error) {
		m.undo(name, path, made)
		if ctx.Err() != nil && !errors.Is(cause, context.Canceled) {
			cause = fmt.Errorf("%w (interrupted)", cause)
		}
		return "", fmt.Errorf("worktree %s: %w; everything the create made was removed", name, cause)
	}
	if err := g.Run(ctx, "worktree", "add", path, name); err != nil {
		return fail(err)
	}
	if err := m.bootstrap(ctx, path); err != nil {
		return fail(err)
	}
	if ctx.Err() != nil {
		return fail(ctx.Err())
	}
	return path, nil
}

// missingDirs lists the directories from dir up to (not including) stop
// that do not exist yet, deepest first.
func missingDirs(dir, stop string) []string {
	var out []string
	for d := dir; within(d, stop) && !exists(d); d = filepath.Dir(d) {
		out = append(out, d)
	}
	return out
}

// undo removes what a failed create made: the worktree, its directory,
// the branch and the parent directories the create made. It runs on a
// fresh context, since the create's may be cancelled.
func (m Manager) undo(name, path string, made []string) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	g := m.git(m.Root)
	g.Run(ctx, "worktree", "remove", "--force", "--force", path)
	os.RemoveAll(path)
	g.Run(ctx, "worktree", "prune")
	g.Run(ctx, "branch", "-D", name)
	for _, d := range made {
		os.Remove(d) // only if empty
	}
}

// bootstrap runs the worktree's own bootstrap target, when its magefiles
// define one, with MAIN set to the main checkout and its output on the log.
func (m Manager) bootstrap(ctx context.Context, path string) error {
	target := m.Bootstrap
	if target == "" {
		target = "bootstrap"
	}
	if !definesTarget(filepath.Join(path, "magefiles"), target) {
		return nil
	}
	fmt.Fprintf(m.log(), "magehook: running go tool mage %s in %s\n", target, path)
	return proc.RunGroup(ctx, path, []string{"MAIN=" + m.Root}, m.log(), "go", "tool", "mage", target)
}

// definesTarget reports whether the magefiles in dir define target: a
// function Target for "target", or a method Target on the namespace type
// Ns for "ns:target" (names compared without case, as Mage does).
func definesTarget(dir, target string) bool {
	ns, fn, hasNS := strings.Cut(target, ":")
	if !hasNS {
		fn, ns = ns, ""
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(data), "\n") {
			if !strings.HasPrefix(line, "func ") {
				continue
			}
			rest := strings.TrimPrefix(line, "func ")
			recv := ""
			if strings.HasPrefix(rest, "(") {
				end := strings.IndexByte(rest, ')')
				if end < 0 {
					continue
				}
				fields := strings.Fields(rest[1:end])
				if len(fields) > 0 {
					recv = strings.TrimPrefix(fields[len(fields)-1], "*")
				}
				rest = strings.TrimSpace(rest[end+1:])
			}
			name, _, ok := strings.Cut(rest, "(")
			if !ok || !strings.EqualFold(strings.TrimSpace(name), fn) {
				continue
			}
			if strings.EqualFold(recv, ns) {
				return true
			}
		}
	}
	return false
}

// Remove removes the worktree of name, its branch and the empty parent
// directories up to the base. Unless force, it refuses a worktree holding
// work at risk and names every cause. It never deletes the branch main nor
// the branch the main checkout has checked out, never touches a path
// outside the base, and handles debris: a branch without a directory, a
// directory git does not know, a locked worktree. A second run changes
// nothing.
func (m Manager) Remove(ctx context.Context, name string, force bool) error {
	if err := ValidName(name); err != nil {
		return err
	}
	path := m.Path(name)
	if exists(path) {
		real, err := filepath.EvalSymlinks(path)
		base, berr := filepath.EvalSymlinks(m.Base)
		if err != nil || berr != nil || !within(real, base) {
			return fmt.Errorf("%s resolves outside %s; magehook removes only worktrees inside the base", path, m.Base)
		}
	}
	g := m.git(m.Root)
	wts, err := m.list(ctx)
	if err != nil {
		return err
	}
	var wt *entry
	for i := range wts {
		if sameFile(wts[i].Path, path) || filepath.Clean(wts[i].Path) == filepath.Clean(path) {
			wt = &wts[i]
		}
	}
	hasBranch := g.OK(ctx, "rev-parse", "--verify", "--quiet", "refs/heads/"+name)
	mainBranch, _ := gitx.Git{Dir: m.Root}.Output(ctx, "symbolic-ref", "--quiet", "--short", "HEAD")
	if !exists(path) && wt == nil && !hasBranch {
		fmt.Fprintf(m.log(), "magehook: no worktree %s and no branch %s: nothing to remove\n", path, name)
		return nil
	}
	keepBranch := name == "main" || name == mainBranch
	if !force {
		causes := m.risks(ctx, path, wt != nil, name, hasBranch && !keepBranch, mainBranch)
		if len(causes) > 0 {
			return fmt.Errorf("worktree %s holds work at risk (worktree:remove %s -force removes it anyway):\n  - %s", name, name, strings.Join(causes, "\n  - "))
		}
	}
	if wt != nil {
		if wt.Locked {
			g.Run(ctx, "worktree", "unlock", wt.Path)
		}
		if err := g.Run(ctx, "worktree", "remove", "--force", wt.Path); err != nil && exists(path) {
			fmt.Fprintf(m.log(), "magehook: %v; removing the directory\n", err)
		}
	}
	if err := os.RemoveAll(path); err != nil {
		return err
	}
	g.Run(ctx, "worktree", "prune")
	if hasBranch && !keepBranch {
		if err := g.Run(ctx, "branch", "-D", name); err != nil {
			return err
		}
	}
	for d := filepath.Dir(path); within(d, m.Base); d = filepath.Dir(d) {
		if os.Remove(d) != nil {
			break
		}
	}
	fmt.Fprintf(m.log(), "magehook: removed worktree %s\n", name)
	return nil
}

// risks lists why removing a worktree would lose work: uncommitted changes
// in it or in a repository inside it, and commits no remote holds (in a
// repository without a remote, commits main does not hold).
func (m Manager) risks(ctx context.Context, path string, registered bool, branch string, checkBranch bool, mainBranch string) []string {
	var causes []string
	if exists(path) {
		if registered {
			causes = append(causes, repoRisks(ctx, path, "")...)
		} else if entries, _ := os.ReadDir(path); len(entries) > 0 {
			causes = append(causes, fmt.Sprintf("%s is a directory git does not know, and it is not empty", path))
		}
		for _, repo := range nestedRepos(path) {
			causes = append(causes, repoRisks(ctx, repo, "HEAD")...)
		}
	}
	if checkBranch {
		if n := unheld(ctx, m.Root, "refs/heads/"+branch, mainBranch); n != "" {
			causes = append(causes, fmt.Sprintf("branch %s has %s", branch, n))
		}
	}
	return causes
}

// repoRisks reports uncommitted changes in a repository and, when rev is
// set, commits of rev that no remote (or, without remotes, nothing) holds.
func repoRisks(ctx context.Context, dir, rev string) []string {
	var causes []string
	g := gitx.Git{Dir: dir}
	status, err := g.Output(ctx, "status", "--porcelain", "--ignore-submodules=none")
	if err != nil {
		return []string{fmt.Sprintf("%s: cannot read its status: %v", dir, err)}
	}
	if n := len(gitx.Lines(status)); n > 0 {
		causes = append(causes, fmt.Sprintf("%d uncommitted change(s) in %s", n, dir))
	}
	if rev != "" {
		if n := unheld(ctx, dir, rev, ""); n != "" {
			causes = append(causes, fmt.Sprintf("%s: %s", dir, n))
		}
	}
	return causes
}

// unheld describes the commits of rev that no remote-tracking branch holds,
// or, in a repository with no remote, that main does not hold; "" when
// there are none.
func unheld(ctx context.Context, dir, rev, mainBranch string) string {
	g := gitx.Git{Dir: dir}
	remotes, _ := g.Output(ctx, "remote")
	args := []string{"rev-list", "--count", rev, "--not"}
	what := "no remote holds"
	if len(gitx.Lines(remotes)) > 0 {
		args = append(args, "--remotes")
	} else {
		if mainBranch == "" {
			mainBranch = "HEAD"
		}
		if mainBranch == "HEAD" && rev == "HEAD" {
			return "" // a nested repository without a remote: its own HEAD is all it has
		}
		args = append(args, mainBranch)
		what = "main does not hold"
	}
	n, err := g.Output(ctx, args...)
	if err != nil || n == "0" {
		return ""
	}
	return n + " commit(s) " + what
}

// nestedRepos finds the repositories inside a worktree; the walk stops at
// each one it finds.
func nestedRepos(root string) []string {
	var repos []string
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return nil
		}
		if p != root && exists(filepath.Join(p, ".git")) {
			repos = append(repos, p)
			return filepath.SkipDir
		}
		if d.Name() == ".git" {
			return filepath.SkipDir
		}
		return nil
	})
	return repos
}

// List prints one line per worktree under the base: its name, its age in
// days (from its .git file) and its state, "clean" or the causes that
// would stop worktree:remove.
func (m Manager) List(ctx context.Context, w io.Writer) error {
	wts, err := m.list(ctx)
	if err != nil {
		return err
	}
	mainBranch, _ := gitx.Git{Dir: m.Root}.Output(ctx, "symbolic-ref", "--quiet", "--short", "HEAD")
	type row struct{ name, age, state string }
	var rows []row
	for _, wt := range wts {
		if !within(wt.Path, m.Base) {
			continue
		}
		rel, _ := filepath.Rel(m.Base, wt.Path)
		name := filepath.ToSlash(rel)
		age := "?"
		if info, err := os.Stat(filepath.Join(wt.Path, ".git")); err == nil {
			age = fmt.Sprint(int(time.Since(info.ModTime()).Hours() / 24))
		}
		causes := m.risks(ctx, wt.Path, true, wt.Branch, wt.Branch != "" && wt.Branch != mainBranch, mainBranch)
		state := "clean"
		if len(causes) > 0 {
			state = strings.Join(causes, "; ")
		}
		rows = append(rows, row{name, age, state})
	}
	if len(rows) == 0 {
		_, err := fmt.Fprintln(w, "no worktrees")
		return err
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i].name < rows[j].name })
	for _, r := range rows {
		fmt.Fprintf(w, "%-40s %4s d  %s\n", r.name, r.age, r.state)
	}
	return nil
}
