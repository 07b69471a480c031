// Package worktree creates, removes, lists, prunes and bootstraps the git
// worktrees of a main checkout: <root>/<worktree.base>/<name>, each on its
// own branch <name> started at the main checkout's local HEAD.
//
// Git always runs as an argument list, and every git message goes to the
// diagnostics writer, so a hook's stdout carries only the worktree path.
//
// Every worktree magehook creates is recorded in the repository's common
// git directory (magehook/worktrees/), from the moment its branch exists:
// remove takes the debris of a killed create it made, and prune removes,
// in one go, every worktree it made that holds no work at risk. Work at
// risk is an uncommitted change (in the worktree or in a repository inside
// it), a commit that neither a remote nor the main checkout's branch holds,
// and a non-empty directory git does not know that magehook did not make.
//
// Ids such as WT-CREATE-2 are FuguBench's units; docs/units.md says what
// each requires and where magehook differs.
package worktree

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/magehook/magehook/pkg/gitx"
)

// Manager manages the worktrees of one main checkout.
type Manager struct {
	// Root is the main checkout.
	Root string
	// Base is the absolute directory worktrees go in.
	Base string
	// Bootstrap is the Mage target run in a new worktree ("bootstrap"
	// when empty; "none" runs nothing).
	Bootstrap string
	// BootstrapSet reports that the target was named in a .toolingrc:
	// then a worktree whose Mage does not define it fails to create.
	BootstrapSet bool
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

func (m Manager) say(format string, args ...any) {
	fmt.Fprintf(m.log(), "magehook: "+format+"\n", args...)
}

// ErrLinked is returned when the root is a linked worktree, not a main
// checkout (CLI-CHECKOUT-4): worktrees are made and listed from the main
// checkout, so that none nests inside another.
var ErrLinked = errors.New("is a linked worktree, not a main checkout")

// checkMain refuses a root that is not a main checkout, and returns the
// repository's common git directory.
func (m Manager) checkMain(ctx context.Context) (string, error) {
	g := gitx.Git{Dir: m.Root}
	out, err := g.Output(ctx, "rev-parse", "--path-format=absolute", "--git-dir", "--git-common-dir", "--show-toplevel")
	lines := gitx.Lines(out)
	if err != nil || len(lines) != 3 {
		return "", fmt.Errorf("%s is not a git checkout: %v", m.Root, err)
	}
	if !sameFile(lines[0], lines[1]) {
		return "", fmt.Errorf("%s %w; run this from the main checkout (%s)", m.Root, ErrLinked, filepath.Dir(lines[1]))
	}
	return lines[1], nil
}

// ValidName checks a worktree name (WT-CREATE-2): letters, digits, '.',
// '-', '_' and '/', starting with a letter or digit (a leading dash would
// reach git as an option), with no empty, "." or ".." segment.
func ValidName(name string) error {
	bad := func(why string) error { return fmt.Errorf("invalid worktree name %q: %s", name, why) }
	if name == "" {
		return errors.New("invalid worktree name: it is empty")
	}
	if !isAlnum(name[0]) {
		return bad("it must start with a letter or digit")
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !isAlnum(c) && c != '.' && c != '-' && c != '_' && c != '/' {
			return bad(fmt.Sprintf("it holds %q; use letters, digits, '.', '-', '_' and '/'", string(rune(c))))
		}
	}
	for _, seg := range strings.Split(name, "/") {
		switch {
		case seg == "" || seg == ".":
			return bad("it has an empty or '.' segment")
		case seg == "..":
			return bad("it has a '..' segment")
		case strings.HasPrefix(seg, ".") || strings.HasSuffix(seg, ".") || strings.HasSuffix(seg, ".lock"):
			return bad("it has a segment git refuses in a branch name")
		}
	}
	if strings.Contains(name, "..") {
		return bad("it holds '..'")
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

// strictlyBelow reports whether path lies below dir, not dir itself.
func strictlyBelow(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != "." && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// strictlyBelowResolved is strictlyBelow after resolving the links of both paths that
// exist (git reports resolved paths; the base may sit under a link).
func strictlyBelowResolved(path, dir string) bool {
	if strictlyBelow(path, dir) {
		return true
	}
	rp, err1 := filepath.EvalSymlinks(path)
	rd, err2 := filepath.EvalSymlinks(dir)
	return err1 == nil && err2 == nil && strictlyBelow(rp, rd)
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

func (m Manager) mainBranch(ctx context.Context) string {
	b, _ := gitx.Git{Dir: m.Root}.Output(ctx, "symbolic-ref", "--quiet", "--short", "HEAD")
	return b
}
