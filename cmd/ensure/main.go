// Command ensure is what an installed hook command runs, through go run,
// when the hook binary it would exec is missing — a fresh clone, a new
// worktree — and at every SessionStart, where -fresh also rebuilds a
// binary older than its sources. It builds the binary (see
// buildinfo.Ensure: once, under a lock, atomically, within -timeout,
// progress on stderr) and prints its path on stdout for the command to
// exec. It never reads stdin, which holds the payload for the binary.
//
// Usage, in the checkout (go -C <checkout> run ...):
//
//	go run github.com/magehook/magehook/cmd/ensure [-fresh] [-timeout=22s] bin/magehook
//
// EXIT CODES: 0 with the path on stdout; 1 when the binary is missing and
// cannot be built (the reason and the fix on stderr). go run reports any
// failure as exit 1, so the command decides what a failure means for its
// event.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/magehook/magehook/pkg/buildinfo"
)

func main() {
	fresh := flag.Bool("fresh", false, "also rebuild a binary older than its sources")
	timeout := flag.Duration("timeout", 25*time.Second, "give up building after this long")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "magehook: usage: ensure [-fresh] [-timeout=d] <binary>")
		os.Exit(2)
	}
	ctx, cancel := context.WithTimeout(context.Background(), *timeout)
	defer cancel()
	root, err := os.Getwd()
	if err != nil {
		fmt.Fprintln(os.Stderr, "magehook:", err)
		os.Exit(1)
	}
	path, err := buildinfo.Ensure(ctx, root, flag.Arg(0), *fresh, os.Stderr)
	if err != nil {
		fmt.Fprintf(os.Stderr, "magehook: %v\n", err)
		if path == "" {
			fmt.Fprintf(os.Stderr, "magehook: tool calls stay blocked until %s exists: fix the cause and run go tool mage hook:build in %s\n", flag.Arg(0), root)
			os.Exit(1)
		}
	}
	fmt.Println(path)
}
