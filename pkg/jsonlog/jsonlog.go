// Package jsonlog appends JSON lines to log files in the state directory,
// safely under parallel hook runs (Claude Code runs matching hooks in
// parallel), rotates them by size, and bounds the state directory as a
// whole.
//
// Nothing is written through a symbolic link: the log is opened below its
// Root with package confined, so a repository that commits a log (or a
// directory on the way to it) as a link to a file elsewhere gets an error,
// not a line appended to that file.
package jsonlog

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/magehook/magehook/pkg/confined"
	"github.com/rogpeppe/go-internal/lockedfile"
)

// Log is one JSON-lines file.
type Log struct {
	// Path is the log file, below Root.
	Path string
	// Root is the directory the log must stay inside (the state
	// directory, resolved with confined.Dir); empty means the log's own
	// directory. A new log in a subdirectory of Root is one session's, and
	// its creation bounds Root (see Prune).
	Root string
	// MaxBytes rotates the file once it grows past this size (0: never).
	MaxBytes int64
	// Keep is how many rotated files (path.1, path.2, ...) to keep.
	Keep int
	// Bound is the bound on Root's sessions; the zero value means
	// DefaultBound.
	Bound Bound
}

// Appender is a record that writes its own JSON object, on one line: a
// record written on every tool call is spared encoding/json's reflection,
// which costs a hook call more than the rest of the record's work.
type Appender interface {
	AppendJSON(b []byte) []byte
}

// Append writes rec as one line (encoding/json's, or its own when it is an
// Appender). The line goes out in one write on a file opened with
// O_APPEND, so concurrent writers never interleave; rotation happens under
// an exclusive lock, so no line is lost to a rename.
func (l Log) Append(rec any) error {
	var line []byte
	var err error
	if a, ok := rec.(Appender); ok {
		line = a.AppendJSON(nil)
	} else if line, err = json.Marshal(rec); err != nil {
		return err
	}
	line = append(line, '\n')
	dir, name := l.Root, ""
	if dir == "" {
		dir, name = filepath.Dir(l.Path), filepath.Base(l.Path)
	} else if name, err = filepath.Rel(dir, l.Path); err != nil || !confined.Within(dir, l.Path) {
		return fmt.Errorf("log %s is not inside %s", l.Path, dir)
	}
	root, err := confined.Open(dir)
	if err != nil {
		return err
	}
	defer root.Close()
	if f, info, err := root.OpenExisting(name, os.O_RDWR|os.O_APPEND|noFollow); err == nil {
		if l.MaxBytes <= 0 || info.Size()+int64(len(line)) <= l.MaxBytes {
			// The common case, on every tool call: the log is there and
			// has room, so no lock. An O_APPEND write never interleaves
			// with another, and a rotation by another writer meanwhile
			// only renames the file this line goes into (kept as .1). A
			// log to create or to rotate takes the lock below.
			return appendTo(f, line)
		}
		f.Close()
	}
	lockName := name + ".lock"
	lf, err := root.OpenFile(lockName, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	lf.Close()
	lock, err := lockedfile.OpenFile(root.Path(lockName), os.O_RDWR|noFollow, 0o600)
	if err != nil {
		return err
	}
	defer lock.Close()
	info, statErr := root.Lstat(name)
	if l.MaxBytes > 0 && statErr == nil && info.Size()+int64(len(line)) > l.MaxBytes {
		l.rotate(root, name)
	}
	werr := AppendLine(root, name, line)
	if errors.Is(statErr, fs.ErrNotExist) && l.Root != "" && filepath.Dir(name) != "." {
		b := l.Bound
		if b == (Bound{}) {
			b = DefaultBound
		}
		MarkSessions(root, filepath.Dir(name))
		Prune(root, sessionOf(name), b)
	}
	return werr
}

// AppendLine appends line (whole lines, newline included) to name below
// root in one O_APPEND write, making the file when it is missing, through
// no symbolic link, whole or not at all: a short write (a full disk, a
// file size limit) is cut back off, so the log never holds a torn record
// that the next line would be glued to. A writer that rotates the file
// holds its own lock around it, as Append does.
func AppendLine(root *confined.Root, name string, line []byte) error {
	f, err := root.OpenFile(name, os.O_RDWR|os.O_APPEND|os.O_CREATE|noFollow, 0o600)
	if err != nil {
		return err
	}
	return appendTo(f, line)
}

// appendTo is AppendLine's write to f, opened to append, and closes it.
func appendTo(f *os.File, line []byte) error {
	n, werr := f.Write(line)
	if werr != nil && n > 0 {
		untear(f, line[:n])
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	return werr
}

// untear truncates the part of a line a short write left at the end of f,
// when the end is still that part (no other writer's line came after it).
func untear(f *os.File, part []byte) {
	info, err := f.Stat()
	if err != nil || info.Size() < int64(len(part)) {
		return
	}
	at := info.Size() - int64(len(part))
	end := make([]byte, len(part))
	if _, err := f.ReadAt(end, at); err == nil && bytes.Equal(end, part) {
		f.Truncate(at)
	}
}

func (l Log) rotate(root *confined.Root, name string) {
	keep := l.Keep
	if keep <= 0 {
		keep = 3
	}
	root.Remove(fmt.Sprintf("%s.%d", name, keep))
	for i := keep - 1; i >= 1; i-- {
		root.Rename(fmt.Sprintf("%s.%d", name, i), fmt.Sprintf("%s.%d", name, i+1))
	}
	root.Rename(name, name+".1")
}
