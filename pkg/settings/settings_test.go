package settings_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/magehook/magehook/pkg/harness"
	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/hooktest"
	"github.com/magehook/magehook/pkg/settings"
	"github.com/magehook/magehook/pkg/toolingrc"
)

// foreign is a settings file another tool wrote: keys magehook does not
// own, foreign hooks on the events it installs, numbers that float64
// would change, non-ASCII text and HTML characters.
const foreign = `{
  "$schema": "https://json.schemastore.org/claude-code-settings.json",
  "model": "opus",
  "permissions": {"allow": ["Bash(go test:*)"], "deny": []},
  "cleanupPeriodDays": 1.0,
  "big": 12345678901234567890123,
  "exp": 1e3,
  "greeting": "héllo wörld — ✓ <b>&amp;</b>",
  "hooks": {
    "SessionStart": [
      {"hooks": [{"type": "command", "command": "$HOME/.claude/hooks/other.sh", "timeout": 5}]}
    ],
    "PreToolUse": [
      {"matcher": "Bash", "hooks": [{"type": "command", "command": "npx some-guard", "statusMessage": "guarding"}]}
    ],
    "Notification": []
  },
  "worktree": {"symlinkDirectories": ["node_modules"]}
}
`

func checkout(t testing.TB, lines ...string) *toolingrc.Config {
	t.Helper()
	root := hooktest.Checkout(t, lines...)
	cfg, err := toolingrc.Discover(root)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

var gate = hook.Handler{Name: "gate", Purpose: "p", Events: []string{"PreToolUse"}, Matcher: "Edit|Write", Policy: hook.Gatekeeper,
	Run: func(*hook.Call) (hook.Result, error) { return hook.Result{}, nil }}
var bashGate = hook.Handler{Name: "bashgate", Purpose: "p", Events: []string{"PreToolUse", "PostToolUse"}, Matcher: "Bash", Policy: hook.Gatekeeper,
	Run: func(*hook.Call) (hook.Result, error) { return hook.Result{}, nil }}
var mcpLog = hook.Handler{Name: "mcplog", Purpose: "p", Events: []string{"PreToolUse"}, Matcher: "mcp__.*", Policy: hook.Observer,
	Run: func(*hook.Call) (hook.Result, error) { return hook.Result{}, nil }}
var stopCheck = hook.Handler{Name: "stopcheck", Purpose: "p", Events: []string{"Stop"}, Policy: hook.Gatekeeper, Timeout: 300,
	Run: func(*hook.Call) (hook.Result, error) { return hook.Result{}, nil }}
var handlers = []hook.Handler{gate, bashGate, mcpLog, stopCheck}

func TestEntries(t *testing.T) {
	cfg := checkout(t, "hook.enable gate", "hook.enable bashgate", "hook.enable stopcheck")
	entries, err := settings.Entries(cfg, handlers, settings.Project)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, fmt.Sprintf("%s [%s] %s %d", e.Event, e.Matcher, e.Command, e.Timeout))
	}
	claude, _ := harness.Lookup("claude")
	cmd := func(event, target string, timeout int) string {
		spec := harness.CommandSpec{Binary: "bin/magehook", Event: event, Target: target, Timeout: timeout}
		if event == "PreToolUse" {
			spec.Gated = []string{"Bash", "Edit", "Write"} // what the gatekeepers watch
		}
		return claude.Command(spec)
	}
	want := []string{
		`PostToolUse [Bash] ` + cmd("PostToolUse", "postToolUse", 30) + ` 30`,
		`PreToolUse [Edit|Write|Bash] ` + cmd("PreToolUse", "preToolUse", 30) + ` 30`,
		`SessionEnd [] ` + cmd("SessionEnd", "sessionEnd", 30) + ` 30`,
		`SessionStart [] ` + cmd("SessionStart", "sessionStart", 60) + ` 60`,
		`Stop [] ` + cmd("Stop", "stop", 600) + ` 600`,
		`WorktreeCreate [] ` + cmd("WorktreeCreate", "worktreeCreate", 120) + ` 120`,
		`WorktreeRemove [] ` + cmd("WorktreeRemove", "worktreeRemove", 60) + ` 60`,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("entries\n got %q\nwant %q", got, want)
	}
}

func TestCoveringMatchers(t *testing.T) {
	cfg := checkout(t, "hook.enable gate", "hook.enable mcplog")
	entries, _ := settings.Entries(cfg, handlers, settings.Project)
	var pre settings.Entry
	for _, e := range entries {
		if e.Event == "PreToolUse" {
			pre = e
		}
	}
	if pre.Matcher != `^(?:Edit|Write)$|(?:mcp__.*)` {
		t.Errorf("matcher %q", pre.Matcher)
	}
	for tool, want := range map[string]bool{"Edit": true, "Write": true, "mcp__x__y": true, "NotebookEdit": false, "Bash": false} {
		if got, _ := hook.Match(pre.Matcher, tool); got != want {
			t.Errorf("the covering matcher on %s: %v, want %v", tool, got, want)
		}
	}
}

