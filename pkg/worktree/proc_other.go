//go:build !unix

package worktree

import (
	"context"
	"io"
	"os"
	"os/exec"
)

// runGroup runs a command with its output on log; ctx ending kills it.
func runGroup(ctx context.Context, dir string, env []string, log io.Writer, name string, args ...string) error {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdout, cmd.Stderr = log, log
	return cmd.Run()
}

// tryLock is a no-op where flock is unavailable; the branch creation
// still serialises parallel creates.
func tryLock(string) (func(), bool, error) { return func() {}, false, nil }
