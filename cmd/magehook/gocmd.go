package main

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/bitfield/script"
)

// goCommand runs the go command, its output on stderr, saying every few
// seconds that it still runs: the go command is silent while it compiles,
// and a first compile on a fresh machine takes up to a minute.
func goCommand(o options, args ...string) error {
	return runGo(o, false, args...)
}

// runGo runs the go command as goCommand does; quiet discards its stdout.
func runGo(o options, quiet bool, args ...string) error {
	ticks, stop := o.ticker()
	defer stop()
	return progress(o.Stderr, "go "+strings.Join(args, " "), heartbeat, ticks, func(w io.Writer) error {
		out := w
		if quiet {
			out = io.Discard
		}
		_, err := script.NewPipe().WithStdout(out).WithStderr(w).ExecCommand("go", args...).Stdout()
		return err
	})
}

// heartbeat is how often a silent step says it still runs.
const heartbeat = 5 * time.Second

func realTicker() (<-chan time.Time, func()) {
	t := time.NewTicker(heartbeat)
	return t.C, t.Stop
}

// progress runs fn, writing "still running" to w at every tick (each tick
// counted as one interval) until fn returns. fn's own output goes to w
// through the same lock.
func progress(w io.Writer, what string, interval time.Duration, ticks <-chan time.Time, fn func(io.Writer) error) error {
	lw := &lockedWriter{w: w}
	done := make(chan error, 1)
	go func() { done <- fn(lw) }()
	for n := 1; ; n++ {
		select {
		case err := <-done:
			return err
		case <-ticks:
			fmt.Fprintf(lw, "magehook init: %s still running (%s)\n", what, time.Duration(n)*interval)
		}
	}
}

type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
