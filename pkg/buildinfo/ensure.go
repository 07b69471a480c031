package buildinfo

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"
)

// Ensure makes sure the hook binary out (relative to root) exists, and
// with fresh also that a binary Build stamped was built from root's
// current sources, building it when it is not. Parallel callers (the hook processes of one tool
// call, one per harness entry) serialise on a lock next to the binary; the
// first builds, the others wait for it and find the binary in place. A
// build that cannot finish before ctx's deadline is stopped and reported.
// Progress goes to log. It returns the binary's absolute path.
func Ensure(ctx context.Context, root, out string, fresh bool, log io.Writer) (string, error) {
	if !filepath.IsAbs(out) {
		out = filepath.Join(root, out)
	}
	if !fresh && executable(out) {
		return out, nil
	}
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return "", fmt.Errorf("cannot build %s: %w", out, err)
	}
	unlock, err := lockFile(ctx, LockPath(out), func() {
		fmt.Fprintf(log, "magehook: waiting for another process building %s\n", out)
	})
	if err != nil {
		return "", fmt.Errorf("cannot build %s: waiting for the build lock: %w", out, err)
	}
	defer unlock()
	present := executable(out)
	if present && !fresh {
		return out, nil // built while we waited
	}
	if !HasMagefiles(root) {
		if present {
			return out, nil // nothing to compare with or build from
		}
		return "", fmt.Errorf("%s does not exist and %s has no magefiles to build it from", out, root)
	}
	removeBrokenMainfile(root) // under the build lock
	hash, err := SourceHash(ctx, root)
	if err != nil {
		if present {
			return out, err
		}
		return "", fmt.Errorf("cannot build %s: %w", out, err)
	}
	why := "it does not exist"
	if present {
		built, _ := BinarySource(out)
		if built == hash || built == "" {
			// Current, or not made by Build (no stamp): a binary someone
			// put there on purpose is not replaced; the doctor reports it.
			if built == hash {
				if err := refresh(out, bootTime()); err != nil {
					fmt.Fprintf(log, "magehook: could not rewrite %s in one piece: %v\n", out, err)
				}
			}
			return out, nil
		}
		why = "it is older than its sources"
	}
	fmt.Fprintf(log, "magehook: building %s (%s)...\n", out, why)
	start := time.Now()
	if err := build(ctx, root, out, hash, log); err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			err = fmt.Errorf("%w: the build did not finish within the hook's timeout (the compiled packages are cached, so the next call gets further)", err)
		}
		if present {
			return out, err
		}
		return "", err
	}
	fmt.Fprintf(log, "magehook: built %s in %.1fs\n", out, time.Since(start).Seconds())
	return out, nil
}

// LockPath is the build lock Ensure takes next to the binary out. It
// stays after the build (removing it would race a waiting builder), so
// hook:install ignores it with the binary.
func LockPath(out string) string { return sidecar(out, "build.lock") }

// SidecarPattern is the gitignore pattern, relative to out's directory,
// of every file a build of out writes next to it: the lock, the linker's
// output and the copy of it Place renames over out.
func SidecarPattern(out string) string { return "." + filepath.Base(out) + ".*" }

func sidecar(out, suffix string) string {
	return filepath.Join(filepath.Dir(out), "."+filepath.Base(out)+"."+suffix)
}

func tempPath(out string, pid int) string { return sidecar(out, fmt.Sprintf("%d.tmp", pid)) }

func executable(path string) bool {
	info, err := os.Stat(path)
	return err == nil && info.Mode().IsRegular() && info.Mode().Perm()&0o111 != 0
}
