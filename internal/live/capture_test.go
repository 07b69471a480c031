package live_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/magehook/magehook/internal/live"
)

// Captured fixtures: with MAGEHOOK_LIVE_CAPTURE=1 a scenario writes what
// the recorder hook received to testdata/live/<client>/<version>/, one file
// per event and case, with a PROVENANCE.md naming the scenario, the date
// and the command that refreshes them. With MAGEHOOK_LIVE_CAPTURE set to a
// directory, it writes there instead (live:bump compares the two).

// captureDir is where captures go, or "" when not capturing.
func captureDir(t *testing.T, cl live.Client) string {
	v := os.Getenv("MAGEHOOK_LIVE_CAPTURE")
	switch v {
	case "", "0":
		return ""
	case "1":
		return filepath.Join(moduleRoot(t), "testdata", "live", cl.Name, cl.Version)
	}
	return filepath.Join(v, cl.Name, cl.Version)
}

// discriminators are the fields that tell an event's cases apart.
var discriminators = []string{"tool_name", "source", "trigger", "reason", "notification_type", "load_reason", "expansion_type"}

// caseName tells an event's cases apart: bash, startup, active, ...
func caseName(r Record) string {
	name := ""
	for _, k := range discriminators {
		if v, ok := r.Payload[k].(string); ok && v != "" {
			name = strings.ToLower(v)
			break
		}
	}
	if r.Payload["stop_hook_active"] == true {
		name = strings.TrimPrefix(name+"-active", "-")
	}
	if name == "" {
		name = "event"
	}
	return name
}

// captured is what this test process has written: one file per event and
// case (the first scenario to record it wins), and the provenance rows.
var captured struct {
	sync.Mutex
	dirs map[string]map[string]string // dir to fixture to scenario
}

// normalise replaces the test's temporary paths so that a refresh changes
// only what the client changed.
func normalise(c *Consumer, raw []byte) []byte {
	base := filepath.Dir(c.Dir)
	s := string(raw)
	s = strings.ReplaceAll(s, base, "/tmp/live")
	// Claude Code names a project's transcript directory after its path,
	// every character but letters and digits made '-'.
	encoded := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return '-'
	}, base)
	s = strings.ReplaceAll(s, encoded, "-tmp-live")
	return []byte(s)
}

// capture writes the first record of every event and case, and the
// magehook runs' outcomes of the scenario, when capturing. The first
// capture of a test process empties the version's directory, so that a
// refresh leaves only what this run saw.
func capture(t *testing.T, cl live.Client, c *Consumer, scenario string, records []Record, runs []hookRun) {
	t.Helper()
	dir := captureDir(t, cl)
	if dir == "" {
		return
	}
	captured.Lock()
	defer captured.Unlock()
	if captured.dirs == nil {
		captured.dirs = map[string]map[string]string{}
	}
	seen, ok := captured.dirs[dir]
	if !ok {
		os.RemoveAll(dir)
		seen = map[string]string{}
		captured.dirs[dir] = seen
	}
	for _, r := range records {
		name := r.Event + "/" + caseName(r)
		if _, ok := seen[name]; ok {
			continue
		}
		seen[name] = scenario
		var v any
		json.Unmarshal(normalise(c, r.Raw), &v)
		b, _ := json.MarshalIndent(v, "", "  ")
		write(t, dir, name+".json", string(b)+"\n")
	}
	var answers []string
	for _, r := range runs {
		answers = append(answers, fmt.Sprintf("%s status=%d %s", r.Event, r.Status, r.Outcome))
	}
	write(t, dir, "answers/"+scenario+".txt", strings.Join(uniqSorted(answers), "\n")+"\n")
	var rows []string
	date := time.Now().UTC().Format("2006-01-02")
	for name, sc := range seen {
		rows = append(rows, fmt.Sprintf("| %s.json | %s | %s |", name, sc, date))
	}
	head := fmt.Sprintf("# %s %s payloads, captured\n\n"+
		"What %s@%s sent a recorder hook on every event, in the live contract\n"+
		"suite's scenarios (internal/live), run offline against the scripted model:\n"+
		"one file per event and case, the first scenario to record it. Paths of the\n"+
		"test's temporary directory read /tmp/live. answers/<scenario>.txt lists how\n"+
		"the client took each magehook answer (json: parsed and validated; plain: no\n"+
		"JSON).\n\n"+
		"client: %s\nversion: %s\ncaptured: %s\n\n"+
		"Refresh: `MAGEHOOK_LIVE_CAPTURE=1 go test ./internal/live -run 'Test%s' -count=1`\n"+
		"(`go tool mage live:bump %s <version>` moves to a new version).\n\n"+
		"| Fixture | Scenario | Captured |\n|---|---|---|\n",
		cl.Name, cl.Version, cl.Package, cl.Version, cl.Package, cl.Version, date, strings.ToUpper(cl.Name[:1])+cl.Name[1:], cl.Name)
	write(t, dir, "PROVENANCE.md", head+strings.Join(uniqSorted(rows), "\n")+"\n")
	if os.Getenv("MAGEHOOK_LIVE_CAPTURE") == "1" && cl.Name == "claude" {
		adopt(t, dir)
	}
}

