package worktree

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestMageCleanupWindow reads the main Mage generates, in the Mage version
// go.mod pins, for the window Create's cleanup is built to fit
// (MageCleanupWindow after the first SIGINT, SIGINT alone handled): a
// Mage that changes either fails here, so the budget is looked at again.
func TestMageCleanupWindow(t *testing.T) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/magefile/mage").Output()
	if err != nil {
		t.Fatalf("go list -m github.com/magefile/mage: %v", err)
	}
	src, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(out)), "mage", "template.go"))
	if err != nil {
		t.Fatal(err)
	}
	secs := int(MageCleanupWindow / time.Second)
	for _, want := range []string{
		"_signal.Notify(sigCh, _syscall.SIGINT)\n",
		fmt.Sprintf("waiting up to %d seconds for cleanup", secs),
		fmt.Sprintf("cleanupCh := _time.After(%d * _time.Second)", secs),
		`return _fmt.Errorf("exit forced")`,
	} {
		if !strings.Contains(string(src), want) {
			t.Errorf("Mage's main template no longer holds %q: check its SIGINT handling against Create's cleanup budget and update MageCleanupWindow and the docs", want)
		}
	}
	if BootstrapGrace >= MageCleanupWindow {
		t.Errorf("BootstrapGrace %v leaves undo nothing of Mage's %v window", BootstrapGrace, MageCleanupWindow)
	}
}
