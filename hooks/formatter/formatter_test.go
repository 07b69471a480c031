package formatter_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/magehook/magehook/hooks/formatter"
	"github.com/magehook/magehook/internal/gittest"
	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/hooktest"
)

var hs = []hook.Handler{formatter.Handler}

const (
	messy = "package a\nfunc  F( ) int {return 1}\n"
	tidy  = "package a\n\nfunc F() int { return 1 }\n"
)

func needGofmt(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("gofmt"); err != nil {
		t.Skip("no gofmt")
	}
}

func module(t *testing.T, rc ...string) string {
	t.Helper()
	return gittest.Repo(t, map[string]string{
		".toolingrc": strings.Join(append([]string{"hook.enable formatter"}, rc...), "\n") + "\n",
		".gitignore": ".magehook/\ngen/\n", "go.mod": "module example.com/a\n\ngo 1.22\n", "a.go": tidy,
	})
}

func write(t *testing.T, dir, rel, content string) string {
	t.Helper()
	p := filepath.Join(dir, rel)
	os.MkdirAll(filepath.Dir(p), 0o755)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func read(t *testing.T, p string) string {
	t.Helper()
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// post dispatches a successful Write of path.
func post(t *testing.T, dir, path string) hooktest.Outcome {
	t.Helper()
	return hooktest.Run(t, hs, dir, "PostToolUse", "PostToolUse/write-success", map[string]any{"tool_input.file_path": path})
}

func contextOf(t *testing.T, out hooktest.Outcome) string {
	t.Helper()
	if out.Code != 0 {
		t.Fatalf("exit %d: %+v", out.Code, out)
	}
	if out.Stdout == "" {
		return ""
	}
	var a struct {
		HookSpecificOutput struct {
			AdditionalContext string `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
		Decision string `json:"decision"`
	}
	if err := json.Unmarshal([]byte(out.Stdout), &a); err != nil {
		t.Fatalf("%v: %s", err, out.Stdout)
	}
	if a.Decision != "" {
		t.Fatalf("the formatter decided %q: %s", a.Decision, out.Stdout)
	}
	return a.HookSpecificOutput.AdditionalContext
}

func TestAGoFileIsFormattedAndTheModelTold(t *testing.T) {
	needGofmt(t)
	dir := module(t)
	p := write(t, dir, "b.go", messy)
	ctx := contextOf(t, post(t, dir, p))
	if read(t, p) != tidy {
		t.Errorf("not formatted: %q", read(t, p))
	}
	if !strings.Contains(ctx, "formatter reformatted b.go (gofmt -w)") || !strings.Contains(ctx, "read them again") {
		t.Errorf("context: %q", ctx)
	}
	// Already tidy: nothing to say.
	if ctx := contextOf(t, post(t, dir, filepath.Join(dir, "a.go"))); ctx != "" {
		t.Errorf("a tidy file: %q", ctx)
	}
}

func TestAFailingFormatterIsReportedNotFatal(t *testing.T) {
	needGofmt(t)
	dir := module(t)
	p := write(t, dir, "broken.go", "package a\nfunc {\n")
	ctx := contextOf(t, post(t, dir, p))
	if !strings.Contains(ctx, "gofmt -w failed on broken.go") || !strings.Contains(ctx, "expected") {
		t.Errorf("context: %q", ctx)
	}
	if read(t, p) != "package a\nfunc {\n" {
		t.Error("the broken file was changed")
	}
	missing := module(t, "formatter.run '*.txt' no-such-formatter-xyz")
	ctx = contextOf(t, post(t, missing, write(t, missing, "n.txt", "x")))
	if !strings.Contains(ctx, "no-such-formatter-xyz failed on n.txt") {
		t.Errorf("a formatter that does not start: %q", ctx)
	}
}

func TestWhatIsNotFormatted(t *testing.T) {
	needGofmt(t)
	dir := module(t, "formatter.run 'legacy/*.go' -")
	ignored := write(t, dir, "gen/x.go", messy)
	legacy := write(t, dir, "legacy/y.go", messy)
	outside := write(t, t.TempDir(), "z.go", messy)
	gitdir := write(t, dir, ".git/hooks/x.go", messy)
	for _, p := range []string{ignored, legacy, outside, gitdir} {
		if ctx := contextOf(t, post(t, dir, p)); ctx != "" || read(t, p) != messy {
			t.Errorf("%s: formatted (%q)", p, ctx)
		}
	}
	// A link inside the checkout to a file outside it.
	link := filepath.Join(dir, "link.go")
	if os.Symlink(outside, link) == nil {
		if contextOf(t, post(t, dir, link)); read(t, outside) != messy {
			t.Error("a file outside the checkout was formatted through a link")
		}
	}
	// Not a Go module: no default.
	plain := gittest.Repo(t, map[string]string{".toolingrc": "hook.enable formatter\n", ".gitignore": ".magehook/\n"})
	p := write(t, plain, "c.go", messy)
	if contextOf(t, post(t, plain, p)); read(t, p) != messy {
		t.Error("a .go file outside a Go module was formatted")
	}
	// A failed tool call, and a formatter's own environment.
	p = write(t, dir, "d.go", messy)
	out := hooktest.Run(t, hs, dir, "PostToolUse", "PostToolUse/write-failure", map[string]any{"tool_input.file_path": p})
	if contextOf(t, out); read(t, p) != messy {
		t.Error("the file of a failed call was formatted")
	}
}

func TestConfiguredFormattersAndNoLoop(t *testing.T) {
	// A "formatter" that appends a line each time it runs: run twice on
	// its own output, it would show.
	dir := module(t, `formatter.run '*.txt' sh -c 'echo formatted >> "$0"'`, "formatter.run 'docs/**/*.md' sh -c 'tr a-z A-Z < {} > {}.t && mv {}.t {}'")
	p := write(t, dir, "notes.txt", "hello\n")
	ctx := contextOf(t, post(t, dir, p))
	if read(t, p) != "hello\nformatted\n" || !strings.Contains(ctx, "notes.txt (sh -c") {
		t.Errorf("first run: %q, %q", read(t, p), ctx)
	}
	// The harness reports the formatter's own write: no second run.
	if ctx := contextOf(t, post(t, dir, p)); ctx != "" || read(t, p) != "hello\nformatted\n" {
		t.Errorf("second run on its own output: %q, %q", read(t, p), ctx)
	}
	// The agent edits it again: formatted again.
	os.WriteFile(p, []byte("again\n"), 0o644)
	if contextOf(t, post(t, dir, p)); read(t, p) != "again\nformatted\n" {
		t.Errorf("after a new edit: %q", read(t, p))
	}
	md := write(t, dir, "docs/a/b.md", "shout\n")
	if contextOf(t, post(t, dir, md)); read(t, md) != "SHOUT\n" {
		t.Errorf("{} placement: %q", read(t, md))
	}
}

func TestTheBudgetStopsASlowFormatter(t *testing.T) {
	dir := module(t, "formatter.run '*.txt' sh -c 'sleep 30'", "formatter.budget 300ms")
	p := write(t, dir, "slow.txt", "x")
	q := write(t, dir, "later.txt", "y")
	out := hooktest.Run(t, hs, dir, "PostToolUse", "PostToolUse/bash-editdiff", map[string]any{
		"tool_response.bashEditDiff.changedFiles": []string{p, q}, "tool_response.bashEditDiff.files": nil})
	ctx := contextOf(t, out)
	if !strings.Contains(ctx, "sh -c sleep 30 on slow.txt did not finish within formatter.budget (300ms) and was stopped") || !strings.Contains(ctx, "left unformatted (over its budget or file limit): later.txt") {
		t.Errorf("context: %q", ctx)
	}
}

func TestBashChangedFilesAreFormatted(t *testing.T) {
	needGofmt(t)
	dir := module(t)
	p := write(t, dir, "e.go", messy)
	out := hooktest.Run(t, hs, dir, "PostToolUse", "PostToolUse/bash-editdiff", map[string]any{
		"tool_response.bashEditDiff.changedFiles": []string{p, filepath.Join(dir, "README.md")}})
	if ctx := contextOf(t, out); !strings.Contains(ctx, "e.go (gofmt -w)") || read(t, p) != tidy {
		t.Errorf("%q %q", ctx, read(t, p))
	}
}

func TestReplayShowsTheReport(t *testing.T) {
	needGofmt(t)
	dir := module(t)
	p := write(t, dir, "f.go", messy)
	data := hooktest.Fixture(t, "PostToolUse/write-success", map[string]any{"cwd": dir, "tool_input.file_path": p})
	d := &hook.Dispatcher{Handlers: hs, Getenv: func(string) string { return "" },
		Getwd: func() (string, error) { return dir, nil }, Now: func() time.Time { return hooktest.Clock }}
	r := hook.RunReplay(context.Background(), d, "PostToolUse", data)
	var out bytes.Buffer
	r.Write(&out)
	if !strings.Contains(out.String(), "handler   formatter") || !strings.Contains(strings.Join(r.Model, "\n"), "formatter reformatted f.go") {
		t.Errorf("replay:\n%s", out.String())
	}
}
