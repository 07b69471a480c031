//go:build !unix

package spool

import (
	"os"

	"github.com/magehook/magehook/pkg/confined"
	"github.com/rogpeppe/go-internal/lockedfile"
	"path/filepath"
	"syscall"
)

// Running reports whether a shipper holds dir's ship.lock; without flock
// it cannot tell, and says no.
func Running(dir string) bool { return false }

// Claim takes dir's ship.lock for a shipper (without flock: always).
func Claim(dir string) (release func(), ok bool, err error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, false, err
	}
	f, err := os.OpenFile(filepath.Join(dir, ShipLock), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, false, err
	}
	return func() { f.Close() }, true, nil
}

func detached() *syscall.SysProcAttr { return nil }

// lockIn takes .lock below root, shared or exclusive, waiting for it.
func lockIn(root *confined.Root, exclusive bool) (release func(), err error) {
	lf, err := root.OpenFile(LockName, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	lf.Close()
	flag := os.O_RDONLY
	if exclusive {
		flag = os.O_RDWR
	}
	f, err := lockedfile.OpenFile(root.Path(LockName), flag, 0o600)
	if err != nil {
		return nil, err
	}
	return func() { f.Close() }, nil
}
