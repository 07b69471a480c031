package targets_test

import (
	"errors"
	"go/ast"
	"go/build"
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
	"net/url",       // links net/netip, whose init makes unique handles on every start
	"net/netip",
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
	t.Run("no goroutine, timer or signal on a tool call", noGoroutineTimerOrSignal)
}

// TestNoInitWorkOnTheHookPath keeps package-level work that runs at every
// start of the hook binary out of magehook's own packages: a regexp
// compiled, a map built or a function of the package called in a var
// initialiser costs every tool call, used or not. Compile on first use
// (sync.OnceValue), use a switch or write the value out.
func TestNoInitWorkOnTheHookPath(t *testing.T) {
	fset := token.NewFileSet()
	// The functions (not methods) each directory declares.
	funcs := map[string]map[string]bool{}
	for _, dir := range []string{"../../pkg", "../../hooks", "."} {
		filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return nil
			}
			f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			for _, decl := range f.Decls {
				if fd, ok := decl.(*ast.FuncDecl); ok && fd.Recv == nil {
					if funcs[filepath.Dir(path)] == nil {
						funcs[filepath.Dir(path)] = map[string]bool{}
					}
					funcs[filepath.Dir(path)][fd.Name.Name] = true
				}
			}
			return nil
		})
	}
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
						// A call of the package's own function anywhere in
						// the initialiser (a field of a Handler, say) runs
						// at start-up; a function literal's body does not.
						ast.Inspect(v, func(n ast.Node) bool {
							if _, lit := n.(*ast.FuncLit); lit {
								return false
							}
							if call, ok := n.(*ast.CallExpr); ok {
								if fn, ok := call.Fun.(*ast.Ident); ok && funcs[filepath.Dir(path)][fn.Name] {
									t.Errorf("%s: a package-level var calls %s at every hook start; make it a literal or compute it on first use", fset.Position(call.Pos()), fn.Name)
								}
							}
							return true
						})
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
								if pkg, ok := sel.X.(*ast.Ident); ok && pkg.Name == "sync" {
									t.Errorf("%s: a package-level sync.%s allocates at every hook start; declare a lazy.Value", fset.Position(v.Pos()), sel.Sel.Name)
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
			bp, err := build.ImportDir(dir, 0) // the files this platform builds
			var none *build.NoGoError
			if errors.As(err, &none) {
				return nil
			}
			if err != nil {
				t.Fatal(err)
			}
			if bp.Doc == "" {
				t.Errorf("%s: package %s has no doc comment", dir, bp.Name)
			}
			return nil
		})
	}
}

// offHotPath are the files of the hook binary's own packages that may
// start goroutines, timers or signal handlers, and why none of it runs on
// a tool call: Mage's main used to start a goroutine and a SIGINT watcher
// for every call, which cost threads, futex wake-ups and about a tenth of
// the call (docs/performance.md); the early answer removed that, and this
// keeps magehook's own code from bringing it back. A deadline on the hot
// path is checked cooperatively (time.Now against a limit), never with a
// timer or a context that has one. TestDispatchStartsNoGoroutine checks
// the tool events at run time.
var offHotPath = map[string]string{
	"pkg/proc/proc_unix.go":              "child processes: stopguard's check on Stop, git in the lifecycle",
	"pkg/worktree/create.go":             "WorktreeCreate and worktree:create, which keep Mage's SIGINT handling",
	"pkg/worktree/remove.go":             "worktree:remove and worktree:prune, operator targets (WorktreeRemove removes nothing)",
	"hooks/stopguard/stopguard.go":       "Stop and SubagentStop: the completion check's time limit",
	"hooks/subagentgate/subagentgate.go": "SubagentStop: the checks' time budget",
	"hooks/commitmsg/commitmsg.go":       "git's commit-msg hook (git:commitMsg): commitlint's time limit; no tool event reaches it",
	"pkg/buildinfo/lock_unix.go":         "the build lock: hook:build, hook:install and cmd/ensure (its own process), never a tool call",
	"pkg/doctor/codextrust.go":           "the doctor asking codex app-server for hook trust",
	"pkg/budget/alarm.go":                "the watchdog of a tool-gating decision: one runtime timer, armed per decision; it starts a goroutine only when it rings, at the deadline (TestDispatchStartsNoGoroutine runs with it armed)",
	"hooks/formatter/budget.go":          "PostToolUse of an edit, only once a changed file is to be formatted: formatter.budget's time limit",
}

// noGoroutineTimerOrSignal lists every go statement and every call that
// starts a timer or a signal handler in the packages the hook binary links
// from this module, and fails on one outside offHotPath.
func noGoroutineTimerOrSignal(t *testing.T) {
	out, err := exec.Command("go", "list", "-tags", "mage", "-deps", "-f", "{{.Dir}}", "../../magefiles").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	starts := map[string]bool{
		"time.After": true, "time.AfterFunc": true, "time.NewTimer": true, "time.NewTicker": true, "time.Tick": true,
		"context.WithTimeout": true, "context.WithDeadline": true, "context.WithTimeoutCause": true, "context.WithDeadlineCause": true,
		"signal.Notify": true, "signal.NotifyContext": true,
	}
	seen := map[string]bool{}
	fset := token.NewFileSet()
	for _, dir := range strings.Fields(string(out)) {
		rel, err := filepath.Rel(root, dir)
		if err != nil || strings.HasPrefix(rel, "..") || rel == "magefiles" {
			continue // not this module's, or the magefile's own targets
		}
		files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		for _, file := range files {
			if strings.HasSuffix(file, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, file, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			name := filepath.ToSlash(filepath.Join(rel, filepath.Base(file)))
			ast.Inspect(f, func(n ast.Node) bool {
				var what string
				switch x := n.(type) {
				case *ast.GoStmt:
					what = "a go statement"
				case *ast.CallExpr:
					if sel, ok := x.Fun.(*ast.SelectorExpr); ok {
						if pkg, ok := sel.X.(*ast.Ident); ok && starts[pkg.Name+"."+sel.Sel.Name] {
							what = pkg.Name + "." + sel.Sel.Name
						}
					}
				}
				if what == "" {
					return true
				}
				seen[name] = true
				if _, ok := offHotPath[name]; !ok {
					t.Errorf("%s: %s in the hook binary; a tool call must not start goroutines, timers or signal handlers (add the file to offHotPath only if no tool event reaches it)", fset.Position(n.Pos()), what)
				}
				return true
			})
		}
	}
	for name := range offHotPath {
		if !seen[name] {
			t.Errorf("offHotPath lists %s, which starts nothing any more: remove it", name)
		}
	}
}
