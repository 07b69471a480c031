//go:build unix

package ship

import (
	"os"
	"path/filepath"
	"syscall"

	"github.com/magehook/magehook/pkg/spool"
)

// claim takes the spool's ship.lock; with wait it waits for a running
// shipper to finish.
func claim(dir string, wait bool) (func(), bool, error) {
	if !wait {
		return spool.Claim(dir)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, false, err
	}
	f, err := os.OpenFile(filepath.Join(dir, spool.ShipLock), os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW, 0o600)
	if err != nil {
		return nil, false, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, false, err
	}
	return func() { f.Close() }, true, nil
}
