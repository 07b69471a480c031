package settings_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"github.com/magehook/magehook/hooks"
	"github.com/magehook/magehook/pkg/settings"
	"github.com/magehook/magehook/pkg/toolingrc"
)

// TestCrashChild is the child of TestCrashConsistency: it installs into
// the settings of $CRASH_ROOT, with one handler set or the other, so every
// run changes the file, and when it reaches the step $CRASH_STEP of the
// write it says so on file descriptor 3 and waits to be killed.
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
	if step := os.Getenv("CRASH_STEP"); step != "" {
		report := os.NewFile(3, "report")
		defer settings.SetStepHook(func(s string) error {
			if s == step {
				fmt.Fprintln(report, s)
				select {} // killed here
			}
			return nil
		})()
	}
	if _, err := (settings.Installer{Config: cfg, Handlers: hooks.All(), Scope: settings.Project, Keep: 1000}).Install(); err != nil {
		t.Fatal(err)
	}
}

// TestCrashConsistency kills installs with SIGKILL at each step of the
// write (the moment injected: the child stops there and says so), over
// and over, alternating two configurations so that every finished install
// changes the file. The settings file is always exactly the old bytes or
// the new ones (valid JSON with every foreign key), never empty or torn;
// a kill before the swap leaves the old bytes and one after it the new;
// every version replaced has a backup; and the temporary files killed runs
// leave are gone after the next run.
func TestCrashConsistency(t *testing.T) {
	if testing.Short() {
		t.Skip("starts 50 processes")
	}
	root := t.TempDir()
	path := filepath.Join(root, ".claude", "settings.json")
	os.MkdirAll(filepath.Dir(path), 0o755)
	os.WriteFile(path, []byte(foreign), 0o644)
	run := func(variant, step string) {
		t.Helper()
		cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$", "-test.count=1")
		cmd.Env = append(os.Environ(), "CRASH_ROOT="+root, "CRASH_VARIANT="+variant, "CRASH_STEP="+step)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		cmd.ExtraFiles = []*os.File{w}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		w.Close()
		if step != "" {
			line, err := bufio.NewReader(r).ReadString('\n')
			if err != nil || line != step+"\n" {
				cmd.Process.Kill()
				cmd.Wait()
				t.Fatalf("the child did not reach %s (%q, %v):\n%s", step, line, err, stderr.Bytes())
			}
			cmd.Process.Kill()
			cmd.Wait()
		} else if err := cmd.Wait(); err != nil {
			t.Fatalf("child: %v\n%s", err, stderr.Bytes())
		}
		r.Close()
	}
	// The bytes each configuration's install writes.
	version := map[string]string{}
	for _, v := range []string{"a", "b"} {
		run(v, "")
		version[v] = readString(t, path)
	}
	if version["a"] == version["b"] {
		t.Fatal("the two configurations should give two versions")
	}
	prev := version["b"]
	before := slices.Index(settings.Steps, "swapped")
	runs := 0
	for round := 0; round < 4; round++ {
		for i, step := range settings.Steps {
			variant := []string{"a", "b"}[(round+i)%2]
			if version[variant] == prev {
				variant = map[string]string{"a": "b", "b": "a"}[variant]
			}
			run(variant, step)
			runs++
			cur := readString(t, path)
			var v map[string]any
			if cur == "" || json.Unmarshal([]byte(cur), &v) != nil {
				t.Fatalf("killed at %s: the settings file is torn:\n%q", step, cur)
			}
			if _, ok := v["permissions"]; !ok {
				t.Fatalf("killed at %s: a foreign key was lost", step)
			}
			want := prev
			if i >= before {
				want = version[variant]
			}
			if cur != want {
				t.Fatalf("killed at %s: the file holds %s bytes", step, map[bool]string{true: "the old", false: "unexpected"}[cur == prev])
			}
			if cur != prev && !backedUp(t, root, prev) {
				t.Fatalf("killed at %s: the replaced version has no backup", step)
			}
			prev = cur
		}
	}
	run("a", "")
	leftovers, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".settings.json.*"))
	if len(leftovers) > 0 {
		t.Errorf("killed runs' temporary files are left: %v", leftovers)
	}
	t.Logf("%d runs killed, %d steps each", runs, len(settings.Steps))
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
