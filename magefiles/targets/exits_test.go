package targets_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/magehook/magehook/magefiles/targets"
	"github.com/magehook/magehook/pkg/hook"
)

// TestOperatorTargetsReturnErrors: every target but the hook:<event> ones
// (which set the exit code themselves, message first) and the two that
// cannot fail returns an error, which Mage's main prints and turns into
// the exit code; so does any target added later.
func TestOperatorTargetsReturnErrors(t *testing.T) {
	events := map[string]bool{}
	for _, ev := range hook.Events() {
		events[strings.ToUpper(ev.Target[:1])+ev.Target[1:]] = true
	}
	cannotFail := map[string]bool{"Hook.Version": true, "Fixture.Record": true}
	errType := reflect.TypeOf((*error)(nil)).Elem()
	returnsError := func(name string, fn reflect.Type) {
		if fn.NumOut() != 1 || fn.Out(0) != errType {
			t.Errorf("target %s does not return an error (it returns %d values); return one that carries the exit code (failure, usage, configErr)", name, fn.NumOut())
		}
	}
	for _, v := range []any{targets.Hook{}, targets.Worktree{}, targets.Wiki{}, targets.Git{}, targets.Fixture{}} {
		typ := reflect.TypeOf(v)
		for i := 0; i < typ.NumMethod(); i++ {
			m := typ.Method(i)
			name := typ.Name() + "." + m.Name
			if (typ.Name() == "Hook" && events[m.Name]) || cannotFail[name] {
				continue
			}
			returnsError(name, m.Type)
		}
	}
	returnsError("Doctor", reflect.TypeOf(targets.Doctor))
}

// exits are the only calls of os.Exit in the plugin, and why: the exit
// code of every other target is read by Mage's main from the error the
// target returns.
var exits = map[string]string{
	"early.go":    "init: an early hook:<event> answer ends the process before Mage's main",
	"targets.go":  "answer: a hook:<event> target sets the exit code itself, message first",
	"worktree.go": "worktree:clone: the paths after the first are its own, and Mage would run them as targets",
}

func TestOnlyTheEventTargetsExit(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	seen := map[string]bool{}
	for _, file := range files {
		if strings.HasSuffix(file, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, file, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		ast.Inspect(f, func(node ast.Node) bool {
			call, ok := node.(*ast.CallExpr)
			if !ok {
				return true
			}
			if sel, ok := call.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Exit" {
				if pkg, ok := sel.X.(*ast.Ident); ok && pkg.Name == "os" {
					n++
					if _, ok := exits[file]; !ok || n > 1 {
						t.Errorf("%s: os.Exit in a target; return an error carrying the code instead (failure, usage, configErr)", fset.Position(call.Pos()))
					}
				}
			}
			return true
		})
		seen[file] = n > 0
	}
	for file := range exits {
		if !seen[file] {
			t.Errorf("exits lists %s, which calls os.Exit no more: remove it", file)
		}
	}
}
