//go:build !unix

package proc

import (
	"context"
	"io"
	"os"
	"os/exec"
	"time"
)

// RunGroup runs a command with its output on log; ctx ending kills it.
func RunGroup(ctx context.Context, dir string, env []string, log io.Writer, name string, args ...string) error {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdout, cmd.Stderr = log, log
	return cmd.Run()
}

// RunGroupGrace is RunGroup: without process groups the command is
// killed at once.
func RunGroupGrace(ctx context.Context, _ time.Duration, dir string, env []string, log io.Writer, name string, args ...string) error {
	return RunGroup(ctx, dir, env, log, name, args...)
}

// Detach starts a command and returns at once. Without process groups,
// bound is not enforced here.
func Detach(dir string, env []string, stdin, out *os.File, bound time.Duration, name string, args ...string) (int, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	if stdin != nil {
		cmd.Stdin = stdin
	}
	if out != nil {
		cmd.Stdout, cmd.Stderr = out, out
	}
	if err := cmd.Start(); err != nil {
		return 0, err
	}
	pid := cmd.Process.Pid
	cmd.Process.Release()
	return pid, nil
}

// Alive reports whether a process with the id exists.
func Alive(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	p.Release()
	return true
}

// StopGroup kills the process pid.
func StopGroup(pid int, grace time.Duration, sleep func(time.Duration)) error {
	p, err := os.FindProcess(pid)
	if err != nil {
		return nil
	}
	return p.Kill()
}
