//go:build unix

package main

import (
	"os"
	"syscall"
)

// mapCopy copies src to dst through a shared writable memory map of dst,
// the way the linker writes its output, so that the page cache holds dst
// as it holds a binary the linker just wrote.
func mapCopy(src, dst string) error {
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(dst, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o755)
	if err != nil {
		return err
	}
	err = f.Truncate(int64(len(data)))
	var m []byte
	if err == nil {
		m, err = syscall.Mmap(int(f.Fd()), 0, len(data), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_SHARED)
	}
	if err == nil {
		copy(m, data)
		err = syscall.Munmap(m)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
