package branchguard

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/magehook/magehook/pkg/gitrepo"
	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/toolingrc"
)

// One policy per repository, also for a call that reaches another one: a
// git -C, --git-dir or GIT_DIR, a cd, a path operand or an edited file in
// another checkout is judged by that repository's policy, the .toolingrc
// of its main checkout (toolingrc's PolicyTop), not by the caller's. A
// repository whose policy does not enable branchguard has no protected
// branch for the call (a scratch repository's main may move); one whose
// policy enables it protects what its guard.protect names, and its deny
// is binding (the caller's hook.warn does not weaken it; its own hook.warn
// branchguard makes it a warning). A repository whose policy cannot be
// read is judged by the caller's guard.protect and the defaults (closed).
// The caller's own repository (the same main checkout) keeps the
// caller's configuration. Where the caller does not enable branchguard
// (hook.Call.ReachOnly) only other repositories' findings count.

// name is the gate's hook.enable name (Handler.Name).
const name = "branchguard"

// target is what governs a repository the call reaches.
type target struct {
	own     bool     // the caller's own policy
	gated   bool     // its policy enables branchguard
	warn    bool     // ... warn-only
	protect []string // its guard.protect (gated), or the closed fallback
}

// targetOf classifies the repository at root.
func targetOf(c *hook.Call, root string, callerProtect []string) target {
	if root == "" {
		return target{own: true}
	}
	if _, err := os.Lstat(root); err != nil {
		// A checkout the command itself makes (git worktree add): its
		// findings come from the repository it is added to, which only
		// the caller's policy is known for here.
		return target{own: true}
	}
	if c.Config != nil && c.Config.PolicyTop != "" {
		// Below the caller's main checkout: one policy.
		if realpathWithin(root, c.Config.PolicyTop) {
			return target{own: true}
		}
	}
	cfg, err := c.ConfigAt(root)
	switch {
	case errors.Is(err, toolingrc.ErrNotFound) && c.UserScope:
		// A user-scope binary (magehook init -user): a repository with
		// no policy of its own has the user's, which is the caller's.
		return target{own: true}
	case errors.Is(err, toolingrc.ErrNotFound):
		return target{} // no policy: nothing is protected there
	case err != nil:
		return target{gated: true, protect: append([]string{"main", "master"}, callerProtect...)}
	}
	if c.Config != nil && cfg.PolicyTop != "" && cfg.PolicyTop == c.Config.PolicyTop {
		return target{own: true}
	}
	enable, err := cfg.Get(toolingrc.KeyHookEnable)
	if err != nil {
		return target{gated: true, protect: append([]string{"main", "master"}, callerProtect...)}
	}
	gated := false
	for _, n := range enable.Values {
		gated = gated || n == name
	}
	if !gated {
		return target{}
	}
	v, err := cfg.Get(toolingrc.KeyGuardProtect)
	if err != nil {
		return target{gated: true, protect: append([]string{"main", "master"}, callerProtect...)}
	}
	return target{gated: true, warn: hook.WarnOnly(cfg, name), protect: v.Values}
}

// calls holds each running call's policies (*hook.Call to *policies):
// what Input.PolicyOf found for a repository is what decide reads for
// the findings there, by their Where.
var calls sync.Map

// policies are the targets one call reached, by checkout root.
type policies struct {
	c       *hook.Call
	protect []string
	mu      sync.Mutex
	at      map[string]target
}

func policiesOf(c *hook.Call, protect []string) *policies {
	p, _ := calls.LoadOrStore(c, &policies{c: c, protect: protect, at: map[string]target{}})
	return p.(*policies)
}

// policyOf is Input.PolicyOf for a call: another repository's protected
// names, or other false for the caller's own. The repository's policy is
// its main checkout's (from its common directory: a GIT_DIR or
// --git-dir names one whose work tree may be the cwd).
func policyOf(c *hook.Call, callerProtect []string) func(gitrepo.Repo) ([]string, bool) {
	p := policiesOf(c, callerProtect)
	return func(r gitrepo.Repo) ([]string, bool) {
		top := r.Root
		if filepath.Base(r.CommonDir) == ".git" {
			top = filepath.Dir(r.CommonDir)
		}
		t := targetOf(c, top, callerProtect)
		p.mu.Lock()
		if old, ok := p.at[r.Root]; !ok || !old.own && !old.gated || t.gated && !t.own {
			p.at[r.Root] = t // a root two repositories share counts as the gated one
		}
		p.mu.Unlock()
		if t.own {
			if c.ReachOnly {
				return nil, true // the caller does not enable the gate
			}
			return nil, false
		}
		return t.protect, true
	}
}

// where is the target a finding's checkout belongs to.
func (p *policies) where(root string) target {
	p.mu.Lock()
	t, ok := p.at[root]
	p.mu.Unlock()
	if ok {
		return t
	}
	return targetOf(p.c, root, p.protect)
}

// decide turns the findings into the answer. A finding in a repository
// whose policy does not enable the gate is dropped, and in ReachOnly mode
// so is one in the caller's own; a push's (its Where is a remote) counts
// in ReachOnly mode when it names a branch, which only another
// repository's policy can have protected there. A deny another
// repository's policy makes is binding; one made only in repositories
// whose policy warns is a warning.
func decide(c *hook.Call, fs []Finding, callerProtect []string) hook.Result {
	pol := policiesOf(c, callerProtect)
	var kept []Finding
	binding, warnOnly := false, true
	for _, f := range fs {
		var t target
		if f.Push {
			t = target{own: !c.ReachOnly, gated: c.ReachOnly && f.Ref != ""}
		} else {
			t = pol.where(f.Where)
		}
		if !t.own && !t.gated || t.own && c.ReachOnly {
			continue
		}
		kept = append(kept, f)
		binding = binding || !t.own
		warnOnly = warnOnly && t.warn
	}
	if len(kept) == 0 {
		return hook.Result{}
	}
	msg := Message(c.Harness, c.WorktreeCreate(), kept)
	if warnOnly {
		return hook.Result{
			Context:       fmt.Sprintf("Policy warning (%s, warn-only in the repository concerned: not enforced yet): %s", name, msg),
			SystemMessage: fmt.Sprintf("magehook %s is in warn-only mode in the repository concerned and would have denied this: %s", name, msg),
		}
	}
	r := hook.Deny(msg)
	r.Binding = binding
	return r
}
