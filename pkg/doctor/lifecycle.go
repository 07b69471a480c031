package doctor

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/magehook/magehook/pkg/installignore"
	"github.com/magehook/magehook/pkg/wiki"
)

// checkLibrary reports the learning library's clone (CLI-DOCTOR-1/2):
// absent, clean, holding uncommitted changes, or in a stopped rebase with
// the page its pending commit adds. With Fix, a stopped rebase whose
// pending commit only adds a session page with no observation is settled
// by skipping that commit; any other is refused. git's messages go to
// FixLog, never to the report.
func (d *doctor) checkLibrary(ctx context.Context) {
	lib, err := wiki.FromConfig(d.cfg)
	if err != nil {
		d.add(Problem, "library", "", "%v", err)
		return
	}
	if lib.Origin == "" {
		d.add(Skip, "library", "", "not configured (no %s: the learning library is optional)", "wiki.origin")
		return
	}
	lib.Log = d.FixLog
	st := lib.Inspect(ctx)
	if d.Fix {
		st = lib.Fix(ctx)
	}
	status := OK
	if st.Problem {
		status = Problem
	}
	file := ""
	if lib.Origin != "" {
		file = lib.Dir
	}
	d.add(status, "library", file, "%s", st.Detail)
}

// checkIgnored reports each path magehook writes in the checkout that git
// does not ignore: the hook binary, the state directory, the library
// clone and the worktree base (hook:install adds them to .gitignore).
func (d *doctor) checkIgnored(ctx context.Context) {
	paths, err := installignore.Check(ctx, d.cfg)
	if errors.Is(err, installignore.ErrNotGit) {
		d.add(Skip, "gitignore", "", "%v", err)
		return
	}
	if err != nil {
		d.add(Problem, "gitignore", "", "%v", err)
		return
	}
	var missing, ok []string
	for _, p := range paths {
		if p.Ignored {
			ok = append(ok, p.Rel)
		} else {
			missing = append(missing, fmt.Sprintf("%s (%s)", p.Rel, p.What))
		}
	}
	file := d.cfg.Root() + "/.gitignore"
	if len(missing) > 0 {
		d.add(Problem, "gitignore", file, "not ignored: %s; hook:install adds them to .gitignore", strings.Join(missing, ", "))
		return
	}
	d.add(OK, "gitignore", file, "ignored: %s", strings.Join(ok, ", "))
}
