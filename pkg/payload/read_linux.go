package payload

import (
	"io"
	"os"
	"syscall"
)

// readMapped reads the rest of a large payload into anonymous memory
// reserved for the whole cap and touched only as far as the payload goes:
// the payload is read once, in place, and the process's memory is the
// payload's size, where chunks joined at the end need twice that. The
// mapping is never released: the payload's fields share its memory, and a
// hook process ends with its one payload. ok is false when the memory
// cannot be mapped (nothing more has been read then).
func readMapped(f *os.File, first []byte, max int64) (data []byte, ok bool, err error) {
	if max > 1<<40 || int64(int(max)) != max {
		return nil, false, nil
	}
	region, merr := syscall.Mmap(-1, 0, int(max), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON|syscall.MAP_NORESERVE)
	if merr != nil {
		return nil, false, nil
	}
	n := copy(region, first)
	for n < len(region) {
		m, err := f.Read(region[n:])
		n += m
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, true, err
		}
	}
	return region[:n:n], true, nil
}
