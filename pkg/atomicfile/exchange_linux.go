//go:build linux && (amd64 || arm64)

package atomicfile

import (
	"syscall"
	"unsafe"
)

// Exchange swaps the files at a and b in one step (renameat2 with
// RENAME_EXCHANGE): each name then holds what the other held, and nothing
// is unlinked. It returns ErrNoExchange where the kernel or the filesystem
// cannot do it.
func Exchange(a, b string) error {
	pa, err := syscall.BytePtrFromString(a)
	if err != nil {
		return err
	}
	pb, err := syscall.BytePtrFromString(b)
	if err != nil {
		return err
	}
	const renameExchange = 1 << 1
	atFDCWD := -100
	_, _, errno := syscall.Syscall6(sysRenameat2, uintptr(atFDCWD), uintptr(unsafe.Pointer(pa)),
		uintptr(atFDCWD), uintptr(unsafe.Pointer(pb)), renameExchange, 0)
	switch errno {
	case 0:
		return nil
	case syscall.ENOSYS, syscall.EINVAL, syscall.EOPNOTSUPP:
		return ErrNoExchange
	}
	return &linkError{"exchange", a, b, errno}
}

type linkError struct {
	op, a, b string
	err      error
}

func (e *linkError) Error() string { return e.op + " " + e.a + " " + e.b + ": " + e.err.Error() }
func (e *linkError) Unwrap() error { return e.err }
