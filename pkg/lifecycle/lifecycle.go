// Package lifecycle is what the four session and worktree events do in
// every checkout, whatever hook.enable says (seed 000):
//
//   - SessionStart clones the learning library when it is missing and opens
//     the session's page; the page name reaches Claude's context.
//   - SessionEnd closes the session's page.
//   - WorktreeCreate creates and bootstraps the worktree Claude Code asked
//     for and prints its path.
//   - WorktreeRemove removes nothing: it names the worktree it keeps and the
//     command that would remove it.
//
// A session event never stops a session: every failure is a warning on
// stderr and exit 0. WorktreeCreate fails (exit 1, no path) when it cannot
// create the worktree, since Claude Code must not start a session in a
// worktree that does not exist. A sub-agent's payload (holding agent_id)
// never reaches these handlers: the dispatcher exits 0 first.
package lifecycle

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/toolingrc"
	"github.com/magehook/magehook/pkg/wiki"
	"github.com/magehook/magehook/pkg/worktree"
)

// Handlers returns the lifecycle handlers, for hook.Dispatcher.Builtin.
func Handlers() []hook.Handler {
	return []hook.Handler{
		{Name: "lifecycle-session-start", Purpose: "clone the learning library and open the session's page",
			Events: []string{"SessionStart"}, Policy: hook.Observer, Run: sessionStart},
		{Name: "lifecycle-session-end", Purpose: "close the session's page in the learning library",
			Events: []string{"SessionEnd"}, Policy: hook.Observer, Run: sessionEnd},
		{Name: "lifecycle-worktree-create", Purpose: "create and bootstrap the worktree and print its path",
			Events: []string{"WorktreeCreate"}, Policy: hook.Observer, Run: worktreeCreate},
		{Name: "lifecycle-worktree-remove", Purpose: "keep the worktree and say how to remove it",
			Events: []string{"WorktreeRemove"}, Policy: hook.Observer, Run: worktreeRemove},
	}
}

func library(c *hook.Call) (wiki.Library, bool, error) {
	if c.Config == nil {
		return wiki.Library{}, false, nil
	}
	lib, err := wiki.FromConfig(c.Config)
	if err != nil || lib.Origin == "" {
		return lib, false, err
	}
	lib.Log, lib.Now = c.Stderr, c.Now
	return lib, true, nil
}

func sessionStart(c *hook.Call) (hook.Result, error) {
	lib, ok, err := library(c)
	if !ok {
		return hook.Result{}, err
	}
	if dir, err := lib.Init(c.Context); err != nil {
		return hook.Result{}, err
	} else if dir != "" {
		fmt.Fprintln(c.Stderr, dir) // init's output goes to stderr: stdout is the page name
	}
	project, err := wiki.ProjectOf(c.Config, c.Payload.CWD)
	if err != nil {
		return hook.Result{}, err
	}
	session, err := wiki.SessionToken(c.Payload.SessionID)
	if err != nil {
		return hook.Result{}, err
	}
	page, err := lib.Open(c.Context, project, session)
	if err != nil {
		return hook.Result{}, err
	}
	return hook.Result{Text: page}, nil
}

func sessionEnd(c *hook.Call) (hook.Result, error) {
	lib, ok, err := library(c)
	if !ok {
		return hook.Result{}, err
	}
	session, err := wiki.SessionToken(c.Payload.SessionID)
	if err != nil {
		return hook.Result{}, err
	}
	return hook.Result{}, lib.Close(c.Context, session)
}

// Manager is the worktree manager of a checkout's configuration.
func Manager(cfg *toolingrc.Config) (worktree.Manager, error) {
	base, err := cfg.Get(toolingrc.KeyWorktreeBase)
	if err != nil {
		return worktree.Manager{}, err
	}
	boot, err := cfg.Get(toolingrc.KeyWorktreeBootstrap)
	if err != nil {
		return worktree.Manager{}, err
	}
	return worktree.Manager{Root: cfg.Root(), Base: base.Abs(), Bootstrap: boot.String()}, nil
}

func worktreeCreate(c *hook.Call) (hook.Result, error) {
	name := c.Payload.Name
	if name == "" {
		return hook.Result{}, errors.New("the payload names no worktree (no \"name\" field)")
	}
	m, err := Manager(c.Config)
	if err != nil {
		return hook.Result{}, err
	}
	m.Log = c.Stderr
	path, err := m.Create(c.Context, name)
	if err != nil {
		return hook.Result{}, err
	}
	return hook.Result{Path: path}, nil
}

func worktreeRemove(c *hook.Call) (hook.Result, error) {
	path := c.Payload.WorktreePath
	if path == "" {
		fmt.Fprintln(c.Stderr, "magehook: WorktreeRemove: warning: the payload names no worktree_path")
		return hook.Result{}, nil
	}
	base, binary := ".claude/worktrees", "bin/magehook"
	if c.Config != nil {
		if v, err := c.Config.Get(toolingrc.KeyWorktreeBase); err == nil {
			base = v.String()
		}
		if v, err := c.Config.Get(toolingrc.KeyHookBinary); err == nil {
			binary = v.String()
		}
	}
	fmt.Fprintf(c.Stderr, "worktree kept: %s\n", path)
	if root, name, ok := SplitWorktreePath(path, base); ok {
		fmt.Fprintf(c.Stderr, "remove it with: %q worktree:remove %s\n", filepath.Join(root, filepath.FromSlash(binary)), name)
	}
	return hook.Result{}, nil
}

// SplitWorktreePath splits a worktree path at its last base segment: the
// part in front is the root, the part after is the name.
func SplitWorktreePath(path, base string) (root, name string, ok bool) {
	p := filepath.ToSlash(filepath.Clean(path))
	seg := "/" + strings.Trim(filepath.ToSlash(filepath.Clean(base)), "/") + "/"
	i := strings.LastIndex(p, seg)
	if i < 0 {
		return "", "", false
	}
	root, name = p[:i], p[i+len(seg):]
	if root == "" || name == "" {
		return "", "", false
	}
	return filepath.FromSlash(root), name, true
}
