package live

import (
	"path"
	"strings"
	"testing"

	"github.com/magehook/magehook/pkg/harness"
)

func TestThePinnedFileNamesEveryHarnessOnce(t *testing.T) {
	cs, err := Clients()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, c := range cs {
		if seen[c.Name] {
			t.Errorf("%s is pinned twice", c.Name)
		}
		seen[c.Name] = true
	}
	for _, c := range cs {
		if _, ok := harness.Lookup(c.Name); !ok {
			t.Errorf("%s is pinned but is no harness (pkg/harness)", c.Name)
		}
	}
	for _, name := range []string{"claude", "codex", "gemini", "copilot", "opencode", "qwen", "droid", "pi", "auggie"} {
		if !seen[name] {
			t.Errorf("%s is not pinned in %s", name, ClientsFile)
		}
	}
}

func TestABadLineIsAnErrorNamingIt(t *testing.T) {
	_, err := ParseClients([]byte("# c\nclaude @anthropic-ai/claude-code\n"))
	if err == nil || !strings.Contains(err.Error(), "clients.txt:2") {
		t.Fatalf("err = %v, want one naming clients.txt:2", err)
	}
}

func TestTheCacheLayoutIsPackageAtVersion(t *testing.T) {
	t.Setenv("MAGEHOOK_CLIENTS", "/cache")
	c := Client{Name: "claude", Package: "@anthropic-ai/claude-code", Version: "2.1.328", Bin: "claude"}
	if got, want := c.Path(), "/cache/@anthropic-ai/claude-code@2.1.328/node_modules/.bin/claude"; got != want {
		t.Errorf("Path = %s, want %s", got, want)
	}
}

func TestABinWithASlashIsAPathUnderNodeModules(t *testing.T) {
	t.Setenv("MAGEHOOK_CLIENTS", "/cache")
	c := Client{Name: "droid", Package: "@factory/cli-linux-x64", Version: "0.225.2", Bin: "@factory/cli-linux-x64/bin/droid"}
	if got, want := c.Path(), "/cache/@factory/cli-linux-x64@0.225.2/node_modules/@factory/cli-linux-x64/bin/droid"; got != want {
		t.Errorf("Path = %s, want %s", got, want)
	}
}

// TestAHarnessProgramIsThePinnedCommand: the program a harness names (the
// shipper asks it for the client's version) is the command its pinned
// package installs.
func TestAHarnessProgramIsThePinnedCommand(t *testing.T) {
	cs, err := Clients()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cs {
		h, _ := harness.Lookup(c.Name)
		if got, want := h.Program, path.Base(c.Bin); got != want {
			t.Errorf("%s: Program = %q, but %s installs %q", c.Name, got, ClientsFile, want)
		}
	}
}
