package main

import (
	"bytes"
	"io"
	"strings"
	"testing"
)

// The prompt (on a terminal; the terminal is injected) asks again when an
// answer names a handler the catalogue does not have, three times at most.
func TestAskHandlers(t *testing.T) {
	for _, c := range []struct {
		name, input string
		want        string // the names, comma-joined, or the error's text
		prompts     int
	}{
		{"an empty answer takes the defaults", "\n", "sessionclock,branchguard,auditlog", 1},
		{"no answer at all takes the defaults", "", "sessionclock,branchguard,auditlog", 1},
		{"a list is taken as written", " branchguard , cmdguard\n", "branchguard,cmdguard", 1},
		{"a typo is asked again", "brnachguard\nbranchguard\n", "branchguard", 2},
		{"three typos give up", "a\nb\nc\nbranchguard\n", `no handler "c" in the catalogue`, 3},
		{"a typo at the end of the input is an error", "brnachguard", `no handler "brnachguard" in the catalogue`, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			var stderr bytes.Buffer
			o := options{Stdin: strings.NewReader(c.input), Stderr: &stderr, terminal: func(io.Reader) bool { return true }}
			names, asked, err := askHandlers(o)
			got := strings.Join(names, ",")
			if err != nil {
				got = err.Error()
			}
			if !asked || !strings.Contains(got, c.want) {
				t.Errorf("got %q (asked %v), want %q", got, asked, c.want)
			}
			if n := strings.Count(stderr.String(), "Handlers to enable"); n != c.prompts {
				t.Errorf("%d prompts, want %d:\n%s", n, c.prompts, stderr.String())
			}
		})
	}
}

// Without a terminal nothing is asked and nothing is read.
func TestAskHandlersWithoutATerminal(t *testing.T) {
	var stderr bytes.Buffer
	in := strings.NewReader("cmdguard\n")
	names, asked, err := askHandlers(options{Stdin: in, Stderr: &stderr, terminal: func(io.Reader) bool { return false }})
	if err != nil || asked || strings.Join(names, ",") != "sessionclock,branchguard,auditlog" || stderr.Len() != 0 || in.Len() != len("cmdguard\n") {
		t.Fatalf("names %v, asked %v, err %v, stderr %q", names, asked, err, stderr.String())
	}
}

// The teammate's install names the harness init wired, since hook:install
// alone wires Claude Code.
func TestTeammateInstallNamesTheHarness(t *testing.T) {
	for name, want := range map[string]string{
		"claude": "go tool mage hook:install",
		"codex":  "go tool mage hook:install -harness=codex",
		"all":    "go tool mage hook:install -harness=all",
	} {
		if got := teammateInstall("go tool mage", name); got != want {
			t.Errorf("teammateInstall(%q) = %q, want %q", name, got, want)
		}
	}
}

func TestOlderGo(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"1.21", "1.26.0", true},
		{"1.26", "1.26.0", false},
		{"1.26.0", "1.26.0", false},
		{"1.25.9", "1.26.0", true},
		{"1.27", "1.26.0", false},
		{"1.26rc1", "1.26.0", false},
		{"2", "1.26.0", false},
	} {
		if got := olderGo(c.a, c.b); got != c.want {
			t.Errorf("olderGo(%q, %q) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}
