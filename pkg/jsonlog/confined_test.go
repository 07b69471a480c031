package jsonlog_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/magehook/magehook/pkg/jsonlog"
)

// TestNoWriteThroughALink: a repository that commits a log, its lock, a
// rotation or a directory on the way as a symbolic link to something
// outside gets an error, and the outside is untouched.
func TestNoWriteThroughALink(t *testing.T) {
	tests := []struct {
		name, link, log string // link: the path below the state dir made a link to outside
		dir             bool   // outside is a directory
	}{
		{"the log itself", "health.jsonl", "health.jsonl", false},
		{"the log's lock", "health.jsonl.lock", "health.jsonl", false},
		{"a directory on the way", "audit", "audit/s1.jsonl", true},
		{"a directory further up", "deep", "deep/er/s1.jsonl", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			state := filepath.Join(t.TempDir(), ".magehook")
			outside := filepath.Join(t.TempDir(), "rc")
			if tt.dir {
				os.Mkdir(outside, 0o755)
			} else {
				os.WriteFile(outside, []byte("echo hi\n"), 0o644)
			}
			os.MkdirAll(filepath.Dir(filepath.Join(state, tt.link)), 0o755)
			if err := os.Symlink(outside, filepath.Join(state, tt.link)); err != nil {
				t.Fatal(err)
			}
			l := jsonlog.Log{Path: filepath.Join(state, tt.log), Root: state}
			if err := l.Append(map[string]string{"error": "$(touch pwned)"}); err == nil {
				t.Fatal("Append wrote through the link")
			}
			if tt.dir {
				if entries, _ := os.ReadDir(outside); len(entries) != 0 {
					t.Errorf("files made outside: %v", entries)
				}
			} else if data, _ := os.ReadFile(outside); string(data) != "echo hi\n" {
				t.Errorf("the outside file changed: %q", data)
			}
		})
	}
	t.Run("a rotation", func(t *testing.T) {
		state := t.TempDir()
		outside := filepath.Join(t.TempDir(), "rc")
		os.WriteFile(outside, []byte("echo hi\n"), 0o644)
		os.Symlink(outside, filepath.Join(state, "h.jsonl.1"))
		l := jsonlog.Log{Path: filepath.Join(state, "h.jsonl"), Root: state, MaxBytes: 64, Keep: 2}
		for i := 0; i < 10; i++ {
			l.Append(map[string]string{"pad": strings.Repeat("x", 40)})
		}
		if data, _ := os.ReadFile(outside); string(data) != "echo hi\n" {
			t.Errorf("the outside file changed: %q", data)
		}
	})
}

// TestTheStateDirIsBounded: one session id per call (the attack that
// left 20,000 files) stays within the bound, the oldest sessions going
// first and the one being written never.
func TestTheStateDirIsBounded(t *testing.T) {
	state := t.TempDir()
	bound := jsonlog.Bound{Files: 100, Bytes: 1 << 20}
	old := time.Now().Add(-time.Hour)
	for i := 0; i < 600; i++ {
		session := fmt.Sprintf("s%04d", i)
		l := jsonlog.Log{Path: filepath.Join(state, "audit", session+".jsonl"), Root: state, Bound: bound}
		if err := l.Append(map[string]int{"i": i}); err != nil {
			t.Fatal(err)
		}
		// Age the files by their order, without waiting.
		stamp := old.Add(time.Duration(i) * time.Second)
		os.Chtimes(l.Path, stamp, stamp)
		os.Chtimes(l.Path+".lock", stamp, stamp)
	}
	files, _ := filepath.Glob(filepath.Join(state, "audit", "s*"))
	if len(files) > bound.Files {
		t.Fatalf("%d files, bound %d", len(files), bound.Files)
	}
	if _, err := os.Stat(filepath.Join(state, "audit", "s0599.jsonl")); err != nil {
		t.Errorf("the newest session was pruned")
	}
	if _, err := os.Stat(filepath.Join(state, "audit", "s0000.jsonl")); err == nil {
		t.Errorf("the oldest session survived")
	}
	// Whole sessions go: no log without its lock or the reverse.
	for _, f := range files {
		other := strings.TrimSuffix(f, ".lock")
		if other == f {
			other = f + ".lock"
		}
		if _, err := os.Stat(other); err != nil {
			t.Errorf("%s lost its pair", filepath.Base(f))
		}
	}
	// Bytes bound too: big sessions push old ones out.
	big := jsonlog.Bound{Files: 1000, Bytes: 64 << 10}
	for i := 0; i < 20; i++ {
		l := jsonlog.Log{Path: filepath.Join(state, "ledger", fmt.Sprintf("b%02d.jsonl", i)), Root: state, Bound: big}
		l.Append(map[string]string{"pad": strings.Repeat("x", 8<<10)})
	}
	var total int64
	filepath.Walk(state, func(_ string, info os.FileInfo, _ error) error {
		if info != nil && !info.IsDir() {
			total += info.Size()
		}
		return nil
	})
	if total > big.Bytes {
		t.Errorf("%d bytes, bound %d", total, big.Bytes)
	}
	// A handler's own state beside the sessions is never taken for one.
	own := filepath.Join(state, "devserver", "server.log")
	os.MkdirAll(filepath.Dir(own), 0o755)
	os.WriteFile(own, []byte("x"), 0o600)
	os.Chtimes(own, old, old)
	for i := 0; i < 200; i++ {
		jsonlog.Log{Path: filepath.Join(state, "audit", fmt.Sprintf("t%04d.jsonl", i)), Root: state, Bound: bound}.Append(map[string]int{"i": i})
	}
	if _, err := os.Stat(own); err != nil {
		t.Errorf("a file outside the session directories was pruned: %v", err)
	}
}
