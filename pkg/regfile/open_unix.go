//go:build unix

package regfile

import (
	"fmt"
	"os"
	"syscall"
)

// readFile opens without blocking on a FIFO with no writer, checks the
// open descriptor, and reads through system calls alone: an *os.File
// opened non-blocking is registered with the runtime's poller, which costs
// a hook call three system calls for the first file and one for each
// after, to learn that a regular file cannot be polled.
func readFile(path string, max int64) ([]byte, error) {
	fd, err := retry(func() (int, error) {
		return syscall.Open(path, syscall.O_RDONLY|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
	})
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return nil, &os.PathError{Op: "stat", Path: path, Err: err}
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		return nil, &os.PathError{Op: "read", Path: path, Err: fmt.Errorf("%w (%s)", ErrNotRegular, kind(fileMode(uint32(st.Mode))))}
	}
	if max > 0 && st.Size > max {
		return nil, tooLarge(path, max)
	}
	size := int(st.Size) + 1 // one more byte to see the end (or a file that grew)
	if size < 512 {
		size = 512
	}
	buf := make([]byte, 0, size)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := retry(func() (int, error) { return syscall.Read(fd, buf[len(buf):cap(buf)]) })
		if err != nil {
			return nil, &os.PathError{Op: "read", Path: path, Err: err}
		}
		if n == 0 {
			return buf, nil
		}
		buf = buf[:len(buf)+n]
		if max > 0 && int64(len(buf)) > max {
			return nil, tooLarge(path, max)
		}
	}
}

func retry(call func() (int, error)) (int, error) {
	for {
		n, err := call()
		if err != syscall.EINTR {
			return n, err
		}
	}
}

// fileMode is the os.FileMode kind of a stat mode, for the message.
func fileMode(mode uint32) os.FileMode {
	switch mode & syscall.S_IFMT {
	case syscall.S_IFDIR:
		return os.ModeDir
	case syscall.S_IFIFO:
		return os.ModeNamedPipe
	case syscall.S_IFSOCK:
		return os.ModeSocket
	case syscall.S_IFCHR, syscall.S_IFBLK:
		return os.ModeDevice
	}
	return os.ModeIrregular
}
