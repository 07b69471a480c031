// Package toolingrc finds and reads a checkout's .toolingrc, the small
// configuration file magehook shares with other tools (seed 000).
//
// A line holds a key, whitespace and a value. A "#" at the start of a line,
// or after whitespace, starts a comment. A key may repeat, which makes a
// list. Unknown keys are ignored: other tools own other prefixes.
//
// Discovery walks up from a start directory to the nearest .toolingrc; that
// file's directory is the root. A lookup that needs a key continues up to
// the nearest .toolingrc holding it, and the key's home is that file's
// directory; a default's home is the root. The walk stops at the filesystem
// root. No .toolingrc at all is a configuration error naming the start.
//
// One policy per repository (policy.go): the gate keys (hook.enable,
// guard.protect) are those of the policy file, the top .toolingrc of the
// main checkout (the outermost repository, a linked worktree's main
// checkout), or their defaults, plus those of every other file of the
// chain: a worktree's, a submodule's, a nested clone's, a subdirectory's
// or a parent's .toolingrc may add handlers and protected branches, never
// remove or replace them; the weakening keys (hook.warn, cmdguard.off,
// ...) are read from the policy file and above only; a file above the
// repository that is not the user's alone is ignored with a warning. A
// file that is not UTF-8 text, or a key that differs from magehook's only
// by case, invisible or look-alike characters, is a configuration error
// (encoding.go). A file that cannot be
// fully read is an error, never skipped: a directory or a FIFO named
// .toolingrc, a file the user cannot read, a line over 1 MiB, a magehook key
// without a value. Only another tool's bare word (a key magehook does not
// know, with no value) is ignored, like its other keys. Files are opened
// only when they are regular files, so a FIFO never blocks the walk.
package toolingrc

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/magehook/magehook/pkg/regfile"
)

// FileName is the configuration file's name.
const FileName = ".toolingrc"

// RootEnv names an environment variable that, when set, is the directory
// discovery starts from, ahead of the payload's cwd and the working
// directory (fugubench's -C).
const RootEnv = "MAGEHOOK_ROOT"

// ErrNotFound is wrapped by the error Discover returns when no directory
// from the start up holds a .toolingrc.
var ErrNotFound = errors.New("no " + FileName + " found")

// Entry is one key-value line.
type Entry struct {
	Key, Value string
	Line       int
}

// File is one parsed .toolingrc.
type File struct {
	Path    string
	Entries []Entry
}

// Dir is the directory holding the file: the home of its keys.
func (f File) Dir() string { return filepath.Dir(f.Path) }

// Config is the chain of .toolingrc files from the root up.
type Config struct {
	// Start is where discovery began.
	Start string
	// Files holds the nearest file first.
	Files []File
	// RepoTop is the top directory of the git repository holding the root
	// (the nearest directory with a .git entry), or "" outside one.
	RepoTop string
	// PolicyTop is the main checkout whose .toolingrc sets the policy:
	// the outermost repository's top, or a linked worktree's main
	// checkout ("" outside git). See Policy.
	PolicyTop string
	// Warnings are files left out of the chain, each a line for stderr.
	Warnings []string
	policy   int
	own      int        // the files before those Join added (0: all)
	euid     func() int // the user whose files above the repository count
}

// MaxFileSize is the largest .toolingrc read (4 MiB), MaxLine its longest
// line (1 MiB).
const (
	MaxFileSize = 4 << 20
	MaxLine     = 1 << 20
)

