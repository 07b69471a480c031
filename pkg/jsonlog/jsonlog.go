// Package jsonlog appends JSON lines to log files in the state directory,
// safely under parallel hook runs (Claude Code runs matching hooks in
// parallel), and rotates them by size.
package jsonlog

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// Log is one JSON-lines file.
type Log struct {
	Path string
	// MaxBytes rotates the file once it grows past this size (0: never).
	MaxBytes int64
	// Keep is how many rotated files (path.1, path.2, ...) to keep.
	Keep int
}

// Append writes rec as one line. The line goes out in one write on a file
// opened with O_APPEND, so concurrent writers never interleave; rotation
// happens under an exclusive lock, so no line is lost to a rename.
func (l Log) Append(rec any) error {
	line, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	line = append(line, '\n')
	if err := os.MkdirAll(filepath.Dir(l.Path), 0o755); err != nil {
		return err
	}
	unlock, err := lock(l.Path + ".lock")
	if err != nil {
		return err
	}
	defer unlock()
	if l.MaxBytes > 0 {
		if info, err := os.Stat(l.Path); err == nil && info.Size()+int64(len(line)) > l.MaxBytes {
			l.rotate()
		}
	}
	f, err := os.OpenFile(l.Path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	_, werr := f.Write(line)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	return werr
}

func (l Log) rotate() {
	keep := l.Keep
	if keep <= 0 {
		keep = 3
	}
	os.Remove(fmt.Sprintf("%s.%d", l.Path, keep))
	for i := keep - 1; i >= 1; i-- {
		os.Rename(fmt.Sprintf("%s.%d", l.Path, i), fmt.Sprintf("%s.%d", l.Path, i+1))
	}
	os.Rename(l.Path, l.Path+".1")
}
