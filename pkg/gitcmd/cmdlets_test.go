package gitcmd

import (
	"strings"
	"testing"
)

// psExampleOf is exampleOf for a PowerShell command.
func psExampleOf(t *testing.T, command, dir string) (reads, writes, runs string) {
	t.Helper()
	a, err := Analyze(command, Options{Dir: dir, Home: "/home/u", PowerShell: true})
	if err != nil {
		t.Fatalf("%s: %v", command, err)
	}
	if a.SyntaxError != nil {
		t.Fatalf("%s: %v", command, a.SyntaxError)
	}
	rs, _ := a.Reads()
	var got []string
	seen := map[string]bool{}
	for _, r := range rs {
		if f := readForm(r, dir); !seen[f] {
			seen[f] = true
			got = append(got, f)
		}
	}
	reads = strings.Join(got, " ")
	writes, runs = writesAndRuns(a, dir)
	return reads, writes, runs
}

// TestCmdletSpecs runs every cmdlet spec's examples: each PowerShell
// command, analysed in /w, reads, writes and (for a cmdlet that runs
// another command) runs exactly what the example says. Every spec has
// examples, and no name has two specs.
func TestCmdletSpecs(t *testing.T) {
	if len(cmdletTable) > 254 {
		t.Fatalf("%d cmdlet specs: Command.cmdlet holds 254", len(cmdletTable))
	}
	seen := map[string]bool{}
	for _, s := range cmdletTable {
		if len(s.examples) == 0 {
			t.Errorf("the spec of %v has no examples", s.names)
		}
		for _, n := range s.names {
			if seen[n] {
				t.Errorf("%s has two specs", n)
			}
			seen[n] = true
		}
		for _, ex := range s.examples {
			reads, writes, runs := psExampleOf(t, ex.command, "/w")
			checkExample(t, ex, reads, writes, runs, ex.runs != "")
		}
	}
}
