//go:build unix

// Package proc runs child processes as a group that can be stopped whole,
// and takes non-blocking file locks.
package proc

import (
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"syscall"
	"time"
)

// RunGroup runs a command in its own process group with its output on
// log. When ctx ends (failure elsewhere, SIGINT, SIGTERM) the whole group
// gets SIGTERM, then SIGKILL after a grace period, and is waited for.
func RunGroup(ctx context.Context, dir string, env []string, log io.Writer, name string, args ...string) error {
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
	case <-time.After(3 * time.Second):
		syscall.Kill(-pgid, syscall.SIGKILL)
		<-done
	}
	// Children that outlived the leader get the same end.
	syscall.Kill(-pgid, syscall.SIGKILL)
	return errors.Join(ctx.Err(), errors.New(name+" stopped"))
}

// TryLock takes an exclusive lock on path without waiting; held reports
// that another process has it.
func TryLock(path string) (unlock func(), held bool, err error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return func() {}, false, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return func() {}, true, nil
		}
		return func() {}, false, err
	}
	return func() { syscall.Flock(int(f.Fd()), syscall.LOCK_UN); f.Close() }, false, nil
}
