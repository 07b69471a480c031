package live_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
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

// caseName is scenario-<what>, e.g. every-event-bash.
func caseName(scenario string, r Record) string {
	name := scenario
	for _, k := range discriminators {
		if v, ok := r.Payload[k].(string); ok && v != "" {
			name += "-" + strings.ToLower(v)
			break
		}
	}
	if r.Payload["stop_hook_active"] == true {
		name += "-active"
	}
	return name
}

// normalise replaces the test's temporary paths so that a refresh changes
// only what the client changed.
func normalise(c *Consumer, raw []byte) []byte {
	base := filepath.Dir(c.Dir)
	s := string(raw)
	s = strings.ReplaceAll(s, base, "/tmp/live")
	s = strings.ReplaceAll(s, strings.ReplaceAll(base, "/", "-"), "-tmp-live")
	return []byte(s)
}

// capture writes the first record of every event and case of a scenario,
// and the magehook runs' outcomes, when capturing.
func capture(t *testing.T, cl live.Client, c *Consumer, scenario string, records []Record, runs []hookRun) {
	t.Helper()
	dir := captureDir(t, cl)
	if dir == "" {
		return
	}
	seen := map[string]bool{}
	var rows []string
	for _, r := range records {
		name := r.Event + "/" + caseName(scenario, r)
		if seen[name] {
			continue
		}
		seen[name] = true
		var v any
		json.Unmarshal(normalise(c, r.Raw), &v)
		b, _ := json.MarshalIndent(v, "", "  ")
		write(t, dir, name+".json", string(b)+"\n")
		rows = append(rows, fmt.Sprintf("| %s.json | %s | %s |", name, scenario, time.Now().UTC().Format("2006-01-02")))
	}
	var answers []string
	for _, r := range runs {
		answers = append(answers, fmt.Sprintf("%s status=%d %s", r.Event, r.Status, r.Outcome))
	}
	write(t, dir, "answers/"+scenario+".txt", strings.Join(uniqSorted(answers), "\n")+"\n")
	prov := filepath.Join(dir, "PROVENANCE.md")
	old, _ := os.ReadFile(prov)
	keep := []string{}
	for _, line := range strings.Split(string(old), "\n") {
		if strings.HasPrefix(line, "| ") && !strings.HasPrefix(line, "| Fixture") && !strings.HasPrefix(line, "|---") {
			if f := strings.Split(line, " | "); len(f) > 1 && f[1] != scenario {
				keep = append(keep, line)
			}
		}
	}
	rows = uniqSorted(append(keep, rows...))
	head := fmt.Sprintf("# %s %s payloads, captured\n\nWhat %s@%s sent a recorder hook on every event, in the live contract suite's\nscenarios (internal/live), run offline against the scripted model. Paths of the\ntest's temporary directory read /tmp/live. answers/<scenario>.txt lists how the\nclient took each magehook answer (json: parsed and validated; plain: no JSON).\n\nRefresh: `MAGEHOOK_LIVE_CAPTURE=1 go test ./internal/live -run 'TestClaude' -count=1`\n(or `go tool mage live:bump %s <version>` for a new version).\n\n| Fixture | Scenario | Captured |\n|---|---|---|\n",
		cl.Name, cl.Version, cl.Package, cl.Version, cl.Name)
	write(t, dir, "PROVENANCE.md", head+strings.Join(rows, "\n")+"\n")
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
