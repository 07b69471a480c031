package targets

import (
	"context"
	"os"

	"github.com/magehook/magehook/pkg/doctor"
	"github.com/magehook/magehook/pkg/hook"
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
func Doctor(ctx context.Context, json *bool, startup *bool, fix *bool) {
	r := doctor.Run(ctx, doctor.Options{Start: startDir(), Handlers: handlers(), SkipStartup: startup != nil && !*startup,
		Fix: fix != nil && *fix, FixLog: os.Stderr})
	if json != nil && *json {
		if err := doctor.WriteJSON(os.Stdout, r); err != nil {
			fail(hook.ExitFail, err)
		}
	} else {
		doctor.WriteText(os.Stdout, r)
	}
	if os.Getenv("GITHUB_ACTIONS") == "true" {
		doctor.WriteAnnotations(os.Stdout, r, r.Root)
	}
	if r.Problems() > 0 {
		os.Exit(hook.ExitFail)
	}
}
