package targets

import (
	"context"
	"errors"
	"fmt"

	"github.com/magefile/mage/mg"

	"github.com/magehook/magehook/pkg/toolingrc"
	"github.com/magehook/magehook/pkg/wiki"
)

// Wiki keeps the learning library: a git repository of session pages.
type Wiki mg.Namespace

func (w world) library() (wiki.Library, error) {
	cfg, err := toolingrc.Discover(w.start())
	if err != nil {
		return wiki.Library{}, configErr(err)
	}
	lib, err := wiki.FromConfig(cfg)
	if err != nil {
		return wiki.Library{}, configErr(err)
	}
	lib.Log = w.stderr
	return lib, nil
}

// wikiErr gives a wiki error its exit code: 3 for configuration, 2 for
// an argument of the wrong shape, 1 otherwise (CLI-PROGRAM-5).
func wikiErr(err error) error {
	var cerr *toolingrc.Error
	switch {
	case err == nil:
		return nil
	case errors.As(err, &cerr):
		return configErr(err)
	case wiki.IsUsage(err):
		return usage(err)
	}
	return failure(err)
}

// wiki runs one verb on the library, after check (the arguments' shapes,
// before any configuration is read), and prints the line it returns.
func (w world) wiki(check func() error, verb func(wiki.Library) (string, error)) error {
	if check != nil {
		if err := check(); err != nil {
			return wikiErr(err)
		}
	}
	lib, err := w.library()
	if err != nil {
		return err
	}
	s, err := verb(lib)
	if err != nil {
		return wikiErr(err)
	}
	if s != "" {
		fmt.Fprintln(w.stdout, s)
	}
	return nil
}

// Init clones the library from wiki.origin when it is absent and prints
// the directory it cloned into; a failed clone warns and exits 0. Without
// wiki.origin it exits 3, naming the key.
func (Wiki) Init(ctx context.Context) error { return osWorld().wikiInit(ctx) }

func (w world) wikiInit(ctx context.Context) error {
	return w.wiki(nil, func(l wiki.Library) (string, error) { return l.Init(ctx) })
}

// Open prints the page of a session, creating, committing and pushing
// Session-<project>-<YYYY-MM-DD>-<n>.md when no page holds the session yet.
// A token of the wrong shape exits 2; without a library it says so and
// exits 0.
func (Wiki) Open(ctx context.Context, project, session string) error {
	return osWorld().wikiOpen(ctx, project, session)
}

func (w world) wikiOpen(ctx context.Context, project, session string) error {
	check := func() error {
		if err := wiki.CheckToken("project", project); err != nil {
			return err
		}
		return wiki.CheckToken("session", session)
	}
	return w.wiki(check, func(l wiki.Library) (string, error) { return l.Open(ctx, project, session) })
}

// Note appends the text of file to page after one blank line, commits
// ("note: <page>"), pushes, and prints the page.
func (Wiki) Note(ctx context.Context, page, file string) error {
	return osWorld().wikiNote(ctx, page, file, false)
}

// Admit appends the text of file to page as Note does, with the commit
// subject "admit: <page>" (a claim moved into a library page).
func (Wiki) Admit(ctx context.Context, page, file string) error {
	return osWorld().wikiNote(ctx, page, file, true)
}

func (w world) wikiNote(ctx context.Context, page, file string, admit bool) error {
	check := func() error { _, err := wiki.PageFile(page); return err }
	return w.wiki(check, func(l wiki.Library) (string, error) {
		if admit {
			return l.Admit(ctx, page, w.abs(file))
		}
		return l.Note(ctx, page, w.abs(file))
	})
}

// Close appends a Closed: line to the session's page, commits, pushes
// and prints the page; a second close changes nothing.
func (Wiki) Close(ctx context.Context, session string) error {
	return osWorld().wikiClose(ctx, session)
}

func (w world) wikiClose(ctx context.Context, session string) error {
	check := func() error { return wiki.CheckToken("session", session) }
	return w.wiki(check, func(l wiki.Library) (string, error) { return l.Close(ctx, session) })
}

// Status prints each open session (a page with observations and no
// Closed: line) with its Claim: and Admitted: counts, then the number of
// unpushed commits.
func (Wiki) Status(ctx context.Context) error { return osWorld().wikiStatus(ctx) }

func (w world) wikiStatus(ctx context.Context) error {
	return w.wiki(nil, func(l wiki.Library) (string, error) { return "", l.Status(ctx, w.stdout) })
}

// Candidates prints each undelivered rule candidate of Rule-candidates.md
// with its age in days and its date; exits 0 without a clone or the page.
func (Wiki) Candidates(ctx context.Context) error { return osWorld().wikiCandidates(ctx) }

func (w world) wikiCandidates(ctx context.Context) error {
	return w.wiki(nil, func(l wiki.Library) (string, error) { return "", l.Candidates(ctx, w.stdout) })
}
