package jsonlog_test

import (
	"path/filepath"
	"testing"

	"github.com/magehook/magehook/pkg/jsonlog"
)

// BenchmarkAppend is one audit line as a hook run writes it: the state
// directory opened confined, the lock, the line.
func BenchmarkAppend(b *testing.B) {
	state := b.TempDir()
	l := jsonlog.Log{Path: filepath.Join(state, "audit", "s1.jsonl"), Root: state, MaxBytes: 5 << 20, Keep: 3}
	rec := map[string]string{"tool": "Bash", "target": "go test ./...", "decision": "none"}
	for b.Loop() {
		if err := l.Append(rec); err != nil {
			b.Fatal(err)
		}
	}
}