// TestCommandQuoting runs the installed command in sh against a binary
// whose path holds a space, quotes and a dollar sign.
func TestCommandQuoting(t *testing.T) {
	bin := `my tools/bin "$x"/magehook`
	cfg := checkout(t, "hook.binary "+bin)
	writeFile(t, filepath.Join(cfg.Root(), filepath.FromSlash(bin)), sealed("#!/bin/sh\necho \"ran $0 $*\"\n"), 0o755)
	entries, err := settings.Entries(cfg, nil, settings.Project)
	if err != nil {
		t.Fatal(err)
	}
	user, _ := settings.Entries(cfg, nil, settings.User)
	for _, c := range []struct {
		scope string
		cmd   string
	}{{"project", entries[0].Command}, {"user", user[0].Command}} {
		sh := exec.Command("sh", "-c", c.cmd)
		sh.Env = append(os.Environ(), "CLAUDE_PROJECT_DIR="+cfg.Root(), "x=WRONG")
		sh.Dir = t.TempDir() // the user scope runs in any project
		if c.scope == "project" {
			sh.Env = append(sh.Env, "CLAUDE_PROJECT_DIR="+cfg.Root())
		} else {
			sh.Env = append(sh.Env, "CLAUDE_PROJECT_DIR=/elsewhere")
		}
		out, err := sh.CombinedOutput()
		want := "ran " + filepath.Join(cfg.Root(), filepath.FromSlash(bin)) + " hook:sessionEnd\n"
		if err != nil || string(out) != want {
			t.Errorf("%s: %s\n ran %q (%v)\nwant %q", c.scope, c.cmd, out, err, want)
		}
	}
}

