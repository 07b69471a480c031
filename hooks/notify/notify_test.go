package notify_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/magehook/magehook/hooks/notify"
	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/hooktest"
	"github.com/magehook/magehook/pkg/proc"
)

// blocker is a gate that blocks every stop, to check that a blocked stop
// is not announced.
var blocker = hook.Handler{Name: "blocker", Purpose: "block stops", Events: []string{"Stop"}, Policy: hook.Gatekeeper,
	Run: func(*hook.Call) (hook.Result, error) { return hook.Deny("tests fail"), nil }}

var hs = []hook.Handler{notify.Handler, blocker}

// waitFile polls for a file the notifier writes; the deadline only stops a
// hung test.
func waitFile(t *testing.T, path string) string {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if data, err := os.ReadFile(path); err == nil {
			return string(data)
		}
	}
	t.Fatalf("the notifier never wrote %s", path)
	return ""
}

// killGroup ends a notifier left running by a test.
func killGroup(t *testing.T, pidFile string) int {
	t.Helper()
	pid, err := strconv.Atoi(strings.TrimSpace(waitFile(t, pidFile)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if pgid, err := syscall.Getpgid(pid); err == nil {
			syscall.Kill(-pgid, syscall.SIGKILL)
		}
	})
	return pid
}

func TestTheNotifierGetsTheSummary(t *testing.T) {
	root := hooktest.Checkout(t, "hook.enable notify",
		`notify.command sh -c 'cat > got; echo "$MAGEHOOK_EVENT|$MAGEHOOK_NOTIFICATION_TYPE|$MAGEHOOK_SESSION|$MAGEHOOK_TITLE" >> got; mv got done'`)
	out := hooktest.Run(t, hs, root, "Notification", "Notification/permission-prompt", map[string]any{"message": "Claude needs your permission to use Bash, token=supersecret99 here"})
	if out.Code != 0 || out.Stdout != "" {
		t.Fatalf("%+v", out)
	}
	got := waitFile(t, filepath.Join(root, "done"))
	want := "Permission needed\nClaude needs your permission to use Bash, token=[REDACTED] here\nNotification|permission_prompt|abc123|Permission needed\n"
	if got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
	os.Remove(filepath.Join(root, "done"))
	hooktest.Run(t, []hook.Handler{notify.Handler}, root, "Stop", "Stop/stop", nil)
	got = waitFile(t, filepath.Join(root, "done"))
	want = "Claude Code finished in " + filepath.Base(root) + "\nI've completed the refactoring. Here's a summary...\nStop||abc123|Claude Code finished in " + filepath.Base(root) + "\n"
	if got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
	if entries, _ := filepath.Glob(filepath.Join(root, ".magehook", "notify-*")); len(entries) != 0 {
		t.Errorf("the summary file was left behind: %v", entries)
	}
}

func TestTheHookNeverWaitsAndTheBoundEndsTheNotifier(t *testing.T) {
	defer func(b time.Duration) { notify.Bound = b }(notify.Bound)
	notify.Bound = time.Hour
	root := hooktest.Checkout(t, "hook.enable notify", `notify.command sh -c 'echo $$ > pid.tmp; mv pid.tmp pid; exec sleep 1000'`)
	// The notifier never ends by itself: Run returning proves the hook does not wait.
	if out := hooktest.Run(t, hs, root, "Notification", "Notification/permission-prompt", nil); out.Code != 0 {
		t.Fatalf("%+v", out)
	}
	pid := killGroup(t, filepath.Join(root, "pid"))
	if !proc.Alive(pid) {
		t.Fatal("the notifier should still run")
	}
	// With a bound (the moment injected as "now"), it is killed.
	notify.Bound = time.Nanosecond
	os.Remove(filepath.Join(root, "pid"))
	hooktest.Run(t, hs, root, "Notification", "Notification/permission-prompt", nil)
	pid = killGroup(t, filepath.Join(root, "pid"))
	for deadline := time.Now().Add(30 * time.Second); proc.Alive(pid); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the bound did not end the notifier")
		}
	}
}

func TestWhatIsNotAnnounced(t *testing.T) {
	log := func(root string) string { return filepath.Join(root, ".magehook", "notify.log") }
	root := hooktest.Checkout(t, "hook.enable notify", "hook.enable blocker", "notify.command true")
	if out := hooktest.Run(t, hs, root, "Stop", "Stop/stop", nil); !strings.Contains(out.Stdout, `"decision":"block"`) {
		t.Fatalf("%+v", out)
	}
	if _, err := os.Stat(log(root)); err == nil {
		t.Error("a blocked stop was announced")
	}
	if out := hooktest.Run(t, hs, root, "Stop", "Stop/active", nil); out.Stdout != "" {
		t.Fatalf("%+v", out)
	}
	if _, err := os.Stat(log(root)); err != nil {
		t.Error("a stop that cannot be blocked again (stop_hook_active) is a real stop, and is announced")
	}

	root = hooktest.Checkout(t, "hook.enable notify", "notify.command true", "notify.events Notification")
	hooktest.Run(t, hs, root, "Stop", "Stop/stop", nil)
	if _, err := os.Stat(log(root)); err == nil {
		t.Error("notify.events leaves Stop out")
	}

	root = hooktest.Checkout(t, "hook.enable notify")
	if out := hooktest.Run(t, hs, root, "Stop", "Stop/stop", nil); out.Stdout != "" || out.Stderr != "" {
		t.Errorf("no notify.command: %+v", out)
	}
}

func TestAMissingNotifierIsReported(t *testing.T) {
	root := hooktest.Checkout(t, "hook.enable notify", "notify.command no-such-notifier-xyz --now")
	out := hooktest.Run(t, hs, root, "Notification", "Notification/permission-prompt", nil)
	if out.Code != 0 || out.Stdout != "" || !strings.Contains(out.Stderr, "notify.command") || !strings.Contains(out.Stderr, "no-such-notifier-xyz") {
		t.Errorf("%+v", out)
	}
}
