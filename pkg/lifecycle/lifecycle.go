// Package lifecycle is what the four session and worktree events do in
// every checkout, whatever hook.enable says (seed 000):
//
//   - SessionStart clones the learning library when it is missing and opens
//     the session's page; the page file name reaches Claude's context. When
//     worktrees magehook made and that hold no work at risk have piled up
//     (PileUp of them), it shows the user a reminder to run worktree:prune.
//   - SessionEnd closes the session's page.
//   - WorktreeCreate creates and bootstraps the worktree Claude Code asked
//     for and prints its path.
//   - WorktreeRemove removes nothing (HOOK-WORKTREE-2): it names the
//     worktree it keeps and, with the checkout of the payload's cwd, the
//     command that would remove it.
//
// The lifecycle acts on the checkout of the payload's cwd (or of
// MAGEHOOK_ROOT) alone, never on one found elsewhere (HOOK-EVENTS-5). A
// session event never stops a session: every failure is a warning on
// stderr naming the call and its exit code, and exit 0. WorktreeCreate
// fails (exit 1, no path) when it cannot create the worktree, since
// Claude Code must not start a session in a worktree that does not exist.
// A sub-agent's session payload (holding agent_id) never reaches these
// handlers: the dispatcher exits 0 first; a WorktreeCreate always does.
//
// Ids such as HOOK-EVENTS-5 are FuguBench's units; docs/units.md says what
// each requires and where magehook differs.
package lifecycle

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/magehook/magehook/pkg/confined"
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

// exitCode is the code a wiki verb's error maps to, for the warnings
// that name the call and its code.
func exitCode(err error) int {
	var cerr *toolingrc.Error
	switch {
	case errors.As(err, &cerr):
		return hook.ExitConfig
	case wiki.IsUsage(err):
		return hook.ExitBlock
	}
	return hook.ExitFail
}

// warnCall reports a failed call of a wiki verb: a session event never
// stops a session, so every failure is a warning naming the call and its
// exit code (HOOK-EVENTS-3).
func warnCall(c *hook.Call, call string, err error) {
	fmt.Fprintf(c.Stderr, "magehook: %s: warning: %s exited %d: %v\n", c.Event.Name, call, exitCode(err), err)
}

// sessionKeys warns, naming them, when the payload lacks the keys a
// session event needs, and reports whether the event has a checkout of
// its own (HOOK-EVENTS-5); the cwd may be replaced by MAGEHOOK_ROOT.
func sessionKeys(c *hook.Call) bool {
	var absent []string
	if c.Payload.CWD == "" && c.Getenv(toolingrc.RootEnv) == "" {
		absent = append(absent, "cwd")
	}
	if c.Payload.SessionID == "" {
		absent = append(absent, "session_id")
	}
	if len(absent) > 0 {
		fmt.Fprintf(c.Stderr, "magehook: %s: warning: the payload names no cwd or no session (absent: %s); nothing to do\n", c.Event.Name, strings.Join(absent, ", "))
		return false
	}
	return ownCheckout(c, true)
}

// ownCheckout reports whether the configuration is the checkout of the
// payload's cwd (or of MAGEHOOK_ROOT): the lifecycle acts on that
// checkout alone (HOOK-EVENTS-5, CLI-CHECKOUT-1). The dispatcher may have
// found a configuration elsewhere (CLAUDE_PROJECT_DIR, its working
// directory) for the enabled handlers; a session page or a worktree must
// never land in another checkout's library or base. With warn, it says
// so, naming the cwd.
func ownCheckout(c *hook.Call, warn bool) bool {
	if c.Getenv(toolingrc.RootEnv) != "" {
		return c.Config != nil
	}
	if c.Config == nil {
		return false // the dispatcher has warned
	}
	cwd, err := filepath.Abs(c.Payload.CWD)
	if c.Payload.CWD != "" && err == nil && filepath.Clean(c.Config.Start) == cwd {
		return true
	}
	if warn && !c.UserScope {
		// (A user-scope binary runs in every repository, most of which
		// have no .toolingrc: there the lifecycle has nothing to do, and
		// says nothing.)
		fmt.Fprintf(c.Stderr, "magehook: %s: warning: no %s above %s, the payload's cwd; nothing to do\n", c.Event.Name, toolingrc.FileName, c.Payload.CWD)
	}
	return false
}

func library(c *hook.Call) (wiki.Library, error) {
	lib, err := wiki.FromConfig(c.Config)
	lib.Log, lib.Now = c.Stderr, c.Now
	return lib, err
}

// PileUp is how many worktrees safe to remove make SessionStart remind
// the user to prune them.
const PileUp = 3

func sessionStart(c *hook.Call) (hook.Result, error) {
	if !sessionKeys(c) {
		return hook.Result{}, nil
	}
	r := openPage(c)
	r.SystemMessage = reminder(c)
	return r, nil
}

