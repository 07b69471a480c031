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
package toolingrc

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
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
}

// Error is a configuration error: a bad line or value, or no file. The
// program's exit code for it is 3.
type Error struct {
	File string
	Line int
	Key  string
	Msg  string
}

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

// Discover walks up from start (made absolute) and reads every .toolingrc
// on the way to the filesystem root. It fails when none exists, or when one
// cannot be read or parsed.
func Discover(start string) (*Config, error) {
	abs, err := filepath.Abs(start)
	if err != nil {
		return nil, fmt.Errorf("%w: cannot resolve %q: %v", ErrNotFound, start, err)
	}
	cfg := &Config{Start: abs}
	for dir := abs; ; {
		path := filepath.Join(dir, FileName)
		data, err := os.ReadFile(path)
		switch {
		case err == nil:
			f, perr := Parse(path, data)
			if perr != nil {
				return nil, perr
			}
			cfg.Files = append(cfg.Files, f)
		case errors.Is(err, os.ErrNotExist), errors.Is(err, os.ErrPermission):
		default:
			var pathErr *os.PathError
			if !errors.As(err, &pathErr) || !isSkippable(pathErr) {
				return nil, &Error{File: path, Msg: "cannot read: " + err.Error()}
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	if len(cfg.Files) == 0 {
		return nil, &Error{File: abs, Msg: fmt.Sprintf("%v in this directory or any parent; create one at the repository root, or set %s", ErrNotFound, RootEnv)}
	}
	return cfg, nil
}

// isSkippable reports read errors that mean "no usable file here", such as
// a directory named .toolingrc or a path component that is not a directory.
func isSkippable(err *os.PathError) bool {
	info, statErr := os.Stat(err.Path)
	return statErr != nil || info.IsDir()
}

// Parse reads the lines of one file. It rejects a key without a value.
func Parse(path string, data []byte) (File, error) {
	f := File{Path: path}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := stripComment(sc.Text())
		if line == "" {
			continue
		}
		key, value := line, ""
		if i := strings.IndexAny(line, " \t"); i >= 0 {
			key, value = line[:i], strings.TrimSpace(line[i+1:])
		}
		if value == "" {
			return File{}, &Error{File: path, Line: n, Key: key, Msg: "has no value; write the key, a space and the value"}
		}
		f.Entries = append(f.Entries, Entry{Key: key, Value: value, Line: n})
	}
	if err := sc.Err(); err != nil {
		return File{}, &Error{File: path, Msg: "cannot read: " + err.Error()}
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
