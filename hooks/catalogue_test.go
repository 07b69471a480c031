package hooks_test

import (
	"go/build"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/magehook/magehook/hooks"
	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/hooktest"
	"github.com/magehook/magehook/pkg/lifecycle"
)

func TestEveryHandlerIsDeclaredAndDocumented(t *testing.T) {
	seen := map[string]bool{}
	for _, h := range hooks.All() {
		if err := h.Validate(); err != nil {
			t.Error(err)
			continue
		}
		if seen[h.Name] {
			t.Errorf("two handlers are named %s", h.Name)
		}
		seen[h.Name] = true
		// A package's second handler (branchguard-session) is documented
		// by its package (branchguard).
		pkg, _, _ := strings.Cut(h.Name, "-")
		doc := packageDoc(t, pkg)
		for _, section := range []string{"PURPOSE", "HOW IT WORKS", "EXIT CODES"} {
			if !regexp.MustCompile(`(?m)^(# )?` + section + `$`).MatchString(doc) {
				t.Errorf("hooks/%s: the package doc has no %s section", h.Name, section)
			}
		}
		steps := doc[strings.Index(doc, "HOW IT WORKS"):]
		if !regexp.MustCompile(`(?m)^\s*1\. `).MatchString(steps) {
			t.Errorf("hooks/%s: HOW IT WORKS has no numbered steps", h.Name)
		}
		if !regexp.MustCompile(`(?m)^\s*0 `).MatchString(doc[strings.Index(doc, "EXIT CODES"):]) {
			t.Errorf("hooks/%s: EXIT CODES does not list exit 0", h.Name)
		}
	}
}

// TestEveryHookPackageIsDocumented covers the packages outside the
// catalogue too (the commitmsg git hook).
func TestEveryHookPackageIsDocumented(t *testing.T) {
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		doc := packageDoc(t, e.Name())
		for _, section := range []string{"PURPOSE", "HOW IT WORKS", "EXIT CODES"} {
			if !regexp.MustCompile(`(?m)^(# )?` + section + `$`).MatchString(doc) {
				t.Errorf("hooks/%s: the package doc has no %s section", e.Name(), section)
			}
		}
	}
}

func packageDoc(t *testing.T, name string) string {
	t.Helper()
	dir := filepath.Join(".", name)
	bp, err := build.ImportDir(dir, 0) // the files this platform builds
	if err != nil {
		t.Fatalf("hooks/%s: %v", name, err)
	}
	for _, file := range bp.GoFiles {
		f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(dir, file), nil, parser.PackageClauseOnly|parser.ParseComments)
		if err != nil {
			t.Fatalf("hooks/%s: %v", name, err)
		}
		if f.Doc != nil {
			return "\n" + f.Doc.Text()
		}
	}
	t.Fatalf("hooks/%s: no package doc (the handler's directory must be named after it)", name)
	return ""
}

// TestTheWholeCatalogueRunsOnAMinimalConfiguration enables every handler
// with no other key (what the bench measures) and feeds it every payload
// fixture: no handler may fail, and no event may be blocked for it.
func TestTheWholeCatalogueRunsOnAMinimalConfiguration(t *testing.T) {
	var lines []string
	for _, h := range hooks.All() {
		lines = append(lines, "hook.enable "+h.Name)
	}
	root := hooktest.Checkout(t, lines...)
	fixtures, _ := filepath.Glob(filepath.Join(hooktest.Dir, "*", "*.json"))
	if len(fixtures) < 40 {
		t.Fatalf("only %d fixtures", len(fixtures))
	}
	for _, f := range fixtures {
		event := filepath.Base(filepath.Dir(f))
		name := event + "/" + strings.TrimSuffix(filepath.Base(f), ".json")
		out := hooktest.Run(t, hooks.All(), root, event, name, nil)
		if strings.Contains(out.Stderr, " failed") || out.Code == 2 || out.Code == 3 {
			t.Errorf("%s: %+v", name, out)
		}
	}
	// The handlers ran: lastpayload kept the events it saw.
	if kept, _ := filepath.Glob(filepath.Join(root, ".magehook", "last", "*", "*.json")); len(kept) < 20 {
		t.Errorf("lastpayload kept %d payloads", len(kept))
	}
}

// TestNoCatalogueMatcherIsCompiled: every catalogue matcher is one Match
// answers without building a regular expression (a list of names, an
// alternation of names with ".*"), so no call compiles one for the
// catalogue; and Compiles tells them from one that is compiled.
func TestNoCatalogueMatcherIsCompiled(t *testing.T) {
	for _, h := range append(hooks.All(), lifecycle.Handlers()...) {
		if hook.Compiles(h.Matcher) {
			t.Errorf("%s: matcher %q is compiled on every call that reaches it; write it as names (Edit|Write) or names with .* (mcp__.*)", h.Name, h.Matcher)
		}
	}
	for m, want := range map[string]bool{"": false, "*": false, "Bash": false, "Edit|Write": false, "mcp__.*": false, "Read|mcp__.*": false, "Edit.*|Write": false,
		"^Bash$": true, "mcp__.*__write": true, "(Edit|Write)": true, "Notebook[A-Z].*": true} {
		if got := hook.Compiles(m); got != want {
			t.Errorf("Compiles(%q) = %v, want %v", m, got, want)
		}
	}
}
