package gitx_test

import (
	"path/filepath"
	"testing"

	"github.com/magehook/magehook/internal/gittest"
	"github.com/magehook/magehook/pkg/gitx"
)

// Ignored says what git says: an untracked path a pattern names is
// ignored; a tracked file is not, whatever the patterns say.
func TestIgnored(t *testing.T) {
	root := gittest.Repo(t, map[string]string{".gitignore": "build/\n*.log\n", "kept.log": "x\n"})
	gittest.Git(t, root, "add", "-f", "kept.log")
	gittest.Git(t, root, "commit", "-qm", "kept")
	for _, tt := range []struct {
		path    string
		dir, is bool
	}{
		{"build/out", false, true},
		{"build", true, true},
		{"new.log", false, true},
		{filepath.Join(root, "x", "y.log"), false, true},
		{"kept.log", false, false},
		{"src/a.go", false, false},
		{".gitignore", false, false},
	} {
		if got := gitx.Ignored(root, tt.path, tt.dir); got != tt.is {
			t.Errorf("Ignored(%s): %v, want %v", tt.path, got, tt.is)
		}
	}
	if gitx.Ignored(t.TempDir(), "build/out", false) {
		t.Error("outside a checkout nothing is ignored")
	}
}
