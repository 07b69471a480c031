package spool_test

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/magehook/magehook/pkg/spool"
)

// BenchmarkAppend is one call record as a hook call with export on writes
// it: the spool opened confined, the shared lock, the line (and a
// rotation every few hundred records).
func BenchmarkAppend(b *testing.B) {
	s := spool.Spool{Dir: filepath.Join(b.TempDir(), "otel")}
	rec := spool.Record{Kind: spool.KindCall, Severity: spool.Info, Body: "PreToolUse Bash 812µs",
		Attrs: []spool.Attr{spool.String("magehook.event", "PreToolUse"), spool.String("magehook.tool", "Bash"),
			spool.String("session.id", "c64cc478-3430-40fe-8e9c-4ee9986e9754"), spool.String("magehook.decision", "none"),
			spool.Int("magehook.exit_code", 0), spool.Int("magehook.call.duration_us", 812), spool.Int("magehook.handler.time_us", 95),
			spool.Strings("magehook.handler.times", []string{"branchguard=95"})},
		Resource: []spool.Attr{spool.String("magehook.checkout", "/home/dev/repo"), spool.String("magehook.harness", "claude"),
			spool.String("magehook.binary.hash", "22f8b3265e9ac5ba")}}
	for b.Loop() {
		rec.ID = spool.NewID(time.Now())
		if _, err := s.Append(rec); err != nil {
			b.Fatal(err)
		}
	}
}
