// Package atomicfile replaces files atomically: a temporary file in the
// target's own directory, written, synced and renamed over the target, so a
// reader (or a crash) sees the old bytes or the new ones, never a mix. On
// Unix it is github.com/google/renameio/v2; renameio does not build on
// Windows, where the same steps use os.CreateTemp and os.Rename.
package atomicfile

import (
	"errors"
	"os"
)

// Pending is a file being written; Replace puts it in place, Cleanup
// removes it when it is abandoned.
type Pending interface {
	Write(p []byte) (int, error)
	Replace() error
	Cleanup() error
}

// Create starts replacing path. The new file gets the existing file's
// permissions, or perm when there is none.
func Create(path string, perm os.FileMode) (Pending, error) {
	return create(path, perm)
}

// WriteFile replaces path with data in one step, with the existing file's
// permissions, or perm when there is none.
func WriteFile(path string, data []byte, perm os.FileMode) error {
	p, err := Create(path, perm)
	if err != nil {
		return err
	}
	if _, err := p.Write(data); err != nil {
		p.Cleanup()
		return err
	}
	if err := p.Replace(); err != nil {
		p.Cleanup()
		return err
	}
	return nil
}

// ErrNoExchange is Exchange's answer where the system cannot swap two
// files in one step.
var ErrNoExchange = errors.New("atomic exchange of two files is not supported here")
