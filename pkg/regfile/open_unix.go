//go:build unix

package regfile

import (
	"os"
	"syscall"
)

// open opens for reading without blocking on a FIFO with no writer.
func open(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
