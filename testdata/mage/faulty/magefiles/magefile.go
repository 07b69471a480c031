//go:build mage

// A hook binary with deliberately broken handlers, built by the end-to-end
// tests to prove the failure policies through the compiled binary. It is
// also the example of a repository adding its own handlers.
package main

import (
	"errors"
	"os"

	"github.com/magehook/magehook/pkg/hook"

	//mage:import
	"github.com/magehook/magehook/magefiles/targets"
)

// regbash is registered from a package-level variable: a call that needs
// it is answered before Mage's main runs, which its reason shows (Mage's
// main sets MAGEFILE_VERBOSE before it runs a target).
var _ = targets.Register(hook.Handler{
	Name: "regbash", Purpose: "a gate that denies Bash, registered early", Policy: hook.Gatekeeper,
	Events: []string{"PreToolUse"}, Matcher: "Bash",
	Run: func(*hook.Call) (hook.Result, error) {
		return hook.Deny("no Bash (verbose=[" + os.Getenv("MAGEFILE_VERBOSE") + "])"), nil
	},
})

func init() {
	targets.Local = append(targets.Local,
		hook.Handler{
			Name: "crashgate", Purpose: "a gate whose logic panics", Policy: hook.Gatekeeper,
			Events: []string{"PreToolUse", "Stop", "PermissionRequest"},
			Run:    func(*hook.Call) (hook.Result, error) { panic("gate logic crashed") },
		},
		hook.Handler{
			Name: "crashobserver", Purpose: "an observer that panics", Policy: hook.Observer,
			Events: []string{"PreToolUse", "PostToolUse", "SessionStart"},
			Run:    func(*hook.Call) (hook.Result, error) { panic("observer crashed") },
		},
		hook.Handler{
			Name: "errgate", Purpose: "a gate that returns an error", Policy: hook.Gatekeeper,
			Events: []string{"PreToolUse"},
			Run:    func(*hook.Call) (hook.Result, error) { return hook.Result{}, errors.New("cannot read HEAD") },
		},
		hook.Handler{
			// Blocking the analysis did not foresee: a plain read of a
			// FIFO (FAULTY_HANG) that never gets a writer.
			Name: "hanggate", Purpose: "a gate that blocks on a FIFO", Policy: hook.Gatekeeper,
			Events: []string{"PreToolUse", "PermissionRequest"},
			Run: func(*hook.Call) (hook.Result, error) {
				_, err := os.ReadFile(os.Getenv("FAULTY_HANG"))
				return hook.Result{}, err
			},
		},
		hook.Handler{
			Name: "nobash", Purpose: "a gate that denies Bash", Policy: hook.Gatekeeper,
			Events: []string{"PreToolUse"}, Matcher: "Bash",
			Run: func(c *hook.Call) (hook.Result, error) {
				return hook.Deny("Bash is not allowed here; use the Read tool"), nil
			},
		},
	)
	// A handler set that cannot work, on demand: the binary must refuse
	// it (install, list and dispatch) naming the handler.
	switch os.Getenv("FAULTY_BADSET") {
	case "event":
		targets.Local = append(targets.Local, hook.Handler{Name: "typoevent", Purpose: "a misspelt event",
			Policy: hook.Gatekeeper, Events: []string{"PretoolUse"}, Run: allow})
	case "shadow":
		targets.Local = append(targets.Local, hook.Handler{Name: "branchguard", Purpose: "named like a catalogue handler",
			Policy: hook.Observer, Events: []string{"PreToolUse"}, Run: allow})
	case "norun":
		targets.Local = append(targets.Local, hook.Handler{Name: "norun", Purpose: "no Run function",
			Policy: hook.Gatekeeper, Events: []string{"PreToolUse"}})
	case "matcher":
		targets.Local = append(targets.Local, hook.Handler{Name: "badmatcher", Purpose: "a matcher that does not compile",
			Policy: hook.Gatekeeper, Events: []string{"PreToolUse"}, Matcher: "(Bash", Run: allow})
	}
}

func allow(*hook.Call) (hook.Result, error) { return hook.Result{}, nil }
