//go:build unix

// Package proc runs child processes as a group that can be stopped whole,
// detached, or for their output, and tells whether one is alive or a port
// is listened on.
package proc

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"time"
)

// Grace is how long RunGroup gives a stopped group between SIGTERM and
// SIGKILL.
const Grace = 3 * time.Second

// RunGroup runs a command in its own process group with its output on
// log. When ctx ends (failure elsewhere, SIGINT, SIGTERM) the whole group
// gets SIGTERM, then SIGKILL after Grace, and is waited for.
func RunGroup(ctx context.Context, dir string, env []string, log io.Writer, name string, args ...string) error {
	return RunGroupGrace(ctx, Grace, dir, env, log, name, args...)
}

// RunGroupGrace is RunGroup with the grace between SIGTERM and SIGKILL
// given: a caller with a deadline of its own (worktree creation inside
// Mage's cleanup window) keeps the stop inside it.
func RunGroupGrace(ctx context.Context, grace time.Duration, dir string, env []string, log io.Writer, name string, args ...string) error {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdout, cmd.Stderr = log, log
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	pgid := cmd.Process.Pid
	syscall.Kill(-pgid, syscall.SIGTERM)
	select {
	case <-done:
	case <-time.After(grace):
		syscall.Kill(-pgid, syscall.SIGKILL)
		<-done
	}
	// Children that outlived the leader get the same end.
	syscall.Kill(-pgid, syscall.SIGKILL)
	return fmt.Errorf("%s stopped: %w", name, ctx.Err())
}

// supervisor is the sh script Detach runs to bound a command's life: a
// timer in the same process group kills the whole group when it fires,
// and the end of the command kills the timer (and what the command left
// behind). Its arguments are the bound in seconds and the command.
const supervisor = `t=$1; shift
( sleep "$t"; kill -KILL 0 ) &
"$@"
kill -KILL 0`

// Detach starts a command in a session of its own and returns at once,
// without waiting for it: the hook that starts it must not be held up, and
// the harness killing the hook must not kill it. stdin and out (stdout and
// stderr) are files (nil: the null device), so no pipe keeps the hook's
// own output open. When bound is positive, the command and everything it
// starts are killed after bound (rounded up to seconds) by a supervising
// sh in the same process group.
func Detach(dir string, env []string, stdin, out *os.File, bound time.Duration, name string, args ...string) (pid int, err error) {
	cmd := exec.Command(name, args...)
	if bound > 0 {
		secs := int((bound + time.Second - 1) / time.Second)
		cmd = exec.Command("/bin/sh", append([]string{"-c", supervisor, "magehook-detach", strconv.Itoa(secs), name}, args...)...)
	}
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	if stdin != nil {
		cmd.Stdin = stdin
	}
	if out != nil {
		cmd.Stdout, cmd.Stderr = out, out
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		return 0, err
	}
	pid = cmd.Process.Pid
	cmd.Process.Release()
	return pid, nil
}

// Alive reports whether a process with the id exists and has not exited
// (a zombie waiting to be reaped is not alive).
func Alive(pid int) bool {
	if pid <= 0 {
		return false
	}
	if err := syscall.Kill(pid, 0); err != nil && !errors.Is(err, syscall.EPERM) {
		return false
	}
	if stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat"); err == nil {
		if i := bytes.LastIndexByte(stat, ')'); i >= 0 && i+2 < len(stat) {
			return stat[i+2] != 'Z' && stat[i+2] != 'X'
		}
	}
	return true
}

// StopGroup ends the process group led by pid: SIGTERM, then SIGKILL
// after grace when it is still there. It stops only a group whose leader
// pid is (a session Detach started), never a process that merely reuses
// the id.
func StopGroup(pid int, grace time.Duration, sleep func(time.Duration)) error {
	pgid, err := syscall.Getpgid(pid)
	switch {
	case err != nil && syscall.Kill(-pid, 0) != nil:
		return nil // the leader and its group are gone
	case err == nil && pgid != pid:
		return fmt.Errorf("process %d does not lead its process group; it is not one magehook started", pid)
	}
	// The leader leads its group, or has exited leaving the group behind
	// (the id of a live group is not handed to a new process).
	syscall.Kill(-pid, syscall.SIGTERM)
	for waited := time.Duration(0); waited < grace && Alive(pid); waited += 50 * time.Millisecond {
		sleep(50 * time.Millisecond)
	}
	syscall.Kill(-pid, syscall.SIGKILL) // what is left of the group
	return nil
}