// reminder is the visible message of SessionStart when worktrees magehook
// made and that hold no work at risk have piled up: Claude Code leaves
// their removal to WorktreeRemove, which keeps them.
func reminder(c *hook.Call) string {
	if c.Payload.Source == "compact" {
		return "" // the session was reminded when it started
	}
	m, err := Manager(c.Config)
	if err != nil {
		return ""
	}
	if n := m.PiledUp(c.Context, PileUp); n >= PileUp {
		return fmt.Sprintf("magehook: %d or more worktrees under %s hold no work at risk; `worktree:prune` removes them (`worktree:list` names them)", n, m.Base)
	}
	return ""
}

func openPage(c *hook.Call) hook.Result {
	lib, err := library(c)
	if err != nil {
		warnCall(c, "wiki:init", err)
		return hook.Result{}
	}
	if lib.Origin == "" {
		// The learning library is optional: not configured, it is off,
		// and a session start says nothing about it (the doctor reports
		// it as a skip).
		return hook.Result{}
	}
	dir, err := lib.Init(c.Context)
	if err != nil {
		warnCall(c, "wiki:init", err)
		return hook.Result{}
	}
	if dir != "" {
		fmt.Fprintln(c.Stderr, dir) // init's output goes to stderr: stdout is the page name
	}
	cwd := c.Payload.CWD
	if cwd == "" {
		cwd = c.Config.Root()
	}
	project, err := wiki.ProjectOf(c.Config, cwd)
	if err != nil {
		warnCall(c, "wiki:open", err)
		return hook.Result{}
	}
	session, err := wiki.SessionToken(c.Payload.SessionID)
	if err != nil {
		warnCall(c, "wiki:open", err)
		return hook.Result{}
	}
	page, err := lib.Open(c.Context, project, session)
	if err != nil {
		warnCall(c, "wiki:open", err)
		return hook.Result{}
	}
	return hook.Result{Text: page}
}

func sessionEnd(c *hook.Call) (hook.Result, error) {
	if !sessionKeys(c) {
		return hook.Result{}, nil
	}
	lib, err := library(c)
	if err != nil {
		warnCall(c, "wiki:close", err)
		return hook.Result{}, nil
	}
	if lib.Origin == "" {
		return hook.Result{}, nil // SessionStart said so already
	}
	session, err := wiki.SessionToken(c.Payload.SessionID)
	if err == nil {
		_, err = lib.Close(c.Context, session)
	}
	if err != nil {
		warnCall(c, "wiki:close", err)
	}
	return hook.Result{}, nil
}

// Manager is the worktree manager of a checkout's configuration. The base
// is anchored at the root, not at the home of the key (CLI-CONFIG-2): a
// clone under Projects/ that inherits worktree.base from the workspace
// keeps its worktrees inside itself.
func Manager(cfg *toolingrc.Config) (worktree.Manager, error) {
	base, err := cfg.Get(toolingrc.KeyWorktreeBase)
	if err != nil {
		return worktree.Manager{}, err
	}
	boot, err := cfg.Get(toolingrc.KeyWorktreeBootstrap)
	if err != nil {
		return worktree.Manager{}, err
	}
	// Resolved before it is confined: a base reached through a link out
	// of the checkout would make worktrees wherever the link points.
	dir, err := confined.Dir(cfg.Root(), filepath.FromSlash(base.String()))
	if err != nil {
		return worktree.Manager{}, fmt.Errorf("%s: %w", toolingrc.KeyWorktreeBase, err)
	}
	return worktree.Manager{
		Root:         cfg.Root(),
		Base:         dir,
		Bootstrap:    boot.String(),
		BootstrapSet: boot.File != "",
	}, nil
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

// worktreeRemove keeps the worktree (HOOK-WORKTREE-2) and names it. With
// the checkout of the payload's cwd it splits the path at the checkout's
// worktree.base and prints the command that removes it; without one it
// prints the path alone, guessing no command.
func worktreeRemove(c *hook.Call) (hook.Result, error) {
	path := c.Payload.WorktreePath
	if path == "" {
		fmt.Fprintf(c.Stderr, "magehook: WorktreeRemove: warning: the payload names no worktree path (no worktree_path)\n")
		return hook.Result{}, nil
	}
	fmt.Fprintf(c.Stderr, "worktree kept: %s\n", path)
	if !ownCheckout(c, false) {
		return hook.Result{}, nil
	}
	base, err := c.Config.Get(toolingrc.KeyWorktreeBase)
	if err != nil {
		return hook.Result{}, nil
	}
	binary, err := c.Config.Get(toolingrc.KeyHookBinary)
	if err != nil {
		return hook.Result{}, nil
	}
	if root, name, ok := SplitWorktreePath(path, base.String()); ok {
		fmt.Fprintf(c.Stderr, "to remove it: %q worktree:remove %s (worktree:prune removes every worktree with no work at risk)\n", filepath.Join(root, filepath.FromSlash(binary.String())), name)
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
