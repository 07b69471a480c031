package buildinfo

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestPlaceWritesTheWholeBinaryOverOut(t *testing.T) {
	dir := t.TempDir()
	src, out := filepath.Join(dir, ".magehook.1.tmp"), filepath.Join(dir, "magehook")
	data := bytes.Repeat([]byte("\x7fELF binary "), 100000)
	if err := os.WriteFile(src, data, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(out, []byte("old"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := Place(src, out); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(out)
	if err != nil || !bytes.Equal(got, data) {
		t.Fatalf("out holds %d bytes (%v), want the %d of src", len(got), err, len(data))
	}
	if info, _ := os.Stat(out); info.Mode().Perm() != 0o755 {
		t.Errorf("out's mode is %v, want src's 0755", info.Mode().Perm())
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("the directory holds %v, want out alone (src and the sidecar removed)", entries)
	}
}

func TestPlaceLeavesOutWhenItCannotWrite(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "magehook")
	if err := os.WriteFile(out, []byte("old"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := Place(filepath.Join(dir, "missing"), out); err == nil {
		t.Fatal("place of a missing source succeeded")
	}
	if got, _ := os.ReadFile(out); string(got) != "old" {
		t.Errorf("out = %q after a failed place, want it as it was", got)
	}
}

// A binary written before the boot is rewritten (a new file), once: the
// rewrite is after the boot.
func TestRefreshRewritesABinaryWrittenBeforeTheBoot(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "magehook")
	if err := os.WriteFile(out, []byte("binary"), 0o755); err != nil {
		t.Fatal(err)
	}
	boot := time.Now().Add(-time.Hour)
	for _, c := range []struct {
		name    string
		mtime   time.Time
		boot    time.Time
		rewrite bool
	}{
		{"written after the boot", boot.Add(time.Minute), boot, false},
		{"boot not known", boot.Add(-time.Minute), time.Time{}, false},
		{"written before the boot", boot.Add(-time.Minute), boot, true},
		{"just rewritten", time.Time{}, boot, false},
	} {
		if !c.mtime.IsZero() {
			if err := os.Chtimes(out, c.mtime, c.mtime); err != nil {
				t.Fatal(err)
			}
		}
		before, _ := os.Stat(out)
		if err := refresh(out, c.boot); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		after, _ := os.Stat(out)
		if rewritten := !os.SameFile(before, after); rewritten != c.rewrite {
			t.Errorf("%s: rewritten %v, want %v", c.name, rewritten, c.rewrite)
		}
		if got, _ := os.ReadFile(out); string(got) != "binary" {
			t.Errorf("%s: out = %q", c.name, got)
		}
	}
}

// GCEnv leaves a caller's GOEXPERIMENT alone, and asks only for an
// experiment the go command accepts.
func TestGCEnv(t *testing.T) {
	t.Run("caller's", func(t *testing.T) {
		t.Setenv("GOEXPERIMENT", "noaliastypeparams")
		if env := GCEnv(t.Context(), "."); env != nil {
			t.Errorf("GCEnv = %q with the caller's GOEXPERIMENT set, want nothing added", env)
		}
	})
	t.Run("default", func(t *testing.T) {
		t.Setenv("GOEXPERIMENT", "")
		env := GCEnv(t.Context(), ".")
		if len(env) == 0 {
			t.Skip("this go command does not know nogreenteagc")
		}
		cmd := exec.Command("go", "env", "GOEXPERIMENT")
		cmd.Env = append(os.Environ(), env...)
		if out, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(out), "nogreenteagc") {
			t.Errorf("go env GOEXPERIMENT with %q: %v %s", env, err, out)
		}
	})
}
