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
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/magehook/magehook/pkg/atomicfile"
	"github.com/magehook/magehook/pkg/jsontree"
	"github.com/magehook/magehook/pkg/realpath"
	"github.com/magehook/magehook/pkg/regfile"
	"github.com/rogpeppe/go-internal/lockedfile"
)

// Rewrite is one atomic edit of a settings file.
type Rewrite struct {
	// Path is the settings file; a symbolic link is followed and its
	// target replaced, so the link stays a link. A link to nothing, a file
	// with more than one hard link and a read-only file are refused.
	Path string
	// Edit turns the current bytes (nil when the file does not exist) into
	// the new ones; nil removes the file. An error leaves the file
	// untouched. Edit may run more than once: each time the file changed
	// under the write, it runs again on the new bytes.
	Edit func(old []byte) ([]byte, error)
	// Normalize, when set, is how Edit re-formats a document it changes
	// nothing else in (install sorts keys); Outcome.Reformatted and the
	// diff then tell a re-format from a change of content.
	Normalize func(old []byte) []byte
	// BackupDir receives a copy of the bytes a write replaces; empty means
	// no backup.
	BackupDir string
	// BackupPrefix starts each backup's name, to tell scopes apart.
	BackupPrefix string
	// Keep is how many backups of one prefix to keep (default 10).
	Keep int
	// DryRun computes the change and its diff and writes nothing.
	DryRun bool
	// Within, when set, is the directory of the file's scope (the
	// checkout, the home directory): a path that resolves outside it (a
	// committed .claude/settings.json linked to ../../../.claude/
	// settings.json) is refused, naming where it leads.
	Within string
	// Now stamps backups; nil means time.Now.
	Now func() time.Time
	// NotJSON marks a file that is not JSON (the OpenCode plugin): its
	// line endings are Edit's business. A JSON file written with CRLF
	// line endings gets them back.
	NotJSON bool
}

// Outcome is what a Rewrite did.
type Outcome struct {
	// Target is the file written (the link's target for a link).
	Target string
	// Changed reports whether the new bytes differ from the old.
	Changed bool
	// Reformatted reports that the write also re-formats the file (keys
	// sorted, two-space indent); Diff then shows only the change of
	// content, from the re-formatted old bytes.
	Reformatted bool
	// Diff is the unified diff of the change (empty when unchanged).
	Diff string
	// Backup is the backup that holds the replaced bytes, if any.
	Backup string
}

// The steps of a write, in order. A test can stop or fault a write
// between any two of them (see testHook).
const (
	stepRead     = "read"      // the target is read and the change computed
	stepPrepared = "prepared"  // the new bytes are in a synced file beside the target
	stepBackedUp = "backed-up" // the bytes about to be replaced are in the backups
	stepChecked  = "checked"   // the target still holds the bytes the change came from
	stepSwapped  = "swapped"   // the new file is in place, the replaced one beside it
	stepDone     = "done"      // the replaced bytes are verified and the temp file gone
)

// testHook, when set (only by tests), runs between the steps of a write;
// an error it returns is the step's error.
var testHook func(step string) error

func at(step string) error {
	if testHook == nil {
		return nil
	}
	return testHook(step)
}

// maxAttempts bounds how often a rewrite starts over because the file
// changed under it.
const maxAttempts = 8

// errChanged is an attempt that found the file changed under it.
var errChanged = errors.New("changed")

