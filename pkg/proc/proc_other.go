//go:build !unix

package proc

import (
	"context"
	"io"
	"os"
	"os/exec"
)

// RunGroup runs a command with its output on log; ctx ending kills it.
func RunGroup(ctx context.Context, dir string, env []string, log io.Writer, name string, args ...string) error {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdout, cmd.Stderr = log, log
	return cmd.Run()
}

// TryLock is a no-op where flock is unavailable; the branch creation
// still serialises parallel creates.
func TryLock(string) (func(), bool, error) { return func() {}, false, nil }
