package settings

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/fnv"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/magehook/magehook/pkg/atomicfile"
)

// Rewrite is one atomic edit of a settings file.
type Rewrite struct {
	// Path is the settings file; a symbolic link is followed and its
	// target replaced, so the link stays a link.
	Path string
	// Edit turns the current bytes (nil when the file does not exist) into
	// the new ones; nil removes the file. An error leaves the file
	// untouched.
	Edit func(old []byte) ([]byte, error)
	// BackupDir receives a copy of the bytes a write replaces; empty means
	// no backup.
	BackupDir string
	// BackupPrefix starts each backup's name, to tell scopes apart.
	BackupPrefix string
	// Keep is how many backups of one prefix to keep (default 10).
	Keep int
	// DryRun computes the change and its diff and writes nothing.
	DryRun bool
	// Now stamps backups; nil means time.Now.
	Now func() time.Time
}

// Outcome is what a Rewrite did.
type Outcome struct {
	// Target is the file written (the link's target for a link).
	Target string
	// Changed reports whether the new bytes differ from the old.
	Changed bool
	// Diff is the unified diff of the change (empty when unchanged).
	Diff string
	// Backup is the backup file written, if any.
	Backup string
}

// maxAttempts bounds how often a rewrite starts over because the file
// changed under it.
const maxAttempts = 8

// Run performs the rewrite. When the file changes on disk between the read
// and the rename (another tool, or Claude Code itself, wrote it), it starts
// over from the new bytes instead of overwriting that change.
func (rw Rewrite) Run() (Outcome, error) {
	target, err := resolveLink(rw.Path)
	if err != nil {
		return Outcome{}, err
	}
	out := Outcome{Target: target}
	unlock, err := lock(target)
	if err != nil {
		return out, err
	}
	defer unlock()

	for attempt := 0; attempt < maxAttempts; attempt++ {
		old, exists, err := read(target)
		if err != nil {
			return out, err
		}
		next, err := rw.Edit(old)
		if err != nil {
			return out, fmt.Errorf("%s: %w", rw.Path, err)
		}
		if exists && bytes.Equal(old, next) || !exists && next == nil {
			return out, nil
		}
		out.Changed = true
		out.Diff = UnifiedDiff(rw.Path, old, next)
		if rw.DryRun {
			return out, nil
		}
		if next == nil {
			return out, rw.remove(target, old)
		}
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return out, err
		}
		pf, err := atomicfile.Create(target, 0o644)
		if err != nil {
			return out, fmt.Errorf("%s: %w", rw.Path, err)
		}
		if _, err := pf.Write(next); err != nil {
			pf.Cleanup()
			return out, fmt.Errorf("%s: %w", rw.Path, err)
		}
		if exists && rw.BackupDir != "" && out.Backup == "" {
			if out.Backup, err = rw.backup(old); err != nil {
				pf.Cleanup()
				return out, err
			}
		}
		now, _, err := read(target)
		if err != nil {
			pf.Cleanup()
			return out, err
		}
		if !bytes.Equal(now, old) {
			pf.Cleanup()
			out.Backup = ""
			continue // changed under us: start over from the new bytes
		}
		if err := pf.Replace(); err != nil {
			pf.Cleanup()
			return out, fmt.Errorf("%s: %w", rw.Path, err)
		}
		return out, nil
	}
	return out, fmt.Errorf("%s: the file kept changing while magehook wrote it (%d attempts); try again", rw.Path, maxAttempts)
}

// remove deletes the file whose bytes were old, after a backup.
func (rw Rewrite) remove(target string, old []byte) error {
	if rw.BackupDir != "" {
		if _, err := rw.backup(old); err != nil {
			return err
		}
	}
	if now, _, err := read(target); err != nil || !bytes.Equal(now, old) {
		return fmt.Errorf("%s changed while magehook worked; try again", rw.Path)
	}
	return os.Remove(target)
}

func read(path string) ([]byte, bool, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	return data, true, nil
}

// resolveLink follows symbolic links to the file they name, which may not
// exist yet.
func resolveLink(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	for i := 0; i < 40; i++ {
		info, err := os.Lstat(abs)
		if errors.Is(err, fs.ErrNotExist) {
			return abs, nil
		}
		if err != nil {
			return "", err
		}
		if info.Mode()&fs.ModeSymlink == 0 {
			if !info.Mode().IsRegular() {
				return "", fmt.Errorf("%s is not a regular file", path)
			}
			if info.Mode().Perm()&0o200 == 0 {
				return "", fmt.Errorf("%s is read-only; make it writable if magehook should change it", path)
			}
			return abs, nil
		}
		link, err := os.Readlink(abs)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(link) {
			link = filepath.Join(filepath.Dir(abs), link)
		}
		abs = link
	}
	return "", fmt.Errorf("%s: too many levels of symbolic links", path)
}

// backup writes old to BackupDir and prunes the oldest backups of the
// same prefix beyond Keep.
func (rw Rewrite) backup(old []byte) (string, error) {
	now := time.Now
	if rw.Now != nil {
		now = rw.Now
	}
	if err := os.MkdirAll(rw.BackupDir, 0o755); err != nil {
		return "", fmt.Errorf("backup directory: %w", err)
	}
	stamp := now().UTC().Format("20060102T150405.000000000Z")
	name := filepath.Join(rw.BackupDir, rw.BackupPrefix+"."+stamp+".bak")
	if err := atomicfile.WriteFile(name, old, 0o600); err != nil {
		return "", fmt.Errorf("backup %s: %w", name, err)
	}
	keep := rw.Keep
	if keep <= 0 {
		keep = 10
	}
	matches, _ := filepath.Glob(filepath.Join(rw.BackupDir, rw.BackupPrefix+".*.bak"))
	sort.Strings(matches)
	for len(matches) > keep {
		os.Remove(matches[0])
		matches = matches[1:]
	}
	return name, nil
}

// BackupPrefix names a settings file's backups: the scope and a short hash
// of the path, so two checkouts' or scopes' files never share a name.
func BackupPrefix(scope, path string) string {
	h := fnv.New32a()
	h.Write([]byte(path))
	return strings.ReplaceAll(scope, "/", "-") + "-" + filepath.Base(path) + "-" + hex.EncodeToString(h.Sum(nil))
}
