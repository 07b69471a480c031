//go:build unix

package wiki_test

import (
	"bytes"
	"context"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/magehook/magehook/internal/gittest"
)

// A FIFO in the library, or given as a note's file, is never opened for
// reading: it would block the session's hook past its timeout.
func TestFIFOsAreNeverRead(t *testing.T) {
	gittest.Isolate(t)
	lib, _ := library(t, origin(t))
	ctx := context.Background()
	page, _ := lib.Open(ctx, "proj", "s")
	if err := syscall.Mkfifo(filepath.Join(lib.Dir, "Session-proj-2026-11-30-9.md"), 0o644); err != nil {
		t.Skip(err)
	}
	fifo := filepath.Join(t.TempDir(), "note")
	syscall.Mkfifo(fifo, 0o644)
	if _, err := lib.Note(ctx, page, fifo); err == nil {
		t.Error("a FIFO note was read")
	}
	var out bytes.Buffer
	if err := lib.Status(ctx, &out); err != nil {
		t.Error(err)
	}
	if _, err := lib.Open(ctx, "proj", "other"); err != nil {
		t.Error(err)
	}
	if _, err := lib.Close(ctx, "s"); err != nil {
		t.Error(err)
	}
}
