// Package stopguard keeps the agent working until a completion check passes.
//
// # PURPOSE
//
// An agent that says "done" while the tests fail hands the failure to the
// user. This gate runs the checkout's completion check (guard.stopcheck,
// e.g. "go test ./...") when the agent stops, and when it fails, blocks
// the stop with the check's last lines, so the agent reads them and goes
// on.
//
// # HOW IT WORKS
//
//  1. Stop and SubagentStop fire when the agent (or a sub-agent) finishes
//     its turn. While stop_hook_active is true (a stop hook already sent it
//     back once for this stop), the dispatcher never blocks, so the agent
//     cannot loop.
//  2. guard.stopcheck is split into words (quotes group words) and run as
//     an argument list, never through a shell, in the checkout root, in its
//     own process group, with a timeout of 570 s (the installed hook's is
//     600 s). Without guard.stopcheck the handler does nothing.
//  3. Its output (stdout and stderr) is captured up to 256 KB, keeping the
//     end.
//  4. Exit 0 lets the stop happen. Any other exit, or the timeout, blocks it
//     with the last 40 lines of output as the reason.
//
// # EXIT CODES
//
//	0  the check passed (no output) or failed (the block decision on stdout)
//	2  the gate itself failed: the stop is blocked
package stopguard

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/proc"
	"github.com/magehook/magehook/pkg/toolingrc"
)

// Handler is the catalogue entry.
var Handler = hook.Handler{
	Name:    "stopguard",
	Purpose: "block a stop while the completion check (guard.stopcheck) fails",
	Events:  []string{"Stop", "SubagentStop"},
	Policy:  hook.Gatekeeper,
	Timeout: 600,
	Run:     run,
}

// CheckTimeout is the check's own limit, below the hook's 600 s.
const CheckTimeout = 570 * time.Second

// MaxOutput is how much of the check's output is kept (the end).
const MaxOutput = 256 << 10

// ReasonLines is how many last lines of output the reason quotes.
const ReasonLines = 40

func run(c *hook.Call) (hook.Result, error) {
	v, err := c.Config.Get(toolingrc.KeyGuardStopcheck)
	if err != nil {
		return hook.Result{}, err
	}
	args := Words(v.String())
	if len(args) == 0 {
		return hook.Result{}, nil
	}
	ctx, cancel := context.WithTimeout(c.Context, CheckTimeout)
	defer cancel()
	out := &tail{max: MaxOutput}
	err = proc.RunGroup(ctx, c.Config.Root(), nil, out, args[0], args[1:]...)
	if err == nil {
		return hook.Result{}, nil
	}
	why := fmt.Sprintf("the completion check %q failed (%v)", v.String(), err)
	if ctx.Err() == context.DeadlineExceeded {
		why = fmt.Sprintf("the completion check %q did not finish in %s", v.String(), CheckTimeout)
	}
	why += "; fix what it reports before stopping."
	if tail := lastLines(out.String(), ReasonLines); strings.TrimSpace(tail) != "" {
		why += " Its last lines:\n" + tail
	}
	return hook.Deny(why), nil
}

// Words splits a command line into words (see proc.Words).
func Words(s string) []string { return proc.Words(s) }

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// tail keeps the last max bytes written to it.
type tail struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - t.max; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	return len(p), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}
