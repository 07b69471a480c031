package hook

import (
	"fmt"

	"github.com/magehook/magehook/pkg/payload"
	"github.com/magehook/magehook/pkg/toolingrc"
)

// WarnOnly reports whether hook.warn names a gate: its denials become
// warnings (the rollout mode of a new gate).
func WarnOnly(cfg *toolingrc.Config, name string) bool {
	if cfg == nil {
		return false
	}
	v, err := cfg.Get(toolingrc.KeyHookWarn)
	if err != nil {
		return false
	}
	for _, n := range v.Values {
		if n == name {
			return true
		}
	}
	return false
}

// warnOnly turns the denial of a gate in warn-only mode into a warning: the
// model is told what the policy would have denied and why, the user sees
// it, the health log keeps a line, and the call goes on.
func (d *Dispatcher) warnOnly(cfg *toolingrc.Config, h Handler, ev Event, p *payload.Payload, r Result) Result {
	if r.Decision != DecisionDeny || r.Binding || !WarnOnly(cfg, h.Name) {
		return r
	}
	fmt.Fprintf(d.Stderr, "magehook: %s (warn-only, hook.warn) would deny: %s\n", h.Name, r.Reason)
	d.health(cfg, ev, p, h.Name, h.Policy, fmt.Errorf("warn-only: would deny: %s", r.Reason))
	return Result{
		Context:       fmt.Sprintf("Policy warning (%s, warn-only: not enforced yet): %s", h.Name, r.Reason),
		SystemMessage: fmt.Sprintf("magehook %s is in warn-only mode and would have denied this: %s", h.Name, r.Reason),
	}
}
