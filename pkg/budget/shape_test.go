package budget

import (
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestCheckShellRefusesHostileShapes(t *testing.T) {
	for _, c := range []struct{ name, cmd, want string }{
		{"echo $(echo ...) 2,000 deep", strings.Repeat("echo $(", 2000) + "x" + strings.Repeat(")", 2000), "nests command substitutions more than 8 deep"},
		{"$($(...)) 4,000 deep", strings.Repeat("$(", 4000) + "x" + strings.Repeat(")", 4000), "nests command substitutions more than 8 deep"},
		{"a 20,000-way pipeline", strings.Repeat("cat | ", 19999) + "cat", "has a pipeline of more than 128 commands"},
		{"100,000 nested (", strings.Repeat("(", 100000) + "true" + strings.Repeat(")", 100000), "nests more than 64 levels deep"},
		{"nested groups", strings.Repeat("{ ", 100) + "true;" + strings.Repeat(" }", 100), "nests more than 64 levels deep"},
		{"nested ifs", strings.Repeat("if true; then ", 100) + "true" + strings.Repeat("; fi", 100), "nests more than 64 levels deep"},
		{"process substitutions", strings.Repeat("cat <(", 20) + "x" + strings.Repeat(")", 20), "nests command substitutions"},
		{"inside bash -c '...'", "bash -c '" + strings.Repeat("(", 1000) + "'", "nests more than 64"},
		{"inside eval \"...\"", "eval \"" + strings.Repeat("(", 1000) + "\"", "nests more than 64"},
		{"inside a quoted here-document", "bash <<'EOF'\n" + strings.Repeat("(", 1000) + "\nEOF\n", "nests more than 64"},
		{"after a here-document", "cat <<'E F'\n'\nE F\n" + strings.Repeat("(", 1000), "nests more than 64"},
		{"after a $'\\'' string", "echo $'\\'' " + strings.Repeat("(", 1000), "nests more than 64"},
		{"after ${#x}", "echo ${#x} " + strings.Repeat("(", 1000), "nests more than 64"},
		{"after a quoted #", "echo 'a #' " + strings.Repeat("(", 1000), "nests more than 64"},
		{"a pipeline across a newline in a subshell", "(" + strings.Repeat("a |\n", 200) + "b)", "pipeline"},
	} {
		err := CheckShell("the command", c.cmd)
		var s *Shape
		if !errors.As(err, &s) || !errors.Is(err, ErrExceeded) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.name, err, c.want)
		}
	}
}

func TestCheckShellAllowsOrdinaryCommands(t *testing.T) {
	for _, cmd := range []string{
		"go test ./... 2>&1 | tail -n 40 && git status --short",
		"for f in $(git ls-files '*.go'); do if [ -n \"$(gofmt -l $f)\" ]; then echo $f; fi; done",
		"x=$(echo $(echo $(echo $(echo $(echo $(echo $(echo $(echo ok))))))))",
		"cat <<'EOF' > notes.md\nit's ((((( unbalanced in prose\nEOF\necho done",
		"git commit -m \"fix (a) ((b) {c\" && git push origin HEAD",
		"echo '#' # a comment with an apostrophe: don't\nls",
		strings.Repeat("a | ", 127) + "b",
		strings.Repeat("(", 64) + "true" + strings.Repeat(")", 64),
		strings.Repeat("a | b; ", 5000),
		"case $x in (a) echo a;; b) echo b;; esac",
		"echo ${a:-$(date)} ${#b} ${c//x/y}",
		"awk '{ print $1 }' f | sort | uniq -c | sort -rn | head",
		"find . -name '*.go' |\n  xargs grep -l TODO |\n  head",
		strings.Repeat("a |\n", 100) + "b\n" + strings.Repeat("a |\n", 100) + "b",
	} {
		if err := CheckShell("the command", cmd); err != nil {
			t.Errorf("%q: %v", cmd, err)
		}
	}
}

