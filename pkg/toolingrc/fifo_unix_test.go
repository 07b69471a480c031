//go:build unix

package toolingrc_test

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/magehook/magehook/pkg/toolingrc"
)

// A FIFO named .toolingrc is an error at once; reading it would block.
func TestFIFOIsAnError(t *testing.T) {
	root := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(root, ".toolingrc"), 0o644); err != nil {
		t.Skip(err)
	}
	_, err := toolingrc.Discover(root)
	if err == nil || !strings.Contains(err.Error(), "is a FIFO, not a file") {
		t.Errorf("got %v", err)
	}
}
