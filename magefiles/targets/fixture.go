package targets

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/magefile/mage/mg"

	"github.com/magehook/magehook/pkg/fixture"
	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/toolingrc"
)

// Fixture captures hook payload fixtures from real sessions.
type Fixture mg.Namespace

func fixtureDir() string {
	cfg, err := toolingrc.Discover(startDir())
	if err != nil {
		fail(hook.ExitConfig, err)
	}
	return filepath.Join(cfg.Root(), "testdata", "payloads")
}

// Capture writes testdata/payloads/<Event>/<name>.json from a Claude Code
// session transcript (.jsonl): -event=PreToolUse|PostToolUse, -tool=Bash
// (or Edit, Write, ...), -result=success|failure, -index=n for the n-th
// match, -name=<case>. The envelope is kept, strings are redacted and cut,
// and a provenance row goes into testdata/payloads/README.md.
func (Fixture) Capture(transcript string, event, tool, result *string, index *int, name *string) {
	c := fixture.Capture{Transcript: transcript, Dir: fixtureDir(), Name: deref(name),
		Options: fixture.Options{Event: deref(event), Tool: deref(tool), Result: deref(result)}}
	if c.Event == "" {
		c.Event = "PreToolUse"
	}
	if index != nil {
		c.Index = *index
	}
	path, err := c.Run()
	if err != nil {
		fail(hook.ExitFail, err)
	}
	fmt.Println(path)
}

// Record stores the payload on stdin, redacted, as a fixture: wire it as
// the Stop or SubagentStop hook for one session (those payloads never reach
// a transcript). It always exits 0, so the session is never disturbed.
func (Fixture) Record() {
	data, err := io.ReadAll(io.LimitReader(os.Stdin, 64<<20))
	var cfg *toolingrc.Config
	if err == nil {
		cfg, err = toolingrc.Discover(startDir())
	}
	if err == nil {
		var path string
		path, err = fixture.Record(data, filepath.Join(cfg.Root(), "testdata", "payloads"), time.Now())
		if err == nil {
			fmt.Fprintln(os.Stderr, "magehook: recorded", path)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "magehook: fixture:record:", err)
	}
	os.Exit(hook.ExitOK)
}
