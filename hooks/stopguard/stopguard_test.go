package stopguard_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/magehook/magehook/hooks/stopguard"
	"github.com/magehook/magehook/internal/gittest"
	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/hooktest"
)

var hs = []hook.Handler{stopguard.Handler}

func TestPassingCheckAllowsTheStop(t *testing.T) {
	root := hooktest.Checkout(t, "hook.enable stopguard", "guard.stopcheck sh -c 'exit 0'")
	if out := hooktest.Run(t, hs, root, "Stop", "Stop/stop", nil); out.Code != 0 || out.Stdout != "" {
		t.Errorf("%+v", out)
	}
}

func TestFailingCheckBlocksWithItsLastLines(t *testing.T) {
	root := hooktest.Checkout(t, "hook.enable stopguard",
		`guard.stopcheck sh -c 'for i in $(seq 1 100); do echo line $i; done; echo "--- FAIL: TestX" >&2; exit 1'`)
	out := hooktest.Run(t, hs, root, "Stop", "Stop/stop", nil)
	if out.Code != 0 || !strings.HasPrefix(out.Stdout, `{"decision":"block","reason":"the completion check`) {
		t.Fatalf("%+v", out)
	}
	if !strings.Contains(out.Stdout, `--- FAIL: TestX`) || !strings.Contains(out.Stdout, "line 100") || strings.Contains(out.Stdout, `line 50\n`) {
		t.Errorf("the reason should quote the last lines only: %s", out.Stdout)
	}
	out = hooktest.Run(t, hs, root, "SubagentStop", "SubagentStop/explore", nil)
	if !strings.Contains(out.Stdout, `"decision":"block"`) {
		t.Errorf("SubagentStop: %+v", out)
	}
	out = hooktest.Run(t, hs, root, "Stop", "Stop/active", nil)
	if out.Code != 0 || out.Stdout != "" {
		t.Errorf("stop_hook_active must never block: %+v", out)
	}
}

func TestNoCheckConfigured(t *testing.T) {
	root := hooktest.Checkout(t, "hook.enable stopguard")
	if out := hooktest.Run(t, hs, root, "Stop", "Stop/stop", nil); out.Code != 0 || out.Stdout != "" {
		t.Errorf("%+v", out)
	}
}

func TestMissingCommandBlocks(t *testing.T) {
	root := hooktest.Checkout(t, "hook.enable stopguard", "guard.stopcheck no-such-command-xyz --flag")
	out := hooktest.Run(t, hs, root, "Stop", "Stop/stop", nil)
	if !strings.Contains(out.Stdout, `"decision":"block"`) || !strings.Contains(out.Stdout, "no-such-command-xyz") {
		t.Errorf("a check that cannot start must not pass: %+v", out)
	}
}

func TestWords(t *testing.T) {
	got := strings.Join(stopguard.Words(`go test -run 'Test A' "./x y/..."  -v`), "|")
	if got != "go|test|-run|Test A|./x y/...|-v" {
		t.Errorf("Words: %q", got)
	}
}

// counting is a check that appends a line to runs.log each time it runs,
// and fails while fail.flag exists.
const counting = `guard.stopcheck sh -c 'echo run >> ../runs.log; test ! -e fail.flag'`

func runs(t *testing.T, root string) int {
	t.Helper()
	data, _ := os.ReadFile(filepath.Join(filepath.Dir(root), "runs.log"))
	return strings.Count(string(data), "run\n")
}

