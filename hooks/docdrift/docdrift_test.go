package docdrift_test

import (
	"strings"
	"testing"

	"github.com/magehook/magehook/hooks/docdrift"
	"github.com/magehook/magehook/internal/gittest"
	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/hooktest"
)

var hs = []hook.Handler{docdrift.Handler}

// fresh and stale are committer dates a minute and an hour before
// hooktest.Clock (2026-11-30 09:15 UTC).
const (
	fresh = "2026-11-30T09:14:00Z"
	stale = "2026-11-30T08:15:00Z"
)

func repo(t *testing.T, rc ...string) string {
	t.Helper()
	return gittest.Repo(t, map[string]string{
		".toolingrc":            strings.Join(append([]string{"hook.enable docdrift"}, rc...), "\n") + "\n",
		"magefiles/magefile.go": "package main\n", "README.md": "# r\n",
	})
}

func commit(t *testing.T, dir, date string, files map[string]string) {
	t.Helper()
	t.Setenv("GIT_COMMITTER_DATE", date)
	gittest.Commit(t, dir, "change", files)
}

func post(t *testing.T, dir, command string) hooktest.Outcome {
	t.Helper()
	return hooktest.Run(t, hs, dir, "PostToolUse", "PostToolUse/bash-success", map[string]any{"tool_input.command": command})
}

func TestToolingWithoutDocsIsAnAdvisory(t *testing.T) {
	dir := repo(t, "docdrift.watch magefiles/**", "docdrift.watch /go.mod")
	commit(t, dir, fresh, map[string]string{"magefiles/magefile.go": "package main\n// more\n", "go.mod": "module x\n", "other.txt": "x"})
	out := post(t, dir, `git add -A && git commit -m "build: faster"`)
	if out.Code != 0 || !strings.Contains(out.Stdout, `"hookEventName":"PostToolUse"`) ||
		!strings.Contains(out.Stdout, `"additionalContext":"docdrift: commit `) ||
		!strings.Contains(out.Stdout, `changed go.mod, magefiles/magefile.go (docdrift.watch) but no Markdown file`) {
		t.Errorf("%+v", out)
	}
	if strings.Contains(out.Stdout, `"decision"`) || strings.Contains(out.Stdout, "other.txt") {
		t.Errorf("an advisory must not block, nor name unwatched files: %s", out.Stdout)
	}
}

func TestBlockingMode(t *testing.T) {
	dir := repo(t, "docdrift.watch magefiles/", "docdrift.blocking yes")
	commit(t, dir, fresh, map[string]string{"magefiles/magefile.go": "package main\n// more\n"})
	out := post(t, dir, "git commit -am wip")
	if !strings.HasPrefix(out.Stdout, `{"decision":"block","reason":"docdrift: commit `) {
		t.Errorf("%+v", out)
	}
}

func TestNoAdvisory(t *testing.T) {
	dir := repo(t, "docdrift.watch magefiles/**")
	cases := []struct {
		name    string
		files   map[string]string
		date    string
		command string
	}{
		{"the commit updated a doc", map[string]string{"magefiles/magefile.go": "package main\n//1\n", "docs/build.MD": "x"}, fresh, "git commit -am x"},
		{"the commit touched no watched path", map[string]string{"src/a.go": "package a\n"}, fresh, "git commit -am x"},
		{"the newest commit is older than the call", map[string]string{"magefiles/magefile.go": "package main\n//2\n"}, stale, "git commit -am x || true"},
		{"the command only mentions a commit", map[string]string{"magefiles/magefile.go": "package main\n//3\n"}, fresh, `echo "git commit -am x"`},
		{"the command does not parse", map[string]string{"magefiles/magefile.go": "package main\n//4\n"}, fresh, `git commit -m "x`},
	}
	for _, c := range cases {
		commit(t, dir, c.date, c.files)
		if out := post(t, dir, c.command); out.Code != 0 || out.Stdout != "" {
			t.Errorf("%s: %+v", c.name, out)
		}
	}
}

func TestAFailedCommitIsNotLookedAt(t *testing.T) {
	dir := repo(t, "docdrift.watch magefiles/**")
	commit(t, dir, fresh, map[string]string{"magefiles/magefile.go": "package main\n//x\n"})
	out := hooktest.Run(t, hs, dir, "PostToolUse", "PostToolUse/bash-failure", map[string]any{"tool_input.command": "git commit -am x"})
	if out.Code != 0 || out.Stdout != "" {
		t.Errorf("%+v", out)
	}
}

func TestTheCommitsRepositoryDecides(t *testing.T) {
	other := repo(t, "docdrift.watch magefiles/**")
	dir := gittest.Repo(t, map[string]string{".toolingrc": "hook.enable docdrift\ndocdrift.watch magefiles/**\n"})
	commit(t, other, fresh, map[string]string{"magefiles/magefile.go": "package main\n//y\n"})
	out := post(t, dir, "git -C "+other+" commit -am x")
	if !strings.Contains(out.Stdout, "magefiles/magefile.go (docdrift.watch)") {
		t.Errorf("%+v", out)
	}
}

func TestNoWatchListChecksNothing(t *testing.T) {
	dir := repo(t)
	commit(t, dir, fresh, map[string]string{"magefiles/magefile.go": "package main\n//z\n"})
	if out := post(t, dir, "git commit -am x"); out.Code != 0 || out.Stdout != "" || out.Stderr != "" {
		t.Errorf("%+v", out)
	}
}