func install(t *testing.T, data string, cfg *toolingrc.Config) string {
	t.Helper()
	entries, err := settings.Entries(cfg, handlers, settings.Project)
	if err != nil {
		t.Fatal(err)
	}
	out, err := settings.Install([]byte(data), entries, settings.OwnerFor(cfg))
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

func TestInstallKeepsEverythingForeign(t *testing.T) {
	cfg := checkout(t, "hook.enable bashgate")
	out := install(t, foreign, cfg)
	for _, keep := range []string{
		`"cleanupPeriodDays": 1.0,`, `"big": 12345678901234567890123,`, `"exp": 1e3,`,
		`"greeting": "héllo wörld — ✓ <b>&amp;</b>"`, `"$HOME/.claude/hooks/other.sh"`, `"npx some-guard"`,
		`"statusMessage": "guarding"`, `"Notification": []`, `"symlinkDirectories": [`, `"baseRef": "head"`,
		`"$schema": "https://json.schemastore.org/claude-code-settings.json"`,
	} {
		if !strings.Contains(out, keep) {
			t.Errorf("install lost %s:\n%s", keep, out)
		}
	}
	if !strings.HasSuffix(out, "}\n") || strings.Contains(out, "\t") {
		t.Errorf("output is not two-space indented with a final newline")
	}
	// The foreign hook comes first, ours after it, on the same event.
	if strings.Index(out, "npx some-guard") > strings.Index(out, "hook:preToolUse") {
		t.Errorf("install moved the foreign PreToolUse group after its own")
	}
	if again := install(t, out, cfg); again != out {
		t.Errorf("a second install changed the bytes:\n%s", settings.UnifiedDiff("settings.json", []byte(out), []byte(again)))
	}
}

func TestUninstallGivesBackTheOriginal(t *testing.T) {
	cfg := checkout(t, "hook.enable bashgate", "hook.enable gate")
	installed := install(t, foreign, cfg)
	out, err := settings.Uninstall([]byte(installed), settings.OwnerFor(cfg))
	if err != nil {
		t.Fatal(err)
	}
	var before, after map[string]any
	json.Unmarshal([]byte(foreign), &before)
	json.Unmarshal(out, &after)
	// Uninstall leaves worktree.baseRef (it may be the user's choice); every
	// original key and value is back.
	wt := after["worktree"].(map[string]any)
	if wt["baseRef"] != "head" {
		t.Errorf("baseRef: %v", wt["baseRef"])
	}
	delete(wt, "baseRef")
	if !reflect.DeepEqual(before, after) {
		t.Errorf("install then uninstall did not give back the original:\n%s", out)
	}
	if strings.Contains(string(out), "magehook") {
		t.Errorf("an entry of ours survived:\n%s", out)
	}
	empty := install(t, "{}", cfg)
	out, _ = settings.Uninstall([]byte(empty), settings.OwnerFor(cfg))
	if string(out) != "{\n  \"worktree\": {\n    \"baseRef\": \"head\"\n  }\n}\n" {
		t.Errorf("uninstall should prune the groups, events and hooks it emptied:\n%s", out)
	}
}

func TestOwnership(t *testing.T) {
	own := settings.Owner{Root: "/repo", Binaries: []string{"bin/magehook"}}
	claude, _ := harness.Lookup("claude")
	codex, _ := harness.Lookup("codex")
	gemini, _ := harness.Lookup("gemini")
	today := func(h *harness.Harness, dir, event, target string) string {
		return strconv.Quote(h.Command(harness.CommandSpec{Dir: dir, Binary: "bin/magehook", Event: event, Target: target, Timeout: 30}))
	}
	tests := []struct {
		name    string
		handler string
		ours    bool
	}{
		{"today's command", `{"type":"command","command":` + today(claude, "", "PreToolUse", "preToolUse") + `}`, true},
		{"today's SessionStart command", `{"type":"command","command":` + today(claude, "", "SessionStart", "sessionStart") + `}`, true},
		{"today's Codex command", `{"type":"command","command":` + today(codex, "", "Stop", "stop") + `}`, true},
		{"today's user-scope command", `{"type":"command","command":` + today(claude, "/repo", "Stop", "stop") + `}`, true},
		{"the form before the build on first need", `{"type":"command","command":"\"$CLAUDE_PROJECT_DIR/bin/magehook\" hook:preToolUse"}`, true},
		{"braced", `{"type":"command","command":"${CLAUDE_PROJECT_DIR}/bin/magehook hook:stop","timeout":9}`, true},
		{"the old Codex form", `{"type":"command","command":"\"$(dirname \"$(git rev-parse --path-format=absolute --git-common-dir)\")/bin/magehook\" hook:stop -harness=codex"}`, true},
		{"the old Gemini form", `{"type":"command","command":"\"$GEMINI_PROJECT_DIR/bin/magehook\" hook:preToolUse -harness=gemini"}`, true},
		{"exec form", `{"type":"command","command":"$CLAUDE_PROJECT_DIR/bin/magehook","args":["hook:stop"]}`, true},
		{"absolute path of the checkout's binary", `{"type":"command","command":"/repo/bin/magehook hook:stop"}`, true},
		{"project-relative", `{"type":"command","command":"./bin/magehook hook:stop"}`, true},
		{"project-relative without ./", `{"type":"command","command":"bin/magehook hook:stop"}`, true},
		{"another binary in the checkout", `{"type":"command","command":"/repo/tools/old-binary hook:stop"}`, false},
		{"a foreign script with a hook: argument", `{"type":"command","command":"\"$CLAUDE_PROJECT_DIR/.claude/hooks/notify.sh\" hook:stop"}`, false},
		{"a foreign policy script", `{"type":"command","command":"./scripts/policy hook:bash"}`, false},
		{"another checkout's binary", `{"type":"command","command":"/other/repo/bin/magehook hook:stop"}`, false},
		{"outside the checkout", `{"type":"command","command":"../bin/magehook hook:stop"}`, false},
		{"on PATH", `{"type":"command","command":"magehook hook:stop"}`, false},
		{"not a hook: target", `{"type":"command","command":"\"$CLAUDE_PROJECT_DIR/scripts/fugubench\" hook SessionStart"}`, false},
		{"another target", `{"type":"command","command":"$CLAUDE_PROJECT_DIR/bin/magehook build"}`, false},
		{"escaping the checkout", `{"type":"command","command":"$CLAUDE_PROJECT_DIR/../evil hook:stop"}`, false},
		{"not a command handler", `{"type":"http","url":"https://x","command":"$CLAUDE_PROJECT_DIR/bin/magehook hook:stop"}`, false},
		{"gemini's command", `{"type":"command","command":` + today(gemini, "", "PreToolUse", "preToolUse") + `}`, true},
	}
	for _, tt := range tests {
		tree, err := settings.Parse([]byte(tt.handler))
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if got := own.Owns(tree.(*settings.Object)); got != tt.ours {
			t.Errorf("%s: Owns(%s) = %v, want %v", tt.name, tt.handler, got, tt.ours)
		}
	}
}

// TestRenamedBinary: after hook.binary changed, the entries the earlier
// binary left are still recognised from what the file and the backups
// show, and a foreign hook with a hook: argument is not.
func TestRenamedBinary(t *testing.T) {
	cfg := checkout(t)
	old := `{"hooks":{
  "SessionStart":[{"hooks":[{"type":"command","command":"\"$CLAUDE_PROJECT_DIR/tools/hookbin\" hook:sessionStart","timeout":60}]}],
  "WorktreeCreate":[{"hooks":[{"type":"command","command":"\"$CLAUDE_PROJECT_DIR/tools/hookbin\" hook:worktreeCreate","timeout":120}]}],
  "Stop":[{"hooks":[{"type":"command","command":"\"$CLAUDE_PROJECT_DIR/.claude/hooks/notify.sh\" hook:stop"}]}]}}`
	own := settings.OwnerFor(cfg, []byte(old))
	if !own.OwnsCommand(`"$CLAUDE_PROJECT_DIR/tools/hookbin" hook:preToolUse`) {
		t.Errorf("the earlier binary's entries are ours: %+v", own)
	}
	if own.OwnsCommand(`"$CLAUDE_PROJECT_DIR/.claude/hooks/notify.sh" hook:stop`) {
		t.Errorf("a foreign script is not ours: %+v", own)
	}
	if settings.OwnerFor(cfg).OwnsCommand(`"$CLAUDE_PROJECT_DIR/tools/hookbin" hook:preToolUse`) {
		t.Error("without a document that shows it, another binary is not ours")
	}
	out, err := settings.Uninstall([]byte(old), own)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(out), "hookbin") || !strings.Contains(string(out), "notify.sh") {
		t.Errorf("uninstall must remove the earlier binary's entries and keep the foreign one:\n%s", out)
	}
}

