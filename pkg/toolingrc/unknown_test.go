package toolingrc

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// TestKeysListsEveryKeyConstant keeps Keys in step with the Key constants
// and with specOf: a key added to one and not the others fails here.
func TestKeysListsEveryKeyConstant(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "keys.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var consts []string
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, s := range g.Specs {
			vs := s.(*ast.ValueSpec)
			for i, n := range vs.Names {
				if strings.HasPrefix(n.Name, "Key") && i < len(vs.Values) {
					if lit, ok := vs.Values[i].(*ast.BasicLit); ok {
						v, _ := strconv.Unquote(lit.Value)
						consts = append(consts, v)
					}
				}
			}
		}
	}
	keys := Keys()
	for _, k := range keys {
		if _, ok := specOf(k); !ok {
			t.Errorf("Keys lists %s, which specOf does not know", k)
		}
	}
	sort.Strings(consts)
	sort.Strings(keys)
	if strings.Join(consts, " ") != strings.Join(keys, " ") {
		t.Errorf("Key constants %v\nKeys()          %v", consts, keys)
	}
}

func TestUnknownsNameTheLineAndTheKeyMeant(t *testing.T) {
	dir := t.TempDir()
	text := "# comment\nhook.enable branchguard\nhook.enabel stopguard\nguard.protcet release\nwiki.orign https://example.com/w.git\nlint.strict yes\nnodot value\nhook.nothinglikeit x\n"
	if err := os.WriteFile(filepath.Join(dir, FileName), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := Discover(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, u := range cfg.Unknowns() {
		got = append(got, strconv.Itoa(u.Line)+" "+u.Key+" -> "+u.Suggest)
	}
	want := []string{
		"3 hook.enabel -> hook.enable",
		"4 guard.protcet -> guard.protect",
		"5 wiki.orign -> wiki.origin",
		"8 hook.nothinglikeit -> ",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("unknowns:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if s := cfg.Unknowns()[0].String(); !strings.Contains(s, ":3: unknown key hook.enabel; did you mean hook.enable?") {
		t.Errorf("message %q", s)
	}
	// A gate key's typo blocks every tool call (GateTypo): the warning
	// must not call it ignored; another prefix's typo is ignored.
	for i, want := range []string{"every tool call is blocked", "every tool call is blocked", "magehook ignores it", "every tool call is blocked"} {
		u := cfg.Unknowns()[i]
		if s := u.String(); !strings.Contains(s, want) || (want != "magehook ignores it" && strings.Contains(s, "ignores")) {
			t.Errorf("%s: message %q, want it to say %q", u.Key, s, want)
		}
	}
}

func TestDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"hook.enable", "hook.enable", 0},
		{"hook.enable", "hook.enabel", 1},
		{"hook.enable", "hook.enabl", 1},
		{"guard.protect", "gaurd.protect", 1},
		{"", "abc", 3},
		{"kitten", "sitting", 3},
	} {
		if got := distance(c.a, c.b); got != c.want {
			t.Errorf("distance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}
