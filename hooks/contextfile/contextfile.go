// Package contextfile adds the repository's notes files to the session's
// context when it starts.
//
// # PURPOSE
//
// A team writes down what an agent keeps re-learning — quirks of the build,
// commands that work, decisions already made — in a notes file. This
// observer puts the files context.file names into the model's context at
// every session start, resume, clear and compaction (seed 002,
// loop-notes-inject), so a run starts from what earlier runs recorded.
//
// # HOW IT WORKS
//
//  1. SessionStart fires with any source (startup, resume, clear, compact):
//     after a compaction the notes are lost from the context and come back.
//  2. Each context.file value is a path relative to the .toolingrc that
//     names it. A missing file is skipped with a note on stderr; a path
//     that is not a regular file (a directory, a FIFO, a device) is
//     skipped without being opened, so it cannot hang the session.
//  3. The files are read, never written. Each is capped at MaxFile bytes
//     and all of them together at MaxTotal (below Claude Code's 10,000
//     character limit for additionalContext); a cut file says so.
//  4. The answer is additionalContext: each file under a line naming it.
//     Without context.file, or when every file is missing, nothing is added.
//
// # EXIT CODES
//
//	0  always: the context was added, or (an observer) the session starts
//	   without it and the failure is on stderr
package contextfile

import (
	"fmt"
	"io"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/toolingrc"
)

// Handler is the catalogue entry.
var Handler = hook.Handler{
	Name:    "contextfile",
	Purpose: "add the files context.file names (notes, quirks) to the context at every session start and compaction",
	Events:  []string{"SessionStart"},
	Policy:  hook.Observer,
	Run:     run,
}

// MaxFile is the most bytes kept of one file; MaxTotal of all of them.
const (
	MaxFile  = 8000
	MaxTotal = 9500
)

func run(c *hook.Call) (hook.Result, error) {
	v, err := c.Config.Get(toolingrc.KeyContextFile)
	if err != nil {
		return hook.Result{}, err
	}
	var parts []string
	budget := MaxTotal
	for _, rel := range v.Values {
		if budget <= 0 {
			fmt.Fprintf(c.Stderr, "magehook: contextfile: %s left out: the context budget (%d bytes) is spent\n", rel, MaxTotal)
			continue
		}
		text, cut, err := read(toolingrc.Value{Values: []string{rel}, Home: v.Home}.Abs(), min(MaxFile, budget))
		if err != nil {
			fmt.Fprintf(c.Stderr, "magehook: contextfile: %s: %v\n", rel, err)
			continue
		}
		if strings.TrimSpace(text) == "" {
			continue
		}
		head := "Contents of " + rel + " (context.file in .toolingrc):"
		if cut {
			head = "Start of " + rel + " (context.file in .toolingrc; cut, read the file for the rest):"
		}
		parts = append(parts, head+"\n"+strings.TrimRight(text, "\n"))
		budget -= len(text)
	}
	if len(parts) == 0 {
		return hook.Result{}, nil
	}
	return hook.Context(strings.Join(parts, "\n\n")), nil
}

// read returns up to limit bytes of a regular file, cut at a line end
// (or a rune boundary) when the file is longer.
func read(path string, limit int) (string, bool, error) {
	info, err := os.Stat(path)
	if err != nil {
		if os.IsNotExist(err) {
			return "", false, fmt.Errorf("no such file; fix context.file or create it")
		}
		return "", false, err
	}
	if !info.Mode().IsRegular() {
		return "", false, fmt.Errorf("not a regular file (%s); context.file must name a file", info.Mode().Type())
	}
	f, err := os.Open(path)
	if err != nil {
		return "", false, err
	}
	defer f.Close()
	buf, err := io.ReadAll(io.LimitReader(f, int64(limit)+1))
	if err != nil {
		return "", false, err
	}
	if len(buf) <= limit {
		return string(buf), false, nil
	}
	buf = buf[:limit]
	if i := strings.LastIndexByte(string(buf), '\n'); i > limit/2 {
		buf = buf[:i+1]
	}
	for len(buf) > 0 && !utf8.Valid(buf) {
		buf = buf[:len(buf)-1]
	}
	return string(buf), true, nil
}
