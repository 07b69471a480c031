package targets_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/magehook/magehook/magefiles/targets"
	"github.com/magehook/magehook/pkg/hook"
)

func TestEveryEventHasATarget(t *testing.T) {
	typ := reflect.TypeOf(targets.Hook{})
	for _, ev := range hook.Events() {
		name := strings.ToUpper(ev.Target[:1]) + ev.Target[1:]
		if _, ok := typ.MethodByName(name); !ok {
			t.Errorf("event %s has no target Hook.%s (hook:%s)", ev.Name, name, ev.Target)
		}
	}
}

// forbidden are packages whose start-up cost or size has no place in the
// hook binary, which starts on every tool call: bitfield/script pulls
// net/http, gojq and mvdan.cc/sh/v3's interpreter, adding about 2 ms.
var forbidden = []string{
	"net/http",
	"github.com/bitfield/script",
	"github.com/itchyny/gojq",
	"mvdan.cc/sh/v3/interp",
	"mvdan.cc/sh/v3/shell",
	"mvdan.cc/sh/v3/expand",
	"testing",
	"github.com/rogpeppe/go-internal/testscript",
	"text/template",
	"html/template",
	"go/types",
	"crypto/sha256", // FIPS module inits on every start; hash/fnv serves
}

func TestHookBinaryStaysLight(t *testing.T) {
	out, err := exec.Command("go", "list", "-tags", "mage", "-deps", "../../magefiles").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	deps := map[string]bool{}
	for _, line := range strings.Fields(string(out)) {
		deps[line] = true
	}
	if !deps["github.com/magehook/magehook/magefiles/targets"] {
		t.Fatalf("the magefiles do not import the plugin; go list said:\n%s", out)
	}
	for _, pkg := range forbidden {
		if deps[pkg] {
			t.Errorf("the hook binary links %s; keep it out of magefiles/ and everything they import", pkg)
		}
	}
}

// TestNoInitWorkOnTheHookPath keeps package-level work that runs at every
// start of the hook binary out of magehook's own packages: a regexp
// compiled or a map built in a var initialiser costs every tool call,
// used or not. Compile on first use (sync.OnceValue) or use a switch.
func TestNoInitWorkOnTheHookPath(t *testing.T) {
	fset := token.NewFileSet()
	for _, dir := range []string{"../../pkg", "../../hooks", "."} {
		filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || strings.Contains(path, "hooktest") {
				return nil
			}
			f, err := parser.ParseFile(fset, path, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			for _, decl := range f.Decls {
				gd, ok := decl.(*ast.GenDecl)
				if !ok || gd.Tok != token.VAR {
					continue
				}
				for _, spec := range gd.Specs {
					for _, v := range spec.(*ast.ValueSpec).Values {
						switch x := v.(type) {
						case *ast.CompositeLit:
							if _, isMap := x.Type.(*ast.MapType); isMap {
								t.Errorf("%s: a package-level map literal is built at every hook start", fset.Position(v.Pos()))
							}
						case *ast.CallExpr:
							if sel, ok := x.Fun.(*ast.SelectorExpr); ok {
								if pkg, ok := sel.X.(*ast.Ident); ok && pkg.Name == "regexp" {
									t.Errorf("%s: a package-level regexp is compiled at every hook start", fset.Position(v.Pos()))
								}
							}
						}
					}
				}
			}
			return nil
		})
	}
}

// TestEveryPackageHasADoc: pkg/ is the public API for hook authors, and a
// package's doc is its manual.
func TestEveryPackageHasADoc(t *testing.T) {
	for _, root := range []string{"../../pkg", "../../hooks", "../../internal", "."} {
		filepath.WalkDir(root, func(dir string, d fs.DirEntry, err error) error {
			if err != nil || !d.IsDir() || strings.Contains(dir, "testdata") {
				return nil
			}
			pkgs, err := parser.ParseDir(token.NewFileSet(), dir, func(fi fs.FileInfo) bool {
				return !strings.HasSuffix(fi.Name(), "_test.go")
			}, parser.PackageClauseOnly|parser.ParseComments)
			if err != nil {
				t.Fatal(err)
			}
			for name, pkg := range pkgs {
				documented := false
				for _, f := range pkg.Files {
					documented = documented || f.Doc != nil
				}
				if !documented {
					t.Errorf("%s: package %s has no doc comment", dir, name)
				}
			}
			return nil
		})
	}
}
