package branchguard

import (
	"fmt"
	"slices"

	"github.com/magehook/magehook/pkg/harness"
	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/toolingrc"
)

// SessionHandler tells the model the rule before it meets it: when a
// session starts in a checkout on a branch branchguard protects, its
// context says so and names the way to work, a worktree on a branch of its
// own (Claude Code's EnterWorktree tool or claude --worktree, or
// worktree:create), so that the first edit lands in a worktree instead of
// in a deny. It runs wherever branchguard is enabled (implied, it checks
// that itself); a branch it cannot read, a detached HEAD or a branch
// branchguard does not protect add nothing. It never fails a session
// start: what it cannot read it leaves unsaid.
var SessionHandler = hook.Handler{
	Name:    "branchguard-session",
	Purpose: "at session start on a protected branch, tell the model that work goes in a worktree, and how (runs with branchguard)",
	Events:  []string{"SessionStart"},
	Policy:  hook.Observer,
	Implied: true,
	Run:     sessionStart,
}

func sessionStart(c *hook.Call) (hook.Result, error) {
	text, _ := SessionContext(c)
	if text == "" {
		return hook.Result{}, nil
	}
	return hook.Context(text), nil
}

// SessionContext is what a session starting in the payload's cwd is told,
// or "" when branchguard is not enabled (or only warns) or the checkout's
// branch is not one it protects.
func SessionContext(c *hook.Call) (string, error) {
	enabled, err := c.Config.Get(toolingrc.KeyHookEnable)
	if err != nil || !slices.Contains(enabled.Values, Handler.Name) {
		return "", err
	}
	if warn, err := c.Config.Get(toolingrc.KeyHookWarn); err != nil || slices.Contains(warn.Values, Handler.Name) {
		return "", err
	}
	dir := c.Payload.CWD
	if dir == "" {
		return "", nil
	}
	r, err := c.Repo(dir)
	if err != nil || r.Branch == "" {
		return "", err
	}
	v, err := c.Config.Get(toolingrc.KeyGuardProtect)
	if err != nil {
		return "", err
	}
	ch := &checker{protect: v.Values}
	if !ch.resolveProtect(r, ch.protect)[protectedKey(r.Branch)] {
		return "", nil
	}
	way := harness.SessionWayOutOf(c.Harness, c.WorktreeCreate())
	return fmt.Sprintf("This session starts in %s on branch %s, which the repository's branch policy (branchguard) protects: edits, file writes and commits in this checkout are denied. Before the first change, %s. Reading, building and testing here are fine.", r.Root, r.Branch, way), nil
}
