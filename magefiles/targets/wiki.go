package targets

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/magefile/mage/mg"

	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/toolingrc"
	"github.com/magehook/magehook/pkg/wiki"
)

// Wiki keeps the learning library: a git repository of session pages.
type Wiki mg.Namespace

func library() wiki.Library {
	cfg, err := toolingrc.Discover(startDir())
	if err != nil {
		fail(hook.ExitConfig, err)
	}
	lib, err := wiki.FromConfig(cfg)
	if err != nil {
		fail(hook.ExitConfig, err)
	}
	lib.Log = os.Stderr
	return lib
}

// wikiFail exits with the code of a wiki error: 3 for configuration, 2
// for an argument of the wrong shape, 1 otherwise (CLI-PROGRAM-5).
func wikiFail(err error) {
	var cerr *toolingrc.Error
	switch {
	case errors.As(err, &cerr):
		fail(hook.ExitConfig, err)
	case wiki.IsUsage(err):
		fail(hook.ExitBlock, err)
	}
	fail(hook.ExitFail, err)
}

func printResult(s string, err error) {
	if err != nil {
		wikiFail(err)
	}
	if s != "" {
		fmt.Println(s)
	}
}

// Init clones the library from wiki.origin when it is absent and prints
// the directory it cloned into; a failed clone warns and exits 0. Without
// wiki.origin it exits 3, naming the key.
func (Wiki) Init(ctx context.Context) {
	printResult(library().Init(ctx))
}

// Open prints the page of a session, creating, committing and pushing
// Session-<project>-<YYYY-MM-DD>-<n>.md when no page holds the session yet.
// A token of the wrong shape exits 2; without a library it says so and
// exits 0.
func (Wiki) Open(ctx context.Context, project, session string) {
	if err := wiki.CheckToken("project", project); err != nil {
		wikiFail(err)
	}
	if err := wiki.CheckToken("session", session); err != nil {
		wikiFail(err)
	}
	printResult(library().Open(ctx, project, session))
}

// Note appends the text of file to page after one blank line, commits
// ("note: <page>"), pushes, and prints the page.
func (Wiki) Note(ctx context.Context, page, file string) {
	if _, err := wiki.PageFile(page); err != nil {
		wikiFail(err)
	}
	printResult(library().Note(ctx, page, file))
}

// Admit appends the text of file to page as Note does, with the commit
// subject "admit: <page>" (a claim moved into a library page).
func (Wiki) Admit(ctx context.Context, page, file string) {
	if _, err := wiki.PageFile(page); err != nil {
		wikiFail(err)
	}
	printResult(library().Admit(ctx, page, file))
}

// Close appends a Closed: line to the session's page, commits, pushes
// and prints the page; a second close changes nothing.
func (Wiki) Close(ctx context.Context, session string) {
	if err := wiki.CheckToken("session", session); err != nil {
		wikiFail(err)
	}
	printResult(library().Close(ctx, session))
}

// Status prints each open session (a page with observations and no
// Closed: line) with its Claim: and Admitted: counts, then the number of
// unpushed commits.
func (Wiki) Status(ctx context.Context) {
	if err := library().Status(ctx, os.Stdout); err != nil {
		wikiFail(err)
	}
}

// Candidates prints each undelivered rule candidate of Rule-candidates.md
// with its age in days and its date; exits 0 without a clone or the page.
func (Wiki) Candidates(ctx context.Context) {
	if err := library().Candidates(ctx, os.Stdout); err != nil {
		wikiFail(err)
	}
}
