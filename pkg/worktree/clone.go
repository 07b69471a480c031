package worktree

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/magehook/magehook/pkg/gitx"
)

// Clone copies gitignored paths of a main checkout into the worktree
// holding dir, with no network (WT-CLONE-1..7). main names the main
// checkout (MAGEHOOK_ROOT, or MAIN in a bootstrap); "" means the main
// checkout of dir's repository. A dir in no git checkout at all is itself
// the destination when main is given, and an error when it is not (there
// is no main checkout to find). A git repository becomes a local clone
// whose origin is the source's origin URL, and every regular .env file of
// the source's tree, at any depth, is copied into the clone with its mode
// (git does not carry ignored files; .git, nested worktrees and symbolic
// links are skipped). A directory is copied entry by entry, so a
// directory of repositories clones each child. A file is copied with its
// mode. An existing destination is kept, so a second run repairs a
// partial bootstrap, except a symbolic link where a file goes, which is
// replaced by the file. A path absent from the main checkout, or not
// ignored there, is skipped with a message. Each copy is made under a
// temporary name and renamed into place. In the main checkout itself it
// reports that and changes nothing.
func Clone(ctx context.Context, dir, main string, paths []string, log io.Writer) error {
	if log == nil {
		log = io.Discard
	}
	g := gitx.Git{Dir: dir}
	wt, err := g.Output(ctx, "rev-parse", "--show-toplevel")
	plain := false
	if err != nil {
		switch {
		case inGitTree(dir):
			return fmt.Errorf("%s is not in a git worktree: %w", dir, err)
		case main == "":
			return fmt.Errorf("%s is in no git checkout, so it has no main checkout to clone from: name one with MAGEHOOK_ROOT", dir)
		}
		wt, plain = dir, true
	}
	if main == "" {
		common, err := g.Output(ctx, "rev-parse", "--path-format=absolute", "--git-common-dir")
		if err != nil {
			return err
		}
		main = filepath.Dir(common)
	} else if top, err := (gitx.Git{Dir: main}).Output(ctx, "rev-parse", "--show-toplevel"); err == nil {
		main = top
	}
	if sameFile(wt, main) || plain && strictlyBelowResolved(wt, main) {
		fmt.Fprintf(log, "magehook: %s is the main checkout; nothing to clone\n", wt)
		return nil
	}
	var problems []string
	for _, p := range paths {
		if err := checkClonePath(p); err != nil {
			problems = append(problems, err.Error())
			continue
		}
		src, dst := filepath.Join(main, p), filepath.Join(wt, p)
		info, err := os.Lstat(src)
		if err != nil {
			fmt.Fprintf(log, "magehook: %s is absent from the main checkout; skipped\n", p)
			continue
		}
		if !(gitx.Git{Dir: main}).OK(ctx, "check-ignore", "-q", "--", p) {
			fmt.Fprintf(log, "magehook: %s is not ignored by git in %s (tracked files come with the worktree); skipped\n", p, main)
			continue
		}
		if dinfo, err := os.Lstat(dst); err == nil {
			if !(dinfo.Mode()&os.ModeSymlink != 0 && info.Mode().IsRegular()) {
				fmt.Fprintf(log, "magehook: %s exists; kept\n", dst)
				continue
			}
			// A link where a file goes: the file replaces it, so the
			// copy never writes through the link (WT-CLONE-4).
			if err := os.Remove(dst); err != nil {
				problems = append(problems, err.Error())
				continue
			}
		}
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			problems = append(problems, err.Error())
			continue
		}
		tmp := filepath.Join(filepath.Dir(dst), ".magehook-clone-"+filepath.Base(dst))
		os.RemoveAll(tmp)
		if err := copyPath(ctx, src, tmp, log); err != nil {
			os.RemoveAll(tmp)
			problems = append(problems, fmt.Sprintf("%s: %v", p, err))
			continue
		}
		if err := os.Rename(tmp, dst); err != nil {
			os.RemoveAll(tmp)
			problems = append(problems, err.Error())
			continue
		}
		fmt.Fprintf(log, "magehook: cloned %s\n", p)
	}
	if len(problems) > 0 {
		return errors.New(strings.Join(problems, "; "))
	}
	return nil
}

