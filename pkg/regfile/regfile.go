// Package regfile reads files that must be regular files: a configuration
// file, a .git file, a HEAD. Opening a FIFO for reading blocks until a
// writer comes, which in a hook means past the harness's timeout, and a
// hook that times out lets the tool call run. So the file is opened without
// blocking (O_NONBLOCK on Unix), checked to be a regular file on the open
// descriptor (no window between a stat and the open), and read to a limit.
package regfile

import (
	"errors"
	"fmt"
	"os"
)

// Limits for the files a hook reads. Each is far above what git or a
// harness writes there, and far below what a hook can hold in memory: a
// file over its limit is an error, never a partial read.
const (
	// MaxGitFile bounds a file of git's storage that holds one line: HEAD,
	// a .git file, commondir, gitdir, a loose ref.
	MaxGitFile = 64 << 10
	// MaxText bounds a configuration file (git's config and each file it
	// includes, a harness's settings, Codex's config.toml) and a script.
	MaxText = 1 << 20
	// MaxRefs bounds packed-refs, which holds one line per ref.
	MaxRefs = 64 << 20
)

// ErrNotRegular is wrapped by the error for a path that is a directory, a
// FIFO, a socket or a device.
var ErrNotRegular = errors.New("not a regular file")

// ErrTooLarge is wrapped by the error for a file over the limit.
var ErrTooLarge = errors.New("larger than the limit")

// ReadFile reads the regular file at path, at most max bytes (no limit when
// max <= 0). A file that does not exist gives an error satisfying
// errors.Is(err, fs.ErrNotExist), as os.ReadFile's does.
func ReadFile(path string, max int64) ([]byte, error) {
	return readFile(path, max)
}

// Reader returns ReadFile with the limit max, for the functions that take
// a reader (gitcmd.Options.ReadFile, gitcmd.LoadConfig).
func Reader(max int64) func(string) ([]byte, error) {
	return func(path string) ([]byte, error) { return readFile(path, max) }
}

func tooLarge(path string, max int64) error {
	return &os.PathError{Op: "read", Path: path, Err: fmt.Errorf("%w of %d bytes", ErrTooLarge, max)}
}

// IsRegular reports whether path (followed if it is a symbolic link) is a
// regular file, without opening it.
func IsRegular(path string) bool {
	info, err := os.Stat(path)
	return err == nil && info.Mode().IsRegular()
}

func kind(m os.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&os.ModeNamedPipe != 0:
		return "a FIFO"
	case m&os.ModeSocket != 0:
		return "a socket"
	case m&os.ModeDevice != 0:
		return "a device"
	}
	return "not a regular file"
}
