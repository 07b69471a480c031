//go:build unix

// Package lockfile takes a lock on a file without waiting (TryLock): a
// worktree being created, a dev server being started.
package lockfile

import (
	"errors"
	"os"
	"syscall"
)

// TryLock takes an exclusive lock on path without waiting; held reports
// that another process has it.
func TryLock(path string) (unlock func(), held bool, err error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW, 0o600)
	if err != nil {
		return func() {}, false, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return func() {}, true, nil
		}
		return func() {}, false, err
	}
	return func() { syscall.Flock(int(f.Fd()), syscall.LOCK_UN); f.Close() }, false, nil
}
