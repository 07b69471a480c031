package targets

import (
	"context"
	"fmt"

	"github.com/magehook/magehook/pkg/doctor"
)

// Doctor checks that what runs is what is declared: .toolingrc, git and go,
// the hook binary (present, executable, built from the current sources),
// and every hook entry of every settings scope. One line per check; exit 1
// on any problem. -json prints one JSON document instead. Under GitHub
// Actions problems are also printed as ::error annotations. In a checkout
// with magefiles it also measures the hook binary's start-up cost against a
// bare Go program (hook.startbudget, default 2x); -startup=false skips that.
// The report includes the library clone and whether git ignores what
// magehook writes; -fix skips the pending commit of a library clone
// stopped in a rebase when it only adds a session page with no
// observation.
func Doctor(ctx context.Context,
	json *bool, // one JSON document instead of lines
	startup *bool, // false skips the start-up measure
	fix *bool, // settle a library clone stopped in a rebase
) error {
	return osWorld().doctor(ctx, derefBool(json), startup == nil || *startup, derefBool(fix))
}

func (w world) doctor(ctx context.Context, asJSON, startup, fix bool) error {
	r := doctor.Run(ctx, doctor.Options{Start: w.start(), Handlers: handlers(), SkipStartup: !startup,
		Home: w.getenv("HOME"), Getenv: w.getenv, Fix: fix, FixLog: w.stderr, Progress: w.stderr})
	if asJSON {
		if err := doctor.WriteJSON(w.stdout, r); err != nil {
			return failure(err)
		}
	} else {
		doctor.WriteText(w.stdout, r)
	}
	if w.getenv("GITHUB_ACTIONS") == "true" {
		doctor.WriteAnnotations(w.stdout, r, r.Root)
	}
	if n := r.Problems(); n > 0 {
		return failure(fmt.Errorf("doctor: %s; each problem line above says what to fix", plural(n, "problem")))
	}
	return nil
}