func uniqSorted(in []string) []string {
	sort.Strings(in)
	var out []string
	for i, s := range in {
		if i == 0 || s != in[i-1] {
			out = append(out, s)
		}
	}
	return out
}

// adopted are the hand-written fixtures of testdata/payloads that captured
// Claude Code payloads replace (fixture to captured case). A capture
// rewrites them in the hand-written fixtures' conventions (cwd
// /home/user/my-project, session abc123) that the other tests build on.
// Not adopted, because tests rely on their hand-written values:
// WorktreeRemove/remove (the worktree's name), PostToolUseFailure/bash and
// Stop/stop (the command and message), and the cases no offline session
// produces (SubagentStart/explore, StopFailure/rate-limit, SessionEnd/exit).
var adopted = [][2]string{
	{"SessionStart/startup", "SessionStart/startup"},
	{"SessionStart/resume", "SessionStart/resume"},
	{"Setup/init", "Setup/init"},
	{"UserPromptSubmit/prompt", "UserPromptSubmit/event"},
	{"UserPromptExpansion/slash-command", "UserPromptExpansion/slash_command"},
	{"PermissionRequest/bash", "PermissionRequest/bash"},
	{"PostToolBatch/batch", "PostToolBatch/event"},
	{"MessageDisplay/delta", "MessageDisplay/event"},
	{"Stop/active", "Stop/active"},
	{"InstructionsLoaded/session-start", "InstructionsLoaded/session_start"},
	{"CwdChanged/cd", "CwdChanged/event"},
	{"WorktreeCreate/create", "WorktreeCreate/event"},
	{"PreCompact/manual", "PreCompact/manual"},
}

// adopt rewrites the adopted fixtures from the captures in dir, when the
// capture went to the repository's testdata.
func adopt(t *testing.T, dir string) {
	t.Helper()
	payloads := filepath.Join(moduleRoot(t), "testdata", "payloads")
	for _, a := range adopted {
		raw, err := os.ReadFile(filepath.Join(dir, a[1]+".json"))
		if err != nil {
			continue // this run did not see the case
		}
		var v map[string]any
		if err := json.Unmarshal(raw, &v); err != nil {
			t.Fatal(err)
		}
		s := string(raw)
		if sid, ok := v["session_id"].(string); ok && sid != "" {
			s = strings.ReplaceAll(s, sid, "abc123")
		}
		s = strings.NewReplacer("/tmp/live/consumer", "/home/user/my-project", "/tmp/live/home", "/home/user",
			"-tmp-live-consumer", "-home-user-my-project").Replace(s)
		write(t, payloads, a[0]+".json", s)
	}
}
