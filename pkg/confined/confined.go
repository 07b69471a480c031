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
	realHome, err := realpath.Resolve(home)
	if err != nil {
		return "", err
	}
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(home, dir)
	}
	real, err := realpath.Resolve(dir)
	if err != nil {
		return "", err
	}
	if !Within(realHome, real) {
		return "", fmt.Errorf("%s leads out of %s through a symbolic link (to %s); remove the link, or point the setting at a directory inside", dir, home, real)
	}
	return filepath.Clean(dir), nil
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
	if d := filepath.Dir(name); d != "." {
		if err := r.r.MkdirAll(d, 0o755); err != nil {
			return nil, err
		}
	}
	if err := r.NotALink(name); err != nil {
		return nil, err
	}
	// A FIFO put where a log was would block the hook until a reader
	// came: opened without waiting, and refused like any other file that
	// is not a regular one.
	f, err := r.r.OpenFile(name, flag|nonBlock, perm)
	if errors.Is(err, syscall.ENXIO) {
		return nil, fmt.Errorf("%s: %w", r.Path(name), ErrNotRegular)
	}
	if err != nil {
		return nil, err
	}
	if info, err := f.Stat(); err == nil && !info.Mode().IsRegular() && !info.IsDir() {
		f.Close()
		return nil, fmt.Errorf("%s: %w", r.Path(name), ErrNotRegular)
	}
	return f, nil
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
