// Package subagentgate checks a worker sub-agent's result before it may
// stop.
//
// # PURPOSE
//
// A swarm of worker sub-agents is only as good as the worst result it
// accepts. This gate (seed 002, swarm-result-gate) runs deterministic
// checks when a worker of a configured type stops — the tests, the lint, a
// secret scan and a scope check of the files it changed — and blocks an
// ineligible stop with what failed, so the worker revises instead of
// handing a broken result back.
//
// # HOW IT WORKS
//
//  1. SubagentStop. Only the agent types subagentgate.types names are
//     checked ("*": every named type; an internal agent, agent_type "",
//     never); for every other type the gate says nothing (fails open by
//     design). While stop_hook_active is true (the worker was sent back
//     once for this stop) the dispatcher never blocks, so it cannot loop.
//  2. The changed files are the work tree's changes in the sub-agent's
//     repository (its cwd: a worktree for an isolated worker): git status
//     with untracked files.
//  3. The secret scan (subagentgate.secrets, yes by default) reads each
//     changed regular file (up to 1 MB) and fails on one holding a
//     secret-looking value (pkg/redact's patterns); the reason names the
//     file, never the value.
//  4. The scope check (when subagentgate.scope globs are set, pkg/glob)
//     fails on each changed file no glob matches.
//  5. Each subagentgate.check is split into words and run as an argument
//     list (never a shell) in the checkout root, in its own process group;
//     all of them share Budget (540 s, under the hook's 600 s). A failure,
//     or running out of time, quotes the last 30 lines of its output.
//  6. Anything failing blocks the stop with every failure in the reason.
//
// # EXIT CODES
//
//	0  eligible (no output), or blocked with the decision on stdout
//	2  the gate itself failed (git could not be run): the stop is blocked
package subagentgate

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/magehook/magehook/pkg/cmdline"
	"github.com/magehook/magehook/pkg/gitrepo"
	"github.com/magehook/magehook/pkg/glob"
	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/proc"
	"github.com/magehook/magehook/pkg/redact"
	"github.com/magehook/magehook/pkg/tail"
	"github.com/magehook/magehook/pkg/toolingrc"
)

// Handler is the catalogue entry.
var Handler = hook.Handler{
	Name:    "subagentgate",
	Purpose: "when a worker of subagentgate.types stops, run its checks (subagentgate.check, secrets, scope) and block an ineligible result",
	Events:  []string{"SubagentStop"},
	Policy:  hook.Gatekeeper,
	Timeout: 600,
	Run:     run,
}

// Budget is the time all of a stop's checks share.
var Budget = 540 * time.Second

// MaxScan is how much of each changed file the secret scan reads.
const MaxScan = 1 << 20

func run(c *hook.Call) (hook.Result, error) {
	types, err := c.Config.Get(toolingrc.KeySubagentgateTypes)
	if err != nil {
		return hook.Result{}, err
	}
	p := c.Payload
	if p.AgentType == "" || !Selected(types.Values, p.AgentType) {
		return hook.Result{}, nil
	}
	checks, err := c.Config.Get(toolingrc.KeySubagentgateCheck)
	if err != nil {
		return hook.Result{}, err
	}
	scope, err := c.Config.Get(toolingrc.KeySubagentgateScope)
	if err != nil {
		return hook.Result{}, err
	}
	secrets, err := c.Config.Get(toolingrc.KeySubagentgateSecrets)
	if err != nil {
		return hook.Result{}, err
	}
	var failures []string
	if secrets.String() == "yes" || len(scope.Values) > 0 {
		dir := p.CWD
		if dir == "" {
			dir = c.Config.Root()
		}
		repo, err := gitrepo.Find(dir)
		switch {
		case errors.Is(err, gitrepo.ErrNotRepo):
		case err != nil:
			return hook.Result{}, err
		default:
			changed, err := Changed(repo)
			if err != nil {
				return hook.Result{}, err
			}
			if secrets.String() == "yes" {
				if hits := scan(repo.Root, changed); len(hits) > 0 {
					failures = append(failures, "secret-looking values in "+strings.Join(hits, ", ")+" (remove them; use the environment or a secrets store)")
				}
			}
			if len(scope.Values) > 0 {
				var out []string
				for _, f := range changed {
					if !glob.Any(scope.Values, f) {
						out = append(out, f)
					}
				}
				if len(out) > 0 {
					failures = append(failures, "changes outside the worker's scope ("+strings.Join(scope.Values, ", ")+"): "+strings.Join(out, ", ")+" (revert them, or leave them to another worker)")
				}
			}
		}
	}
	ctx, cancel := context.WithTimeout(c.Context, Budget)
	defer cancel()
	for _, line := range checks.Values {
		args := cmdline.Words(line)
		if len(args) == 0 {
			continue
		}
		if ctx.Err() != nil {
			failures = append(failures, fmt.Sprintf("the check %q did not run: the checks' budget (%s) ran out", line, Budget))
			continue
		}
		out := &tail.Tail{Max: 256 << 10}
		err := proc.RunGroup(ctx, c.Config.Root(), nil, out, args[0], args[1:]...)
		if err == nil {
			continue
		}
		why := fmt.Sprintf("the check %q failed (%v)", line, firstLine(err))
		if ctx.Err() == context.DeadlineExceeded {
			why = fmt.Sprintf("the check %q did not finish within the checks' budget (%s)", line, Budget)
		}
		if last := tail.LastLines(out.String(), 30); strings.TrimSpace(last) != "" {
			why += "; its last lines:\n" + last
		}
		failures = append(failures, why)
	}
	if len(failures) == 0 {
		return hook.Result{}, nil
	}
	return hook.Deny(fmt.Sprintf("subagentgate: this %s result is not eligible yet; fix what follows, then finish again.\n- %s",
		p.AgentType, strings.Join(failures, "\n- "))), nil
}

// Selected reports whether the gate checks agentType: named in types, or
// types holds "*".
func Selected(types []string, agentType string) bool {
	for _, t := range types {
		if t == "*" || t == agentType {
			return true
		}
	}
	return false
}

// Changed returns the files the work tree changed (modified, added,
// deleted, renamed, untracked), slash-separated from the root.
func Changed(repo gitrepo.Repo) ([]string, error) {
	out, err := proc.Output(repo.Root, []string{"GIT_DIR=" + repo.GitDir, "GIT_WORK_TREE=" + repo.Root, "GIT_TERMINAL_PROMPT=0", "LC_ALL=C"},
		"git", "status", "--porcelain=v1", "-z", "--untracked-files=all", "--no-renames")
	if err != nil {
		return nil, err
	}
	var files []string
	for _, e := range strings.Split(string(out), "\x00") {
		if len(e) > 3 {
			files = append(files, e[3:])
		}
	}
	return files, nil
}

// scan returns the changed files holding a secret-looking value.
func scan(root string, files []string) []string {
	var hits []string
	for _, f := range files {
		p := filepath.Join(root, filepath.FromSlash(f))
		info, err := os.Lstat(p)
		if err != nil || !info.Mode().IsRegular() {
			continue
		}
		fh, err := os.Open(p)
		if err != nil {
			continue
		}
		data, _ := io.ReadAll(io.LimitReader(fh, MaxScan))
		fh.Close()
		if s := string(data); redact.String(s) != s {
			hits = append(hits, f)
		}
	}
	return hits
}

func firstLine(err error) string {
	s := err.Error()
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}
