// Package lastpayload keeps the last payload of each event, redacted, as
// evidence for a defect report.
//
// # PURPOSE
//
// When a hook misbehaves, the first thing to know is the exact payload the
// harness sent: field names and shapes change between versions, and a
// test built from memory proves nothing (seed 002, #1839). This observer
// keeps the last payload of every event per session, secrets redacted, and
// `hook:last [-event=Event]` prints it in a form `hook:replay` takes.
//
// # HOW IT WORKS
//
//  1. Every event but MessageDisplay (which fires per batch of displayed
//     lines, and whose payload is only text) — the payload as the
//     dispatcher read it, mapped onto Claude Code's shape for the other
//     harnesses.
//  2. Secret-looking values are redacted (pkg/redact), string by string in
//     one pass over the JSON (payload.MapStrings), so the result stays
//     valid JSON with the members in the order sent; strings longer than
//     MaxString are cut.
//  3. It stores it as <state.dir>/last/<session>/<Event>.json: nothing is
//     written when the file already holds these bytes, otherwise they are
//     written in place under the file's lock (never a rename over it: see
//     store), so a reader never sees half a payload. When a new session's
//     directory is made, only the Keep most recent sessions are kept.
//  4. `hook:last [-event=Event] [-session=id]` prints the newest stored payload
//     of the event (or of any event) to stdout, for `hook:replay`.
//
// # EXIT CODES
//
//	0  always, with nothing on stdout: an observer never stops a session
//	   (hook:last: 0 printed, 1 nothing stored, 2 usage)
package lastpayload

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/magehook/magehook/pkg/confined"
	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/payload"
	"github.com/magehook/magehook/pkg/redact"
	"github.com/magehook/magehook/pkg/toolingrc"
)

// Handler is the catalogue entry.
var Handler = hook.Handler{
	Name:    "lastpayload",
	Purpose: "keep the redacted last payload of each event per session in state.dir/last (hook:last prints it)",
	Events:  events,
	Policy:  hook.Observer,
	Run:     run,
}

// events are every event but MessageDisplay, in hook.Events' order. A
// literal, not computed from hook.Events: a package-level call would run
// at every start of the hook binary, whether lastpayload is enabled or
// not (TestEveryEventButMessageDisplay holds it to hook.Events).
var events = []string{
	"ConfigChange", "CwdChanged", "DirectoryAdded", "Elicitation", "ElicitationResult",
	"FileChanged", "InstructionsLoaded", "Notification", "PermissionDenied",
	"PermissionRequest", "PostCompact", "PostModelSwitch", "PostToolBatch", "PostToolUse",
	"PostToolUseFailure", "PreCompact", "PreModelSwitch", "PreToolUse", "SessionEnd",
	"SessionStart", "Setup", "Stop", "StopFailure", "SubagentStart", "SubagentStop",
	"TaskCompleted", "TaskCreated", "TeammateIdle", "UserPromptExpansion",
	"UserPromptSubmit", "WorktreeCreate", "WorktreeRemove",
}

const (
	// MaxString is the longest string kept whole (a tool's output).
	MaxString = 16 << 10
	// Keep is how many sessions' payloads are kept.
	Keep    = 20
	dirName = "last"
)

func run(c *hook.Call) (hook.Result, error) {
	session, ok := confined.SessionName(c.Payload.SessionID)
	if !ok {
		session = "unknown-session"
	}
	data, err := Redact(c.Payload.Raw)
	if err != nil {
		return hook.Result{}, err
	}
	base, err := c.StateSubdir(dirName) // never through a link out
	if err != nil {
		return hook.Result{}, err
	}
	root, err := confined.Open(base)
	if err != nil {
		return hook.Result{}, err
	}
	defer root.Close()
	_, err = root.Lstat(session)
	fresh := errors.Is(err, os.ErrNotExist)
	if err := store(root, session, c.Event.Name+".json", data); err != nil {
		return hook.Result{}, err
	}
	if fresh {
		prune(base)
	}
	return hook.Result{}, nil
}

// Redact returns the payload with every string redacted and cut, indented.
// A payload with answers (AskUserQuestion) is decoded to find the user's
// own words; every other is redacted string by string in one pass, its
// members in the order the harness sent them.
func Redact(raw []byte) ([]byte, error) {
	if payload.HasKey(raw, "answers") {
		return redactTree(raw)
	}
	// A string is decoded only as far as what is kept of it needs (a
	// tool's 5 MB output is never decoded whole).
	out, err := payload.MapStringsHead(raw, MaxString+redact.HeadMargin, func(head string, total int) string {
		return redact.HeadOf(head, total, MaxString)
	}, "  ")
	if err != nil {
		return nil, err
	}
	return append(out, '\n'), nil
}