func TestRefusals(t *testing.T) {
	cfg := checkout(t)
	entries, _ := settings.Entries(cfg, nil, settings.Project)
	tests := map[string]string{
		`{"hooks": {`:                          "ends in the middle",
		`{"a": 1} {"b": 2}`:                    "more than one JSON value",
		`{"a": 1, "a": 2}`:                     `the key "a" appears twice`,
		"{\"a\": \"\xff\"}":                    "not valid UTF-8",
		`[]`:                                   "the top level is an array",
		`{"hooks": []}`:                        "hooks is an array, not an object",
		`{"hooks": {"Stop": {}}}`:              "hooks.Stop is an object, not an array",
		`{"hooks": {"Stop": ["x"]}}`:           "hooks.Stop[0] is a string, not a matcher group",
		`{"hooks": {"Stop": [{"hooks": {}}]}}`: "hooks.Stop[0].hooks is an object, not an array",
		`{"worktree": "head"}`:                 "worktree is a string, not an object",
		`{"hooks": {"Stop": [{"hooks": []}]}, "x": 1,}`: "trailing comma at line 1, column 44, which JSON does not allow; remove it",
		"// comment\n{}":          "comment at line 1, column 1, which JSON does not allow; remove it",
		`{"hooks": null}`:         "hooks is null, not an object; make it an object of event names ({} for none) or remove the key",
		`{"a": {"b": 1, "b": 2}}`: `the key "b" appears twice in one object (the second at line 1, column 19); JSON readers disagree on which one counts: keep one`,
		`{"a": "\ud83d"}`:         "lone UTF-16 surrogate",
		strings.Repeat("[", 600):  "more than 512 levels deep",
	}
	for in, want := range tests {
		_, err := settings.Install([]byte(in), entries, settings.OwnerFor(cfg))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Install(%q): %v, want an error with %q", in, err, want)
		}
		_, err = settings.Uninstall([]byte(in), settings.OwnerFor(cfg))
		if err == nil {
			t.Errorf("Uninstall(%q) accepted it", in)
		}
	}
}

func writeFile(t *testing.T, path, data string, mode os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), mode); err != nil {
		t.Fatal(err)
	}
}

func TestInstallerOnRealFiles(t *testing.T) {
	cfg := checkout(t, "hook.enable bashgate")
	in := settings.Installer{Config: cfg, Handlers: handlers, Scope: settings.Project}
	path := in.Path()
	writeFile(t, path, foreign, 0o640)
	old := time.Now().Add(-time.Hour)
	os.Chtimes(path, old, old)

	out, err := in.Install()
	if err != nil || !out.Changed || out.Backup == "" {
		t.Fatalf("first install: %+v %v", out, err)
	}
	if b, _ := os.ReadFile(out.Backup); string(b) != foreign {
		t.Errorf("the backup does not hold the previous bytes")
	}
	info, _ := os.Stat(path)
	if info.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, want 0640 kept", info.Mode().Perm())
	}
	first, _ := os.ReadFile(path)
	os.Chtimes(path, old, old)
	out, err = in.Install()
	if err != nil || out.Changed {
		t.Fatalf("second install: %+v %v", out, err)
	}
	info, _ = os.Stat(path)
	second, _ := os.ReadFile(path)
	if !info.ModTime().Equal(old) || !bytes.Equal(first, second) {
		t.Errorf("a second install touched the file")
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Errorf("install left files next to the settings: %v", entries)
	}
}

