package magehook_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/magehook/magehook/internal/gittest"
	"github.com/magehook/magehook/pkg/harness"
)

// runHook runs an installed command as a harness does: sh -c, the
// payload on stdin, the harness's environment.
func runHook(t *testing.T, command, dir, payload string, env ...string) (int, string, string) {
	t.Helper()
	cmd := exec.Command("sh", "-c", command)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdin = strings.NewReader(payload)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return code, stdout.String(), stderr.String()
}

// TestTheBinaryIsBuiltOnFirstNeed: in a checkout without bin/magehook
// (a fresh clone), four hook processes of one tool call start at once;
// one builds the binary, the others wait for it, and each then answers —
// a commit on main is denied. Where Go cannot build it, a gate blocks with
// the fix and another event goes on visibly.
func TestTheBinaryIsBuiltOnFirstNeed(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a binary")
	}
	repo := gittest.PluginRepo(t, "hook.enable branchguard\n")
	codex, _ := harness.Lookup("codex")
	claude, _ := harness.Lookup("claude")
	pre := func(h *harness.Harness) string {
		return h.Command(harness.CommandSpec{Binary: "bin/magehook", Event: "PreToolUse", Target: "preToolUse", Timeout: 120, GateAll: true})
	}
	payload := `{"session_id":"s","cwd":"` + repo + `","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git commit -m x"}}`
	var wg sync.WaitGroup
	type result struct {
		code           int
		stdout, stderr string
	}
	results := make([]result, 4)
	for i := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			h := claude
			if i%2 == 1 {
				h = codex
			}
			// Codex gives no project variable: its command walks up from
			// the hook's directory.
			code, out, errOut := runHook(t, pre(h), filepath.Join(repo, "magefiles"), payload, "CLAUDE_PROJECT_DIR="+repo)
			results[i] = result{code, out, errOut}
		}()
	}
	wg.Wait()
	built := 0
	for i, r := range results {
		if r.code != 0 || !strings.Contains(r.stdout, `"permissionDecision":"deny"`) {
			t.Errorf("hook %d: exit %d, stdout %q, stderr %q", i, r.code, r.stdout, r.stderr)
		}
		built += strings.Count(r.stderr, "magehook: building ")
	}
	if built != 1 {
		t.Errorf("%d processes built the binary, want exactly 1:\n%+v", built, results)
	}
	if _, err := os.Stat(filepath.Join(repo, "bin", "magehook")); err != nil {
		t.Fatal(err)
	}

	// Present and current: the command execs it, nothing is built.
	code, out, errOut := runHook(t, pre(claude), repo, payload, "CLAUDE_PROJECT_DIR="+repo)
	if code != 0 || !strings.Contains(out, `"permissionDecision":"deny"`) || strings.Contains(errOut, "building") {
		t.Errorf("the second call: exit %d %q %q", code, out, errOut)
	}

	// No Go on PATH and no binary: the gate blocks with the fix; a
	// session event goes on, visibly.
	os.Remove(filepath.Join(repo, "bin", "magehook"))
	noGo := "PATH=/usr/bin:/bin"
	if _, err := os.Stat("/usr/bin/go"); err == nil {
		t.Skip("go is in /usr/bin; cannot hide it")
	}
	code, out, errOut = runHook(t, pre(claude), repo, payload, "CLAUDE_PROJECT_DIR="+repo, noGo)
	fix := "run go -C '" + repo + "' tool mage -w '" + repo + "' hook:build"
	if code != 2 || out != "" || !strings.Contains(errOut, fix) {
		t.Errorf("a gate without a binary must block with the fix: exit %d %q %q", code, out, errOut)
	}
	stop := claude.Command(harness.CommandSpec{Binary: "bin/magehook", Event: "Stop", Target: "stop", Timeout: 30})
	code, _, errOut = runHook(t, stop, repo, `{}`, "CLAUDE_PROJECT_DIR="+repo, noGo)
	if code != 1 || !strings.Contains(errOut, fix) {
		t.Errorf("another event goes on with a visible error: exit %d %q", code, errOut)
	}
}