// Error is a configuration error: a bad line or value, or no file. The
// program's exit code for it is 3.
type Error struct {
	File string
	Line int
	Key  string
	Msg  string
	// Err is the cause, when there is one to test for (ErrNotFound).
	Err error
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
	}
	b.WriteString(": ")
	if e.Key != "" {
		b.WriteString(e.Key + ": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// Options adjust Discover for what it would otherwise ask of the host.
type Options struct {
	// Euid is the user a .toolingrc above the repository must belong to
	// (or root) to count; nil is the process's effective user.
	Euid func() int
}

// Discover walks up from start (made absolute) and reads every .toolingrc
// on the way to the filesystem root. It fails when none exists (an error
// wrapping ErrNotFound), or when one cannot be read or parsed.
func Discover(start string) (*Config, error) { return DiscoverWith(start, Options{}) }

// DiscoverWith is Discover with options.
func DiscoverWith(start string, o Options) (*Config, error) {
	abs, err := filepath.Abs(start)
	if err != nil {
		return nil, &Error{File: start, Msg: fmt.Sprintf("cannot resolve the start directory: %v", err), Err: ErrNotFound}
	}
	euid := geteuid
	if o.Euid != nil {
		euid = o.Euid
	}
	cfg := &Config{Start: abs, policy: -1, euid: euid}
	files, err := chain(abs)
	if err != nil {
		return nil, err
	}
	cfg.Files = files
	if len(cfg.Files) > 0 {
		cfg.RepoTop = repoTop(cfg.Root())
	}
	if err := cfg.applyPolicy(chain); err != nil {
		return nil, err
	}
	if len(cfg.Files) == 0 {
		return nil, &Error{File: abs, Msg: fmt.Sprintf("%v in this directory or any parent; create one at the repository root, or set %s", ErrNotFound, RootEnv), Err: ErrNotFound}
	}
	if cfg.RepoTop == "" {
		cfg.RepoTop = repoTop(cfg.Root())
	}
	return cfg, nil
}

// chain reads every .toolingrc from dir up to the filesystem root, the
// nearest first.
func chain(abs string) ([]File, error) {
	var files []File
	for dir := abs; ; {
		path := filepath.Join(dir, FileName)
		// One system call for a directory without the file (most of the
		// walk), a few more where it is.
		_, lerr := os.Lstat(path)
		data, err := []byte(nil), lerr
		if lerr == nil {
			data, err = regfile.ReadFile(path, MaxFileSize)
		}
		gone := errors.Is(err, os.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) || errors.Is(err, syscall.ELOOP)
		switch {
		case err == nil:
			f, perr := Parse(path, data)
			if perr != nil {
				return nil, perr
			}
			files = append(files, f)
		case gone && lerr == nil:
			// A .toolingrc entry that does not resolve (a dangling symbolic
			// link, a loop): a configuration is there and cannot be read.
			return nil, &Error{File: path, Msg: fmt.Sprintf("is a symbolic link that does not resolve (%v); point it at the configuration file, or remove it", err)}
		case gone:
			// Nothing here: the directory does not exist, is a file, or is
			// a symbolic link loop (a start that does not resolve).
		default:
			return nil, readError(path, err)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	return files, nil
}

// readError names what is wrong with a .toolingrc that exists but cannot
// be read, and what to do.
func readError(path string, err error) *Error {
	switch {
	case errors.Is(err, os.ErrPermission):
		return &Error{File: path, Msg: "cannot be read (permission denied); make it readable (chmod a+r) or remove it"}
	case errors.Is(err, regfile.ErrNotRegular):
		what := "not a regular file"
		if info, serr := os.Stat(path); serr == nil && info.IsDir() {
			what = "a directory"
		} else if serr == nil && info.Mode()&os.ModeNamedPipe != 0 {
			what = "a FIFO"
		}
		return &Error{File: path, Msg: "is " + what + ", not a file; replace it with the configuration file, or remove it"}
	case errors.Is(err, regfile.ErrTooLarge):
		return &Error{File: path, Msg: fmt.Sprintf("is larger than %d bytes; a configuration file is a few lines", MaxFileSize)}
	}
	return &Error{File: path, Msg: "cannot be read: " + err.Error()}
}

// repoTop is the nearest directory from dir up holding a .git entry (a
// directory, or the file of a linked worktree or submodule), or "".
func repoTop(dir string) string {
	for {
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// Parse reads the lines of one file. It rejects a magehook key without a
// value and a line over MaxLine bytes; another tool's bare word (a key
// magehook does not know, alone on its line) is skipped.
func Parse(path string, data []byte) (File, error) {
	f := File{Path: path}
	if err := encoding(path, data); err != nil {
		return File{}, err
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 4096), MaxLine)
	n := 1
	for ; sc.Scan(); n++ {
		text := sc.Text()
		if n == 1 {
			// A byte order mark some editors write: without this, the
			// first key would be unknown and its gate silently off.
			text = strings.TrimPrefix(text, "\ufeff")
		}
		if err := unreadable(path, n, text); err != nil {
			return File{}, err
		}
		line := stripComment(text)
		if line == "" {
			continue
		}
		key, value := line, ""
		if i := strings.IndexAny(line, " \t"); i >= 0 {
			key, value = line[:i], strings.TrimSpace(line[i+1:])
		}
		if err := lookalike(path, n, key); err != nil {
			return File{}, err
		}
		if value == "" {
			if _, known := specOf(key); !known && !ownPrefix(Keys(), key) {
				continue // another tool's flag: other tools own other keys
			}
			return File{}, &Error{File: path, Line: n, Key: key, Msg: "has no value; write the key, a space and the value"}
		}
		f.Entries = append(f.Entries, Entry{Key: key, Value: value, Line: n})
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return File{}, &Error{File: path, Line: n, Msg: fmt.Sprintf("the line is longer than %d bytes; a value is one short line", MaxLine)}
		}
		return File{}, &Error{File: path, Msg: "cannot be read: " + err.Error()}
	}
	return f, nil
}

func stripComment(line string) string {
	line = strings.TrimSpace(line)
	if strings.HasPrefix(line, "#") {
		return ""
	}
	for i := 1; i < len(line); i++ {
		if line[i] == '#' && (line[i-1] == ' ' || line[i-1] == '\t') {
			return strings.TrimSpace(line[:i])
		}
	}
	return line
}

// Root is the directory of the nearest .toolingrc.
func (c *Config) Root() string { return c.Files[0].Dir() }

// Lookup finds the nearest file holding key and returns every entry of the
// key in that file (several for a list) and the file. ok is false when no
// file holds the key.
func (c *Config) Lookup(key string) (entries []Entry, file File, ok bool) {
	for _, f := range c.Files {
		for _, e := range f.Entries {
			if e.Key == key {
				entries = append(entries, e)
			}
		}
		if len(entries) > 0 {
			return entries, f, true
		}
	}
	return nil, File{}, false
}
