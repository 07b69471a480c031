// Package confined writes below a directory without following a symbolic
// link out of it. A repository can commit .magehook/health.jsonl as a link
// to the user's shell start-up file, or .magehook itself as a link to a
// directory elsewhere; the logs and state magehook keeps there must never
// be written through them.
//
// Dir resolves a configured directory (state.dir, worktree.base) and
// refuses one that leads out of the directory it is configured in. OpenFile
// then walks below that directory with os.Root (each component opened
// relative to the last, a link leading out refused) and refuses a final
// component that is a symbolic link at all.
package confined

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/magehook/magehook/pkg/realpath"
)

// Dir returns dir (absolute, or relative to home) as an absolute path,
// and refuses it when, with every symbolic link followed, it leads out of
// home (itself resolved). The path returned is the one given, not the
// resolved one, so that it still compares with paths under home.
func Dir(home, dir string) (string, error) {
	b, err := Resolve(home)
	if err != nil {
		return "", err
	}
	d, err := b.Dir(dir)
	return d.Path, err
}

// Base is a directory with its resolution (every symbolic link followed),
// so that the directories Dir finds below it are resolved from there: a
// hook call finds the state directory and its subdirectories with one
// walk from the root, not one per directory.
type Base struct {
	// Path is the directory as given, clean.
	Path string
	real string
}

// Resolve resolves dir for Base.Dir.
func Resolve(dir string) (Base, error) {
	real, err := realpath.Resolve(dir)
	if err != nil {
		return Base{}, err
	}
	return Base{Path: filepath.Clean(dir), real: real}, nil
}

// Resolved is the Base of dir when its resolution (realpath.Resolve's)
// is known already.
func Resolved(dir, real string) Base { return Base{Path: filepath.Clean(dir), real: real} }

// Dir is the package's Dir with b as home: dir (absolute, or relative to
// b) refused when it leads out of b, and returned with its resolution for
// the directories below it. Only the components below b are looked at
// when dir is inside b as written.
func (b Base) Dir(dir string) (Base, error) {
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(b.Path, dir)
	}
	dir = filepath.Clean(dir)
	var real string
	var err error
	if rel, rerr := filepath.Rel(b.Path, dir); rerr == nil && Within(b.Path, dir) {
		real, err = realpath.Below(b.real, rel)
	} else {
		real, err = realpath.Resolve(dir)
	}
	if err != nil {
		return Base{}, err
	}
	if !Within(b.real, real) {
		return Base{}, fmt.Errorf("%s leads out of %s through a symbolic link (to %s); remove the link, or point the setting at a directory inside", dir, b.Path, real)
	}
	return Base{Path: dir, real: real}, nil
}

// Within reports whether path is dir or below it (both clean and
// absolute).
func Within(dir, path string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// ErrLink is the error for a symbolic link where a file was to be opened.
var ErrLink = errors.New("is a symbolic link; magehook writes no state or log through one: remove it")

// Root is a directory opened for confined access; Close releases it.
type Root struct {
	r   *os.Root
	dir string
}

// Open makes dir (when it is missing) and opens it for confined access.
// dir should come from Dir.
func Open(dir string) (*Root, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	r, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	return &Root{r: r, dir: dir}, nil
}

// OpenIn opens name below dir as Root.OpenFile does, for one file.
func OpenIn(dir, name string, flag int, perm fs.FileMode) (*os.File, error) {
	r, err := Open(dir)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return r.OpenFile(name, flag, perm)
}

// Close releases the directory.
func (r *Root) Close() error { return r.r.Close() }

// Path is name's path in the file system, for messages and for locks.
func (r *Root) Path(name string) string { return filepath.Join(r.dir, name) }

// OpenFile opens name (relative to the root) with the directories before
// it made inside the root. A symbolic link that leads out of the root is
// refused anywhere on the way, and the file itself must not be one.
func (r *Root) OpenFile(name string, flag int, perm fs.FileMode) (*os.File, error) {
	f, _, err := r.openFile(name, flag, perm)
	return f, err
}

// openFile is OpenFile, with the file's information. The directory of
// name is opened once (made first when it is missing and flag creates),
// and the file's
// check and open are relative to it: not a walk from the root each.
func (r *Root) openFile(name string, flag int, perm fs.FileMode) (*os.File, fs.FileInfo, error) {
	in, base := r.r, name
	if d := filepath.Dir(name); d != "." {
		sub, err := r.r.OpenRoot(d)
		if errors.Is(err, fs.ErrNotExist) && flag&os.O_CREATE != 0 {
			if err = r.r.MkdirAll(d, 0o755); err == nil {
				sub, err = r.r.OpenRoot(d)
			}
		}
		if err != nil {
			return nil, nil, err
		}
		defer sub.Close()
		in, base = sub, filepath.Base(name)
	}
	if info, err := in.Lstat(base); err == nil && info.Mode()&fs.ModeSymlink != 0 {
		return nil, nil, fmt.Errorf("%s %w", r.Path(name), ErrLink)
	}
	// A FIFO put where a log was would block the hook until a reader
	// came: opened without waiting, and refused like any other file that
	// is not a regular one.
	f, err := in.OpenFile(base, flag|nonBlock, perm)
	if errors.Is(err, syscall.ENXIO) {
		return nil, nil, fmt.Errorf("%s: %w", r.Path(name), ErrNotRegular)
	}
	if err != nil {
		return nil, nil, err
	}
	info, err := f.Stat()
	if err == nil && !info.Mode().IsRegular() && !info.IsDir() {
		f.Close()
		return nil, nil, fmt.Errorf("%s: %w", r.Path(name), ErrNotRegular)
	}
	return f, info, nil
}

// OpenExisting opens name (relative to the root) as OpenFile does, when
// it exists, and returns its information too; a name that does not exist
// is fs.ErrNotExist, and nothing is made. (jsonlog appends to a log that
// is there without a lock and with one look at its size.)
func (r *Root) OpenExisting(name string, flag int) (*os.File, fs.FileInfo, error) {
	return r.openFile(name, flag&^os.O_CREATE, 0)
}

// ErrNotRegular is a FIFO, a device or a socket where magehook keeps a log
// or state file.
var ErrNotRegular = errors.New("is not a regular file; magehook writes no log or state into a FIFO, a device or a socket: remove it")

// NotALink returns ErrLink (wrapped with the path) when name is a
// symbolic link, nil when it is anything else or does not exist.
func (r *Root) NotALink(name string) error {
	info, err := r.r.Lstat(name)
	if err == nil && info.Mode()&fs.ModeSymlink != 0 {
		return fmt.Errorf("%s %w", r.Path(name), ErrLink)
	}
	return nil
}

// Lstat is os.Lstat inside the root.
func (r *Root) Lstat(name string) (fs.FileInfo, error) { return r.r.Lstat(name) }

// Rename is os.Rename inside the root; it moves a link, never its target.
func (r *Root) Rename(from, to string) error { return r.r.Rename(from, to) }

// Remove is os.Remove inside the root; it removes a link, never its
// target.
func (r *Root) Remove(name string) error { return r.r.Remove(name) }

// ReadDir lists a directory inside the root.
func (r *Root) ReadDir(name string) ([]fs.DirEntry, error) {
	f, err := r.r.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.ReadDir(-1)
}
