package confined_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/magehook/magehook/pkg/confined"
)

func TestDir(t *testing.T) {
	home := t.TempDir()
	outside := t.TempDir()
	os.MkdirAll(filepath.Join(home, "real", "state"), 0o755)
	os.Symlink(outside, filepath.Join(home, "out"))
	os.Symlink("real", filepath.Join(home, "in"))
	tests := []struct {
		dir string
		ok  bool
	}{
		{".magehook", true},              // not there yet
		{"real/state", true},             // there
		{"in/state", true},               // a link that stays inside
		{"out", false},                   // a link out
		{"out/deeper/still", false},      // below a link out
		{"real/../out/x", false},         // a link reached through ..
		{outside, false},                 // an absolute path elsewhere
		{filepath.Join(home, "x"), true}, // an absolute path inside
	}
	for _, tt := range tests {
		got, err := confined.Dir(home, tt.dir)
		if (err == nil) != tt.ok {
			t.Errorf("Dir(%q): %q, %v; want ok %v", tt.dir, got, err, tt.ok)
		}
		if err != nil && !strings.Contains(err.Error(), "remove the link") {
			t.Errorf("Dir(%q): the error says nothing to do: %v", tt.dir, err)
		}
	}
}

func TestOpenFileRefusesLinks(t *testing.T) {
	dir := t.TempDir()
	outside := filepath.Join(t.TempDir(), "rc")
	os.WriteFile(outside, []byte("x"), 0o644)
	os.Symlink(outside, filepath.Join(dir, "log"))
	os.Symlink("plain", filepath.Join(dir, "inner"))
	r, err := confined.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for _, name := range []string{"log", "inner"} {
		if _, err := r.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600); !errors.Is(err, confined.ErrLink) {
			t.Errorf("%s: %v, want ErrLink", name, err)
		}
	}
	f, err := r.OpenFile("a/b/c.jsonl", os.O_WRONLY|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if _, err := os.Stat(filepath.Join(dir, "a", "b", "c.jsonl")); err != nil {
		t.Error(err)
	}
}

func TestSessionName(t *testing.T) {
	long := strings.Repeat("A", 10240)
	for _, tt := range []struct {
		id, want string
		ok       bool
	}{
		{"0f3c-41aa_b.2", "0f3c-41aa_b.2", true},
		{"", "", false},
		{"a/b", "", false},
		{"..", "", false},
		{"a..b", "", false},
		{"x\x00y", "", false},
		{`a\b`, "", false},
		{strings.Repeat("s", confined.MaxSessionName), strings.Repeat("s", confined.MaxSessionName), true},
	} {
		if got, ok := confined.SessionName(tt.id); got != tt.want || ok != tt.ok {
			t.Errorf("SessionName(%q) = %q, %v; want %q, %v", tt.id, got, ok, tt.want, tt.ok)
		}
	}
	a, ok := confined.SessionName(long)
	b, _ := confined.SessionName(long[:len(long)-1] + "B")
	if !ok || len(a) != confined.MaxSessionName || a == b || !strings.HasPrefix(a, "AAAA") {
		t.Errorf("long ids: %q, %q (ok %v): want two distinct names of %d bytes", a, b, ok, confined.MaxSessionName)
	}
}

// TestAFIFOIsRefusedWithoutWaiting: a FIFO put where a log is (no reader
// on the other end) is refused at once; before, the open waited for a
// reader and every hook call hung.
func TestAFIFOIsRefusedWithoutWaiting(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "log.jsonl"), 0o600); err != nil {
		t.Skip(err)
	}
	root, err := confined.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	for _, flag := range []int{os.O_WRONLY | os.O_APPEND | os.O_CREATE, os.O_RDWR, os.O_RDONLY} {
		f, err := root.OpenFile("log.jsonl", flag, 0o600)
		if !errors.Is(err, confined.ErrNotRegular) {
			if f != nil {
				f.Close()
			}
			t.Errorf("flag %#x: err = %v, want ErrNotRegular", flag, err)
		}
	}
}

// A Base is resolved once: the directories Dir finds below it are resolved
// from its resolution, not by a new walk from the root. The proof: the
// link on the way to the base, moved after Resolve, does not move them;
// and they are refused and allowed as the package's Dir refuses and
// allows them.
func TestBaseDirResolvesOnlyBelowTheBase(t *testing.T) {
	top := t.TempDir()
	for _, d := range []string{"a/home/state", "b/home"} {
		os.MkdirAll(filepath.Join(top, d), 0o755)
	}
	outside := t.TempDir()
	link := filepath.Join(top, "link")
	os.Symlink("a", link)
	home := filepath.Join(link, "home")
	b, err := confined.Resolve(home)
	if err != nil {
		t.Fatal(err)
	}
	os.Symlink(outside, filepath.Join(top, "a", "home", "out"))
	os.Remove(link)
	os.Symlink("b", link) // the walk from the root would now reach b/home
	d, err := b.Dir("state")
	if err != nil || d.Path != filepath.Join(home, "state") {
		t.Fatalf("Dir(state): %+v, %v", d, err)
	}
	// below d as well: d's resolution is a/home/state, which exists.
	if _, err := d.Dir("x/y"); err != nil {
		t.Errorf("Dir(x/y) below state: %v", err)
	}
	if _, err := b.Dir("out/x"); err == nil || !strings.Contains(err.Error(), "remove the link") {
		t.Errorf("Dir(out/x) through a link out of the base: %v", err)
	}
	if _, err := b.Dir(outside); err == nil {
		t.Error("an absolute directory elsewhere is allowed")
	}
}

// OpenExisting makes nothing: no file and no directory on its way.
func TestOpenExistingMakesNothing(t *testing.T) {
	dir := t.TempDir()
	r, err := confined.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if _, _, err := r.OpenExisting("sub/log.jsonl", os.O_RDWR|os.O_APPEND|os.O_CREATE); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a missing file: %v, want not exist", err)
	}
	if _, err := os.Lstat(filepath.Join(dir, "sub")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("its directory was made: %v", err)
	}
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	os.WriteFile(filepath.Join(dir, "sub", "log.jsonl"), []byte("one\n"), 0o600)
	f, info, err := r.OpenExisting("sub/log.jsonl", os.O_RDWR|os.O_APPEND)
	if err != nil || info.Size() != 4 {
		t.Fatalf("an existing file: %v, %v", info, err)
	}
	f.Close()
	os.Symlink("log.jsonl", filepath.Join(dir, "sub", "link"))
	if _, _, err := r.OpenExisting("sub/link", os.O_RDWR); !errors.Is(err, confined.ErrLink) {
		t.Errorf("a link: %v, want ErrLink", err)
	}
}
