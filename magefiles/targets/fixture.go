package targets

import (
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/magefile/mage/mg"

	"github.com/magehook/magehook/pkg/fixture"
	"github.com/magehook/magehook/pkg/toolingrc"
)

// Fixture captures hook payload fixtures from real sessions.
type Fixture mg.Namespace

func (w world) fixtureDir() (string, error) {
	cfg, err := toolingrc.Discover(w.start())
	if err != nil {
		return "", configErr(err)
	}
	return filepath.Join(cfg.Root(), "testdata", "payloads"), nil
}

// Capture writes testdata/payloads/<Event>/<name>.json from a Claude Code
// session transcript (.jsonl): -event=PreToolUse|PostToolUse, -tool=Bash
// (or Edit, Write, ...), -result=success|failure, -index=n for the n-th
// match, -name=<case>. The envelope is kept, strings are redacted and cut,
// and a provenance row goes into testdata/payloads/README.md.
func (Fixture) Capture(transcript string,
	event *string, // PreToolUse (default) or PostToolUse
	tool *string, // Bash, Edit, Write, ...
	result *string, // success or failure
	index *int, // the n-th match
	name *string, // the fixture's case name
) error {
	c := fixture.Capture{Transcript: transcript, Name: deref(name),
		Options: fixture.Options{Event: deref(event), Tool: deref(tool), Result: deref(result)}}
	if index != nil {
		c.Index = *index
	}
	return osWorld().capture(c)
}

func (w world) capture(c fixture.Capture) error {
	dir, err := w.fixtureDir()
	if err != nil {
		return err
	}
	c.Dir = dir
	if c.Event == "" {
		c.Event = "PreToolUse"
	}
	if c.Transcript != "" && !filepath.IsAbs(c.Transcript) {
		c.Transcript = filepath.Join(w.dir, c.Transcript)
	}
	path, err := c.Run()
	if err != nil {
		return failure(err)
	}
	fmt.Fprintln(w.stdout, path)
	return nil
}

// Record stores the payload on stdin, redacted, as a fixture: wire it as
// the Stop or SubagentStop hook for one session (those payloads never reach
// a transcript). It always exits 0, so the session is never disturbed.
func (Fixture) Record() { osWorld().record(time.Now()) }

// record never fails: what goes wrong is said on stderr.
func (w world) record(now time.Time) {
	data, err := io.ReadAll(io.LimitReader(w.stdin, 64<<20))
	var cfg *toolingrc.Config
	if err == nil {
		cfg, err = toolingrc.Discover(w.start())
	}
	if err == nil {
		var path string
		path, err = fixture.Record(data, filepath.Join(cfg.Root(), "testdata", "payloads"), now)
		if err == nil {
			fmt.Fprintln(w.stderr, "magehook: recorded", path)
		}
	}
	if err != nil {
		fmt.Fprintln(w.stderr, "magehook: fixture:record:", err)
	}
}