func TestRefusedFileIsLeftByteIdentical(t *testing.T) {
	cfg := checkout(t)
	in := settings.Installer{Config: cfg, Scope: settings.Project}
	bad := `{"hooks": {"Stop": {"not": "a list"}}, "keep": 1}`
	writeFile(t, in.Path(), bad, 0o644)
	_, err := in.Install()
	if err == nil || !strings.Contains(err.Error(), in.Path()) || !strings.Contains(err.Error(), "hooks.Stop is an object") {
		t.Fatalf("error %v should name the file and the problem", err)
	}
	if b, _ := os.ReadFile(in.Path()); string(b) != bad {
		t.Errorf("a refused file changed")
	}
}

func TestReadOnlySettingsAreLeftAlone(t *testing.T) {
	cfg := checkout(t)
	in := settings.Installer{Config: cfg, Scope: settings.Project}
	writeFile(t, in.Path(), `{"model":"opus"}`, 0o444)
	if _, err := in.Install(); err == nil || !strings.Contains(err.Error(), "read-only") {
		t.Errorf("a read-only settings file: %v", err)
	}
	if b, _ := os.ReadFile(in.Path()); string(b) != `{"model":"opus"}` {
		t.Error("a read-only file was replaced")
	}
}

// A settings file linked to a file inside its scope's directory stays a
// link, and its target is updated; one linked out of it is refused
// (testdata/script/settings_links.txtar).
func TestSymlinkedSettingsStayALink(t *testing.T) {
	cfg := checkout(t)
	in := settings.Installer{Config: cfg, Scope: settings.Project}
	real := filepath.Join(cfg.Root(), "dotfiles", "claude-settings.json")
	writeFile(t, real, `{"model":"opus"}`, 0o600)
	if err := os.MkdirAll(filepath.Dir(in.Path()), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(real, in.Path()); err != nil {
		t.Fatal(err)
	}
	out, err := in.Install()
	if err != nil {
		t.Fatal(err)
	}
	if out.Target != real {
		t.Errorf("target %s, want the link's target %s", out.Target, real)
	}
	if info, _ := os.Lstat(in.Path()); info.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the settings file is no longer a link")
	}
	if b, _ := os.ReadFile(real); !strings.Contains(string(b), "hook:sessionStart") || !strings.Contains(string(b), `"model": "opus"`) {
		t.Errorf("the target was not updated:\n%s", b)
	}
	if info, _ := os.Stat(real); info.Mode().Perm() != 0o600 {
		t.Errorf("the target's mode changed to %v", info.Mode().Perm())
	}
}

func TestRewriteStartsOverWhenTheFileChanges(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.json")
	writeFile(t, path, `{"v":1}`, 0o644)
	calls := 0
	out, err := settings.Rewrite{Path: path, Edit: func(old []byte) ([]byte, error) {
		calls++
		if calls == 1 {
			// Another tool writes the file while we work.
			os.WriteFile(path, []byte(`{"v":2,"theirs":true}`), 0o644)
		}
		return append(bytes.TrimSpace(old), []byte(" ")...), nil
	}}.Run()
	if err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	if calls != 2 || string(got) != `{"v":2,"theirs":true} ` || !out.Changed {
		t.Errorf("calls %d, file %q: the concurrent change must be kept and edited", calls, got)
	}
}

func TestBackupsAreBounded(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "settings.json")
	writeFile(t, path, `0`, 0o644)
	for i := 1; i <= 15; i++ {
		n := i
		_, err := settings.Rewrite{Path: path, BackupDir: filepath.Join(dir, "b"), BackupPrefix: "p", Keep: 4,
			Edit: func([]byte) ([]byte, error) { return []byte(fmt.Sprint(n)), nil }}.Run()
		if err != nil {
			t.Fatal(err)
		}
	}
	backups, _ := filepath.Glob(filepath.Join(dir, "b", "p.*.bak"))
	if len(backups) != 4 {
		t.Fatalf("%d backups, want the last 4", len(backups))
	}
	if b, _ := os.ReadFile(backups[3]); string(b) != "14" {
		t.Errorf("the newest backup holds %q, want 14", b)
	}
}

