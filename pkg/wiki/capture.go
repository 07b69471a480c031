package wiki

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Note appends a file's text to a page after one blank line, commits
// ("note: <page>") and pushes, and returns the page file
// (WIKI-CAPTURE-1). An empty file, an absent page and an absent file are
// errors; a page name of the wrong shape is a *UsageError. It returns ""
// and no error when there is no library.
func (l Library) Note(ctx context.Context, page, file string) (string, error) {
	return l.appendText(ctx, "note", page, file)
}

// Admit is Note with the commit subject "admit: <page>": the consolidator
// records a claim it moved into a library page, usually as an
// "Admitted:" line (WIKI-CAPTURE-1).
func (l Library) Admit(ctx context.Context, page, file string) (string, error) {
	return l.appendText(ctx, "admit", page, file)
}

func (l Library) appendText(ctx context.Context, verb, page, file string) (string, error) {
	name, err := PageFile(page)
	if err != nil {
		return "", err
	}
	if !l.Available() {
		return "", nil
	}
	path := filepath.Join(l.Dir, name)
	old, err := readFile(path)
	if err != nil {
		return "", fmt.Errorf("no such page: %s (in %s)", strings.TrimSuffix(page, ".md"), l.Dir)
	}
	data, err := readFile(file)
	if errors.Is(err, os.ErrNotExist) {
		return "", fmt.Errorf("no such file: %s", file)
	} else if err != nil {
		return "", err
	}
	if strings.TrimSpace(string(data)) == "" {
		return "", fmt.Errorf("no text in %s; a %s needs text", file, verb)
	}
	text := strings.TrimRight(string(old), "\n") + "\n\n" + strings.TrimRight(string(data), "\n") + "\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		return "", err
	}
	if err := l.commit(ctx, verb+": "+name, name); err != nil {
		return "", err
	}
	l.push(ctx, nil)
	return name, nil
}

// Close appends a Closed: line to the session's page, commits
// ("close: <page>") and pushes, and returns the page file
// (WIKI-CAPTURE-2). A second close, and a session without a page, change
// nothing and return "".
func (l Library) Close(ctx context.Context, session string) (string, error) {
	if err := CheckToken("session", session); err != nil {
		return "", err
	}
	if !l.Available() {
		return "", nil
	}
	page := l.findLocal(session)
	if page == "" {
		l.say("session %s has no page; nothing to close", session)
		return "", nil
	}
	path := filepath.Join(l.Dir, page)
	data, err := readFile(path)
	if err != nil {
		return "", err
	}
	if hasLinePrefix(string(data), "Closed: ") {
		l.say("already closed: %s", page)
		return "", nil
	}
	text := strings.TrimRight(string(data), "\n") + "\n\nClosed: " + l.now().Format(time.RFC3339) + "\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		return "", err
	}
	if err := l.commit(ctx, "close: "+page, page); err != nil {
		return "", err
	}
	l.push(ctx, nil)
	return page, nil
}
