// Package sessionclock tells the model the current date, time and time zone
// when a session starts.
//
// # PURPOSE
//
// A model's sense of "today" is its training cut-off. Without the real date
// it writes stale years into changelogs, copyright lines and version
// checks. This SessionStart hook states the date as a fact at the start of
// the conversation (seed 002, temporal-context).
//
// HOW IT WORKS
//
//  1. Claude Code fires SessionStart (startup, resume, clear, compact).
//  2. The handler reads the clock in the hook process's local time zone.
//  3. It answers with additionalContext: the date, the weekday, the time
//     and the zone, e.g. "Current date and time: 2026-11-30 (Monday)
//     04:32 UTC (UTC+00:00)."
//
// EXIT CODES
//
//	0  always: the context was added, or (on any failure, as an observer)
//	   the session starts without it.
package sessionclock

import (
	"fmt"

	"github.com/magehook/magehook/pkg/hook"
)

// Handler is the catalogue entry.
var Handler = hook.Handler{
	Name:    "sessionclock",
	Purpose: "add the current date, time and time zone to the session's context",
	Events:  []string{"SessionStart"},
	Policy:  hook.Observer,
	Run:     run,
}

func run(c *hook.Call) (hook.Result, error) {
	now := c.Now()
	return hook.Context(fmt.Sprintf("Current date and time: %s (%s) %s %s (UTC%s).",
		now.Format("2006-01-02"), now.Weekday(), now.Format("15:04"), now.Format("MST"), now.Format("-07:00"))), nil
}
