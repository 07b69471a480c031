package realpath

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

func TestResolve(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links need privileges")
	}
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	repo := filepath.Join(base, "repo")
	outside := filepath.Join(base, "outside")
	for _, d := range []string{filepath.Join(repo, "src"), outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(repo, "README.md"), nil, 0o644)
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.Symlink(filepath.Join(repo, "src"), filepath.Join(outside, "link")))
	must(os.Symlink("../repo/README.md", filepath.Join(outside, "readme")))
	must(os.Symlink("loop2", filepath.Join(outside, "loop1")))
	must(os.Symlink("loop1", filepath.Join(outside, "loop2")))
	must(os.Symlink("src", filepath.Join(repo, "rel")))

	tests := []struct{ name, in, want string }{
		{"a plain path is itself", filepath.Join(repo, "README.md"), filepath.Join(repo, "README.md")},
		{"dot-dot after a link steps out of the link's target", outside + "/link/../README.md", filepath.Join(repo, "README.md")},
		{"a link outside pointing in resolves in", filepath.Join(outside, "readme"), filepath.Join(repo, "README.md")},
		{"a file not yet written resolves as far as it exists", filepath.Join(outside, "link", "new", "file.go"), filepath.Join(repo, "src", "new", "file.go")},
		{"a relative link", filepath.Join(repo, "rel", "x"), filepath.Join(repo, "src", "x")},
		{"dot segments", repo + "/./src/./x", filepath.Join(repo, "src", "x")},
		{"dot-dot past the root stays at the root", "/../../etc", "/etc"},
	}
	for _, tt := range tests {
		got, err := Resolve(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("%s: Resolve(%q) = %q, %v; want %q", tt.name, tt.in, got, err, tt.want)
		}
	}
	if _, err := Resolve(filepath.Join(outside, "loop1", "x")); !errors.Is(err, ErrLoop) {
		t.Errorf("a loop: %v", err)
	}
	if got, err := ResolveIn(outside, "link/../README.md"); err != nil || got != filepath.Join(repo, "README.md") {
		t.Errorf("ResolveIn: %q, %v", got, err)
	}
}

func TestWithin(t *testing.T) {
	for _, tt := range []struct {
		path, dir string
		want      bool
	}{
		{"/a/b", "/a", true},
		{"/a", "/a", true},
		{"/ab", "/a", false},
		{"/a/../b", "/a", false},
		{"/", "/a", false},
		{"/a/..b", "/a", true},
	} {
		if got := Within(filepath.Clean(tt.path), tt.dir); got != tt.want {
			t.Errorf("Within(%q, %q) = %v", tt.path, tt.dir, got)
		}
	}
}

// Below resolves a path below a resolved directory as Resolve resolves the
// whole path: through links inside and out, a ".." after a link, a part
// that does not exist yet, and a loop.
func TestBelowIsResolveOfTheJoinedPath(t *testing.T) {
	dir := t.TempDir()
	real, err := Resolve(dir)
	if err != nil {
		t.Fatal(err)
	}
	outside := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "a", "b"), 0o755)
	os.Symlink(outside, filepath.Join(dir, "out"))
	os.Symlink("a/b", filepath.Join(dir, "in"))
	os.Symlink("loop", filepath.Join(dir, "loop"))
	for _, rel := range []string{".", "a", "a/b", "out", "out/x", "in/../b", "in/new/file", "missing/x", "a/../out", "loop/x"} {
		want, werr := Resolve(dir + string(filepath.Separator) + rel)
		got, gerr := Below(real, rel)
		if got != want || (werr == nil) != (gerr == nil) {
			t.Errorf("Below(%q): %q, %v; Resolve: %q, %v", rel, got, gerr, want, werr)
		}
	}
}
