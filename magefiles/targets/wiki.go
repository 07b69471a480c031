package targets

import (
	"context"
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

// Init clones the library from wiki.origin when it is absent and prints
// the directory it cloned into; a failed clone warns and exits 0.
func (Wiki) Init(ctx context.Context) {
	if dir, _ := library().Init(ctx); dir != "" {
		fmt.Println(dir)
	}
}

// Open prints the page of a session, creating, committing and pushing
// Session-<project>-<YYYY-MM-DD>-<n>.md when no page holds the session yet.
func (Wiki) Open(ctx context.Context, project, session string) {
	page, err := library().Open(ctx, project, session)
	if err != nil {
		fail(hook.ExitFail, err)
	}
	fmt.Println(page)
}

// Note appends the text of file to page after one blank line, commits and
// pushes.
func (Wiki) Note(ctx context.Context, page, file string) {
	if err := library().Note(ctx, page, file); err != nil {
		fail(hook.ExitFail, err)
	}
}

// Close appends a Closed: line to the session's page, commits and pushes;
// a second close changes nothing.
func (Wiki) Close(ctx context.Context, session string) {
	if err := library().Close(ctx, session); err != nil {
		fail(hook.ExitFail, err)
	}
}

// Status prints each open session page with its number of notes, then the
// number of unpushed commits.
func (Wiki) Status(ctx context.Context) {
	if err := library().Status(ctx, os.Stdout); err != nil {
		fail(hook.ExitFail, err)
	}
}
