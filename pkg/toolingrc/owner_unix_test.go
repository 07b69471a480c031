//go:build unix

package toolingrc_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/magehook/magehook/pkg/toolingrc"
)

// A .toolingrc above the repository that another user owns is left out
// of the chain with a warning (issue 29.2): its hook.warn and
// guard.protect weaken nothing.
func TestAnotherUsersFileAboveTheRepositoryIsIgnored(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root to give a file to another user")
	}
	top := t.TempDir()
	write(t, top, "hook.warn branchguard\nguard.protect trunk\n")
	if err := os.Chown(filepath.Join(top, ".toolingrc"), 4242, 4242); err != nil {
		t.Fatal(err)
	}
	repo := filepath.Join(top, "repo")
	if err := os.MkdirAll(filepath.Join(repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, repo, "hook.enable branchguard\n")
	cfg, err := toolingrc.Discover(repo)
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Warnings) != 1 || !strings.Contains(cfg.Warnings[0], "belongs to another user") {
		t.Errorf("warnings %q", cfg.Warnings)
	}
	warn, _ := cfg.Get(toolingrc.KeyHookWarn)
	protect, _ := cfg.Get(toolingrc.KeyGuardProtect)
	if len(warn.Values) != 0 || strings.Join(protect.Values, ",") != "main,master" {
		t.Errorf("hook.warn %q, guard.protect %q", warn.Values, protect.Values)
	}
	// The same file, the user's own, adds trunk.
	if err := os.Chown(filepath.Join(top, ".toolingrc"), 0, 0); err != nil {
		t.Fatal(err)
	}
	cfg, _ = toolingrc.Discover(repo)
	protect, _ = cfg.Get(toolingrc.KeyGuardProtect)
	if strings.Join(protect.Values, ",") != "main,master,trunk" || len(cfg.Warnings) != 0 {
		t.Errorf("guard.protect %q, warnings %q", protect.Values, cfg.Warnings)
	}
}