func TestTheCheckRunsOnlyWhenFilesChanged(t *testing.T) {
	root := gittest.Repo(t, map[string]string{".toolingrc": "hook.enable stopguard\n" + counting + "\n", ".gitignore": ".magehook/\n"})
	stop := func() hooktest.Outcome { return hooktest.Run(t, hs, root, "Stop", "Stop/stop", nil) }
	hooktest.Run(t, hs, root, "SessionStart", "SessionStart/startup", nil)
	if out := stop(); out.Stdout != "" || runs(t, root) != 0 {
		t.Fatalf("a session that changed nothing runs no check: %+v, %d runs", out, runs(t, root))
	}
	gittest.Write(t, root, map[string]string{"src/a.go": "package a\n"})
	if out := stop(); out.Stdout != "" || runs(t, root) != 1 {
		t.Fatalf("a changed file runs the check: %+v, %d runs", out, runs(t, root))
	}
	if out := stop(); out.Stdout != "" || runs(t, root) != 1 {
		t.Fatalf("nothing changed since the last pass: %+v, %d runs", out, runs(t, root))
	}
	gittest.Write(t, root, map[string]string{"fail.flag": "x"})
	if out := stop(); !strings.Contains(out.Stdout, `"decision":"block"`) || runs(t, root) != 2 {
		t.Fatalf("a failing check blocks: %+v", out)
	}
	if out := stop(); !strings.Contains(out.Stdout, `"decision":"block"`) || runs(t, root) != 3 {
		t.Fatalf("a failure is not a pass: the next stop checks again: %+v", out)
	}
	os.Remove(filepath.Join(root, "fail.flag"))
	gittest.Git(t, root, "add", "-A")
	gittest.Git(t, root, "commit", "-qm", "x")
	if out := stop(); out.Stdout != "" || runs(t, root) != 4 {
		t.Fatalf("a commit is a change: %+v, %d runs", out, runs(t, root))
	}
}

func TestSubAgents(t *testing.T) {
	root := gittest.Repo(t, map[string]string{".toolingrc": "hook.enable stopguard\n" + counting + "\nguard.stopagents general-purpose\n", ".gitignore": ".magehook/\n"})
	gittest.Write(t, root, map[string]string{"src/a.go": "package a\n", "fail.flag": "x"})
	sub := func(agentType string) hooktest.Outcome {
		return hooktest.Run(t, hs, root, "SubagentStop", "SubagentStop/explore", map[string]any{"agent_type": agentType})
	}
	for _, typ := range []string{"", "Explore"} {
		if out := sub(typ); out.Stdout != "" {
			t.Errorf("agent_type %q is not checked: %+v", typ, out)
		}
	}
	if runs(t, root) != 0 {
		t.Fatalf("%d runs", runs(t, root))
	}
	// A sub-agent that changed nothing since it started is not checked.
	hooktest.Run(t, hs, root, "SubagentStart", "SubagentStart/explore", map[string]any{"agent_type": "general-purpose"})
	if out := sub("general-purpose"); out.Stdout != "" || runs(t, root) != 0 {
		t.Fatalf("%+v, %d runs", out, runs(t, root))
	}
	gittest.Write(t, root, map[string]string{"src/b.go": "package a\n"})
	if out := sub("general-purpose"); !strings.Contains(out.Stdout, `"decision":"block"`) || runs(t, root) != 1 {
		t.Fatalf("%+v, %d runs", out, runs(t, root))
	}
}

func TestChecked(t *testing.T) {
	if stopguard.Checked([]string{"*"}, "") || !stopguard.Checked([]string{"*"}, "Plan") || stopguard.Checked([]string{"worker"}, "Plan") || !stopguard.Checked([]string{"Plan", "worker"}, "worker") {
		t.Error("Checked")
	}
}

// A blocked stop comes back with stop_hook_active set; the dispatcher
// cannot block then, so the check must not run a second time.
func TestOneCheckPerBlockedStop(t *testing.T) {
	root := gittest.Repo(t, map[string]string{".toolingrc": "hook.enable stopguard\n" + counting + "\n", ".gitignore": ".magehook/\n", "fail.flag": ""})
	out := hooktest.Run(t, hs, root, "Stop", "Stop/stop", nil)
	if !strings.Contains(out.Stdout, `"decision":"block"`) || runs(t, root) != 1 {
		t.Fatalf("the failing check should block once: %+v, %d runs", out, runs(t, root))
	}
	out = hooktest.Run(t, hs, root, "Stop", "Stop/active", nil)
	if out.Code != 0 || out.Stdout != "" {
		t.Errorf("stop_hook_active must never block: %+v", out)
	}
	if n := runs(t, root); n != 1 {
		t.Errorf("the check ran %d times for one blocked stop, want 1", n)
	}
}