func TestDryRunWritesNothing(t *testing.T) {
	cfg := checkout(t, "hook.enable bashgate")
	in := settings.Installer{Config: cfg, Handlers: handlers, Scope: settings.Local, DryRun: true}
	writeFile(t, in.Path(), foreign, 0o644)
	out, err := in.Install()
	if err != nil || !out.Changed {
		t.Fatal(out, err)
	}
	if b, _ := os.ReadFile(in.Path()); string(b) != foreign {
		t.Errorf("dry-run wrote the file")
	}
	if !strings.Contains(out.Diff, `\"$b\" hook:preToolUse;`) || !strings.HasPrefix(out.Diff, "--- ") {
		t.Errorf("diff:\n%s", out.Diff)
	}
	state, _ := os.ReadDir(filepath.Join(cfg.Root(), ".magehook"))
	if len(state) != 0 {
		t.Errorf("dry-run made a backup")
	}
}

func TestConcurrentInstallsAndUninstalls(t *testing.T) {
	cfg := checkout(t, "hook.enable bashgate")
	path := settings.Project.Path(cfg.Root(), "")
	writeFile(t, path, foreign, 0o644)
	var wg sync.WaitGroup
	errs := make(chan error, 32)
	for i := 0; i < 32; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			in := settings.Installer{Config: cfg, Handlers: handlers, Scope: settings.Project}
			var err error
			if i%3 == 0 {
				_, err = in.Uninstall()
			} else {
				_, err = in.Install()
			}
			errs <- err
		}(i)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	data, _ := os.ReadFile(path)
	var v map[string]any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatalf("not valid JSON after concurrent writes: %v", err)
	}
	for _, key := range []string{"$schema", "model", "permissions", "cleanupPeriodDays", "big", "exp", "greeting"} {
		if _, ok := v[key]; !ok {
			t.Errorf("lost %s", key)
		}
	}
	if !strings.Contains(string(data), "npx some-guard") || !strings.Contains(string(data), "other.sh") {
		t.Errorf("lost a foreign hook:\n%s", data)
	}
}

func TestUnifiedDiff(t *testing.T) {
	a := "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n"
	b := "1\n2\n3\n4\nfive\n6\n7\n8\n9\n10\neleven\n"
	want := `--- f
+++ f
@@ -2,9 +2,10 @@
 2
 3
 4
-5
+five
 6
 7
 8
 9
 10
+eleven
`
	if got := settings.UnifiedDiff("f", []byte(a), []byte(b)); got != want {
		t.Errorf("diff\n%s\nwant\n%s", got, want)
	}
	if settings.UnifiedDiff("f", []byte(a), []byte(a)) != "" {
		t.Error("equal inputs have a diff")
	}
}

// FuzzInstall checks the settings merge on arbitrary files: install after
// install is byte-identical; uninstall after install keeps every foreign
// top-level key and value; an input that does not parse is refused, never
// written.
func FuzzInstall(f *testing.F) {
	f.Add([]byte(foreign))
	f.Add([]byte(`{}`))
	f.Add([]byte(`{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"x"}]}]},"a":1.0}`))
	f.Add([]byte(`{"hooks":[]}`))
	f.Add([]byte(`{"a":"\u00e9","b":[1,2,{"c":null}],"worktree":{"baseRef":"fresh"}}`))
	cfg := checkout(f, "hook.enable bashgate")
	entries, _ := settings.Entries(cfg, handlers, settings.Project)
	f.Fuzz(func(t *testing.T, data []byte) {
		once, err := settings.Install(data, entries, settings.OwnerFor(cfg))
		if err != nil {
			if _, perr := settings.Parse(data); perr == nil {
				if _, _, lerr := settings.Load(data); lerr == nil {
					t.Fatalf("install refused a file Load accepts: %v", err)
				}
			}
			return
		}
		twice, err := settings.Install(once, entries, settings.OwnerFor(cfg))
		if err != nil || !bytes.Equal(once, twice) {
			t.Fatalf("install is not idempotent: %v\n%s", err, settings.UnifiedDiff("x", once, twice))
		}
		back, err := settings.Uninstall(once, settings.OwnerFor(cfg))
		if err != nil {
			t.Fatal(err)
		}
		var before, after map[string]any
		if json.Unmarshal(data, &before) != nil || json.Unmarshal(back, &after) != nil {
			return
		}
		for k, v := range before {
			if k == "hooks" || k == "worktree" {
				continue
			}
			if !reflect.DeepEqual(after[k], v) {
				t.Fatalf("uninstall after install lost or changed %q: %v -> %v", k, v, after[k])
			}
		}
	})
}

