package live_test

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/bitfield/script"
)

// hookRun is one hook command Claude Code ran, read from its debug log.
type hookRun struct {
	// Event is the log's label: the event and, for a matched event, ":"
	// and the matcher value (PreToolUse:Bash, SessionStart:startup).
	Event, Command string
	Status         int
	// Outcome is what Claude Code made of the stdout: "json" (parsed and
	// validated), "plain" (no JSON), or the error it logged.
	Outcome string
}

var (
	runLine = regexp.MustCompile(`\] (?:Hooks: )?(\S+) \[(.*)\] (?:finished|completed) with status (-?\d+)`)
	// The outcomes Claude Code 2.1.328 logs after a hook's run line.
	outcomeJSON  = "Successfully parsed and validated hook JSON output"
	outcomePlain = "Hook output does not start with {"
	outcomeBad   = regexp.MustCompile(`Hook output starts with \{ but is not a JSON object|Hook JSON output validation failed|\[ERROR\] .*[Hh]ook`)
)

// hookRuns reads the runs of commands containing want (magehook's binary)
// from a debug log.
func hookRuns(debug, want string) []hookRun {
	lines, _ := script.Echo(debug).Slice()
	var out []hookRun
	for i, line := range lines {
		m := runLine.FindStringSubmatch(line)
		if m == nil || !strings.Contains(m[2], want) {
			continue
		}
		r := hookRun{Event: m[1], Command: m[2], Outcome: "none"}
		fmt.Sscan(m[3], &r.Status)
		for _, next := range lines[i+1:] {
			if runLine.MatchString(next) {
				break
			}
			if strings.Contains(next, outcomeJSON) {
				r.Outcome = "json"
				break
			}
			if strings.Contains(next, outcomePlain) {
				r.Outcome = "plain"
				break
			}
			if loc := outcomeBad.FindStringIndex(next); loc != nil {
				r.Outcome = strings.TrimSpace(next[loc[0]:])
				break
			}
		}
		out = append(out, r)
	}
	return out
}

// hookErrors returns every problem Claude Code logged with magehook's
// answers: a run whose answer was not valid JSON for the event, or a
// non-zero exit. Errors of other hooks (the recorder) are not magehook's.
// The runs of the cutOff events are not checked: a -p session that exits
// while their hooks run aborts them (status 1, no output).
func hookErrors(debug string, cutOff ...string) []string {
	var errs []string
	for _, r := range hookRuns(debug, "bin/magehook") {
		if slices.Contains(cutOff, strings.SplitN(r.Event, ":", 2)[0]) {
			continue
		}
		if r.Status != 0 {
			errs = append(errs, fmt.Sprintf("%s: exit %d", r.Event, r.Status))
		}
		if r.Outcome != "json" && r.Outcome != "plain" && r.Outcome != "none" {
			errs = append(errs, fmt.Sprintf("%s: %s", r.Event, r.Outcome))
		}
	}
	return errs
}
