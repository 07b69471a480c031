package fleet_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/magehook/magehook/pkg/fleet"
)

// The fixtures in testdata/collector are what a real collector's file
// exporter wrote in otel/e2e's run (MAGEHOOK_FLEET_CAPTURE): five machines,
// b with a hook removed by hand, c with a local hook, d with a stale
// binary, e with a hook nothing declares.
const fixtures = "testdata/collector"

func drifted(r fleet.Report) []string {
	var out []string
	for _, c := range r.Checkouts {
		if c.Drifted {
			out = append(out, c.Machine)
		}
	}
	sort.Strings(out)
	return out
}

func TestReadNamesTheDriftedMachines(t *testing.T) {
	r, err := fleet.Read(fixtures)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(drifted(r), " "); got != "machine-b machine-d machine-e" {
		t.Errorf("drifted %q", got)
	}
	if len(r.Checkouts) != 5 || r.Duplicates != 0 {
		t.Errorf("%d checkouts, %d duplicates", len(r.Checkouts), r.Duplicates)
	}
	byName := map[string]*fleet.Checkout{}
	for _, c := range r.Checkouts {
		byName[c.Machine] = c
		if c.Binary == "" || c.LastSeen.IsZero() || len(c.Harnesses) == 0 {
			t.Errorf("%s: binary %q, last seen %v, harnesses %v", c.Machine, c.Binary, c.LastSeen, c.Harnesses)
		}
	}
	if c := byName["machine-d"]; c.Stale == nil || !*c.Stale {
		t.Errorf("machine-d's binary is not stale: %v", c.Stale)
	}
	if c := byName["machine-a"]; c.Stale == nil || *c.Stale {
		t.Errorf("machine-a's binary: stale %v, want false", c.Stale)
	}
	if got := byName["machine-c"].Harnesses; strings.Join(got, ",") != "claude 2.1.328" {
		t.Errorf("machine-c's harnesses %v", got)
	}
	var local []string
	for _, s := range byName["machine-c"].Scopes {
		local = append(local, s.Local...)
	}
	if strings.Join(local, ",") != "PreToolUse[Bash] laptop-guard.sh" {
		t.Errorf("machine-c's local hooks %v", local)
	}
}

// A record exported twice (a retry after a lost acknowledgement) counts
// once: the same export request twice in the file.
func TestARecordSeenTwiceCountsOnce(t *testing.T) {
	dir := t.TempDir()
	files, _ := filepath.Glob(filepath.Join(fixtures, "*"))
	for _, f := range files {
		data, _ := os.ReadFile(f)
		os.WriteFile(filepath.Join(dir, filepath.Base(f)), append(data, data...), 0o644)
	}
	once, err := fleet.Read(fixtures)
	if err != nil {
		t.Fatal(err)
	}
	twice, err := fleet.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	if twice.Records != once.Records || twice.Duplicates != once.Records {
		t.Errorf("read twice: %d records, %d duplicates; once: %d", twice.Records, twice.Duplicates, once.Records)
	}
	for i, c := range twice.Checkouts {
		if c.Failures != once.Checkouts[i].Failures || c.Drifted != once.Checkouts[i].Drifted {
			t.Errorf("%s differs when read twice", c.Machine)
		}
	}
}

func TestAFileThatIsNotOTLPJSONIsAnError(t *testing.T) {
	path := filepath.Join(t.TempDir(), "logs.json")
	os.WriteFile(path, []byte("{\"resourceLogs\":[]}\nnot json\n"), 0o644)
	_, err := fleet.Read(path)
	if err == nil || !strings.Contains(err.Error(), path+":2: not an OTLP JSON export request") {
		t.Errorf("err %v", err)
	}
}

func TestWriteJSONAndText(t *testing.T) {
	r, err := fleet.Read(fixtures)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := fleet.WriteJSON(&buf, r); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Schema    string `json:"schema"`
		Drifted   int    `json:"drifted"`
		Checkouts []struct {
			Machine string `json:"machine"`
			Scopes  []struct {
				Missing []string `json:"missing"`
			} `json:"scopes"`
		} `json:"checkouts"`
	}
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Schema != fleet.Schema || doc.Drifted != 3 || len(doc.Checkouts) != 5 {
		t.Errorf("json %s", buf.String())
	}
	buf.Reset()
	fleet.WriteText(&buf, r)
	for _, want := range []string{": DRIFTED\n", "project: -PreToolUse magehook", "user: +Stop notify.sh", "binary: stale", "3 of 5 checkouts drifted"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, buf.String())
		}
	}
}
