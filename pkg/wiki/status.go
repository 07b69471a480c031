package wiki

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// CandidatesPage is the page that lists rule candidates (WIKI-STATUS-2).
const CandidatesPage = "Rule-candidates.md"

// Session is an open session page and what it holds.
type Session struct {
	Page             string
	Claims, Admitted int
}

// OpenSessions lists the session pages that are open: not closed, and
// holding some text under "## Observations" (WIKI-STATUS-1: a page a
// session opened and never wrote to is not an open session).
func (l Library) OpenSessions() []Session {
	var out []Session
	for _, p := range l.sessionPages() {
		data, err := readFile(filepath.Join(l.Dir, p))
		if err != nil || hasLinePrefix(string(data), "Closed:") {
			continue
		}
		body, ok := observations(string(data))
		if !ok || strings.TrimSpace(body) == "" {
			continue
		}
		s := Session{Page: p}
		for _, line := range strings.Split(body, "\n") {
			switch {
			case strings.HasPrefix(line, "Claim:"):
				s.Claims++
			case strings.HasPrefix(line, "Admitted:"):
				s.Admitted++
			}
		}
		out = append(out, s)
	}
	return out
}

// observations returns the text after the "## Observations" line.
func observations(text string) (string, bool) {
	for _, sep := range []string{"\n## Observations\n", "\n## Observations\r\n"} {
		if i := strings.Index(text, sep); i >= 0 {
			return text[i+len(sep):], true
		}
	}
	if strings.HasSuffix(text, "\n## Observations") {
		return "", true
	}
	return "", false
}

// Status writes each open session with its Claim: and Admitted: counts,
// then the number of commits no remote holds (WIKI-STATUS-1). Without a
// library it reports that on the log and writes nothing.
func (l Library) Status(ctx context.Context, w io.Writer) error {
	if !l.Available() {
		return nil
	}
	open := l.OpenSessions()
	if len(open) == 0 {
		fmt.Fprintln(w, "open sessions: none")
	} else {
		fmt.Fprintln(w, "open sessions:")
		for _, s := range open {
			fmt.Fprintf(w, "  %-44s %d claim(s), %d admitted\n", s.Page, s.Claims, s.Admitted)
		}
	}
	_, err := fmt.Fprintf(w, "unpushed commits: %s\n", l.Unpushed(ctx))
	return err
}

// Unpushed is the number of commits of HEAD no remote-tracking branch
// holds, or "unknown".
func (l Library) Unpushed(ctx context.Context) string {
	n, err := l.quiet().Output(ctx, "rev-list", "--count", "HEAD", "--not", "--remotes")
	if err != nil || n == "" {
		return "unknown"
	}
	return n
}

// Candidate is one rule candidate of the candidates page.
type Candidate struct {
	Date time.Time
	Text string
}

// ParseCandidates reads the candidates page: a candidate is a list item
// that starts with a date ("- 2026-08-01 ..."), joined with its indented
// continuation lines; one whose text holds "Delivered:" is done and left
// out (WIKI-STATUS-2).
func ParseCandidates(text string) []Candidate {
	var all []Candidate
	open := false // whether the last line belongs to an item
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimRight(line, "\r")
		if rest, ok := strings.CutPrefix(line, "- "); ok {
			rest = strings.TrimLeft(rest, " \t")
			if d, err := time.Parse("2006-01-02", prefix(rest, 10)); err == nil && (len(rest) == 10 || rest[10] == ' ' || rest[10] == '\t') {
				all = append(all, Candidate{Date: d, Text: strings.TrimSpace(rest[10:])})
				open = true
				continue
			}
		}
		indented := strings.HasPrefix(line, " ") || strings.HasPrefix(line, "\t")
		if open && indented && strings.TrimSpace(line) != "" {
			last := &all[len(all)-1]
			last.Text = strings.TrimSpace(last.Text + " " + strings.TrimSpace(line))
			continue
		}
		open = false
	}
	var out []Candidate
	for _, c := range all {
		if !strings.Contains(c.Text, "Delivered:") {
			out = append(out, c)
		}
	}
	return out
}

func prefix(s string, n int) string {
	if len(s) < n {
		return s
	}
	return s[:n]
}

// Candidates writes each undelivered candidate of the candidates page
// with its age in days and its date (WIKI-STATUS-2). Without a clone or
// without the page it says so on the log and succeeds (WIKI-STATUS-3).
func (l Library) Candidates(ctx context.Context, w io.Writer) error {
	if !l.Available() {
		return nil
	}
	data, err := readFile(filepath.Join(l.Dir, CandidatesPage))
	if errors.Is(err, os.ErrNotExist) {
		l.say("no %s in %s, nothing to report", CandidatesPage, l.Dir)
		return nil
	} else if err != nil {
		return err
	}
	today := l.now().Truncate(24 * time.Hour)
	list := ParseCandidates(string(data))
	for _, c := range list {
		age := int(today.Sub(c.Date).Hours() / 24)
		if _, err := fmt.Fprintf(w, "%4d d  %s  %s\n", age, c.Date.Format("2006-01-02"), c.Text); err != nil {
			return err
		}
	}
	if len(list) == 0 {
		_, err = fmt.Fprintln(w, "no undelivered candidates")
	}
	return err
}
