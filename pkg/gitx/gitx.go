// Package gitx runs git as an argument list, never through a shell, with
// every message git prints sent to a diagnostics writer (stderr) so that a
// hook's stdout carries only its answer.
//
// In verbose mode (Mage's -v, which sets MAGEFILE_VERBOSE) every git
// command is traced on stderr before it runs, with its directory
// (CLI-PROGRAM-7).
package gitx

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
)

// VerboseEnv is the variable Mage's -v sets in a compiled Mage binary.
const VerboseEnv = "MAGEFILE_VERBOSE"

// Trace receives the trace of each git command in verbose mode; nil means
// os.Stderr.
var Trace io.Writer

func trace(dir string, args []string) { TraceCommand(dir, "git", args...) }

// TraceCommand traces one command in verbose mode, for the commands other
// than git that magehook runs (the bootstrap's go tool mage).
func TraceCommand(dir, name string, args ...string) {
	if v, _ := strconv.ParseBool(os.Getenv(VerboseEnv)); !v {
		return
	}
	w := Trace
	if w == nil {
		w = os.Stderr
	}
	quoted := make([]string, len(args))
	for i, a := range args {
		quoted[i] = a
		if a == "" || strings.ContainsAny(a, " \t\n'\"\\$") {
			quoted[i] = strconv.Quote(a)
		}
	}
	fmt.Fprintf(w, "magehook: run: %s %s (in %s)\n", name, strings.Join(quoted, " "), dir)
}

// Git runs git commands in one directory.
type Git struct {
	Dir string
	// Log receives git's stderr (and stdout for Run); nil discards it.
	Log io.Writer
	// Env is added to the environment.
	Env []string
}

// Error is a git command that failed.
type Error struct {
	Args   []string
	Code   int
	Stderr string
}

func (e *Error) Error() string {
	msg := strings.TrimSpace(e.Stderr)
	if i := strings.LastIndexByte(msg, '\n'); i >= 0 {
		msg = strings.TrimSpace(msg[i+1:])
	}
	if msg == "" {
		msg = fmt.Sprintf("exit status %d", e.Code)
	}
	return fmt.Sprintf("git %s: %s", strings.Join(e.Args, " "), msg)
}

func (g Git) cmd(ctx context.Context, args []string) *exec.Cmd {
	trace(g.Dir, args)
	cmd := exec.CommandContext(ctx, Path(), args...)
	cmd.Dir = g.Dir
	cmd.Env = append(Env(), g.Env...)
	return cmd
}

// Output runs git and returns its stdout, trimmed of the final newline.
func (g Git) Output(ctx context.Context, args ...string) (string, error) {
	cmd := g.cmd(ctx, args)
	var stdout, stderr bytes.Buffer
	cmd.Stdout = &stdout
	cmd.Stderr = teeOrBuffer(&stderr, g.Log)
	err := cmd.Run()
	if err != nil {
		return strings.TrimRight(stdout.String(), "\n"), wrap(args, err, stderr.String())
	}
	return strings.TrimRight(stdout.String(), "\n"), nil
}

// Run runs git with its stdout and stderr sent to Log. os/exec copies the
// two streams on two goroutines, so unless Log is a file (which exec hands
// to git as is) the writes to it are serialised.
func (g Git) Run(ctx context.Context, args ...string) error {
	cmd := g.cmd(ctx, args)
	var stderr bytes.Buffer
	log := g.Log
	if _, isFile := log.(*os.File); log != nil && !isFile {
		log = &lockedWriter{w: log}
	}
	if log == nil {
		cmd.Stdout = io.Discard
	} else {
		cmd.Stdout = log
	}
	cmd.Stderr = teeOrBuffer(&stderr, log)
	if err := cmd.Run(); err != nil {
		return wrap(args, err, stderr.String())
	}
	return nil
}

// OK runs git and reports whether it exited 0, for yes-or-no questions
// (git check-ignore, git diff --quiet, ...).
func (g Git) OK(ctx context.Context, args ...string) bool {
	cmd := g.cmd(ctx, args)
	cmd.Stdout, cmd.Stderr = io.Discard, io.Discard
	return cmd.Run() == nil
}

// lockedWriter serialises writes from git's two output streams.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func teeOrBuffer(buf *bytes.Buffer, log io.Writer) io.Writer {
	if log == nil {
		return buf
	}
	return io.MultiWriter(buf, log)
}

func wrap(args []string, err error, stderr string) error {
	var exitErr *exec.ExitError
	if errors.As(err, &exitErr) {
		return &Error{Args: args, Code: exitErr.ExitCode(), Stderr: stderr}
	}
	return fmt.Errorf("git %s: %w", strings.Join(args, " "), err)
}

// Lines splits command output into its non-empty lines.
func Lines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}
