package wiki

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/magehook/magehook/pkg/gitx"
)

// State is the library clone's condition, for the doctor (CLI-DOCTOR-1/2).
type State struct {
	// Problem reports that the clone needs the operator: a stopped
	// rebase, or uncommitted changes.
	Problem bool
	// Detail is the doctor's line: "absent", the clone's directory, or
	// what is wrong.
	Detail string
	// Skippable reports a stopped rebase whose pending commit only adds
	// a session page with no observation: the race of two opens, which
	// Fix settles by skipping that commit.
	Skippable bool
	// Pending names the pending commit's page, when it adds one.
	Pending string
}

// Inspect reports the clone's state, changing nothing. A checkout without
// wiki.origin, or without a clone, has no library, which is not a problem.
func (l Library) Inspect(ctx context.Context) State {
	if l.Origin == "" {
		return State{Detail: "absent"}
	}
	if _, err := os.Stat(filepath.Join(l.Dir, ".git")); err != nil {
		return State{Detail: fmt.Sprintf("absent: no clone at %s (wiki:init clones it)", l.Dir)}
	}
	if l.rebasing(ctx) {
		return l.inspectRebase(ctx)
	}
	status, err := l.quiet().Output(ctx, "status", "--porcelain")
	if err != nil {
		return State{Problem: true, Detail: fmt.Sprintf("%s: cannot read its status: %v", l.Dir, err)}
	}
	if lines := gitx.Lines(status); len(lines) > 0 {
		var files []string
		for _, line := range lines {
			f := strings.TrimSpace(line[min(3, len(line)):])
			if _, after, ok := strings.Cut(f, " -> "); ok {
				f = after
			}
			files = append(files, strings.Trim(f, "\""))
		}
		return State{Problem: true, Detail: "changes " + strings.Join(files, ", ")}
	}
	return State{Detail: l.Dir}
}

func (l Library) inspectRebase(ctx context.Context) State {
	s := State{Problem: true}
	out, err := l.quiet().Output(ctx, "diff-tree", "--no-commit-id", "--name-status", "-r", "--root", "REBASE_HEAD")
	if err != nil {
		s.Detail = "stopped rebase, and its pending commit cannot be read"
		return s
	}
	var files []string
	adds := ""
	for _, line := range gitx.Lines(out) {
		status, file, _ := strings.Cut(line, "\t")
		files = append(files, file)
		if status == "A" {
			adds = file
		}
	}
	if len(files) == 1 && adds != "" {
		s.Pending = adds
		s.Detail = "stopped rebase, the pending commit adds " + adds
		if strings.HasPrefix(adds, "Session-") && strings.HasSuffix(adds, ".md") {
			text, err := l.quiet().Output(ctx, "show", "REBASE_HEAD:"+adds)
			body, _ := observations(text + "\n")
			s.Skippable = err == nil && strings.TrimSpace(body) == ""
		}
		return s
	}
	s.Detail = "stopped rebase, the pending commit changes " + strings.Join(files, ", ")
	return s
}

// Fix settles a stopped rebase left by the race of two opens: when the
// pending commit only adds a session page with no observation, it skips
// that commit (the page is the losing copy; the session opens again).
// Any other stopped rebase is refused, since its commit carries work
// (CLI-DOCTOR-2). It returns the state after the fix.
func (l Library) Fix(ctx context.Context) State {
	s := l.Inspect(ctx)
	if !s.Problem || !strings.HasPrefix(s.Detail, "stopped rebase") {
		return s
	}
	if !s.Skippable {
		reason := strings.TrimPrefix(s.Detail, "stopped rebase, ")
		if s.Pending != "" && strings.HasPrefix(s.Pending, "Session-") {
			reason = s.Pending + " holds an observation"
		}
		s.Detail = "stopped rebase, fix refused: " + reason
		return s
	}
	if err := l.withIdentity(ctx, "rebase", "--skip"); err != nil && l.rebasing(ctx) {
		after := l.Inspect(ctx)
		after.Detail = fmt.Sprintf("skipped the pending commit %s, and the rebase stopped again: %s", s.Pending, after.Detail)
		return after
	}
	after := l.Inspect(ctx)
	if after.Problem {
		return after
	}
	return State{Detail: "skipped the pending commit " + s.Pending}
}
