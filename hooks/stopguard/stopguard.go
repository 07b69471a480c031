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
//     cannot loop. A sub-agent is checked only when guard.stopagents names
//     its type ("*", the default: every named type); Claude Code's internal
//     agents (agent_type "", such as the compaction agent) never are.
//  2. The check runs only when files changed: a fingerprint of the
//     checkout (HEAD, and the path, size and modification time of every
//     changed or untracked file, from one git status) is compared with the
//     one taken after the last passing check and with the one taken when
//     the session (SessionStart) or the sub-agent (SubagentStart) began.
//     Equal to either: nothing to check, the stop goes through. Outside a
//     git checkout the check always runs. The fingerprints live in
//     <state.dir>/stopguard.
//  3. guard.stopcheck is split into words (quotes group words) and run as
//     an argument list, never through a shell, in the checkout root, in its
//     own process group, with a timeout of 570 s (the installed hook's is
//     600 s). Without guard.stopcheck the handler does nothing.
//  4. Its output (stdout and stderr) is captured up to 256 KB, keeping the
//     end.
//  5. Exit 0 lets the stop happen, and records the fingerprint as the
//     last passing one. Any other exit, or the timeout, blocks it with the
//     last 40 lines of output as the reason.
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
	"time"

	"github.com/magehook/magehook/pkg/cmdline"
	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/proc"
	"github.com/magehook/magehook/pkg/tail"
	"github.com/magehook/magehook/pkg/toolingrc"
)

// Handler is the catalogue entry.
var Handler = hook.Handler{
	Name:    "stopguard",
	Purpose: "block a stop while the completion check (guard.stopcheck) fails",
	Events:  []string{"Stop", "SubagentStop", "SessionStart", "SubagentStart"},
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
	p := c.Payload
	if c.Event.Name == "SubagentStop" || c.Event.Name == "SubagentStart" {
		agents, err := c.Config.Get(toolingrc.KeyGuardStopagents)
		if err != nil {
			return hook.Result{}, err
		}
		if !Checked(agents.Values, p.AgentType) {
			return hook.Result{}, nil
		}
	}
	m, err := marksOf(c.Config)
	if err != nil {
		return hook.Result{}, err
	}
	root := c.Config.Root()
	if c.Event.Name == "SessionStart" || c.Event.Name == "SubagentStart" {
		// The baseline: a stop with nothing changed since then runs no check.
		// Best effort: a start is never blocked.
		if name, err := startName(p.SessionID, p.AgentID); err == nil {
			if err := m.write(name, Fingerprint(root)); err != nil {
				fmt.Fprintf(c.Stderr, "magehook: stopguard: %v\n", err)
			}
			m.prune(c.Now())
		}
		return hook.Result{}, nil
	}
	now := Fingerprint(root)
	if now != "" {
		if now == m.read("pass") {
			return hook.Result{}, nil // nothing changed since the last passing check
		}
		if name, err := startName(p.SessionID, p.AgentID); err == nil && now == m.read(name) {
			return hook.Result{}, nil // this agent changed nothing
		}
	}
	ctx, cancel := context.WithTimeout(c.Context, CheckTimeout)
	defer cancel()
	out := &tail.Tail{Max: MaxOutput}
	err = proc.RunGroup(ctx, root, nil, out, args[0], args[1:]...)
	if err == nil {
		// The check may have written files (caches, generated code): the
		// state it passed on is the state after it.
		if err := m.write("pass", Fingerprint(root)); err != nil {
			fmt.Fprintf(c.Stderr, "magehook: stopguard: %v\n", err)
		}
		return hook.Result{}, nil
	}
	why := fmt.Sprintf("the completion check %q failed (%v)", v.String(), err)
	if ctx.Err() == context.DeadlineExceeded {
		why = fmt.Sprintf("the completion check %q did not finish in %s", v.String(), CheckTimeout)
	}
	why += "; fix what it reports before stopping."
	if tail := tail.LastLines(out.String(), ReasonLines); strings.TrimSpace(tail) != "" {
		why += " Its last lines:\n" + tail
	}
	return hook.Deny(why), nil
}

// Checked reports whether a sub-agent's stop runs the check: its type is
// named in guard.stopagents, or the list holds "*" and the type is not
// empty. An empty agent_type is Claude Code's internal agent (the
// compaction agent, ...), which is never checked.
func Checked(agents []string, agentType string) bool {
	if agentType == "" {
		return false
	}
	for _, a := range agents {
		if a == "*" || a == agentType {
			return true
		}
	}
	return false
}

// Words splits a command line into words (see cmdline.Words).
func Words(s string) []string { return cmdline.Words(s) }
