//go:build unix

package live_test

import (
	"os/exec"
	"syscall"
)

// ownGroup runs cmd in a process group of its own and makes its context's
// cancel kill the whole group: Kilo Code's and Cline's npm commands are
// node wrappers around the real binary, which would otherwise outlive a
// timed-out run.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}
