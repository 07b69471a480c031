// Command ensure is what an installed hook command runs, through go run,
// when the hook binary it would exec is missing — a fresh clone, a new
// worktree — and at every SessionStart, where -fresh also rebuilds a
// binary older than its sources. It builds the binary (see
// buildinfo.Ensure: once, under a lock, atomically, within -timeout,
// progress on stderr) and prints its path on stdout for the command to
// exec. It never reads stdin, which holds the payload for the binary.
//
// Usage, in the checkout (go -C <checkout> run ...), or in its hook
// module when the magefiles are a module of their own (go -C
// <checkout>/magefiles run ...: the checkout is then the directory above):
//
//	go run github.com/magehook/magehook/cmd/ensure [-fresh] [-timeout=22s] bin/magehook
//
// The timeout counts from the hook command's start: the seconds go run took
// to compile this program are taken off it, so that the build gives up,
// and the call is blocked, before the harness's own timeout would let it
// through.
//
// EXIT CODES: 0 with the path on stdout; 1 when the binary is missing and
// cannot be built in time (the reason and the fix on stderr). go run reports any
// failure as exit 1, so the command decides what a failure means for its
// event.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/magehook/magehook/pkg/buildinfo"
	"github.com/magehook/magehook/pkg/proc"
)

// margin is what the budget keeps for the binary itself once it is built:
// the shell's exec and its answer.
const margin = time.Second

// budget is what is left of the timeout for the build once the hook has
// already spent spent, keeping margin for the binary's answer. The
// timeout counts from the hook command's start, and go run compiles this
// program before it runs (seconds on a cold cache): a build given the whole
// timeout from here could outlast the harness's, and a tool call whose
// hook times out is let through.
func budget(timeout, spent time.Duration) time.Duration {
	return timeout - spent - margin
}

// spentBefore is how long the hook command had run when this program
// started: the age of go run, its parent, started by the command.
func spentBefore() time.Duration {
	return spent(os.Getpid(), os.Getppid(), proc.StartTime, psEtime)
}

// spent is the time between parent's start and self's, from the start
// times (in USER_HZ ticks since boot, 0 when unknown), else from ps's
// elapsed time of the parent.
func spent(self, parent int, start func(pid int) uint64, etime func(pid int) (string, error)) time.Duration {
	s, p := start(self), start(parent)
	if s != 0 && p != 0 && p <= s {
		return time.Duration(s-p) * time.Second / 100 // /proc counts USER_HZ, 100 a second
	}
	out, err := etime(parent)
	if err != nil {
		return 0
	}
	d, _ := parseEtime(strings.TrimSpace(out))
	return d
}

func psEtime(pid int) (string, error) {
	out, err := exec.Command("ps", "-o", "etime=", "-p", strconv.Itoa(pid)).Output()
	return string(out), err
}

// parseEtime reads ps's elapsed time, [[dd-]hh:]mm:ss.
func parseEtime(s string) (time.Duration, bool) {
	var days int
	if d, rest, ok := strings.Cut(s, "-"); ok {
		n, err := strconv.Atoi(d)
		if err != nil {
			return 0, false
		}
		days, s = n, rest
	}
	parts := strings.Split(s, ":")
	if len(parts) < 2 || len(parts) > 3 {
		return 0, false
	}
	total := 0
	for _, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 {
			return 0, false
		}
		total = total*60 + n
	}
	return time.Duration(days*86400+total) * time.Second, true
}

// checkout is the checkout ensure builds in, started in dir: dir, or the
// directory above when dir is that checkout's hook module (magefiles/
// with a go.mod of its own).
func checkout(dir string) string {
	if up := filepath.Dir(dir); filepath.Base(dir) == "magefiles" && buildinfo.HookModule(up) {
		return up
	}
	return dir
}

func main() {
	fresh := flag.Bool("fresh", false, "also rebuild a binary older than its sources")
	timeout := flag.Duration("timeout", 25*time.Second, "give up building after this long")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "magehook: usage: ensure [-fresh] [-timeout=d] <binary>")
		os.Exit(2)
	}
	root, err := os.Getwd()
	if err != nil {
		fmt.Fprintln(os.Stderr, "magehook:", err)
		os.Exit(1)
	}
	root = checkout(root)
	spent := spentBefore()
	left := budget(*timeout, spent)
	if left <= 0 {
		fmt.Fprintln(os.Stderr, buildinfo.InCheckout(root, fmt.Sprintf("magehook: no time left to build %s within the hook's timeout (starting this builder took %s); this call is blocked, and the next one builds with the builder ready (or run go tool mage hook:build in %s)", flag.Arg(0), spent.Round(time.Second), root)))
		os.Exit(1)
	}
	ctx, cancel := context.WithTimeout(context.Background(), left)
	defer cancel()
	path, err := buildinfo.Ensure(ctx, root, flag.Arg(0), *fresh, os.Stderr)
	if err != nil {
		fmt.Fprintf(os.Stderr, "magehook: %v\n", err)
		if path == "" {
			fmt.Fprintln(os.Stderr, buildinfo.InCheckout(root, fmt.Sprintf("magehook: tool calls stay blocked until %s exists: fix the cause and run go tool mage hook:build in %s", flag.Arg(0), root)))
			os.Exit(1)
		}
	}
	fmt.Println(path)
}
