package settings_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/magehook/magehook/pkg/settings"
)

// TestASharedScopeKeepsEachCheckoutsEntries (issue 29, item 10): two
// checkouts installed into the same user file. B's install adds B's
// entries and leaves A's as they are; B's uninstall takes B's out and
// gives back the file A's install wrote, byte for byte; A's own
// uninstall then leaves the user's foreign content alone. An entry is a
// checkout's only when it runs that checkout's binary: the user-scope
// command names the checkout (d="<root>"), which is what tells A's from
// B's.
func TestASharedScopeKeepsEachCheckoutsEntries(t *testing.T) {
	home := t.TempDir()
	a := checkout(t, "hook.enable gate")
	b := checkout(t, "hook.enable gate", "hook.enable bashgate")
	user := settings.Installer{Config: a, Handlers: handlers, Scope: settings.User, Home: home}
	writeFile(t, user.Path(), foreign, 0o644)
	inA := user
	inB := user
	inB.Config = b

	if _, err := inA.Install(); err != nil {
		t.Fatal(err)
	}
	afterA := readBytes(t, user.Path())
	if !strings.Contains(string(afterA), a.Root()) {
		t.Fatalf("A's install wrote no entry naming A:\n%s", afterA)
	}
	if _, err := inB.Install(); err != nil {
		t.Fatal(err)
	}
	afterB := readBytes(t, user.Path())
	if !strings.Contains(string(afterB), a.Root()) || !strings.Contains(string(afterB), b.Root()) {
		t.Fatalf("after B's install the file must hold both checkouts' entries:\n%s", afterB)
	}
	for _, bin := range inB.Owner().Binaries {
		if !filepath.IsAbs(bin) {
			bin = filepath.Join(b.Root(), bin)
		}
		if filepath.Dir(filepath.Dir(bin)) != b.Root() {
			t.Errorf("B owns %s, a binary not its own", bin)
		}
	}
	// Re-installing A (its matcher unchanged) changes nothing of B's.
	if out, err := inA.Install(); err != nil || out.Changed {
		t.Fatalf("A's second install: changed %v, %v", out.Changed, err)
	}

	if _, err := inB.Uninstall(); err != nil {
		t.Fatal(err)
	}
	if got := readBytes(t, user.Path()); !bytes.Equal(got, afterA) {
		t.Fatalf("B's uninstall changed A's entries:\n got %s\nwant %s", got, afterA)
	}
	if _, err := inA.Uninstall(); err != nil {
		t.Fatal(err)
	}
	got := string(readBytes(t, user.Path()))
	for _, keep := range []string{"$HOME/.claude/hooks/other.sh", "npx some-guard", "symlinkDirectories"} {
		if !strings.Contains(got, keep) {
			t.Errorf("A's uninstall lost the foreign %q:\n%s", keep, got)
		}
	}
	if strings.Contains(got, "hook:") {
		t.Errorf("an entry of A or B is left:\n%s", got)
	}
}

func readBytes(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Clean(path))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestRunsOwn: a checkout runs magehook of its own for a harness when that
// harness's project file runs a magehook binary's hook: target; another
// tool's "hook:" words, or another harness's file, do not count.
func TestRunsOwn(t *testing.T) {
	for _, tc := range []struct {
		name, file, text, harness string
		want                      bool
	}{
		{"the installed form", ".claude/settings.json", `{"hooks":{"PreToolUse":[{"hooks":[{"command":"d=\"$CLAUDE_PROJECT_DIR\"; go run github.com/magehook/magehook/cmd/ensure; \"$b\" hook:preToolUse"}]}]}}`, "claude", true},
		{"an earlier form, in the local scope", ".claude/settings.local.json", `{"hooks":{"Stop":[{"hooks":[{"command":"\"$CLAUDE_PROJECT_DIR/bin/magehook\" hook:stop"}]}]}}`, "claude", true},
		{"another tool's hook: words", ".claude/settings.json", `{"hooks":{"PreToolUse":[{"hooks":[{"command":"./scripts/policy hook:bash"}]}]}}`, "claude", false},
		{"another harness's file", ".codex/hooks.json", `{"hooks":{"PreToolUse":[{"hooks":[{"command":"\"bin/magehook\" hook:preToolUse -harness=codex"}]}]}}`, "claude", false},
		{"that harness's file", ".codex/hooks.json", `{"hooks":{"PreToolUse":[{"hooks":[{"command":"\"bin/magehook\" hook:preToolUse -harness=codex"}]}]}}`, "codex", true},
		{"no file", "", "", "claude", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			if tc.file != "" {
				writeFile(t, filepath.Join(root, tc.file), tc.text, 0o644)
			}
			if got := settings.RunsOwn(root, tc.harness); got != tc.want {
				t.Errorf("RunsOwn = %v, want %v", got, tc.want)
			}
		})
	}
}
