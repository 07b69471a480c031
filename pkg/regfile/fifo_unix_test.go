//go:build unix

package regfile

import (
	"errors"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A FIFO with no writer is refused at once; opening it for reading the
// usual way would block forever.
func TestFIFOIsRefusedWithoutBlocking(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), ".toolingrc")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip(err)
	}
	_, err := ReadFile(fifo, 0)
	if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "a FIFO") {
		t.Fatalf("got %v", err)
	}
	if IsRegular(fifo) {
		t.Fatal("IsRegular(fifo)")
	}
}