func TestHarnessInstalls(t *testing.T) {
	cfg := checkout(t, "hook.enable bashgate", "hook.enable gate")
	for _, h := range harness.All() {
		if h.IsClaude() || h.Layout == harness.Scripts {
			continue // TestScriptsInstall
		}
		in := settings.Installer{Config: cfg, Handlers: handlers, Harness: h}
		foreignDoc := `{"keep": {"x": 1.50}, "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./theirs.sh"}]}]}}`
		switch h.Name {
		case "copilot", "cursor":
			foreignDoc = `{"version": 1, "keep": {"x": 1.50}, "hooks": {"PreToolUse": [{"type": "command", "command": "./theirs.sh"}]}}`
		case "gemini":
			foreignDoc = `{"keep": {"x": 1.50}, "hooks": {"disabled": ["x"], "BeforeTool": [{"matcher": "run_shell_command", "hooks": [{"type": "command", "command": "./theirs.sh", "timeout": 5000}]}]}}`
		}
		if h.Layout == harness.Plugin {
			foreignDoc = ""
		}
		if foreignDoc != "" {
			writeFile(t, in.Path(), foreignDoc, 0o644)
		}
		if _, err := in.Install(); err != nil {
			t.Fatalf("%s: %v", h.Name, err)
		}
		first, _ := os.ReadFile(in.Path())
		out, err := in.Install()
		if err != nil || out.Changed {
			t.Errorf("%s: a second install changed the file: %v", h.Name, err)
		}
		text := string(first)
		if h.Layout == harness.Plugin {
			if !strings.Contains(text, `spawnSync(bin, [target, "-harness=`+h.Name+`"]`) || !strings.Contains(text, `"bin/magehook"`) {
				t.Errorf("%s plugin:\n%s", h.Name, text)
			}
		} else {
			for _, keep := range []string{`"x": 1.50`, "./theirs.sh", " -harness=" + h.Name + ";"} {
				if !strings.Contains(text, keep) {
					t.Errorf("%s: %q missing:\n%s", h.Name, keep, text)
				}
			}
		}
		switch h.Name {
		case "gemini":
			for _, want := range []string{`"disabled": [`, `"BeforeTool": [`, `"timeout": 30000`, `"matcher": "^(replace|run_shell_command|write_file)$"`, `d=\"${GEMINI_PROJECT_DIR}\"`} {
				if !strings.Contains(text, want) {
					t.Errorf("gemini: %q missing:\n%s", want, text)
				}
			}
			if strings.Contains(text, "enableHooks") {
				t.Errorf("gemini: tools.enableHooks does nothing in 0.61 and is not written:\n%s", text)
			}
		case "copilot":
			if !strings.Contains(text, `"timeoutSec": 30`) || !strings.Contains(text, `"bash": "d=\"${COPILOT_PROJECT_DIR:-$PWD}\"`) {
				t.Errorf("copilot:\n%s", text)
			}
		case "cursor":
			if !strings.Contains(text, `"preToolUse": [`) || !strings.Contains(text, `"matcher": "Delete|Shell|Write"`) {
				t.Errorf("cursor:\n%s", text)
			}
		case "codex":
			if !strings.Contains(text, `"SessionStart": [`) || !strings.Contains(text, `"SessionEnd": [`) || strings.Contains(text, `"WorktreeCreate"`) {
				t.Errorf("codex has SessionEnd and no worktree events:\n%s", text)
			}
		}
		if _, err := in.Uninstall(); err != nil {
			t.Fatal(err)
		}
		after, err := os.ReadFile(in.Path())
		if h.Layout == harness.Plugin {
			if err == nil {
				t.Errorf("%s: uninstall left the plugin", h.Name)
			}
			continue
		}
		if strings.Contains(string(after), "magehook") || !strings.Contains(string(after), "./theirs.sh") {
			t.Errorf("%s: after uninstall:\n%s", h.Name, after)
		}
	}
	for _, name := range []string{"opencode", "pi"} {
		op, _ := harness.Lookup(name)
		writeFile(t, filepath.Join(cfg.Root(), filepath.FromSlash(op.File)), "export const X = 1\n", 0o644)
		if _, err := (settings.Installer{Config: cfg, Handlers: handlers, Harness: op}).Install(); err == nil || !strings.Contains(err.Error(), "magehook did not write it") {
			t.Errorf("%s: a foreign plugin file: %v", name, err)
		}
	}
}