// TestAStaleBinaryIsRebuiltAtSessionStart: a binary older than its
// sources is rebuilt by the SessionStart command, not by a tool call.
func TestAStaleBinaryIsRebuiltAtSessionStart(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a binary")
	}
	repo := gittest.PluginRepo(t, "hook.enable branchguard\n")
	claude, _ := harness.Lookup("claude")
	cmd := exec.Command("go", "tool", "mage", "hook:build")
	cmd.Dir = repo
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	bin := filepath.Join(repo, "bin", "magehook")
	before, _ := os.Stat(bin)
	gittest.Write(t, repo, map[string]string{"magefiles/extra.go": "//go:build mage\n\npackage main\n\n// Extra is a new target.\nfunc Extra() {}\n"})
	pre := claude.Command(harness.CommandSpec{Binary: "bin/magehook", Event: "PreToolUse", Target: "preToolUse", Timeout: 30})
	payload := `{"session_id":"s","cwd":"` + repo + `","hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":"x"}}`
	if _, _, errOut := runHook(t, pre, repo, payload, "CLAUDE_PROJECT_DIR="+repo); strings.Contains(errOut, "building") {
		t.Errorf("a tool call rebuilt the binary: %s", errOut)
	}
	start := claude.Command(harness.CommandSpec{Binary: "bin/magehook", Event: "SessionStart", Target: "sessionStart", Timeout: 60})
	code, _, errOut := runHook(t, start, repo, `{"session_id":"s","cwd":"`+repo+`","hook_event_name":"SessionStart","source":"startup"}`, "CLAUDE_PROJECT_DIR="+repo)
	if code != 0 || !strings.Contains(errOut, "older than its sources") {
		t.Errorf("SessionStart: exit %d %s", code, errOut)
	}
	after, _ := os.Stat(bin)
	if os.SameFile(before, after) {
		t.Error("the binary was not replaced")
	}
}

// TestAnAdoptedCheckoutStaysClean: in a repository whose .gitignore says
// nothing about magehook, hook:install ignores every path magehook
// writes; once the user commits what install wrote, a session's start, a
// tool call, a worktree's bootstrap and a stop leave git status empty.
func TestAnAdoptedCheckoutStaysClean(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a binary")
	}
	repo := gittest.PluginRepo(t, "hook.enable branchguard\nhook.enable stopguard\nguard.stopcheck true\n")
	gittest.Commit(t, repo, "no ignores", map[string]string{".gitignore": "# nothing of magehook's\n"})
	mage := func(args ...string) {
		t.Helper()
		cmd := exec.Command("go", append([]string{"tool", "mage"}, args...)...)
		cmd.Dir = repo
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("mage %v: %v\n%s", args, err, out)
		}
	}
	mage("hook:install")
	gittest.Git(t, repo, "add", "-A")
	gittest.Git(t, repo, "commit", "-qm", "adopt magehook")
	if st := gittest.Git(t, repo, "ls-files", "bin", ".magehook"); st != "" {
		t.Fatalf("install's own files were committed: %s", st)
	}
	// A fresh clone's session: the binary is built by the entry.
	os.RemoveAll(filepath.Join(repo, "bin"))
	claude, _ := harness.Lookup("claude")
	command := func(event, target string) string {
		return claude.Command(harness.CommandSpec{Binary: "bin/magehook", Event: event, Target: target, Timeout: 120})
	}
	env := "CLAUDE_PROJECT_DIR=" + repo
	if code, _, errOut := runHook(t, command("SessionStart", "sessionStart"), repo, `{"session_id":"s","cwd":"`+repo+`","hook_event_name":"SessionStart","source":"startup"}`, env); code != 0 {
		t.Fatalf("SessionStart: exit %d %s", code, errOut)
	}
	runHook(t, command("PreToolUse", "preToolUse"), repo, `{"session_id":"s","cwd":"`+repo+`","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git commit -m x"}}`, env)
	mage("worktree:create", "feature")
	if code, _, errOut := runHook(t, command("Stop", "stop"), repo, `{"session_id":"s","cwd":"`+repo+`","hook_event_name":"Stop","stop_hook_active":false}`, env); code != 0 {
		t.Fatalf("Stop: exit %d %s", code, errOut)
	}
	if st := gittest.Git(t, repo, "status", "--porcelain", "--untracked-files=all"); st != "" {
		t.Errorf("git status after a session is not empty:\n%s", st)
	}
}

// TestTheBuildChecksTheHandlerSet: a handler set that does not hold (a
// repository's own handler named like a catalogue gate, which would
// shadow it) fails hook:build with the handler named, and no binary is
// put in place; the binaries a build makes then skip the check per call.
func TestTheBuildChecksTheHandlerSet(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a binary")
	}
	repo := gittest.PluginRepo(t, "hook.enable branchguard\n")
	gittest.Write(t, repo, map[string]string{"magefiles/own.go": `//go:build mage

package main

import (
	"github.com/magehook/magehook/magefiles/targets"
	"github.com/magehook/magehook/pkg/hook"
)

func init() {
	targets.Local = append(targets.Local, hook.Handler{Name: "branchguard", Purpose: "a gate of our own",
		Events: []string{"PreToolUse"}, Policy: hook.Gatekeeper,
		Run: func(*hook.Call) (hook.Result, error) { return hook.Result{}, nil }})
}
`})
	cmd := exec.Command("go", "tool", "mage", "hook:build")
	cmd.Dir = repo
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "handler branchguard is declared twice") {
		t.Errorf("the build of a set that does not hold: %v\n%s", err, out)
	}
	if _, err := os.Stat(filepath.Join(repo, "bin", "magehook")); err == nil {
		t.Error("a binary was put in place")
	}
	if left, _ := filepath.Glob(filepath.Join(repo, "bin", ".magehook.*.tmp")); len(left) > 0 {
		t.Errorf("the build left %v", left)
	}
}
