package targets_test

import (
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/magefile/mage/mg"

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
	"early.go":    "exitEarly: an early hook:<event> answer (init, Register) ends the process before Mage's main",
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

// TestAMagefileGetsTheErrorBack calls exported targets the way a
// repository's magefile does (a Bootstrap returning Hook{}.Build): the
// error comes back with its code, through wrapping too, instead of the
// process ending under the caller.
func TestAMagefileGetsTheErrorBack(t *testing.T) {
	dir := t.TempDir()
	for d := dir; filepath.Dir(d) != d; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, ".toolingrc")); err == nil {
			t.Skipf("%s holds a .toolingrc: no directory here is without one", d)
		}
	}
	t.Chdir(dir)
	t.Setenv("MAGEHOOK_ROOT", "")
	for name, err := range map[string]error{
		"hook:build":      targets.Hook{}.Build(context.Background()),
		"hook:verify":     targets.Hook{}.Verify(),
		"worktree:list":   targets.Worktree{}.List(context.Background()),
		"worktree:remove": targets.Worktree{}.Remove(context.Background(), "x", nil),
	} {
		if _, ok := err.(interface{ ExitStatus() int }); !ok {
			t.Errorf("%s returned %v (%T), which Mage's main would exit 1 on", name, err, err)
		}
		if got := mg.ExitStatus(fmt.Errorf("bootstrap: %w", err)); got != hook.ExitConfig {
			t.Errorf("%s wrapped by a magefile: exit %d, want %d (no .toolingrc): %v", name, got, hook.ExitConfig, err)
		}
	}
}
