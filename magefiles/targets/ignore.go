package targets

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/magehook/magehook/pkg/installignore"
	"github.com/magehook/magehook/pkg/toolingrc"
)

// ensureIgnored is hook:install's .gitignore step: the checkout ignores
// the hook binary, the state directory, the library clone and the
// worktree base. With dryRun it prints the diff it would apply. It never
// fails the install: the entries are written by then.
func (w world) ensureIgnored(ctx context.Context, cfg *toolingrc.Config, dryRun bool) {
	out, err := installignore.Ensure(ctx, cfg, dryRun)
	switch {
	case errors.Is(err, installignore.ErrNotGit):
		fmt.Fprintf(w.stderr, "magehook: %v; no .gitignore written\n", err)
	case err != nil:
		// A .gitignore that cannot be updated is said, and the doctor
		// keeps reporting it.
		fmt.Fprintf(w.stderr, "magehook: warning: %v; no .gitignore written\n", err)
	case len(out.Added) == 0:
	case dryRun:
		fmt.Fprint(w.stdout, out.Diff)
	default:
		fmt.Fprintf(w.stderr, "magehook: %s now ignores %s\n", out.File, strings.Join(out.Added, ", "))
	}
}
