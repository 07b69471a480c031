package wiki

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"

	"github.com/magehook/magehook/pkg/gitx"
)

// pushes is how many pushes a capture makes at most (WIKI-CAPTURE-5).
const pushes = 3

func (l Library) hasOrigin(ctx context.Context) bool {
	return l.quiet().OK(ctx, "remote", "get-url", "origin")
}

func (l Library) branch(ctx context.Context) string {
	b, err := l.quiet().Output(ctx, "symbolic-ref", "--quiet", "--short", "HEAD")
	if err != nil {
		return ""
	}
	return b
}

// tracking is the remote-tracking branch the clone's branch follows: its
// upstream, else origin/<branch> when that exists; "" otherwise.
func (l Library) tracking(ctx context.Context) string {
	if up, err := l.quiet().Output(ctx, "rev-parse", "--abbrev-ref", "--symbolic-full-name", "@{u}"); err == nil && up != "" {
		return up
	}
	if b := l.branch(ctx); b != "" && l.quiet().OK(ctx, "rev-parse", "--verify", "--quiet", "refs/remotes/origin/"+b) {
		return "origin/" + b
	}
	return ""
}

func (l Library) fetch(ctx context.Context) bool {
	if !l.hasOrigin(ctx) {
		return false
	}
	if err := l.git().Run(ctx, "fetch", "--quiet", "origin"); err != nil {
		l.warn("cannot fetch the origin (%v); working from the local clone", err)
		return false
	}
	return true
}

// fastForward moves a local branch that has no commits of its own up to
// the fetched branch (WIKI-OPEN-2).
func (l Library) fastForward(ctx context.Context) {
	up := l.tracking(ctx)
	if up == "" {
		return
	}
	if ahead, _ := l.quiet().Output(ctx, "rev-list", "--count", up+"..HEAD"); ahead != "0" {
		return
	}
	if err := l.git().Run(ctx, "merge", "--quiet", "--ff-only", up); err != nil {
		l.warn("cannot fast-forward to %s: %v", up, err)
	}
}

// commit stages the files and commits them, when they change something
// (WIKI-CAPTURE-3: no empty commit).
func (l Library) commit(ctx context.Context, msg string, files ...string) error {
	g := l.git()
	if err := g.Run(ctx, append([]string{"add", "--"}, files...)...); err != nil {
		return err
	}
	if l.quiet().OK(ctx, "diff", "--cached", "--quiet") {
		return nil
	}
	return l.withIdentity(ctx, "commit", "--quiet", "-m", msg)
}

// withIdentity runs a committing git command, supplying an author when
// git has none configured (a fresh CI machine).
func (l Library) withIdentity(ctx context.Context, args ...string) error {
	if !l.quiet().OK(ctx, "var", "GIT_AUTHOR_IDENT") {
		args = append([]string{"-c", "user.name=magehook", "-c", "user.email=magehook@localhost"}, args...)
	}
	return l.git().Run(ctx, args...)
}

// push pushes the branch, three pushes at most (WIKI-CAPTURE-5). After a
// rejected push that is not the last, it fetches, calls onReject with the
// fetched branch (the rename of WIKI-OPEN-3, which comes before the
// rebase), rebases and retries. A rebase that stops is aborted at once.
// It never forces. Every failure warns: the commit stays for the next push
// (WIKI-CAPTURE-4). A detached HEAD pushes nothing (WIKI-CAPTURE-6).
func (l Library) push(ctx context.Context, onReject func(up string) error) {
	if !l.hasOrigin(ctx) {
		l.warn("the library has no origin; the commit stays local")
		return
	}
	branch := l.branch(ctx)
	if branch == "" {
		l.warn("detached HEAD, not pushing; the commit stays local")
		return
	}
	for try := 1; ; try++ {
		err := l.quiet().Run(ctx, "push", "--quiet", "origin", "HEAD:refs/heads/"+branch)
		if err == nil {
			if up, _ := l.quiet().Output(ctx, "rev-parse", "--abbrev-ref", "--symbolic-full-name", "@{u}"); up == "" {
				l.quiet().Run(ctx, "branch", "--quiet", "--set-upstream-to=origin/"+branch)
			}
			return
		}
		var gerr *gitx.Error
		if !errors.As(err, &gerr) || !isRejection(gerr.Stderr) {
			l.warn("push failed (%v); the commit stays local for the next push", err)
			return
		}
		if try == pushes {
			break
		}
		l.say("push rejected; rebasing and retrying (%d of %d)", try, pushes)
		if !l.fetch(ctx) {
			break
		}
		up := "origin/" + branch
		if onReject != nil {
			if err := onReject(up); err != nil {
				l.warn("%v", err)
				break
			}
		}
		if err := l.withIdentity(ctx, "rebase", "--quiet", up); err != nil {
			l.warn("the rebase stopped (%v); aborted, nothing is left half-done", err)
			if l.rebasing(ctx) {
				l.git().Run(ctx, "rebase", "--abort")
			}
			break
		}
	}
	l.warn("push failed, the commit stays local for the next push")
}

// rebasing reports whether the clone sits in a stopped rebase.
func (l Library) rebasing(ctx context.Context) bool {
	gitDir, err := l.quiet().Output(ctx, "rev-parse", "--absolute-git-dir")
	if err != nil {
		return false
	}
	for _, d := range []string{"rebase-merge", "rebase-apply"} {
		if info, err := os.Stat(filepath.Join(gitDir, d)); err == nil && info.IsDir() {
			return true
		}
	}
	return false
}

func isRejection(stderr string) bool {
	return strings.Contains(stderr, "[rejected]") || strings.Contains(stderr, "non-fast-forward") ||
		strings.Contains(stderr, "fetch first") || strings.Contains(stderr, "[remote rejected]")
}
