//go:build !unix

package spool

import (
	"os"
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
