package regfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
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