// Every string literal of the shell analyses' own tests (commands, mostly,
// of every kind the gates judge) passes the pre-scan: it never denies what
// the analysis takes on today.
func TestCheckShellPassesTheAnalysesTestCorpus(t *testing.T) {
	n := 0
	for _, dir := range []string{"../gitcmd", "../../hooks/branchguard", "../../hooks/configguard", "../../hooks/cmdguard", "../pwsh"} {
		files, _ := filepath.Glob(filepath.Join(dir, "*_test.go"))
		for _, f := range files {
			fset := token.NewFileSet()
			file, err := parser.ParseFile(fset, f, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			ast.Inspect(file, func(node ast.Node) bool {
				lit, ok := node.(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					return true
				}
				s, err := strconv.Unquote(lit.Value)
				if err != nil || len(s) > 64<<10 {
					return true
				}
				n++
				if err := CheckShell("the command", s); err != nil {
					t.Errorf("%s: %q: %v", fset.Position(lit.Pos()), s, err)
				}
				return true
			})
		}
	}
	if n < 1000 {
		t.Fatalf("only %d literals read", n)
	}
	t.Logf("%d literals pass", n)
}

func TestCheckPath(t *testing.T) {
	if err := CheckPath("the path", "/a/"+strings.Repeat("d/", 1021)+"f"); err != nil {
		t.Fatal(err)
	}
	err := CheckPath("the path of Write", "/a/"+strings.Repeat("d/", 50000)+"f")
	if !errors.Is(err, ErrExceeded) || !strings.Contains(err.Error(), "the path of Write has 50003 components, over the 1024 a gate resolves") {
		t.Fatalf("got %v", err)
	}
}

// The paths of one call are bounded each and together (an MCP tool's
// array of 250 paths of 2,000 components took the gates past their
// deadline, resolving them one system call per component).
func TestCheckPaths(t *testing.T) {
	fine := make([]string, 256)
	for i := range fine {
		fine[i] = "/r/" + strings.Repeat("d/", 60) + "f"
	}
	if err := CheckPaths("a path", "the paths", fine); err != nil {
		t.Fatal(err)
	}
	long := "/r/" + strings.Repeat("d/", 1000) + "f"
	many := []string{long}
	for len(many) < 17 {
		many = append(many, long)
	}
	err := CheckPaths("a path of mcp__x__y", "the paths of mcp__x__y", many)
	if !errors.Is(err, ErrExceeded) || !strings.Contains(err.Error(), "the paths of mcp__x__y have 17051 components together, over the 16384 a gate resolves for one call") {
		t.Fatalf("got %v", err)
	}
	if err := CheckPaths("a path of X", "the paths", []string{"/r/" + strings.Repeat("d/", 2000)}); !errors.Is(err, ErrExceeded) || !strings.Contains(err.Error(), "a path of X has 2003 components") {
		t.Fatalf("one path over the bound: %v", err)
	}
}

func TestCheckSeparators(t *testing.T) {
	if err := CheckSeparators("the command", strings.Repeat("cat a/b/c/d; ", 8000)); err != nil {
		t.Fatal(err)
	}
	err := CheckSeparators("the command", strings.Repeat("echo x > "+strings.Repeat("d/", 1000)+"f; ", 100))
	if !errors.Is(err, ErrExceeded) || !strings.Contains(err.Error(), "the command holds 100000 path separators, over the 32768 a gate resolves for one call") {
		t.Fatalf("got %v", err)
	}
}

func TestCheckShellAllocatesNothing(t *testing.T) {
	cmd := "for f in $(git ls-files); do echo \"$f\" | grep -q x && (cd sub; make) ; done"
	if n := testing.AllocsPerRun(100, func() { CheckShell("the command", cmd) }); n != 0 {
		t.Fatalf("%v allocations", n)
	}
}

func BenchmarkCheckShell(b *testing.B) {
	cmd := strings.Repeat("go test ./... 2>&1 | tail -n 40 && git status --short; ", 1000)
	b.SetBytes(int64(len(cmd)))
	for b.Loop() {
		CheckShell("the command", cmd)
	}
}
