package targets

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"runtime/metrics"
	"strings"
	"testing"

	"github.com/magehook/magehook/hooks"
	"github.com/magehook/magehook/internal/gittest"
	"github.com/magehook/magehook/pkg/hook"
)

func TestEarlyCall(t *testing.T) {
	for _, c := range []struct {
		args    []string
		event   string
		harness string
	}{
		{[]string{"magehook", "hook:preToolUse"}, "PreToolUse", ""},
		{[]string{"magehook", "HOOK:PRETOOLUSE"}, "PreToolUse", ""},
		{[]string{"magehook", "hook:postToolUse", "-harness=codex"}, "PostToolUse", "codex"},
		{[]string{"magehook", "hook:stop", "-Harness=gemini"}, "Stop", "gemini"},
		{[]string{"magehook", "hook:permissionRequest", "-harness=codex", "-harness=cursor"}, "PermissionRequest", "cursor"},
		{[]string{"magehook", "hook:preToolUse", "-harness="}, "PreToolUse", ""},
		// Left to Mage:
		{[]string{"magehook"}, "", ""},
		{[]string{"magehook", "hook:list"}, "", ""},
		{[]string{"magehook", "hook:build"}, "", ""},
		{[]string{"magehook", "hook:"}, "", ""},
		{[]string{"magehook", "hook"}, "", ""},
		{[]string{"magehook", "bench"}, "", ""},
		{[]string{"magehook", "-l"}, "", ""},
		{[]string{"magehook", "-h", "hook:preToolUse"}, "", ""},
		{[]string{"magehook", "-v", "hook:preToolUse"}, "", ""},
		{[]string{"magehook", "-t", "1s", "hook:preToolUse"}, "", ""},
		{[]string{"magehook", "hook:preToolUse", "extra"}, "", ""},
		{[]string{"magehook", "hook:preToolUse", "hook:stop"}, "", ""},
		{[]string{"magehook", "hook:preToolUse", "-harness"}, "", ""},
		{[]string{"magehook", "hook:preToolUse", "--harness=codex"}, "", ""},
		{[]string{"magehook", "hook:preToolUse", "-other=1"}, "", ""},
		{[]string{"magehook", "hook:sessionStart"}, "", ""},
		{[]string{"magehook", "hook:worktreeCreate"}, "", ""},
		{[]string{"magehook", "hook:sessionEnd"}, "", ""},
	} {
		ev, harness, ok := earlyCall(c.args)
		if ok != (c.event != "") || ev.Name != c.event || harness != c.harness {
			t.Errorf("earlyCall(%q) = %s %q %v, want %q %q %v", c.args, ev.Name, harness, ok, c.event, c.harness, c.event != "")
		}
	}
}

// Every Mage variable is removed, and nothing else.
func TestClearMageEnv(t *testing.T) {
	var unset []string
	clearMageEnv([]string{"MAGEFILE_LIST=1", "PATH=/bin", "MAGEFILE_TIMEOUT=1ns", "XMAGEFILE_LIST=1",
		"MAGEFILE_NEW_IN_A_LATER_MAGE=", "magefile_list=1", "HOME=/MAGEFILE_HELP=1"}, func(name string) error {
		unset = append(unset, name)
		return nil
	})
	if got := strings.Join(unset, " "); got != "MAGEFILE_LIST MAGEFILE_TIMEOUT MAGEFILE_NEW_IN_A_LATER_MAGE" {
		t.Fatalf("unset %s", got)
	}
	for args, want := range map[string]bool{"magehook hook:preToolUse": true, "magehook HOOK:sessionStart": true,
		"magehook hook:stop extra": true, "magehook hook:list": false, "magehook -l hook:stop": false, "magehook": false} {
		if got := hookEvent(strings.Fields(args)); got != want {
			t.Errorf("hookEvent(%s) = %v", args, got)
		}
	}
}

// createdGoroutines is how many goroutines the process has started.
func createdGoroutines() uint64 {
	s := []metrics.Sample{{Name: "/sched/goroutines-created:goroutines"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// TestDispatchStartsNoGoroutine: a goroutine on the hot path is a thread
// woken, and a hand-off paid for, on every tool call. Dispatching the
// tool events with branchguard alone and with the whole catalogue enabled
// starts none, allowing or denying.
func TestDispatchStartsNoGoroutine(t *testing.T) {
	var all []string
	for _, h := range hooks.All() {
		all = append(all, h.Name)
	}
	for _, enable := range [][]string{{"branchguard"}, all} {
		repo := gittest.Repo(t, map[string]string{".toolingrc": "hook.enable " + strings.Join(enable, "\nhook.enable ") + "\n"})
		for _, c := range []struct {
			event, tool string
			input       map[string]any
			deny        bool
		}{
			{"PreToolUse", "Bash", map[string]any{"command": "go test ./... 2>&1 | tail -n 40 && git status --short"}, false},
			{"PreToolUse", "Bash", map[string]any{"command": "git commit -qm wip"}, true},
			{"PreToolUse", "Edit", map[string]any{"file_path": repo + "/README.md", "old_string": "a", "new_string": "b"}, true},
			{"PreToolUse", "Read", map[string]any{"file_path": repo + "/README.md"}, false},
			{"PostToolUse", "Bash", map[string]any{"command": "go test ./..."}, false},
		} {
			p := map[string]any{"session_id": "s1", "cwd": repo, "hook_event_name": c.event, "tool_name": c.tool,
				"tool_use_id": "toolu_1", "tool_input": c.input}
			if c.event == "PostToolUse" {
				p["tool_response"] = map[string]any{"stdout": "ok", "stderr": ""}
			}
			data, _ := json.Marshal(p)
			var stdout, stderr bytes.Buffer
			// The watchdog is armed, as in the hook binary; it rings only
			// at the deadline, and Exit must never be called here.
			alarm := &hook.Alarm{Stdout: &stdout, Stderr: &stderr, Exit: func(code int) { panic(fmt.Sprintf("watchdog rang: exit %d", code)) }}
			d := &hook.Dispatcher{Handlers: handlers(), Builtin: lifecycleHandlers(), Stdin: bytes.NewReader(data),
				Stdout: &stdout, Stderr: &stderr, Alarm: alarm}
			runtime.GC() // the GC's workers start on its first cycle, not here
			before := createdGoroutines()
			code := d.Dispatch(context.Background(), c.event)
			after := createdGoroutines()
			if code != 0 || stderr.Len() > 0 {
				t.Fatalf("%s %s with %v: exit %d, stderr %s", c.event, c.tool, enable, code, stderr.String())
			}
			if denied := strings.Contains(stdout.String(), `"permissionDecision":"deny"`); denied != c.deny {
				t.Errorf("%s %s with %v: denied %v, want %v: %s", c.event, c.tool, enable, denied, c.deny, stdout.String())
			}
			if after != before {
				t.Errorf("%s %s with %v started %d goroutines", c.event, c.tool, enable, after-before)
			}
		}
	}
}
