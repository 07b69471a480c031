package targets

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/magehook/magehook/pkg/confined"
	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/settings"
	"github.com/magehook/magehook/pkg/toolingrc"
)

// Plan reports how the runtime settings file (-runtime, default
// ~/.claude/settings.json) differs from the declared settings file source:
// each hook added, updated, removed or reordered, and the local and
// undeclared hooks kept. Writes nothing; exit 0 when converged, 3 on
// drift, 1 when a file cannot be read. -prune also removes undeclared
// hooks; -json prints one versioned document.
func (Hook) Plan(source string, runtime *string, prune *bool, json *bool) {
	reconcile(source, runtime, prune, json, false)
}

// Apply converges the runtime settings file (-runtime, default
// ~/.claude/settings.json) on the declared settings file source: only its
// hooks change, after a backup. A converged file is not written. -prune
// also removes undeclared hooks; -json prints one versioned document.
func (Hook) Apply(source string, runtime *string, prune *bool, json *bool) {
	reconcile(source, runtime, prune, json, true)
}

func reconcile(source string, runtime *string, prune, asJSON *bool, apply bool) {
	r := settings.Reconciler{Source: source, Runtime: deref(runtime), Prune: prune != nil && *prune}
	if r.Runtime == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			fail(hook.ExitFail, fmt.Errorf("no home directory for the default runtime file; pass -runtime: %w", err))
		}
		r.Runtime = settings.User.Path("", home)
	}
	r.BackupDir = filepath.Join(filepath.Dir(r.Runtime), "backups", "settings")
	if cfg, err := toolingrc.Discover(startDir()); err == nil {
		// Resolved and confined, as every write below the state dir.
		if state, err := hook.StateDir(cfg); err == nil {
			if dir, err := confined.Dir(state, "backups"); err == nil {
				r.BackupDir = dir
			}
		}
	}
	var plan settings.Plan
	var err error
	if apply {
		plan, err = r.Apply()
	} else {
		plan, err = r.Plan()
	}
	if err != nil {
		// A refusal is a failure (exit 1), and says so; it names the
		// command that resumes once the file is fixed.
		verb := "plan"
		if apply {
			verb = "apply"
		}
		fmt.Fprintf(os.Stderr, "magehook: error: %v; the runtime file was left alone: fix it, then run mage hook:%s %s again\n", err, verb, source)
		os.Exit(hook.ExitFail)
	}
	settings.SortChanges(plan.Changes)
	if asJSON != nil && *asJSON {
		doc := struct {
			Schema    string            `json:"schema"`
			Source    string            `json:"source"`
			Runtime   string            `json:"runtime"`
			Converged bool              `json:"converged"`
			Applied   bool              `json:"applied"`
			Changes   []settings.Change `json:"changes"`
		}{settings.ReconcileSchema, r.Source, r.Runtime, plan.Converged(), apply && !plan.Converged(), plan.Changes}
		if doc.Changes == nil {
			doc.Changes = []settings.Change{}
		}
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", "  ")
		enc.Encode(doc)
	} else {
		for _, c := range plan.Changes {
			fmt.Println(c)
		}
		if plan.Converged() {
			fmt.Println("converged")
		}
	}
	if !apply && !plan.Converged() {
		os.Exit(hook.ExitConfig)
	}
}
