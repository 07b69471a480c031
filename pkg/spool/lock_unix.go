//go:build unix

package spool

import (
	"os"

	"github.com/magehook/magehook/pkg/confined"
	"path/filepath"
	"syscall"
)

// Running reports whether a shipper holds dir's ship.lock.
func Running(dir string) bool {
	f, err := os.OpenFile(filepath.Join(dir, ShipLock), os.O_RDONLY|noFollow, 0)
	if err != nil {
		return false // never made: no shipper ever ran
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		return true
	}
	syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	return false
}

// Claim takes dir's ship.lock for a shipper; ok is false when another
// shipper holds it. release gives it back.
func Claim(dir string) (release func(), ok bool, err error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, false, err
	}
	f, err := os.OpenFile(filepath.Join(dir, ShipLock), os.O_RDWR|os.O_CREATE|noFollow, 0o600)
	if err != nil {
		return nil, false, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		return nil, false, nil
	}
	return func() { f.Close() }, true, nil
}

func detached() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }

// lockIn takes .lock below root, shared or exclusive, waiting for it;
// release closes the file, which releases the lock.
func lockIn(root *confined.Root, exclusive bool) (release func(), err error) {
	f, err := root.OpenFile(LockName, os.O_RDWR|os.O_CREATE|noFollow, 0o600)
	if err != nil {
		return nil, err
	}
	how := syscall.LOCK_SH
	if exclusive {
		how = syscall.LOCK_EX
	}
	for {
		err = syscall.Flock(int(f.Fd()), how)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return func() { f.Close() }, nil
}
