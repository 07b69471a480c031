//go:build unix

package lastpayload

import (
	"os"
	"syscall"
)

// lock takes the file's advisory lock, exclusive or shared, and returns
// its release. A file whose lock cannot be taken is used without it.
func lock(f *os.File, exclusive bool) func() {
	how := syscall.LOCK_SH
	if exclusive {
		how = syscall.LOCK_EX
	}
	fd := int(f.Fd())
	if syscall.Flock(fd, how) != nil {
		return func() {}
	}
	return func() { syscall.Flock(fd, syscall.LOCK_UN) }
}
