package buildinfo

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A build stopped by its context is stopped whole: the go command's own
// children (Mage, the compiler) do not outlive it to go on writing in the
// checkout. The go command here is a script whose child outlives it
// unless its process group is killed.
func TestStoppedBuildLeavesNoChild(t *testing.T) {
	bin := t.TempDir()
	mark := filepath.Join(t.TempDir(), "child")
	fake := "#!/bin/sh\ncase \"$1\" in env) exit 0;; esac\nsleep 1000 &\necho $! > \"$MAGEHOOK_TEST_MARK.tmp\"\nmv \"$MAGEHOOK_TEST_MARK.tmp\" \"$MAGEHOOK_TEST_MARK\"\nwait\n"
	if err := os.WriteFile(filepath.Join(bin, "go"), []byte(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Setenv("MAGEHOOK_TEST_MARK", mark)
	t.Setenv("GOEXPERIMENT", "")
	root := t.TempDir()

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- build(ctx, root, filepath.Join(root, "bin", "magehook"), "hash", io.Discard) }()
	var pid int
	for pid == 0 {
		select {
		case err := <-done:
			t.Fatalf("build ended before it was stopped: %v", err)
		case <-time.After(10 * time.Millisecond):
		}
		if data, err := os.ReadFile(mark); err == nil {
			pid, _ = strconv.Atoi(strings.TrimSpace(string(data)))
		}
	}
	cancel()
	if err := <-done; err == nil || !strings.Contains(err.Error(), "context canceled") {
		t.Fatalf("stopped build: %v, want the context's error", err)
	}
	// SIGKILL is delivered at once, but the kernel finishes the exit on
	// its own schedule: wait for it, far longer than it takes.
	t.Cleanup(func() { syscall.Kill(pid, syscall.SIGKILL) })
	for wait := 0; alive(pid); wait++ {
		if wait == 3000 {
			t.Fatalf("the go command's child %d still runs after the build was stopped", pid)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// alive reports whether pid is a process that has not exited (a zombie
// has).
func alive(pid int) bool {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	s := string(data)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || i+2 >= len(s) || s[i+2] != 'Z'
}
