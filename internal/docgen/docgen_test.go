package docgen

import (
	"strings"
	"testing"

	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/toolingrc"
)

// The committed tables are what the code declares: a handler or key added,
// removed or changed without `go tool mage docs` fails here.
func TestDocsMatchTheCode(t *testing.T) {
	stale, err := Stale("../..")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range stale {
		t.Errorf("%s differs from the code's declarations: run go tool mage docs", s)
	}
}

// Every key magehook reads has a meaning to document.
func TestEveryKeyIsDocumented(t *testing.T) {
	for _, key := range toolingrc.Keys() {
		if meaning, _, ok := toolingrc.Doc(key); !ok || meaning == "" {
			t.Errorf("toolingrc.Doc has nothing for %s", key)
		}
	}
	if _, _, ok := toolingrc.Doc("hook.enabel"); ok {
		t.Error("toolingrc.Doc documents a key magehook does not read")
	}
}

// A drifted region is seen, and Splice puts the table back.
func TestSpliceAndDrift(t *testing.T) {
	doc := "intro\n<!-- begin generated catalogue -->\n| old |\n<!-- end generated catalogue -->\nafter\n"
	h := hook.Handler{Name: "x", Purpose: "a | b", Events: []string{"PreToolUse"}, Matcher: "Bash|Edit", Policy: hook.Gatekeeper}
	out, err := Splice([]byte(doc), "catalogue", Catalogue([]hook.Handler{h}))
	if err != nil {
		t.Fatal(err)
	}
	want := "| `x` | PreToolUse (Bash, Edit) | gatekeeper | a \\| b |\n<!-- end generated catalogue -->\nafter\n"
	if !strings.HasPrefix(string(out), "intro\n<!-- begin generated catalogue -->\n") || !strings.HasSuffix(string(out), want) || strings.Contains(string(out), "| old |") {
		t.Fatalf("spliced:\n%s", out)
	}
	if _, err := Splice([]byte("no marks\n"), "catalogue", "t"); err == nil {
		t.Fatal("Splice accepted a file without marks")
	}
}
