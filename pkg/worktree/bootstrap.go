package worktree

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/magehook/magehook/pkg/buildinfo"
	"github.com/magehook/magehook/pkg/gitx"
	"github.com/magehook/magehook/pkg/proc"
)

// BootstrapNone is the worktree.bootstrap value that runs no bootstrap.
const BootstrapNone = "none"

// bootstrap runs the worktree's own bootstrap target with MAIN set to the
// main checkout, MAGEHOOK_ROOT to the worktree, and its output on the log
// (WT-CREATE-4). Whether the
// target exists is Mage's answer (go tool mage -l in the worktree), not a
// guess from the source: a helper named bootstrap that Mage does not
// export is no target. A worktree without magefiles, or whose Mage has
// no such target, is said so on the log and goes on, unless the target
// was named in a .toolingrc; "none" turns the bootstrap off.
func (m Manager) bootstrap(ctx context.Context, path string) error {
	target := m.Bootstrap
	if target == "" {
		target = "bootstrap"
	}
	if target == BootstrapNone {
		return nil
	}
	if info, err := os.Stat(filepath.Join(path, "magefiles")); err != nil || !info.IsDir() {
		if m.BootstrapSet {
			return fmt.Errorf("worktree.bootstrap names %s, but %s has no magefiles", target, path)
		}
		m.say("%s has no magefiles: no bootstrap (worktree.bootstrap none says so quietly)", path)
		return nil
	}
	ok, err := m.definesTarget(ctx, path, target)
	if err != nil {
		return fmt.Errorf("cannot list the Mage targets of %s (set worktree.bootstrap none to create worktrees without a bootstrap): %w", path, err)
	}
	if !ok {
		if m.BootstrapSet {
			return fmt.Errorf("worktree.bootstrap names %s, but the Mage of %s has no such target (go tool mage -l lists them)", target, path)
		}
		m.say("the Mage of %s has no target %s: no bootstrap (define it, or set worktree.bootstrap none)", path, target)
		return nil
	}
	m.say("running go tool mage %s in %s", target, path)
	// The bootstrap works on the worktree, a checkout of its own: an
	// inherited MAGEHOOK_ROOT (the operator's, naming the main checkout)
	// would turn its hook:build into a build of the main checkout's
	// binary. MAIN names the main checkout.
	env := []string{"MAIN=" + m.Root, "MAGEHOOK_ROOT=" + path, bootstrapEnv + "=" + path}
	dir, args := buildinfo.Mage(path, target)
	gitx.TraceCommand(dir, "go", args...)
	return proc.RunGroupGrace(ctx, BootstrapGrace, dir, env, m.log(), "go", args...)
}

// bootstrapEnv marks a bootstrap's processes with their worktree, so that
// remove can find an orphan a killed create left running.
const bootstrapEnv = "MAGEHOOK_BOOTSTRAP"

// definesTarget asks Mage for the targets of the worktree (go tool mage
// -l, which also compiles the magefiles the bootstrap then runs from
// Mage's cache) and reports whether target, compared without case as
// Mage does, is one of them.
func (m Manager) definesTarget(ctx context.Context, dir, target string) (bool, error) {
	dir, args := buildinfo.Mage(dir, "-l")
	gitx.TraceCommand(dir, "go", args...)
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return false, fmt.Errorf("go tool mage -l: %s", msg)
	}
	return ListsTarget(stdout.String(), target), nil
}

// ListsTarget reports whether the output of mage -l lists target.
func ListsTarget(list, target string) bool {
	in := false
	for _, line := range strings.Split(list, "\n") {
		if strings.HasPrefix(line, "Targets:") {
			in = true
			continue
		}
		if !in || !strings.HasPrefix(line, "  ") {
			continue
		}
		fields := strings.Fields(line)
		if len(fields) > 0 && strings.EqualFold(strings.TrimSuffix(fields[0], "*"), target) {
			return true
		}
	}
	return false
}
