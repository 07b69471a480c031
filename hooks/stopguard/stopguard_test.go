package stopguard_test

import (
	"strings"
	"testing"

	"github.com/magehook/magehook/hooks/stopguard"
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
