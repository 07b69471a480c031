package targets

import (
	"fmt"

	"github.com/magehook/magehook/pkg/fleet"
	"github.com/magehook/magehook/pkg/hook"
)

// Fleet reads the drift and health records a team's collector wrote with
// its file exporter (an OTLP JSON file, or a directory of them) and
// prints, per machine and checkout: when it was last seen, the hook
// binary's hash, the harnesses and their versions, the hooks declared and
// not wired (-), wired and not declared (+), local (~), a stale binary and
// untrusted entries. Exit 3 when any machine has drifted, 1 when a file
// does not read; -json prints one versioned document (docs/fleet.md).
func Fleet(path string,
	json *bool, // one JSON document instead of text
) error {
	return osWorld().fleet(path, derefBool(json))
}

func (w world) fleet(path string, asJSON bool) error {
	r, err := fleet.Read(w.abs(path))
	if err != nil {
		return failure(fmt.Errorf("fleet: %w", err))
	}
	if asJSON {
		if err := fleet.WriteJSON(w.stdout, r); err != nil {
			return failure(err)
		}
	} else {
		fleet.WriteText(w.stdout, r)
	}
	if n := r.Drifted(); n > 0 {
		return withCode(hook.ExitConfig, fmt.Errorf("fleet: %s drifted; the lines above say which hooks", plural(n, "checkout")))
	}
	return nil
}
