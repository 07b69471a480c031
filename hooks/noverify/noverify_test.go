package noverify_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/magehook/magehook/hooks/noverify"
	"github.com/magehook/magehook/internal/gittest"
	"github.com/magehook/magehook/pkg/harness"
	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/hooktest"
)

// repo is a real repository on a feature branch whose commit-msg hook
// refuses every message: a commit that gets past it skipped it.
func repo(t *testing.T) string {
	t.Helper()
	dir := gittest.Repo(t, map[string]string{".toolingrc": "hook.enable noverify\n", "a.go": "package a\n", ".gitignore": ".magehook/\n"})
	gittest.Git(t, dir, "switch", "-q", "-c", "feature")
	hook := filepath.Join(dir, ".git", "hooks", "commit-msg")
	if err := os.WriteFile(hook, []byte("#!/bin/sh\necho 'commit-msg: refused' >&2\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

func dispatch(t *testing.T, harnessName string, data []byte, home string) hooktest.Outcome {
	t.Helper()
	h, _ := harness.Lookup(harnessName)
	var stdout, stderr bytes.Buffer
	d := &hook.Dispatcher{Handlers: []hook.Handler{noverify.Handler}, Harness: h, Stdin: bytes.NewReader(data), Stdout: &stdout, Stderr: &stderr,
		Getenv: func(k string) string {
			if k == "HOME" {
				return home
			}
			return ""
		},
		Getwd: func() (string, error) { return "", os.ErrNotExist },
		Now:   func() time.Time { return hooktest.Clock }}
	code := d.Dispatch(context.Background(), "PreToolUse")
	return hooktest.Outcome{Code: code, Stdout: stdout.String(), Stderr: stderr.String()}
}

func bash(t *testing.T, dir, command string) hooktest.Outcome {
	t.Helper()
	return dispatch(t, "claude", hooktest.Fixture(t, "PreToolUse/bash", map[string]any{"cwd": dir, "tool_input.command": command}), t.TempDir())
}

func denied(t *testing.T, what string, out hooktest.Outcome, want string) {
	t.Helper()
	if out.Code != 0 || !strings.Contains(out.Stdout, `"permissionDecision":"deny"`) || !strings.Contains(out.Stdout, want) {
		t.Errorf("%s: want a deny naming %q, got %+v", what, want, out)
	}
}

func allowed(t *testing.T, what string, out hooktest.Outcome) {
	t.Helper()
	if out.Code != 0 || out.Stdout != "" {
		t.Errorf("%s: want no answer, got %+v", what, out)
	}
}

// sh runs a command in dir with the test's git configuration and reports
// whether it succeeded.
func sh(dir, command string) (bool, string) {
	cmd := exec.Command("sh", "-c", command)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	return err == nil, string(out)
}

// TestEveryBypassIsDeniedAndWouldHaveWorked runs each denied command for
// real afterwards: it commits past the refusing hook, so the gate is what
// stands between the agent and a skipped hook. The plain commit fails.
func TestEveryBypassIsDeniedAndWouldHaveWorked(t *testing.T) {
	for command, want := range map[string]string{
		"git commit --no-verify -am x":                 "(--no-verify)",
		"git commit -n -am x":                          "(-n)",
		"git commit -anm x":                            "(-n)",
		"git commit --no-veri -am x":                   "(--no-verify)",
		"git -c core.hooksPath=/dev/null commit -am x": "core.hooksPath at /dev/null",
		"GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.hooksPath GIT_CONFIG_VALUE_0=/tmp/none git commit -am x": "core.hooksPath",
		"git config core.hooksPath /dev/null && git commit -am x":                                          "sets core.hooksPath",
		"git -c alias.ci='commit --no-verify' ci -am x":                                                    "(--no-verify)",
		"bash -c 'git commit -n -am x'":                                                                    "(-n)",
		"env git commit --no-verify -am x":                                                                 "(--no-verify)",
		"rm .git/hooks/commit-msg && git commit -am x":                                                     "the git hook",
		"chmod -x .git/hooks/commit-msg; git commit -am x":                                                 "the git hook",
		"mv .git/hooks/commit-msg /tmp/x-$$ && git commit -am x":                                           "the git hook",
		"printf '#!/bin/sh\\n' > .git/hooks/commit-msg && git commit -am x":                                "the git hook",
		"rm -rf .git/hooks && git commit -am x":                                                            "hooks",
		"printf '[user]\\nname=a\\nemail=a@b\\n[core]\\nhooksPath=/dev/null\\n' > /tmp/gc-$$; GIT_CONFIG_GLOBAL=/tmp/gc-$$ git commit -am x": "GIT_CONFIG_GLOBAL",
	} {
		dir := repo(t)
		if err := os.WriteFile(filepath.Join(dir, "a.go"), []byte("package a // changed\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		denied(t, command, bash(t, dir, command), want)
		if ok, out := sh(dir, command); !ok {
			t.Errorf("%s: did not commit past the hook, so the case shows nothing:\n%s", command, out)
		}
	}
	dir := repo(t)
	os.WriteFile(filepath.Join(dir, "a.go"), []byte("package a // changed\n"), 0o644)
	if ok, _ := sh(dir, "git commit -am x"); ok {
		t.Fatal("the refusing hook let a plain commit through")
	}
}

func TestHookManagerSwitches(t *testing.T) {
	dir := repo(t)
	for command, want := range map[string]string{
		"HUSKY=0 git commit -m x":                                             "HUSKY=0",
		"export HUSKY=0; git commit -m x":                                     "HUSKY=0",
		"SKIP=eslint,prettier git commit -m x":                                "SKIP=eslint,prettier",
		"LEFTHOOK=0 git push":                                                 "LEFTHOOK=0",
		"LEFTHOOK_EXCLUDE=test git push":                                      "LEFTHOOK_EXCLUDE",
		"git push --no-verify origin feature":                                 "(--no-verify)",
		"git merge --no-verify main":                                          "(--no-verify)",
		"git rebase --no-verify main":                                         "(--no-verify)",
		"git am --no-verify < p.patch":                                        "(--no-verify)",
		"git pull --no-verify":                                                "(--no-verify)",
		"git config --global --unset core.hooksPath":                          "unsets core.hooksPath",
		"sed -i 's/hooksPath.*//' .git/config":                                "git configuration",
		"echo '[core] hooksPath = /dev/null' >> .git/config":                  "git configuration",
		"xargs rm < list; rm -f $(git rev-parse --git-path hooks)/commit-msg": "names the git hooks",
	} {
		denied(t, command, bash(t, dir, command), want)
	}
}

func TestOrdinaryGitWorkPasses(t *testing.T) {
	dir := repo(t)
	for _, command := range []string{
		"git commit -m 'fix: the thing'", "git commit -am x", "git commit -mn", "git commit -m -n", "git commit --amend --no-edit",
		"git commit --no-verify --verify -m x", "git push origin feature", "git merge main", "git rebase -i main", "git status",
		"git log -n 3", "git diff -- .git/hooks", "HUSKY=1 git commit -m x", "SKIP= git commit -m x", "SKIP=1 make test",
		"git commit --help", "git config user.name Someone", "git -c user.name=x commit -m y", "cat .git/hooks/commit-msg",
		"ls .git/hooks", "echo 'git commit --no-verify'", "git commit -m 'never use --no-verify'", "git clean -n",
		"go test ./... && git add -A && git commit -m 'test: more'", "git grep -n no-verify", "git log -n 1 --format=%s", "git config core.hooksPath", "git config --get core.hooksPath",
	} {
		allowed(t, command, bash(t, dir, command))
	}
}

func TestEditsOfTheHooksAreDenied(t *testing.T) {
	dir := repo(t)
	hooksPathRepo := repo(t)
	gittest.Git(t, hooksPathRepo, "config", "core.hooksPath", ".githooks")
	for name, c := range map[string]struct {
		fixture string
		over    map[string]any
		want    string
	}{
		"Write of the commit-msg hook": {"PreToolUse/write", map[string]any{"cwd": dir, "tool_input.file_path": filepath.Join(dir, ".git", "hooks", "commit-msg")}, "the git hook"},
		"Edit of .git/config":          {"PreToolUse/edit", map[string]any{"cwd": dir, "tool_input.file_path": filepath.Join(dir, ".git", "config")}, "git configuration"},
		"Write into core.hooksPath":    {"PreToolUse/write", map[string]any{"cwd": hooksPathRepo, "tool_input.file_path": filepath.Join(hooksPathRepo, ".githooks", "pre-commit")}, "the hooks directory " + filepath.Join(hooksPathRepo, ".githooks")},
		"a relative Write of the hook": {"PreToolUse/write", map[string]any{"cwd": dir, "tool_input.file_path": ".git/hooks/pre-push"}, "the git hook"},
	} {
		out := dispatch(t, "claude", hooktest.Fixture(t, c.fixture, c.over), t.TempDir())
		denied(t, name, out, c.want)
	}
	allowed(t, "Write of a source file", dispatch(t, "claude", hooktest.Fixture(t, "PreToolUse/write", map[string]any{"cwd": dir, "tool_input.file_path": filepath.Join(dir, "b.go")}), t.TempDir()))
}

func TestOtherHarnesses(t *testing.T) {
	dir := repo(t)
	gemini := hooktest.HarnessFixture(t, "gemini/BeforeTool-shell", map[string]any{"cwd": dir, "tool_input": map[string]any{"command": "git commit -nm wip"}})
	if out := dispatch(t, "gemini", gemini, t.TempDir()); !strings.Contains(out.Stdout, `"decision":"deny"`) || !strings.Contains(out.Stdout, "noverify") {
		t.Errorf("gemini: %+v", out)
	}
	codex := hooktest.HarnessFixture(t, "codex/PreToolUse-bash", map[string]any{"cwd": dir, "tool_input": map[string]any{"command": "HUSKY=0 git commit -m x"}})
	if out := dispatch(t, "codex", codex, t.TempDir()); !strings.Contains(out.Stdout, "deny") {
		t.Errorf("codex: %+v", out)
	}
	ps := hooktest.Fixture(t, "PreToolUse/bash", map[string]any{"cwd": dir, "tool_name": "PowerShell", "tool_input.command": "$env:HUSKY = '0'; git commit -m x"})
	denied(t, "PowerShell $env:HUSKY", dispatch(t, "claude", ps, t.TempDir()), "$env:HUSKY")
	ps = hooktest.Fixture(t, "PreToolUse/bash", map[string]any{"cwd": dir, "tool_name": "PowerShell", "tool_input.command": "git commit --no-verify -m x"})
	denied(t, "PowerShell git", dispatch(t, "claude", ps, t.TempDir()), "(--no-verify)")
}