// TestReinstallKeepsOurGroupsWhereTheyAre: Codex keys the trust a user
// gave a hook by its position, so a re-install must not move our groups
// behind a foreign one, and a new event's group is appended.
func TestReinstallKeepsOurGroupsWhereTheyAre(t *testing.T) {
	cfg := checkout(t, "hook.enable bashgate")
	codex, _ := harness.Lookup("codex")
	in := settings.Installer{Config: cfg, Handlers: handlers, Harness: codex}
	if _, err := in.Install(); err != nil {
		t.Fatal(err)
	}
	first, _ := os.ReadFile(in.Path())
	// The user adds a foreign group after ours, and changes our timeout.
	edited := strings.Replace(string(first), `"PreToolUse": [`, `"PreToolUse": [`, 1)
	edited = strings.Replace(edited, `"SessionStart": [`, `"SessionStart": [`, 1)
	tree, _ := settings.Parse([]byte(edited))
	hooks, _ := tree.(*settings.Object).Get("hooks")
	pre, _ := hooks.(*settings.Object).Get("PreToolUse")
	foreign, _ := settings.Parse([]byte(`{"matcher":"Bash","hooks":[{"type":"command","command":"./theirs.sh"}]}`))
	hooks.(*settings.Object).Set("PreToolUse", append(pre.([]any), foreign))
	writeFile(t, in.Path(), string(settings.Encode(tree, true)), 0o644)
	before, _ := settings.OwnedEntries(settings.Encode(tree, true), codex, in.Owner())

	cfg2 := checkout(t, "hook.enable bashgate", "hook.enable gate")
	_ = cfg2
	in.Handlers = append(handlers, hook.Handler{Name: "late", Purpose: "p", Events: []string{"UserPromptSubmit"}, Policy: hook.Observer,
		Run: func(*hook.Call) (hook.Result, error) { return hook.Result{}, nil }})
	writeFile(t, filepath.Join(cfg.Root(), ".toolingrc"), "hook.enable bashgate\nhook.enable late\n", 0o644)
	cfg3, err := toolingrc.Discover(cfg.Root())
	if err != nil {
		t.Fatal(err)
	}
	in.Config = cfg3
	if _, err := in.Install(); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(in.Path())
	after, _ := settings.OwnedEntries(data, codex, in.Owner())
	pos := map[string][2]int{}
	for _, p := range after {
		pos[p.Native] = [2]int{p.Group, p.Index}
	}
	for _, b := range before {
		if pos[b.Native] != [2]int{b.Group, b.Index} {
			t.Errorf("%s moved from %d:%d to %v:\n%s", b.Native, b.Group, b.Index, pos[b.Native], data)
		}
	}
	if _, ok := pos["UserPromptSubmit"]; !ok {
		t.Errorf("the new event's group was not added:\n%s", data)
	}
	if !strings.Contains(string(data), "./theirs.sh") {
		t.Errorf("the foreign group was lost:\n%s", data)
	}
}

// TestScriptsInstall: Cline's hook scripts are written one per event, a
// second install writes nothing, a script magehook did not write is
// refused and left as it was, and uninstall removes only magehook's.
func TestScriptsInstall(t *testing.T) {
	cfg := checkout(t, "hook.enable bashgate", "hook.enable gate")
	h, _ := harness.Lookup("cline")
	in := settings.Installer{Config: cfg, Handlers: handlers, Harness: h}
	out, err := in.Install()
	if err != nil || !out.Changed {
		t.Fatalf("install: %v, changed %v", err, out.Changed)
	}
	pre := filepath.Join(cfg.Root(), ".clinerules", "hooks", "PreToolUse")
	text, err := os.ReadFile(pre)
	if err != nil || !strings.HasPrefix(string(text), "#!/bin/sh\n# magehook cline hook") || !strings.Contains(string(text), " -harness=cline;") ||
		!strings.Contains(string(text), `"cancel":true`) {
		t.Fatalf("PreToolUse script: %v\n%s", err, text)
	}
	if out, err := in.Install(); err != nil || out.Changed {
		t.Errorf("a second install changed the scripts: %v", err)
	}
	foreign := filepath.Join(cfg.Root(), ".clinerules", "hooks", "TaskComplete")
	writeFile(t, foreign, "#!/bin/sh\necho theirs\n", 0o755)
	if _, err := in.Install(); err != nil {
		t.Fatalf("install beside a foreign script of an event magehook does not install: %v", err)
	}
	writeFile(t, pre, "#!/bin/sh\necho theirs\n", 0o755)
	if _, err := in.Install(); err == nil || !strings.Contains(err.Error(), "magehook did not write it") {
		t.Errorf("a foreign PreToolUse was not refused: %v", err)
	}
	if b, _ := os.ReadFile(pre); string(b) != "#!/bin/sh\necho theirs\n" {
		t.Errorf("the foreign script changed: %q", b)
	}
	os.Remove(pre)
	if _, err := in.Install(); err != nil {
		t.Fatal(err)
	}
	if _, err := in.Uninstall(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(pre); err == nil {
		t.Errorf("uninstall left magehook's PreToolUse")
	}
	if b, _ := os.ReadFile(foreign); string(b) != "#!/bin/sh\necho theirs\n" {
		t.Errorf("uninstall touched the foreign script: %q", b)
	}
}