// Run performs the rewrite as a compare-and-swap: the new file is written
// and synced beside the target, the target is checked to still hold
// exactly the bytes the change was computed from, and the two are swapped
// in one step (renameat2 RENAME_EXCHANGE on Linux), so what was replaced
// is known and read again. When it is not the bytes the change came from
// — another program wrote the file in between — the swap is undone and
// the change is computed again from the new bytes (at most maxAttempts
// times). magehook therefore never writes over bytes it did not read.
// Where the system cannot swap (other kernels, some filesystems), the last
// step is a rename and a write landing between the check and the rename
// can still be lost.
func (rw Rewrite) Run() (Outcome, error) {
	target, err := resolveTarget(rw.Path)
	if err != nil {
		return Outcome{}, err
	}
	if err := rw.inScope(target); err != nil {
		return Outcome{}, err
	}
	out := Outcome{Target: target}
	unlock, err := lock(target)
	if err != nil {
		return out, err
	}
	defer unlock()
	if !rw.DryRun {
		cleanLeftovers(target)
		if rw.BackupDir != "" {
			rw.cleanBackupLeftovers()
		}
	}
	for attempt := 0; attempt < maxAttempts; attempt++ {
		old, exists, err := read(target)
		if err != nil {
			return out, fmt.Errorf("%s: %w", rw.Path, err)
		}
		next, err := rw.Edit(old)
		if err != nil {
			return out, fmt.Errorf("%s: %w", rw.Path, err)
		}
		if !rw.NotJSON {
			next = keepLineEndings(old, next)
			if len(next) > jsontree.MaxBytes {
				// A file magehook would refuse to read on the next run is
				// not one it writes.
				return out, fmt.Errorf("%s: the new version would be %d bytes, more than the %d magehook reads back; nothing was written: shrink the file's other keys and run again", rw.Path, len(next), jsontree.MaxBytes)
			}
		}
		if exists && next != nil && bytes.Equal(old, next) || !exists && next == nil {
			return out, nil
		}
		out.Changed = true
		from := old
		if rw.Normalize != nil && exists && next != nil {
			if norm := keepLineEndings(old, rw.Normalize(old)); !bytes.Equal(norm, old) {
				out.Reformatted, from = true, norm
			}
		}
		out.Diff = UnifiedDiff(rw.Path, from, next)
		if rw.DryRun {
			return out, nil
		}
		if err := at(stepRead); err != nil {
			return out, err
		}
		if next == nil {
			return out, rw.remove(target, old)
		}
		out.Backup, err = rw.swap(target, old, exists, next)
		if errors.Is(err, errChanged) {
			continue
		}
		return out, err
	}
	return out, fmt.Errorf("%s: the file kept changing while magehook wrote it (%d attempts); nothing was written over: run again once the other program is done", rw.Path, maxAttempts)
}

