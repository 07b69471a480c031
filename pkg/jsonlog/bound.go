package jsonlog

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/magehook/magehook/pkg/confined"
)

// Bound limits the per-session files of a state directory as a whole.
type Bound struct {
	// Files is the most files the sessions may hold together.
	Files int
	// Bytes is the most bytes they may hold together.
	Bytes int64
}

// DefaultBound is the bound Append keeps: 2,000 files and 256 MiB.
var DefaultBound = Bound{Files: 2000, Bytes: 256 << 20}

// SessionsMarker marks a subdirectory of the state directory whose files
// are per session (named <session>.<anything>), so that Prune may remove
// them. Append makes it for a session log's directory; other writers of
// per-session files call MarkSessions.
const SessionsMarker = ".sessions"

// MarkSessions marks dir (relative to root) as holding per-session files.
func MarkSessions(root *confined.Root, dir string) {
	name := filepath.Join(dir, SessionsMarker)
	if _, err := root.Lstat(name); err == nil {
		return
	}
	if f, err := root.OpenFile(name, os.O_WRONLY|os.O_CREATE, 0o600); err == nil {
		f.Close()
	}
}

// Prune removes whole sessions, oldest first, once the sessions' files
// are beyond b, until they are within three quarters of it (so that the
// next sessions do not each start a pruning). A session is every file in
// a marked subdirectory of root (see SessionsMarker) whose name is its id
// followed by a dot (audit/S.jsonl, its rotations and lock,
// stopreminder/S.worked, ...); its age is that of its newest file. The
// session keep (the one being written) is never removed. Unmarked
// directories (a handler's own state, backups/) and the shared logs at
// the top of root are left alone: those rotate or are bounded on their
// own.
func Prune(root *confined.Root, keep string, b Bound) {
	type file struct {
		name string
		size int64
	}
	type session struct {
		files  []file
		bytes  int64
		newest time.Time
	}
	sessions := map[string]*session{}
	count, total := 0, int64(0)
	dirs, _ := root.ReadDir(".")
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		if info, err := root.Lstat(filepath.Join(d.Name(), SessionsMarker)); err != nil || !info.Mode().IsRegular() {
			continue
		}
		entries, _ := root.ReadDir(d.Name())
		for _, e := range entries {
			if e.IsDir() {
				continue
			}
			id := sessionOf(e.Name())
			if id == "" {
				continue
			}
			info, err := e.Info()
			if err != nil {
				continue
			}
			s := sessions[id]
			if s == nil {
				s = &session{}
				sessions[id] = s
			}
			s.files = append(s.files, file{filepath.Join(d.Name(), e.Name()), info.Size()})
			s.bytes += info.Size()
			if info.ModTime().After(s.newest) {
				s.newest = info.ModTime()
			}
			count++
			total += info.Size()
		}
	}
	if count <= b.Files && total <= b.Bytes {
		return
	}
	ids := make([]string, 0, len(sessions))
	for id := range sessions {
		if id != keep {
			ids = append(ids, id)
		}
	}
	sort.Slice(ids, func(i, j int) bool {
		a, c := sessions[ids[i]], sessions[ids[j]]
		if !a.newest.Equal(c.newest) {
			return a.newest.Before(c.newest)
		}
		return ids[i] < ids[j]
	})
	for _, id := range ids {
		if count <= b.Files*3/4 && total <= b.Bytes*3/4 {
			return
		}
		s := sessions[id]
		for _, f := range s.files {
			root.Remove(f.name)
		}
		count -= len(s.files)
		total -= s.bytes
	}
}

// sessionOf is the session id a state file's name starts with.
func sessionOf(name string) string {
	id, _, ok := strings.Cut(filepath.Base(name), ".")
	if !ok {
		return ""
	}
	return id
}
