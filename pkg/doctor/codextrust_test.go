package doctor_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/magehook/magehook/hooks"
	"github.com/magehook/magehook/pkg/doctor"
	"github.com/magehook/magehook/pkg/harness"
	"github.com/magehook/magehook/pkg/settings"
	"github.com/magehook/magehook/pkg/toolingrc"
)

// TestCodexTrustWithoutCodex: with codex not on PATH, the doctor reads
// $CODEX_HOME/config.toml and names each of magehook's Codex hooks that
// Codex will not run — never reviewed, reviewed before it changed (the
// hash Codex would compute differs), or switched off in /hooks — and says
// ok only when every hash matches.
func TestCodexTrustWithoutCodex(t *testing.T) {
	root, opt := setup(t)
	cfg, _ := toolingrc.Discover(root)
	codex, _ := harness.Lookup("codex")
	in := settings.Installer{Config: cfg, Handlers: hooks.All(), Harness: codex}
	if _, err := in.Install(); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(in.Path())
	placed, err := settings.OwnedEntries(data, codex, in.Owner())
	if err != nil || len(placed) < 3 {
		t.Fatalf("%d entries: %v", len(placed), err)
	}
	codexHome := t.TempDir()
	opt.Getenv = func(k string) string {
		if k == "CODEX_HOME" {
			return codexHome
		}
		return os.Getenv(k)
	}
	opt.LookPath = func(string) (string, error) { return "", errors.New("not on PATH") }
	opt.SkipStartup = true
	write := func(skip map[int]string) {
		var b strings.Builder
		for i, p := range placed {
			key := harness.CodexTrustKey(in.Path(), p.Native, p.Group, p.Index)
			hash := harness.CodexTrustHash(p.Native, p.Matcher, p.Command, p.Timeout)
			switch skip[i] {
			case "untrusted":
				continue
			case "modified":
				hash = harness.CodexTrustHash(p.Native, p.Matcher, p.Command, p.Timeout*10)
			case "disabled":
				fmt.Fprintf(&b, "[hooks.state.%q]\nenabled = false\ntrusted_hash = %q\n\n", key, hash)
				continue
			}
			fmt.Fprintf(&b, "[hooks.state.%q]\ntrusted_hash = %q\n\n", key, hash)
		}
		if err := os.WriteFile(filepath.Join(codexHome, "config.toml"), []byte(b.String()), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	line := func() string {
		for _, l := range doctor.Run(context.Background(), opt).Lines {
			if l.Check == "codex trust" {
				return string(l.Status) + " " + l.Detail
			}
		}
		return ""
	}
	write(nil)
	if got := line(); !strings.HasPrefix(got, "ok ") {
		t.Errorf("every hash matches: %s", got)
	}
	key := func(i int) string {
		return harness.CodexTrustKey(in.Path(), placed[i].Native, placed[i].Group, placed[i].Index)
	}
	write(map[int]string{0: "untrusted", 1: "modified", 2: "disabled"})
	got := line()
	for _, want := range []string{"problem Codex will not run 3 of magehook's hooks", key(0) + " (untrusted)",
		key(1) + " (modified since it was reviewed)", key(2) + " (disabled in /hooks)", "/hooks"} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in %s", want, got)
		}
	}
}
