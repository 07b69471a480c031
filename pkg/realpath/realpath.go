// Package realpath resolves a path the way the operating system will when a
// tool opens it: symbolic links are followed component by component, and a
// ".." after a link steps out of the link's target, not out of the link's
// directory. filepath.Clean does the opposite (it drops "link/.." before
// looking), so a gate that cleans a path first judges a different file
// from the one the tool writes: <outside>/link/../README.md is in the
// directory link points into.
//
// A path that does not exist yet (a file about to be written) resolves as
// far as it exists; the rest is joined as written.
package realpath

import (
	"errors"
	"os"
	"path/filepath"
	"strings"

	"github.com/magehook/magehook/pkg/budget"
)

// MaxLinks is the number of symbolic links Resolve follows before it calls
// the path a loop (Linux's limit is 40; this is more forgiving).
const MaxLinks = 255

// ErrLoop is returned for a path with more than MaxLinks links.
var ErrLoop = errors.New("too many levels of symbolic links")

// Resolve returns the absolute path the operating system would reach from
// path (relative to the working directory when not absolute), with every
// existing symbolic link followed.
func Resolve(path string) (string, error) {
	if !filepath.IsAbs(path) {
		wd, err := os.Getwd()
		if err != nil {
			return "", err
		}
		path = wd + string(filepath.Separator) + path
	}
	return resolve(path)
}

// ResolveIn is Resolve with dir as the directory of a relative path.
func ResolveIn(dir, path string) (string, error) {
	if !filepath.IsAbs(path) {
		if !filepath.IsAbs(dir) {
			var err error
			if dir, err = Resolve(dir); err != nil {
				return "", err
			}
		}
		path = dir + string(filepath.Separator) + path
	}
	return resolve(path)
}

// Below returns what Resolve returns for the path rel names relative to
// real, a directory Resolve has resolved: only rel's components are
// looked at, not real's again from the root. An absolute rel is resolved
// whole.
func Below(real, rel string) (string, error) {
	if filepath.IsAbs(rel) {
		return Resolve(rel)
	}
	if !filepath.IsAbs(real) {
		return Resolve(real + string(filepath.Separator) + rel)
	}
	if err := budget.CheckPath("the path", rel); err != nil {
		return "", &os.PathError{Op: "resolve", Path: head(rel), Err: err}
	}
	return walk(filepath.VolumeName(real)+string(filepath.Separator), real, split(rel), real+string(filepath.Separator)+rel)
}

func resolve(path string) (string, error) {
	// Each component costs a system call and a copy of the path so far: a
	// path of 50,000 components would cost seconds and gigabytes.
	if err := budget.CheckPath("the path", path); err != nil {
		return "", &os.PathError{Op: "resolve", Path: head(path), Err: err}
	}
	vol := filepath.VolumeName(path)
	root := vol + string(filepath.Separator)
	return walk(root, root, split(path[len(vol):]), path)
}

// walk resolves the components rest from resolved, a resolved directory
// (root is the volume's root, where an absolute link starts again); path
// is the whole path, for the error.
func walk(root, resolved string, rest []string, path string) (string, error) {
	links := 0
	missing := false
	for len(rest) > 0 {
		c := rest[0]
		rest = rest[1:]
		switch c {
		case "", ".":
			continue
		case "..":
			resolved = filepath.Dir(resolved)
			continue
		}
		if missing {
			resolved = filepath.Join(resolved, c)
			continue
		}
		next := filepath.Join(resolved, c)
		info, err := os.Lstat(next)
		if err != nil {
			// Not there (or not visible): the rest is as written.
			missing = true
			resolved = next
			continue
		}
		if info.Mode()&os.ModeSymlink == 0 {
			resolved = next
			continue
		}
		links++
		if links > MaxLinks {
			return "", &os.PathError{Op: "resolve", Path: path, Err: ErrLoop}
		}
		target, err := os.Readlink(next)
		if err != nil {
			return "", err
		}
		if filepath.IsAbs(target) {
			tv := filepath.VolumeName(target)
			resolved = tv + string(filepath.Separator)
			if tv == "" {
				resolved = root
			}
			target = target[len(tv):]
		}
		rest = append(split(target), rest...)
	}
	return resolved, nil
}

// head is the start of a long path, for a message.
func head(p string) string {
	if len(p) > 200 {
		return p[:200] + "..."
	}
	return p
}

func split(p string) []string {
	return strings.FieldsFunc(p, func(r rune) bool { return r == '/' || r == filepath.Separator })
}

// Within reports whether path is dir or lies below it (both absolute and
// clean).
func Within(path, dir string) bool {
	if path == dir {
		return true
	}
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}
