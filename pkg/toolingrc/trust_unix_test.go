//go:build unix

package toolingrc_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/magehook/magehook/pkg/toolingrc"
)

// A .toolingrc above the repository counts only when it, and every
// directory from its own up, belong to the user or root and nobody else
// can write them (issue 29.2); otherwise it is left out with a one-line,
// escaped warning, and its hook.warn and guard.protect weaken nothing.
// The user is injected (toolingrc.Options.Euid); another user's files are
// made with chown, which needs root.
func TestAboveTheRepositoryOnlyTheUsersOwnFilesCount(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to give files to another user")
	}
	const other = 4242
	user := func(uid int) toolingrc.Options { return toolingrc.Options{Euid: func() int { return uid }} }
	base := t.TempDir()
	if err := os.Chmod(base, 0o755); err != nil {
		t.Fatal(err)
	}
	// setup makes base/<name>/.toolingrc (weakening keys and a branch)
	// above base/<name>/repo, whose own file enables branchguard.
	setup := func(name string) (top, repo string) {
		top = filepath.Join(base, name)
		write(t, top, "hook.warn branchguard\nguard.protect trunk\n")
		repo = filepath.Join(top, "repo")
		if err := os.MkdirAll(filepath.Join(repo, ".git"), 0o755); err != nil {
			t.Fatal(err)
		}
		write(t, repo, "hook.enable branchguard\n")
		return top, repo
	}
	counts := func(t *testing.T, repo string, o toolingrc.Options, want bool, why string) {
		t.Helper()
		cfg, err := toolingrc.DiscoverWith(repo, o)
		if err != nil {
			t.Fatal(err)
		}
		warn, _ := cfg.Get(toolingrc.KeyHookWarn)
		protect, _ := cfg.Get(toolingrc.KeyGuardProtect)
		got := strings.Join(protect.Values, ",")
		if want {
			if len(cfg.Warnings) != 0 || got != "main,master,trunk" || len(warn.Values) != 1 {
				t.Errorf("the file should count: warnings %q, guard.protect %s, hook.warn %q", cfg.Warnings, got, warn.Values)
			}
			return
		}
		if got != "main,master" || len(warn.Values) != 0 {
			t.Errorf("an ignored file weakened the policy: guard.protect %s, hook.warn %q", got, warn.Values)
		}
		if len(cfg.Warnings) != 1 || !strings.Contains(cfg.Warnings[0], "is ignored: it is above the repository and "+why) || strings.Contains(cfg.Warnings[0], "\n") {
			t.Errorf("want one line saying %q, got %q", why, cfg.Warnings)
		}
	}
	chown := func(path string, uid int) {
		t.Helper()
		if err := os.Lchown(path, uid, uid); err != nil {
			t.Fatal(err)
		}
	}
	chmod := func(path string, mode os.FileMode) {
		t.Helper()
		if err := os.Chmod(path, mode); err != nil {
			t.Fatal(err)
		}
	}

	t.Run("own", func(t *testing.T) {
		_, repo := setup("own")
		counts(t, repo, toolingrc.Options{}, true, "")
	})
	t.Run("another user's file", func(t *testing.T) {
		top, repo := setup("file-owner")
		chown(filepath.Join(top, ".toolingrc"), other)
		counts(t, repo, toolingrc.Options{}, false, "belongs to another user (uid 4242, not 0 or root)")
		// The same file counts for that user.
		counts(t, repo, user(other), true, "")
		// ... and root's file counts for every user.
		chown(filepath.Join(top, ".toolingrc"), 0)
		counts(t, repo, user(other), true, "")
	})
	t.Run("a file others can write", func(t *testing.T) {
		top, repo := setup("file-mode")
		chmod(filepath.Join(top, ".toolingrc"), 0o664)
		counts(t, repo, toolingrc.Options{}, false, "others can write it (mode 0664)")
		chmod(filepath.Join(top, ".toolingrc"), 0o646)
		counts(t, repo, toolingrc.Options{}, false, "others can write it (mode 0646)")
	})
	t.Run("a directory others can write", func(t *testing.T) {
		top, repo := setup("dir-mode")
		chmod(top, 0o777)
		counts(t, repo, toolingrc.Options{}, false, "its directory "+top+" can be written by others (mode 0777, no sticky bit)")
		// A sticky directory keeps others to their own entries (/tmp).
		chmod(top, 0o777|os.ModeSticky)
		counts(t, repo, toolingrc.Options{}, true, "")
		chmod(top, 0o755)
	})
	t.Run("a directory of another user", func(t *testing.T) {
		top, repo := setup("dir-owner")
		mid := filepath.Join(top, "mid")
		if err := os.Rename(filepath.Join(top, ".toolingrc"), filepath.Join(top, "keep")); err != nil {
			t.Fatal(err)
		}
		// base/dir-owner (another user's) / mid / .toolingrc, repo below.
		write(t, mid, "hook.warn branchguard\nguard.protect trunk\n")
		if err := os.Rename(repo, filepath.Join(mid, "repo")); err != nil {
			t.Fatal(err)
		}
		chown(top, other)
		counts(t, filepath.Join(mid, "repo"), toolingrc.Options{}, false, "its directory "+top+" belongs to another user (uid 4242, not 0 or root)")
	})
	t.Run("a link to a file in a directory others can write", func(t *testing.T) {
		top, repo := setup("link")
		drop := filepath.Join(base, "drop")
		if err := os.Mkdir(drop, 0o755); err != nil {
			t.Fatal(err)
		}
		chmod(drop, 0o777)
		if err := os.Rename(filepath.Join(top, ".toolingrc"), filepath.Join(drop, "rc")); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(filepath.Join(drop, "rc"), filepath.Join(top, ".toolingrc")); err != nil {
			t.Fatal(err)
		}
		counts(t, repo, toolingrc.Options{}, false, "its directory "+drop+" can be written by others (mode 0777, no sticky bit) (where the symbolic link")
		chmod(drop, 0o755)
		counts(t, repo, toolingrc.Options{}, true, "")
	})
	t.Run("the warning is one escaped line", func(t *testing.T) {
		top := filepath.Join(base, "esc\x1b]0;owned\a\nx")
		write(t, top, "guard.protect trunk\n")
		chmod(filepath.Join(top, ".toolingrc"), 0o666)
		repo := filepath.Join(top, "repo")
		if err := os.MkdirAll(filepath.Join(repo, ".git"), 0o755); err != nil {
			t.Fatal(err)
		}
		write(t, repo, "hook.enable branchguard\n")
		cfg, err := toolingrc.Discover(repo)
		if err != nil {
			t.Fatal(err)
		}
		if len(cfg.Warnings) != 1 || strings.ContainsAny(cfg.Warnings[0], "\x1b\a\n") || !strings.Contains(cfg.Warnings[0], `esc\x1b]0;owned\x07\nx`) {
			t.Errorf("warnings %q", cfg.Warnings)
		}
	})
}
