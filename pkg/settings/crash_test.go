package settings_test

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/magehook/magehook/hooks"
	"github.com/magehook/magehook/pkg/settings"
	"github.com/magehook/magehook/pkg/toolingrc"
)

// TestCrashChild is the child of TestCrashConsistency: it installs into
// the settings of $CRASH_ROOT, with one handler set or the other, so every
// run changes the file.
func TestCrashChild(t *testing.T) {
	root := os.Getenv("CRASH_ROOT")
	if root == "" {
		t.Skip("run by TestCrashConsistency")
	}
	rc := "hook.enable sessionclock\n"
	if os.Getenv("CRASH_VARIANT") == "b" {
		rc = "hook.enable branchguard\nhook.enable auditlog\n"
	}
	os.WriteFile(filepath.Join(root, ".toolingrc"), []byte(rc), 0o644)
	cfg, err := toolingrc.Discover(root)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := (settings.Installer{Config: cfg, Handlers: hooks.All(), Scope: settings.Project, Keep: 1000}).Install(); err != nil {
		t.Fatal(err)
	}
}

// TestCrashConsistency kills installs with SIGKILL at random moments, 200
// times, alternating two configurations so that every finished install
// changes the file: the settings file is always exactly the old bytes or
// the new ones (valid JSON with every foreign key), never empty or torn,
// and every version replaced has a backup.
func TestCrashConsistency(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	root := t.TempDir()
	path := filepath.Join(root, ".claude", "settings.json")
	os.MkdirAll(filepath.Dir(path), 0o755)
	os.WriteFile(path, []byte(foreign), 0o644)
	seen := map[string]bool{foreign: true}
	prev := foreign
	kills, changes := 0, 0
	child := func(variant string) *exec.Cmd {
		cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$", "-test.count=1")
		cmd.Env = append(os.Environ(), "CRASH_ROOT="+root, "CRASH_VARIANT="+variant)
		return cmd
	}
	// Calibrate: how long a whole child run takes, so the kills land all
	// along it, the write included.
	var full time.Duration
	valid := map[string]bool{foreign: true} // the only bytes the file may hold
	for _, v := range []string{"b", "a", "b"} {
		start := time.Now()
		if err := child(v).Run(); err != nil {
			t.Fatal(err)
		}
		full = max(full, time.Since(start))
		valid[readString(t, path)] = true
	}
	if len(valid) != 3 {
		t.Fatalf("the two configurations should give two new versions, got %d", len(valid)-1)
	}
	prev = readString(t, path)
	seen[prev] = true
	for i := 0; i < 200; i++ {
		variant := "a"
		if i%2 == 1 {
			variant = "b"
		}
		cmd := child(variant)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(full/3 + time.Duration(rand.Int64N(int64(full))))
		if cmd.Process.Signal(syscall.SIGKILL) == nil {
			kills++
		}
		cmd.Wait()
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("run %d: the settings file is gone: %v", i, err)
		}
		var v map[string]any
		if len(data) == 0 || json.Unmarshal(data, &v) != nil {
			t.Fatalf("run %d: the settings file is torn:\n%q", i, data)
		}
		if _, ok := v["permissions"]; !ok {
			t.Fatalf("run %d: a foreign key was lost", i)
		}
		cur := string(data)
		if !valid[cur] {
			t.Fatalf("run %d: the file holds bytes no install wrote:\n%s", i, cur)
		}
		if cur != prev {
			// A new version: the one it replaced must be in the backups.
			if !backedUp(t, root, prev) {
				t.Fatalf("run %d: the replaced version has no backup", i)
			}
			seen[cur] = true
			prev = cur
			changes++
		}
		leftovers, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".settings.json*"))
		for _, l := range leftovers {
			os.Remove(l) // a killed write leaves its temp file; it never replaces the settings
		}
	}
	if changes < 20 || changes > 180 {
		t.Errorf("%d of 200 runs changed the file: the kills do not land around the write", changes)
	}
	t.Logf("%d kills (a child run takes %v), %d runs changed the file", kills, full, changes)
}

func readString(t *testing.T, path string) string {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func backedUp(t *testing.T, root, content string) bool {
	files, _ := filepath.Glob(filepath.Join(root, ".magehook", "backups", "*.bak"))
	for _, f := range files {
		if data, _ := os.ReadFile(f); bytes.Equal(data, []byte(content)) {
			return true
		}
	}
	return false
}
