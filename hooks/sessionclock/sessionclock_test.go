package sessionclock_test

import (
	"testing"

	"github.com/magehook/magehook/hooks/sessionclock"
	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/hooktest"
)

func TestSessionStartGetsTheDate(t *testing.T) {
	root := hooktest.Checkout(t, "hook.enable sessionclock")
	out := hooktest.Run(t, []hook.Handler{sessionclock.Handler}, root, "SessionStart", "SessionStart/resume", nil)
	want := `{"hookSpecificOutput":{"additionalContext":"Current date and time: 2026-11-30 (Monday) 09:15 UTC (UTC+00:00).","hookEventName":"SessionStart"}}` + "\n"
	if out.Code != 0 || out.Stdout != want || out.Stderr != "" {
		t.Errorf("got %+v\nwant stdout %s", out, want)
	}
}

func TestNotEnabledNoContext(t *testing.T) {
	root := hooktest.Checkout(t)
	out := hooktest.Run(t, []hook.Handler{sessionclock.Handler}, root, "SessionStart", "SessionStart/startup", nil)
	if out.Code != 0 || out.Stdout != "" {
		t.Errorf("a handler the checkout does not enable answered: %+v", out)
	}
}
