package targets

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/magehook/magehook/pkg/safetext"
	"github.com/magehook/magehook/pkg/toolingrc"
)

// world is what an operator target reads and writes, passed in so that a
// test runs the target in-process on a temporary repository: the working
// directory, the environment and the three streams. The targets use
// osWorld, the process's own.
type world struct {
	dir            string // the working directory; "." is the process's
	getenv         func(string) string
	stdin          io.Reader
	stdout, stderr io.Writer
}

func osWorld() world {
	// What a person reads is escaped (safetext): a value from a
	// .toolingrc, a path or a payload never reaches the terminal as a
	// control sequence.
	return world{dir: ".", getenv: os.Getenv, stdin: os.Stdin, stdout: safetext.Writer(os.Stdout), stderr: safetext.Writer(os.Stderr)}
}

// start is where configuration discovery starts for an operator's
// command: MAGEHOOK_ROOT when set, else the working directory.
func (w world) start() string {
	if root := w.getenv(toolingrc.RootEnv); root != "" {
		return root
	}
	return w.dir
}

// wd is the working directory as an absolute path.
func (w world) wd() (string, error) {
	return filepath.Abs(w.dir)
}

// warnUnknown prints a line for every key in magehook's prefixes that
// magehook does not read (a typo), with the key it most likely means.
func (w world) warnUnknown(cfg *toolingrc.Config) {
	for _, u := range cfg.Unknowns() {
		fmt.Fprintln(w.stderr, "magehook: warning:", u)
	}
}

// abs is path against the working directory; "" stays "".
func (w world) abs(path string) string {
	if path == "" || filepath.IsAbs(path) {
		return path
	}
	return filepath.Join(w.dir, path)
}

func derefBool(b *bool) bool { return b != nil && *b }

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// plural is "1 problem", "2 problems".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