// swap is one attempt: it returns errChanged when the target no longer
// holds old, and the backup that holds old on success.
func (rw Rewrite) swap(target string, old []byte, exists bool, next []byte) (string, error) {
	if !exists {
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return "", fmt.Errorf("%s: %w", rw.Path, err)
		}
	}
	tmp, err := prepare(target, next)
	if err != nil {
		return "", rw.refusal("magehook could not write the new version beside it", err)
	}
	keepTmp := false
	defer func() {
		if !keepTmp {
			os.Remove(tmp)
		}
	}()
	if err := at(stepPrepared); err != nil {
		return "", err
	}
	var backup, made string
	if exists && rw.BackupDir != "" {
		if backup, made, err = rw.backup(old); err != nil {
			return "", err
		}
	}
	// A failed attempt leaves the backups as they were.
	dropBackup := func() {
		if made != "" {
			os.Remove(made)
		}
	}
	if err := at(stepBackedUp); err != nil {
		dropBackup()
		return "", err
	}
	now, nowExists, err := read(target)
	if err != nil {
		dropBackup()
		return "", fmt.Errorf("%s: %w", rw.Path, err)
	}
	if nowExists != exists || !bytes.Equal(now, old) {
		dropBackup()
		return "", errChanged
	}
	if err := at(stepChecked); err != nil {
		dropBackup()
		return "", err
	}
	exchanged := false
	if exists {
		err = atomicfile.Exchange(tmp, target)
		exchanged = err == nil
		if errors.Is(err, atomicfile.ErrNoExchange) {
			err = os.Rename(tmp, target)
		} else if errors.Is(err, fs.ErrNotExist) {
			dropBackup()
			return "", errChanged // removed since the check: start over
		}
	} else {
		// A hard link creates the name only if nothing holds it yet.
		if err = os.Link(tmp, target); errors.Is(err, fs.ErrExist) {
			return "", errChanged
		} else if err != nil {
			err = os.Rename(tmp, target) // no hard links on this filesystem
		}
	}
	if err != nil {
		dropBackup()
		return "", rw.refusal("the filesystem refused to replace it", err)
	}
	if err := at(stepSwapped); err != nil {
		return "", err
	}
	if exchanged {
		displaced, _, err := read(tmp)
		if err != nil || !bytes.Equal(displaced, old) {
			// Another program wrote the file between the check and the
			// swap: put its bytes back and start over from them.
			if err := atomicfile.Exchange(tmp, target); err != nil {
				keepTmp = true
				return "", fmt.Errorf("%s: another program wrote it while magehook did, and putting its version back failed (%v); its version is in %s: put it back by hand", rw.Path, err, rw.setAside(tmp))
			}
			if back, _, _ := read(tmp); !bytes.Equal(back, next) {
				// A second write replaced magehook's version in that
				// moment: the newest goes back in place, the one before
				// it aside, and nothing is lost.
				atomicfile.Exchange(tmp, target)
				keepTmp = true
				return "", fmt.Errorf("%s: other programs wrote it twice while magehook did; the earlier of their versions is in %s: compare it with the file and run again", rw.Path, rw.setAside(tmp))
			}
			dropBackup()
			return "", errChanged
		}
	}
	syncDir(filepath.Dir(target))
	if backup != "" {
		rw.prune()
	}
	if err := at(stepDone); err != nil {
		return backup, err
	}
	return backup, nil
}

// setAside keeps a version of the file that a failed undo left in the
// temporary file: in the backups when there are some (named as one), else
// beside the file under a name no cleanup removes. It returns the name.
func (rw Rewrite) setAside(tmp string) string {
	name := filepath.Join(filepath.Dir(tmp), filepath.Base(tmp)+"-set-aside")
	if rw.BackupDir != "" && os.MkdirAll(rw.BackupDir, 0o755) == nil {
		name = filepath.Join(rw.BackupDir, rw.BackupPrefix+"."+time.Now().UTC().Format("20060102T150405.000000000Z")+".set-aside.bak")
	}
	if err := os.Rename(tmp, name); err != nil {
		return tmp
	}
	return name
}

// refusal names what the filesystem refused and what to do about it.
func (rw Rewrite) refusal(what string, err error) error {
	switch {
	case errors.Is(err, syscall.ENAMETOOLONG):
		return fmt.Errorf("%s: %s: the name is too long for the temporary file magehook writes beside it; shorten the file's name or path", rw.Path, what)
	case errors.Is(err, syscall.EROFS):
		return fmt.Errorf("%s: %s: the filesystem is read-only; run where it is writable", rw.Path, what)
	case errors.Is(err, syscall.ENOSPC), errors.Is(err, syscall.EDQUOT):
		return fmt.Errorf("%s: %s: the disk is full; free some space and run again", rw.Path, what)
	case errors.Is(err, syscall.EFBIG):
		return fmt.Errorf("%s: %s: the file is larger than this process may write (ulimit -f); raise the limit and run again", rw.Path, what)
	}
	cause := err
	if u := errors.Unwrap(err); u != nil {
		cause = u
	}
	return fmt.Errorf("%s: %s (%v); check that its directory is writable and the file is not immutable (lsattr), then run again", rw.Path, what, cause)
}

// tempSuffix ends the name of every temporary file magehook writes beside
// a settings file: .<name>.<pid>.magehook-tmp.
const tempSuffix = ".magehook-tmp"