// inGitTree reports whether dir or a directory above it holds a .git
// entry, looking no higher than git does (GIT_CEILING_DIRECTORIES): a dir
// that git cannot place in a worktree is then an error to report (inside
// a .git directory, an owner git distrusts), never a plain directory to
// write into.
func inGitTree(dir string) bool {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return true
	}
	ceilings := filepath.SplitList(os.Getenv("GIT_CEILING_DIRECTORIES"))
	for d := abs; ; d = filepath.Dir(d) {
		if exists(filepath.Join(d, ".git")) {
			return true
		}
		up := filepath.Dir(d)
		if up == d || slices.ContainsFunc(ceilings, func(c string) bool { return c != "" && filepath.Clean(c) == up }) {
			return false
		}
	}
}

func checkClonePath(p string) error {
	slashed := filepath.ToSlash(p)
	if p == "" || filepath.IsAbs(p) || strings.HasPrefix(slashed, "/") {
		return fmt.Errorf("%q: give a path relative to the checkout", p)
	}
	if strings.Trim(slashed, "./") == "" {
		return fmt.Errorf("%q names the checkout itself", p)
	}
	for _, seg := range strings.Split(slashed, "/") {
		if seg == ".." {
			return fmt.Errorf("%q has a '..' segment", p)
		}
	}
	return nil
}

func copyPath(ctx context.Context, src, dst string, log io.Writer) error {
	info, err := os.Lstat(src)
	if err != nil {
		return err
	}
	switch {
	case info.Mode()&os.ModeSymlink != 0:
		target, err := os.Readlink(src)
		if err != nil {
			return err
		}
		return os.Symlink(target, dst)
	case info.IsDir() && exists(filepath.Join(src, ".git")):
		if err := cloneRepo(ctx, src, dst, log); err != nil {
			return err
		}
		return copyEnvFiles(src, dst)
	case info.IsDir():
		if err := os.Mkdir(dst, info.Mode().Perm()); err != nil {
			return err
		}
		entries, err := os.ReadDir(src)
		if err != nil {
			return err
		}
		for _, e := range entries {
			if err := copyPath(ctx, filepath.Join(src, e.Name()), filepath.Join(dst, e.Name()), log); err != nil {
				return err
			}
		}
		return nil
	case info.Mode().IsRegular():
		return copyFile(src, dst, info.Mode().Perm())
	}
	return fmt.Errorf("%s is neither a file, a directory nor a link", src)
}

// copyEnvFiles copies every regular .env file of a repository's tree into
// its clone, at any depth, with its mode (WT-CLONE-3): .git and nested
// worktrees are skipped, no link is followed, and an existing file in the
// clone is kept.
func copyEnvFiles(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			if p == src {
				return nil
			}
			if d.Name() == ".git" {
				return filepath.SkipDir
			}
			if info, err := os.Lstat(filepath.Join(p, ".git")); err == nil && !info.IsDir() && isLinkedWorktree(filepath.Join(p, ".git")) {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Name() != ".env" || !d.Type().IsRegular() {
			return nil
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return nil
		}
		target := filepath.Join(dst, rel)
		if exists(target) {
			return nil
		}
		// The directories on the way must be real directories of the
		// clone, not links out of it.
		for d := filepath.Dir(target); d != dst && strictlyBelow(d, dst); d = filepath.Dir(d) {
			if info, err := os.Lstat(d); err == nil && info.Mode()&os.ModeSymlink != 0 {
				return nil
			}
		}
		info, err := d.Info()
		if err != nil {
			return nil
		}
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return err
		}
		return copyFile(p, target, info.Mode().Perm())
	})
}

func copyFile(src, dst string, mode os.FileMode) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	if err := out.Chmod(mode); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// cloneRepo makes a local clone of src whose origin is src's origin URL.
func cloneRepo(ctx context.Context, src, dst string, log io.Writer) error {
	if err := (gitx.Git{Dir: filepath.Dir(dst), Log: log}).Run(ctx, "clone", "--quiet", "--", src, dst); err != nil {
		return err
	}
	url, err := gitx.Git{Dir: src}.Output(ctx, "remote", "get-url", "origin")
	if err != nil || url == "" {
		return nil // the source has no origin: the clone's origin is the source
	}
	return gitx.Git{Dir: dst, Log: log}.Run(ctx, "remote", "set-url", "origin", url)
}
