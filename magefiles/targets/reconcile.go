package targets

import (
	"encoding/json"
	"errors"
	"fmt"
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
func (Hook) Plan(source string,
	runtime *string, // the runtime file (default ~/.claude/settings.json)
	prune *bool, // also remove undeclared hooks
	json *bool, // one versioned JSON document
) error {
	return osWorld().reconcile(source, deref(runtime), derefBool(prune), derefBool(json), false)
}

// Apply converges the runtime settings file (-runtime, default
// ~/.claude/settings.json) on the declared settings file source: only its
// hooks change, after a backup. A converged file is not written. -prune
// also removes undeclared hooks; -json prints one versioned document.
func (Hook) Apply(source string,
	runtime *string, // the runtime file (default ~/.claude/settings.json)
	prune *bool, // also remove undeclared hooks
	json *bool, // one versioned JSON document
) error {
	return osWorld().reconcile(source, deref(runtime), derefBool(prune), derefBool(json), true)
}

func (w world) reconcile(source, runtime string, prune, asJSON, apply bool) error {
	r := settings.Reconciler{Source: w.abs(source), Runtime: w.abs(runtime), Prune: prune}
	if runtime == "" {
		home := w.getenv("HOME")
		if home == "" {
			return failure(errors.New("no home directory (HOME is unset) for the default runtime file ~/.claude/settings.json; pass -runtime=<file>"))
		}
		r.Runtime = settings.User.Path("", home)
	}
	r.BackupDir = filepath.Join(filepath.Dir(r.Runtime), "backups", "settings")
	if cfg, err := toolingrc.Discover(w.start()); err == nil {
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
		return failure(fmt.Errorf("%w; the runtime file was left alone: fix it, then run mage hook:%s %s again", err, verb, source))
	}
	settings.SortChanges(plan.Changes)
	if asJSON {
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
		enc := json.NewEncoder(w.stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(doc); err != nil {
			return failure(err)
		}
	} else {
		for _, c := range plan.Changes {
			fmt.Fprintln(w.stdout, c)
		}
		if plan.Converged() {
			fmt.Fprintln(w.stdout, "converged")
		}
	}
	if !apply && !plan.Converged() {
		return configErr(fmt.Errorf("%s differs from %s (the lines above); go tool mage hook:apply %s converges it", r.Runtime, source, source))
	}
	return nil
}