// prepare writes data to a new file beside target with the target's mode,
// owner and group (when it has one), synced, and returns its name.
func prepare(target string, data []byte) (string, error) {
	perm := os.FileMode(0o644)
	info, statErr := os.Stat(target)
	if statErr == nil {
		perm = info.Mode().Perm()
	}
	name := filepath.Join(filepath.Dir(target), "."+filepath.Base(target)+"."+strconv.Itoa(os.Getpid())+tempSuffix)
	os.Remove(name) // an earlier attempt's, in this process
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL|oNoFollow, perm)
	if err != nil {
		return "", err
	}
	fail := func(err error) (string, error) {
		f.Close()
		os.Remove(name)
		return "", err
	}
	if _, err := f.Write(data); err != nil {
		return fail(err)
	}
	if err := f.Chmod(perm); err != nil { // the umask narrowed it
		return fail(err)
	}
	if statErr == nil {
		if err := keepOwner(f, info); err != nil {
			return fail(err)
		}
	}
	if err := f.Sync(); err != nil {
		return fail(err)
	}
	if err := f.Close(); err != nil {
		os.Remove(name)
		return "", err
	}
	return name, nil
}

// cleanLeftovers removes the temporary files of magehook runs that were
// killed before they finished (their process is gone), and those that
// earlier versions left under renameio's names (.<name><digits>).
func cleanLeftovers(target string) {
	dir, base := filepath.Dir(target), "."+filepath.Base(target)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), base)
		if !ok || !e.Type().IsRegular() {
			continue
		}
		if pid, ok := strings.CutSuffix(strings.TrimPrefix(rest, "."), tempSuffix); ok && strings.HasPrefix(rest, ".") {
			if n, err := strconv.Atoi(pid); err == nil && n != os.Getpid() && !alive(n) {
				os.Remove(filepath.Join(dir, e.Name()))
			}
			continue
		}
		if len(rest) >= 10 && strings.Trim(rest, "0123456789") == "" {
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}

// remove deletes the file whose bytes were old, after a backup: it moves
// the file aside first, so what it deletes is what it read, and puts it
// back otherwise.
func (rw Rewrite) remove(target string, old []byte) error {
	var made string
	if rw.BackupDir != "" {
		var err error
		if _, made, err = rw.backup(old); err != nil {
			return err
		}
	}
	aside := filepath.Join(filepath.Dir(target), "."+filepath.Base(target)+"."+strconv.Itoa(os.Getpid())+tempSuffix)
	if err := os.Rename(target, aside); err != nil {
		if made != "" {
			os.Remove(made)
		}
		return rw.refusal("the filesystem refused to remove it", err)
	}
	if now, _, err := read(aside); err != nil || !bytes.Equal(now, old) {
		if err := os.Link(aside, target); err == nil {
			os.Remove(aside)
		}
		if made != "" {
			os.Remove(made)
		}
		return fmt.Errorf("%s changed while magehook removed it; it was left in place: run again", rw.Path)
	}
	rw.prune()
	return os.Remove(aside)
}

// ReadFile reads a settings file as the writer does: exists is false (and
// err nil) when there is none; one larger than jsontree reads, or anything
// but a regular file (a FIFO would block the read), is an error that says
// what to do.
func ReadFile(path string) (data []byte, exists bool, err error) { return read(path) }

func read(path string) ([]byte, bool, error) {
	data, err := regfile.ReadFile(path, jsontree.MaxBytes)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, false, nil
	case errors.Is(err, regfile.ErrTooLarge):
		return nil, false, fmt.Errorf("it is larger than the %d bytes magehook reads; a settings file that large is not one magehook should rewrite: shrink it", jsontree.MaxBytes)
	case errors.Is(err, regfile.ErrNotRegular):
		return nil, false, fmt.Errorf("it is not a regular file (%v); replace it with one, or remove it", errors.Unwrap(errors.Unwrap(err)))
	case err != nil:
		return nil, false, err
	}
	return data, true, nil
}

