package live_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/magehook/magehook/internal/live/modelserver"
	"github.com/magehook/magehook/pkg/harness"
	"github.com/magehook/magehook/pkg/settings"
)

// trustCodex reviews every magehook hook of the checkout's hooks.json as
// Codex's /hooks would: config.toml gets each hook's key and the hash
// harness.CodexTrustHash computes for it.
func (c *Consumer) trustCodex(t *testing.T, extra string) {
	t.Helper()
	path := filepath.Join(c.Dir, ".codex", "hooks.json")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	codex, _ := harness.Lookup("codex")
	placed, err := settings.OwnedEntries(data, codex, settings.Owner{Root: c.Dir, Binaries: []string{"bin/magehook"}})
	if err != nil || len(placed) == 0 {
		t.Fatalf("%d entries: %v", len(placed), err)
	}
	var b strings.Builder
	b.WriteString(extra)
	for _, p := range placed {
		fmt.Fprintf(&b, "[hooks.state.%q]\ntrusted_hash = %q\n\n", harness.CodexTrustKey(path, p.Native, p.Group, p.Index),
			harness.CodexTrustHash(p.Native, p.Matcher, p.Command, p.Timeout))
	}
	write(t, c.Home, ".codex/config.toml", b.String())
}

// TestCodexTrustSurvivesEnablingStopguard: the hooks are reviewed (with
// the hash magehook computes: Codex runs them without
// --dangerously-bypass-hook-trust, so the hash is Codex's own), then
// stopguard is enabled and install runs again. SessionStart's entry is
// unchanged, so Codex still runs it: sessionclock's context reaches the
// model. (Enabling stopguard once gave SessionStart its 600 s timeout, a
// new hash, and Codex skipped the hook without a word.)
func TestCodexTrustSurvivesEnablingStopguard(t *testing.T) {
	cl := requireClient(t, "codex")
	t.Parallel()
	c := newConsumer(t, "hook.enable sessionclock\nhook.enable branchguard\n")
	c.Install(t, "codex")
	srv, err := modelserver.Start(modelserver.Script{Key: "say hello", Steps: []modelserver.Step{{Text: "hello"}}})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	c.codexConfig(t, srv, c.Dir)
	config := read(t, filepath.Join(c.Home, ".codex", "config.toml"))
	c.trustCodex(t, config)
	before := read(t, filepath.Join(c.Dir, ".codex", "hooks.json"))
	write(t, c.Dir, ".toolingrc", "hook.enable sessionclock\nhook.enable branchguard\nhook.enable stopguard\n")
	c.Install(t, "codex")
	after := read(t, filepath.Join(c.Dir, ".codex", "hooks.json"))
	if before == after {
		t.Fatal("enabling stopguard changed nothing in hooks.json; the scenario tests nothing")
	}
	s := c.codex(t, cl, c.Dir, "say hello")
	if !srv.Reached("Current date and time") {
		t.Errorf("sessionclock's context did not reach the model: Codex skipped the SessionStart hook\n%s\n%s", srv.Dump(), s.Out)
	}
	// The doctor, without codex on PATH, names the new (unreviewed) Stop
	// hooks and only them.
	cmd := c.doctor(t, map[string]string{"CODEX_HOME": filepath.Join(c.Home, ".codex"), "PATH": noCodexPath(t)})
	if !strings.Contains(cmd, ":stop:0:0 (untrusted)") || strings.Contains(cmd, "session_start:0:0") {
		t.Errorf("the doctor's codex trust line:\n%s", cmd)
	}
}

// noCodexPath is PATH without the directories that hold a codex.
func noCodexPath(t *testing.T) string {
	var keep []string
	for _, d := range filepath.SplitList(os.Getenv("PATH")) {
		if _, err := os.Stat(filepath.Join(d, "codex")); err == nil {
			continue
		}
		keep = append(keep, d)
	}
	return strings.Join(keep, string(os.PathListSeparator))
}

// doctor runs the checkout's binary's doctor with env overrides and
// returns what it printed.
func (c *Consumer) doctor(t *testing.T, env map[string]string) string {
	t.Helper()
	cmd := exec.Command(filepath.Join(c.Dir, "bin", "magehook"), "doctor")
	cmd.Dir = c.Dir
	cmd.Env = append([]string(nil), c.Env...)
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	out, _ := cmd.CombinedOutput()
	return string(out)
}
