//go:build unix

package hook_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/hooktest"
)

// A gate blocked where no budget check runs (a plain read of a FIFO that
// never gets a writer) is answered by the watchdog: the event's block,
// with the reason, and the process's exit. The clock stands still, so the
// gates' own checks never see the deadline pass; only the watchdog's
// timer can end the call.
func TestTheWatchdogAnswersABlockedGate(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "never")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip(err)
	}
	hang := handler("hanggate", hook.Gatekeeper, []string{"PreToolUse", "PermissionRequest"}, "",
		func(*hook.Call) (hook.Result, error) {
			_, err := os.ReadFile(fifo)
			return hook.Result{}, err
		})
	root := hooktest.Checkout(t, enable("hanggate")...)
	still := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, c := range []struct{ event, fixture, stdout, stderr string }{
		{"PreToolUse", "PreToolUse/bash", "", "magehook: PreToolUse blocked: the gates did not decide within the decision's budget"},
		{"PermissionRequest", "PermissionRequest/bash", `"behavior":"deny","message":"magehook: PermissionRequest blocked: the gates did not decide`, ""},
	} {
		var stdout, stderr, alarmOut, alarmErr bytes.Buffer
		exited := make(chan int, 1)
		d := &hook.Dispatcher{Handlers: []hook.Handler{hang}, Stdout: &stdout, Stderr: &stderr,
			Stdin: bytes.NewReader(hooktest.Fixture(t, c.fixture, map[string]any{"cwd": root})),
			Getenv: func(k string) string {
				if k == hook.DeadlineEnv {
					return "1ms"
				}
				return ""
			},
			Now:   func() time.Time { return still },
			Alarm: &hook.Alarm{Stdout: &alarmOut, Stderr: &alarmErr, Exit: func(code int) { exited <- code }},
		}
		go d.Dispatch(t.Context(), c.event) // left blocked on the FIFO, as the process would be
		code := <-exited
		wantCode := 2
		if c.stdout != "" {
			wantCode = 0
		}
		if code != wantCode || !strings.Contains(alarmOut.String(), c.stdout) || !strings.Contains(alarmErr.String(), c.stderr) {
			t.Errorf("%s: exit %d, stdout %q, stderr %q", c.event, code, alarmOut.String(), alarmErr.String())
		}
		if stdout.Len() > 0 {
			t.Errorf("%s: the blocked dispatch wrote %q", c.event, stdout.String())
		}
	}
}
