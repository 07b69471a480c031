package regfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
)

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	big := strings.Repeat("x", 5000)
	if err := os.WriteFile(file, []byte(big), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := ReadFile(file, 0)
	if err != nil || string(got) != big {
		t.Fatalf("ReadFile: %d bytes, %v", len(got), err)
	}
	if got, err := ReadFile(file, 5000); err != nil || len(got) != 5000 {
		t.Fatalf("at the limit: %d bytes, %v", len(got), err)
	}
	if _, err := ReadFile(file, 4999); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("over the limit: %v", err)
	}
	if _, err := ReadFile(filepath.Join(dir, "missing"), 0); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("missing: %v", err)
	}
	if _, err := ReadFile(dir, 0); !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "a directory") {
		t.Fatalf("a directory: %v", err)
	}
	empty := filepath.Join(dir, "empty")
	os.WriteFile(empty, nil, 0o644)
	if got, err := ReadFile(empty, 10); err != nil || len(got) != 0 {
		t.Fatalf("empty: %q, %v", got, err)
	}
}

// A FIFO with no writer is refused at once; opening it for reading the
// usual way would block forever.
func TestFIFOIsRefusedWithoutBlocking(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no FIFOs")
	}
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
