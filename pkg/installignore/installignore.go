// Package installignore makes a checkout ignore what magehook writes into it:
// the hook binary (hook.binary), the state directory (state.dir: audit
// logs, settings backups), the learning library's clone (wiki.dir, when
// it sits inside the checkout) and the worktree base (worktree.base).
// Without it the library clone shows as untracked and `git add -A` adds it
// as an embedded repository, and the state and binary get committed.
//
// Check reports each path and whether git ignores it (the doctor's
// check); Ensure appends the missing lines to the root's .gitignore
// (hook:install), or with dry-run returns the diff it would apply. Both
// use the same plan, so a second Ensure changes nothing.
package installignore

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/rogpeppe/go-internal/diff"

	"github.com/magehook/magehook/pkg/atomicfile"
	"github.com/magehook/magehook/pkg/buildinfo"
	"github.com/magehook/magehook/pkg/gitx"
	"github.com/magehook/magehook/pkg/toolingrc"
	"github.com/magehook/magehook/pkg/wiki"
)

// Path is one path magehook writes, relative to the root, in slash form.
type Path struct {
	// Rel is the path; a directory ends with "/".
	Rel string
	// What names it for messages: "the hook binary", ...
	What string
	// Ignored reports whether git ignores it.
	Ignored bool
}

// Header is the comment line above the lines Ensure adds.
const Header = "# magehook: the hook binary, its state, the library clone and the worktrees (hook:install)"

// ErrNotGit is returned when the root is not in a git work tree.
var ErrNotGit = errors.New("not in a git work tree")

// ErrLink is returned when .gitignore is a symbolic link: git (2.32 and
// later) does not read such a file, so lines written through it would
// ignore nothing.
var ErrLink = errors.New("is a symbolic link, which git does not read as a .gitignore; make it a regular file")

// Check lists the paths magehook writes in the checkout and whether git
// ignores each.
func Check(ctx context.Context, cfg *toolingrc.Config) ([]Path, error) {
	root := cfg.Root()
	file := filepath.Join(root, ".gitignore")
	if info, err := os.Lstat(file); err == nil && !info.Mode().IsRegular() && info.Mode()&os.ModeSymlink == 0 {
		// git would block reading a FIFO, or fail on a directory.
		return nil, fmt.Errorf("%s is not a regular file; make it one", file)
	}
	g := gitx.Git{Dir: root}
	if !g.OK(ctx, "rev-parse", "--is-inside-work-tree") {
		return nil, fmt.Errorf("%s: %w", root, ErrNotGit)
	}
	var paths []Path
	add := func(abs, what string, dir bool) {
		rel, err := filepath.Rel(root, abs)
		if err != nil || rel == "." || strings.HasPrefix(rel, "..") {
			return // outside this checkout: another checkout's business
		}
		rel = filepath.ToSlash(rel)
		if dir {
			rel += "/"
		}
		for _, p := range paths {
			if p.Rel == rel {
				return
			}
		}
		paths = append(paths, Path{Rel: rel, What: what, Ignored: g.OK(ctx, "check-ignore", "-q", "--no-index", "--", rel)})
	}
	if v, err := cfg.Get(toolingrc.KeyHookBinary); err != nil {
		return nil, err
	} else {
		add(v.Abs(), "the hook binary", false)
		add(filepath.Join(filepath.Dir(v.Abs()), buildinfo.SidecarPattern(v.Abs())), "the hook binary's build lock and output", false)
	}
	if buildinfo.HasMagefiles(root) {
		add(buildinfo.Mainfile(root), "the main Mage generates while it builds (left by a build that is stopped)", false)
	}
	if v, err := cfg.Get(toolingrc.KeyStateDir); err != nil {
		return nil, err
	} else {
		add(v.Abs(), "the state directory", true)
	}
	lib, err := wiki.FromConfig(cfg)
	if err != nil {
		return nil, err
	}
	if lib.Origin != "" {
		add(lib.Dir, "the library clone", true)
	}
	if v, err := cfg.Get(toolingrc.KeyWorktreeBase); err != nil {
		return nil, err
	} else {
		add(filepath.Join(root, filepath.FromSlash(v.String())), "the worktree base", true)
	}
	return paths, nil
}

// Outcome is what Ensure did or would do.
type Outcome struct {
	// File is the .gitignore.
	File string
	// Added are the lines added.
	Added []string
	// Diff is the change as a unified diff; empty when nothing changes.
	Diff string
}

// Ensure appends a line for each path git does not ignore to the root's
// .gitignore, under Header, keeping every byte already there; with
// dryRun it writes nothing. A second run changes nothing.
func Ensure(ctx context.Context, cfg *toolingrc.Config, dryRun bool) (Outcome, error) {
	paths, err := Check(ctx, cfg)
	if err != nil {
		return Outcome{}, err
	}
	file := filepath.Join(cfg.Root(), ".gitignore")
	out := Outcome{File: file}
	for _, p := range paths {
		if !p.Ignored {
			out.Added = append(out.Added, "/"+p.Rel)
		}
	}
	if len(out.Added) == 0 {
		return out, nil
	}
	if info, err := os.Lstat(file); err == nil {
		switch {
		case info.Mode()&os.ModeSymlink != 0:
			return out, fmt.Errorf("%s %w (missing: %s)", file, ErrLink, strings.Join(out.Added, " "))
		case !info.Mode().IsRegular():
			return out, fmt.Errorf("%s is not a regular file; add these lines to a .gitignore yourself: %s", file, strings.Join(out.Added, " "))
		}
	}
	target := file
	old, err := os.ReadFile(target)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return Outcome{}, fmt.Errorf("cannot read %s: %w", file, err)
	}
	perm := os.FileMode(0o644)
	if info, err := os.Stat(target); err == nil {
		perm = info.Mode().Perm()
	}
	nl := "\n"
	if strings.Contains(string(old), "\r\n") {
		nl = "\r\n" // keep the file's line endings
	}
	var b strings.Builder
	b.Write(old)
	if len(old) > 0 && !strings.HasSuffix(string(old), "\n") {
		b.WriteString(nl)
	}
	if !strings.Contains(string(old), Header) {
		if len(old) > 0 {
			b.WriteString(nl)
		}
		b.WriteString(Header + nl)
	}
	for _, line := range out.Added {
		b.WriteString(line + nl)
	}
	updated := []byte(b.String())
	out.Diff = string(diff.Diff(file, old, file, updated))
	if dryRun {
		return out, nil
	}
	if err := atomicfile.WriteFile(target, updated, perm); err != nil {
		return Outcome{}, fmt.Errorf("cannot write %s: %w", file, err)
	}
	return out, nil
}
