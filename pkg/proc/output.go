package proc

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"

	"github.com/magehook/magehook/pkg/gitx"
	"sync/atomic"
)

// running is the child Output is waiting for, if any.
var running atomic.Pointer[os.Process]

// KillRunning kills the child process Output is waiting for, if any: for
// a process about to exit without waiting (a hook's watchdog), whose child
// would otherwise stay blocked on what blocked it (git opening a FIFO).
func KillRunning() {
	if p := running.Load(); p != nil {
		p.Kill()
	}
}

// Output runs a short command (git diff, git log) and returns its stdout,
// without starting a goroutine: stdout is a pipe read on the calling
// goroutine and stderr an unlinked temporary file, where os/exec would
// copy from a buffer in goroutines of its own. A non-zero exit is an
// error carrying the last line of stderr. There is no timeout: use it for
// commands that do not wait on anything (the hook's own timeout bounds
// the rest).
func Output(dir string, env []string, name string, args ...string) ([]byte, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	errf, err := os.CreateTemp("", "magehook-stderr-*")
	if err != nil {
		w.Close()
		return nil, err
	}
	os.Remove(errf.Name())
	defer errf.Close()
	cmd := exec.Command(name, args...)
	cmd.Env = os.Environ()
	if name == "git" {
		// The git resolved at install, never the PATH's (pkg/gitx).
		cmd = gitx.Command(args...)
	}
	cmd.Dir = dir
	cmd.Env = append(cmd.Env, env...)
	cmd.Stdout, cmd.Stderr = w, errf
	err = cmd.Start()
	w.Close()
	if err != nil {
		return nil, err
	}
	running.Store(cmd.Process)
	var out bytes.Buffer
	_, rerr := io.Copy(&out, r)
	werr := cmd.Wait()
	running.Store(nil)
	if werr != nil {
		var exit *exec.ExitError
		if errors.As(werr, &exit) {
			errf.Seek(0, 0)
			msg, _ := io.ReadAll(io.LimitReader(errf, 64<<10))
			line := strings.TrimSpace(string(msg))
			if i := strings.LastIndexByte(line, '\n'); i >= 0 {
				line = strings.TrimSpace(line[i+1:])
			}
			if line == "" {
				line = exit.String()
			}
			return out.Bytes(), fmt.Errorf("%s %s: %s", name, strings.Join(args, " "), line)
		}
		return out.Bytes(), werr
	}
	return out.Bytes(), rerr
}