// keepLineEndings gives next the CRLF line endings of old when old uses
// them. JSON strings hold no raw newline, so every '\n' in an encoded
// document is a line ending.
func keepLineEndings(old, next []byte) []byte {
	if next == nil || !bytes.Contains(old, []byte("\r\n")) || bytes.Contains(next, []byte("\r\n")) {
		return next
	}
	return bytes.ReplaceAll(next, []byte("\n"), []byte("\r\n"))
}

// inScope refuses a target that resolves (through a link to the file or
// to a directory on its path) outside the scope's directory.
func (rw Rewrite) inScope(target string) error {
	if rw.Within == "" {
		return nil
	}
	dir, err := realpath.Resolve(rw.Within)
	if err != nil {
		return err
	}
	real, err := realpath.Resolve(target)
	if err != nil {
		return err
	}
	if !realpath.Within(real, dir) {
		return fmt.Errorf("%s resolves to %s, outside %s: magehook writes a settings file only inside its scope's directory (a link there would make it write another scope's file); remove the link or point it inside %s", rw.Path, real, dir, dir)
	}
	return nil
}

// resolveTarget follows symbolic links to the file they name and refuses
// what magehook cannot replace faithfully: a link to nothing (creating it
// would make directories wherever the link points), a file that is not a
// regular file, a read-only file, and a file with other hard links (an
// atomic replace would silently split them).
func resolveTarget(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	linked := false
	for i := 0; i < 40; i++ {
		info, err := os.Lstat(abs)
		if errors.Is(err, fs.ErrNotExist) {
			if linked {
				return "", fmt.Errorf("%s is a symbolic link to %s, which does not exist; create that file (or remove the link) and run again", path, abs)
			}
			return abs, danglingParent(abs)
		}
		if err != nil {
			return "", pathRefusal(path, err)
		}
		if info.Mode()&fs.ModeSymlink == 0 {
			if !info.Mode().IsRegular() {
				return "", fmt.Errorf("%s is not a regular file; replace it with one, or remove it", path)
			}
			if info.Mode().Perm()&0o200 == 0 {
				return "", fmt.Errorf("%s is read-only; make it writable if magehook should change it", path)
			}
			if err := foreign(path, abs, info); err != nil {
				return "", err
			}
			if n := hardLinks(info); n > 1 {
				return "", fmt.Errorf("%s has %d hard links, which replacing it atomically would split; make the other names symbolic links to it (magehook follows those) and run again", path, n)
			}
			if linked {
				// The file the system reaches: a ".." in a link's target
				// steps out of the target's directory, not the link's.
				if real, err := filepath.EvalSymlinks(path); err == nil {
					abs = real
				}
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
		abs, linked = link, true
	}
	return "", fmt.Errorf("%s: too many levels of symbolic links; point the link at a file", path)
}

// pathRefusal says what to do when the settings file's path cannot even
// be looked at.
func pathRefusal(path string, err error) error {
	switch {
	case errors.Is(err, syscall.ENAMETOOLONG):
		return fmt.Errorf("%s: the path is too long for this system; shorten it (or HOME, for -scope=user) and run again", path)
	case errors.Is(err, fs.ErrPermission):
		return fmt.Errorf("%s: magehook may not look at it (permission denied); run as a user who can read its directory", path)
	case errors.Is(err, syscall.ENOTDIR):
		return fmt.Errorf("%s: a directory on its path is a file; move that file away and run again", path)
	}
	return fmt.Errorf("%s: %v; fix the path and run again", path, err)
}

// danglingParent refuses a file to be created below a symbolic link to
// nothing (.claude linked to a directory that is gone): making the
// directories would make them wherever the link points.
func danglingParent(file string) error {
	for dir := filepath.Dir(file); ; dir = filepath.Dir(dir) {
		info, err := os.Lstat(dir)
		if err == nil && info.Mode()&fs.ModeSymlink != 0 {
			if _, err := os.Stat(dir); err != nil {
				link, _ := os.Readlink(dir)
				return fmt.Errorf("%s is a symbolic link to %s, which does not exist; create that directory (or remove the link) and run again", dir, link)
			}
			return nil
		}
		if err == nil || !errors.Is(err, fs.ErrNotExist) || filepath.Dir(dir) == dir {
			return nil
		}
	}
}

// backup makes sure a backup holds old: the newest one when it already
// does, else a new one. It returns the backup holding old and, when it
// wrote one, that one's name (so a failed attempt can take it back).
func (rw Rewrite) backup(old []byte) (holder, made string, err error) {
	if matches := rw.backups(); len(matches) > 0 {
		newest := matches[len(matches)-1]
		if data, err := os.ReadFile(newest); err == nil && bytes.Equal(data, old) {
			return newest, "", nil
		}
	}
	now := time.Now
	if rw.Now != nil {
		now = rw.Now
	}
	if err := os.MkdirAll(rw.BackupDir, 0o755); err != nil {
		return "", "", fmt.Errorf("backup directory: %w", err)
	}
	t := now().UTC()
	name := ""
	for {
		name = filepath.Join(rw.BackupDir, rw.BackupPrefix+"."+t.Format("20060102T150405.000000000Z")+".bak")
		if _, err := os.Lstat(name); err != nil {
			break
		}
		t = t.Add(time.Nanosecond) // names sort by time; never overwrite one
	}
	if err := atomicfile.WriteFile(name, old, 0o600); err != nil {
		return "", "", fmt.Errorf("backup %s: %w", name, err)
	}
	return name, name, nil
}

// cleanBackupLeftovers removes the temporary files of backups whose run
// was killed (renameio's .<name><digits>): every backup of the prefix is
// written under the settings file's lock, which this run holds.
func (rw Rewrite) cleanBackupLeftovers() {
	matches, _ := filepath.Glob(filepath.Join(rw.BackupDir, "."+rw.BackupPrefix+".*.bak*"))
	for _, m := range matches {
		_, digits, _ := strings.Cut(filepath.Base(m), ".bak")
		if len(digits) > 0 && strings.Trim(digits, "0123456789") == "" {
			os.Remove(m)
		}
	}
}

func (rw Rewrite) backups() []string {
	matches, _ := filepath.Glob(filepath.Join(rw.BackupDir, rw.BackupPrefix+".*.bak"))
	sort.Strings(matches)
	return matches
}

// prune keeps the newest Keep backups of the prefix; only a write that
// replaced the file prunes, so failed attempts never push a real backup
// out.
func (rw Rewrite) prune() {
	keep := rw.Keep
	if keep <= 0 {
		keep = 10
	}
	matches := rw.backups()
	for len(matches) > keep {
		os.Remove(matches[0])
		matches = matches[1:]
	}
}

// lock serialises magehook's own writers of one settings file with a lock
// file in the temporary directory (never next to the settings). Other
// programs do not take it; the compare-and-swap protects against them.
func lock(target string) (func(), error) {
	h := fnv.New64a()
	h.Write([]byte(target))
	name := filepath.Join(os.TempDir(), "magehook-settings-"+hex.EncodeToString(h.Sum(nil))+".lock")
	unlock, err := lockedfile.MutexAt(name).Lock()
	if err != nil {
		return func() {}, nil // no lock is no worse than another program writing
	}
	return unlock, nil
}

// BackupPrefix names a settings file's backups: the scope and a short hash
// of the path, so two checkouts' or scopes' files never share a name.
func BackupPrefix(scope, path string) string {
	h := fnv.New32a()
	h.Write([]byte(path))
	return strings.ReplaceAll(scope, "/", "-") + "-" + filepath.Base(path) + "-" + hex.EncodeToString(h.Sum(nil))
}