func redactTree(raw []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if m, ok := v.(map[string]any); ok {
		redact.Answers(m) // the user's own words in an AskUserQuestion
	}
	v = walk(v)
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func walk(v any) any {
	switch x := v.(type) {
	case string:
		return redact.Head(x, MaxString)
	case []any:
		for i := range x {
			x[i] = walk(x[i])
		}
	case map[string]any:
		for k, e := range x {
			x[k] = walk(e)
		}
	}
	return v
}

// store makes dir/name (below root) hold data. A file that already holds
// exactly data is not written (a repeated event costs one read). Otherwise
// the bytes are written over the old ones in place and the file cut to
// their length: a rename over the file, or a truncation to zero, would make
// ext4 force the new file's writeback (and, on a discard mount, discard the
// old one's blocks) on every tool call. Writer and readers (hook:last) hold
// the file's lock, so nobody reads or writes half a payload. (No fsync:
// this is evidence, not state a crash must keep.)
func store(root *confined.Root, dir, name string, data []byte) error {
	// Inside the confined root: a session directory or a file that is a
	// symbolic link out of the state dir is refused, never written through.
	f, err := root.OpenFile(filepath.Join(dir, name), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	defer f.Close()
	unlock := lock(f, true)
	defer unlock()
	old := make([]byte, len(data)+1)
	n, err := io.ReadFull(f, old)
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return err
	}
	if n == len(data) && bytes.Equal(old[:n], data) {
		return nil
	}
	if _, err := f.WriteAt(data, 0); err != nil {
		return err
	}
	if n > len(data) {
		return f.Truncate(int64(len(data)))
	}
	return nil
}

// Read returns a stored payload, read under the lock store writes under.
func Read(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	unlock := lock(f, false)
	defer unlock()
	return io.ReadAll(f)
}

// prune removes all but the Keep session directories changed last. A
// directory's own time changes only when a file is added (store writes
// in place), so a session's time is that of its newest file.
func prune(base string) {
	entries, err := os.ReadDir(base)
	if err != nil || len(entries) <= Keep {
		return
	}
	type dir struct {
		name string
		mod  int64
	}
	var dirs []dir
	for _, e := range entries {
		if info, err := e.Info(); err == nil && e.IsDir() {
			d := dir{e.Name(), info.ModTime().UnixNano()}
			files, _ := os.ReadDir(filepath.Join(base, e.Name()))
			for _, f := range files {
				if fi, err := f.Info(); err == nil && fi.ModTime().UnixNano() > d.mod {
					d.mod = fi.ModTime().UnixNano()
				}
			}
			dirs = append(dirs, d)
		}
	}
	sort.Slice(dirs, func(i, j int) bool { return dirs[i].mod > dirs[j].mod })
	for _, d := range dirs[min(Keep, len(dirs)):] {
		os.RemoveAll(filepath.Join(base, d.name))
	}
}

// ErrNone is Find's error when no payload is stored.
var ErrNone = errors.New("no payload stored")

// CheckQuery reports what is wrong with an event name or a session id
// given to Find ("" is any), or nil: hook:last checks its arguments before
// it reads the configuration.
func CheckQuery(event, session string) error {
	if event != "" {
		if _, ok := hook.Lookup(event); !ok {
			return fmt.Errorf("unknown event %q; name one of hook:list's events, e.g. PreToolUse", event)
		}
	}
	if session != "" && !toolingrc.IsToken(session) {
		return fmt.Errorf("%q is not a session id", session)
	}
	return nil
}

// Find returns the newest stored payload of event ("" for any event),
// from session ("" for any session), under the state directory.
func Find(state, event, session string) (string, error) {
	if err := CheckQuery(event, session); err != nil {
		return "", err
	}
	pattern := filepath.Join(state, dirName, orStar(session), orStar(event)+".json")
	matches, _ := filepath.Glob(pattern)
	best, bestMod := "", int64(-1)
	for _, m := range matches {
		if info, err := os.Stat(m); err == nil && info.Mode().IsRegular() && info.ModTime().UnixNano() > bestMod {
			best, bestMod = m, info.ModTime().UnixNano()
		}
	}
	if best == "" {
		what := "any event"
		if event != "" {
			what = event
		}
		return "", fmt.Errorf("%w: none of %s under %s; enable lastpayload (hook.enable lastpayload) and let the event fire", ErrNone, what, filepath.Join(state, dirName))
	}
	return best, nil
}

func orStar(s string) string {
	if s == "" {
		return "*"
	}
	return strings.TrimSpace(s)
}
