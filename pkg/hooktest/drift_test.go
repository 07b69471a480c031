package hooktest_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The payload shapes this test guards against, spelled so that this file
// does not match itself.
var (
	legacyField   = "tool_" + "output"
	responseField = "tool_" + "response"
)

func moduleRoot(t *testing.T) string {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// TestHandlersNeverReadOnlyTheLegacyShape fails when handler or hook code
// reads the legacy tool_output without a tool_response alternative (seed
// 002): the harness sends tool_response, and code that reads only the old
// field silently sees nothing.
func TestHandlersNeverReadOnlyTheLegacyShape(t *testing.T) {
	root := moduleRoot(t)
	legacy := regexp.MustCompile(`\bToolOutput\b|"` + legacyField + `"`)
	current := regexp.MustCompile(`\bToolResponse\b|"` + responseField + `"|\.Succeeded\(\)`)
	for _, dir := range []string{"hooks", "pkg", "magefiles"} {
		filepath.WalkDir(filepath.Join(root, dir), func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
				return nil
			}
			data, _ := os.ReadFile(p)
			if legacy.Match(data) && !current.Match(data) {
				t.Errorf("%s reads %s without a %s alternative", p, legacyField, responseField)
			}
			return nil
		})
	}
}

// TestTestsFeedOnlyFixtures fails when a test (Go or testscript) writes a
// tool_response or tool_output by hand instead of loading a captured
// fixture through pkg/hooktest: a fictional shape must not creep back in.
// Deleting the field from a fixture (an override to nil) is allowed.
func TestTestsFeedOnlyFixtures(t *testing.T) {
	root := moduleRoot(t)
	literal := regexp.MustCompile(`["']?(` + responseField + `|` + legacyField + `)["']?\s*[:=]`)
	deletion := regexp.MustCompile(`"(` + responseField + `|` + legacyField + `)"\s*:\s*nil`)
	self, _ := filepath.Abs("drift_test.go")
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			if name := d.Name(); name == ".git" || name == "payloads" || name == "replay" || strings.HasPrefix(name, ".") && p != root {
				return filepath.SkipDir
			}
			return nil
		}
		if p == self || !(strings.HasSuffix(p, "_test.go") || strings.HasSuffix(p, ".txtar")) {
			return nil
		}
		data, _ := os.ReadFile(p)
		for i, line := range strings.Split(string(data), "\n") {
			if literal.MatchString(line) && !deletion.MatchString(line) {
				t.Errorf("%s:%d writes a payload result by hand; load a fixture through pkg/hooktest instead:\n  %s", p, i+1, strings.TrimSpace(line))
			}
		}
		return nil
	})
}
