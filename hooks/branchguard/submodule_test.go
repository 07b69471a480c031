package branchguard_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/magehook/magehook/hooks/branchguard"
	"github.com/magehook/magehook/hooks/configguard"
	"github.com/magehook/magehook/internal/gittest"
	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/hooktest"
)

// TestSubmoduleCheckout: in a fresh clone of a repository with a
// submodule, checking the submodule out at the commit the superproject
// records (what a build or a test there needs first) changes neither the
// protected checkout nor the gates' files; moving it elsewhere (--remote)
// changes main's checkout, and only a feature branch may.
func TestSubmoduleCheckout(t *testing.T) {
	gates := []hook.Handler{branchguard.Handler, configguard.Handler}
	lib := gittest.Repo(t, map[string]string{"lib.go": "package lib\n"})
	top := gittest.Repo(t, map[string]string{".toolingrc": "hook.enable branchguard\nhook.enable configguard\n", "src/a.go": "package a\n"})
	gittest.Git(t, top, "-c", "protocol.file.allow=always", "submodule", "add", "-q", lib, "third/lib")
	gittest.Git(t, top, "commit", "-q", "-m", "the submodule")
	clone := filepath.Join(t.TempDir(), "clone")
	gittest.Git(t, top, "clone", "-q", top, clone)
	feature := filepath.Join(clone, ".claude", "worktrees", "feat")
	gittest.Git(t, clone, "worktree", "add", "-q", "-b", "feat", feature)
	judge(t, gates, clone, []verdict{
		{"git submodule update --init", clone, false},
		{"git submodule update --init --recursive --jobs 4 && go test ./...", clone, false},
		{"git submodule init && git submodule sync --recursive", clone, false},
		{"git submodule status", clone, false},
		{"git submodule update --init --remote", clone, true},
		{"git submodule update -r", clone, true},
		{"git submodule update --init --remote", feature, false},
		{"git submodule deinit -f --all", feature, true}, // not modelled: a write of the tree, which holds .toolingrc
	})

	// An update mode of the configuration that is a command (!cmd) is a
	// program git submodule update runs: followed, not taken for a
	// checkout.
	gittest.Git(t, clone, "config", "submodule.third/lib.update", "!rm -f "+filepath.Join(feature, ".toolingrc")+" #")
	out := hooktest.Run(t, gates, clone, "PreToolUse", "PreToolUse/bash", map[string]any{"tool_input.command": "git submodule update", "cwd": feature})
	if !strings.Contains(out.Stdout, `"deny"`) || !strings.Contains(out.Stdout, ".toolingrc") {
		t.Errorf("git submodule update with an update command that removes .toolingrc: %+v", out)
	}
}
