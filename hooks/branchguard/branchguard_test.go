package branchguard_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/magehook/magehook/hooks/branchguard"
	"github.com/magehook/magehook/internal/gittest"
	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/hooktest"
)

var handlers = []hook.Handler{branchguard.Handler}

// setup makes a checkout on main with a .toolingrc enabling branchguard,
// and a linked worktree on a feature branch.
func setup(t *testing.T, extra ...string) (root, feature string) {
	t.Helper()
	rc := "hook.enable branchguard\n" + strings.Join(extra, "\n")
	root = gittest.Repo(t, map[string]string{".toolingrc": rc, "src/a.go": "package a\n"})
	feature = filepath.Join(root, ".claude", "worktrees", "feat")
	gittest.Git(t, root, "worktree", "add", "-q", "-b", "feat", feature)
	return root, feature
}

func deny(t *testing.T, out hooktest.Outcome, want string) {
	t.Helper()
	if out.Code != 0 || !strings.Contains(out.Stdout, `"permissionDecision":"deny"`) || !strings.Contains(out.Stdout, want) {
		t.Errorf("want a deny naming %q, got %+v", want, out)
	}
}

// verdict is a command run in cwd and whether the gates deny it.
type verdict struct {
	cmd, cwd string
	denied   bool
}

// judge runs each case through gates in the checkout root and compares
// the verdicts.
func judge(t *testing.T, gates []hook.Handler, root string, cases []verdict) {
	t.Helper()
	for _, tt := range cases {
		out := hooktest.Run(t, gates, root, "PreToolUse", "PreToolUse/bash", map[string]any{"tool_input.command": tt.cmd, "cwd": tt.cwd})
		if got := strings.Contains(out.Stdout, `"deny"`); got != tt.denied || out.Code != 0 {
			t.Errorf("%q in %s: denied %v, want %v (%+v)", tt.cmd, tt.cwd, got, tt.denied, out)
		}
	}
}

func allow(t *testing.T, out hooktest.Outcome) {
	t.Helper()
	if out.Code != 0 || out.Stdout != "" {
		t.Errorf("want no answer (allowed), got %+v", out)
	}
}

func TestEdits(t *testing.T) {
	root, feature := setup(t)
	for _, fixture := range []string{"PreToolUse/edit", "PreToolUse/write", "PreToolUse/multiedit"} {
		out := hooktest.Run(t, handlers, root, "PreToolUse", fixture, map[string]any{"tool_input.file_path": filepath.Join(root, "src", "a.go")})
		deny(t, out, "protected branch main")
		deny(t, out, "worktree")
		// The file's own repository decides, not the session's cwd.
		out = hooktest.Run(t, handlers, root, "PreToolUse", fixture, map[string]any{"tool_input.file_path": filepath.Join(feature, "src", "a.go")})
		allow(t, out)
	}
	out := hooktest.Run(t, handlers, feature, "PreToolUse", "PreToolUse/notebookedit", map[string]any{"tool_input.notebook_path": filepath.Join(root, "nb.ipynb")})
	deny(t, out, "nb.ipynb")
	out = hooktest.Run(t, handlers, root, "PreToolUse", "PreToolUse/write", map[string]any{"tool_input.file_path": filepath.Join(t.TempDir(), "notes.md")})
	allow(t, out)
	out = hooktest.Run(t, handlers, root, "PreToolUse", "PreToolUse/write", map[string]any{"tool_input.file_path": "src/new.go"})
	deny(t, out, "src/new.go")
	out = hooktest.Run(t, handlers, root, "PreToolUse", "PreToolUse/read", map[string]any{"tool_input.file_path": filepath.Join(root, "src", "a.go")})
	allow(t, out)
}

func TestCommands(t *testing.T) {
	root, feature := setup(t)
	tests := []struct {
		cmd, cwd string
		denied   bool
	}{
		{"git commit -m x", root, true},
		{"git push", root, true},
		{"git status && go test ./...", root, false},
		{"git commit -m x", feature, false},
		{"git -C " + root + " push", feature, true},
		{"cd " + root + " && git commit -am x", feature, true},
		{"cd " + feature + " && git commit -am x", root, false},
		{"(cd " + feature + " && git commit -am x) && git status", root, false},
		{`echo "git commit -m x"`, root, false},
		{`bash -c "git push"`, root, true},
		{`cd "$SOMEWHERE" && git commit`, feature, true},
		{`git commit -m "unterminated`, feature, true},
		{"git push", hooktest.Checkout(t, "hook.enable branchguard"), false},
	}
	for _, tt := range tests {
		out := hooktest.Run(t, handlers, root, "PreToolUse", "PreToolUse/bash", map[string]any{"tool_input.command": tt.cmd, "cwd": tt.cwd})
		got := strings.Contains(out.Stdout, `"deny"`)
		if got != tt.denied || out.Code != 0 {
			t.Errorf("%q in %s: denied %v, want %v (%+v)", tt.cmd, tt.cwd, got, tt.denied, out)
		}
	}
}

func TestProtectList(t *testing.T) {
	root, feature := setup(t, "guard.protect feat")
	out := hooktest.Run(t, handlers, root, "PreToolUse", "PreToolUse/bash", map[string]any{"tool_input.command": "git commit", "cwd": root})
	allow(t, out)
	out = hooktest.Run(t, handlers, root, "PreToolUse", "PreToolUse/bash", map[string]any{"tool_input.command": "git commit", "cwd": feature})
	deny(t, out, "would move the protected branch feat")
}

func TestMissingInputFailsClosed(t *testing.T) {
	root, _ := setup(t)
	out := hooktest.Run(t, handlers, root, "PreToolUse", "PreToolUse/bash", map[string]any{"tool_input": nil})
	if out.Code != 2 {
		t.Errorf("a Bash payload without tool_input must block: %+v", out)
	}
	out = hooktest.Run(t, handlers, root, "PreToolUse", "PreToolUse/edit", map[string]any{"tool_input.file_path": nil})
	if out.Code != 2 {
		t.Errorf("an Edit payload without file_path must block: %+v", out)
	}
}

// TestExplain: hook:explain shows the split, each git invocation with its
// repository, branch and effect, and the rule that decides.
func TestExplain(t *testing.T) {
	root, feature := setup(t)
	var b strings.Builder
	in := branchguard.Input{Command: "cd " + root + " && sudo git -c alias.ci=commit ci -m x", Dir: feature, Protect: []string{"main"}}
	if err := branchguard.Explain(&b, in, "gemini"); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"commands  3",
		"git commit (alias ci)",
		"repository " + root + ", branch main: moves HEAD",
		"via sudo",
		`rule "protected branches never move", ref main: git commit would move the protected branch main`,
		"dir_path",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("explain lacks %q:\n%s", want, out)
		}
	}
	b.Reset()
	branchguard.Explain(&b, branchguard.Input{Command: "git status", Dir: root, Protect: []string{"main"}}, "")
	if !strings.Contains(b.String(), "decision  allow") {
		t.Errorf("%s", b.String())
	}
}

// TestWarnOnly: with hook.warn branchguard the commit on main goes on;
// the model is told what the policy would have denied.
func TestWarnOnly(t *testing.T) {
	root, _ := setup(t, "hook.warn branchguard")
	out := hooktest.Run(t, handlers, root, "PreToolUse", "PreToolUse/bash", map[string]any{"tool_input.command": "git commit -m x", "cwd": root})
	if out.Code != 0 || strings.Contains(out.Stdout, `"deny"`) || !strings.Contains(out.Stdout, "warn-only") || !strings.Contains(out.Stdout, "would move the protected branch main") {
		t.Errorf("warn-only: %+v", out)
	}
}

// TestProtectTheRemoteDefault: guard.protect origin/HEAD protects whatever
// branch origin's HEAD names, read from the repository (no network).
func TestProtectTheRemoteDefault(t *testing.T) {
	root, feature := setup(t, "guard.protect origin/HEAD")
	gittest.Bare(t, root)
	gittest.Git(t, root, "push", "-q", "origin", "feat")
	gittest.Git(t, root, "remote", "set-head", "origin", "feat")
	out := hooktest.Run(t, handlers, root, "PreToolUse", "PreToolUse/bash", map[string]any{"tool_input.command": "git commit -m x", "cwd": feature})
	deny(t, out, "would move the protected branch feat")
	out = hooktest.Run(t, handlers, root, "PreToolUse", "PreToolUse/bash", map[string]any{"tool_input.command": "git commit -m x", "cwd": root})
	allow(t, out)
	gittest.Git(t, root, "remote", "set-head", "origin", "main")
	out = hooktest.Run(t, handlers, root, "PreToolUse", "PreToolUse/bash", map[string]any{"tool_input.command": "git commit -m x", "cwd": root})
	deny(t, out, "would move the protected branch main")
}

// A file git ignores is no commit on a protected branch: Edit and Write
// of build output, .env.local or node_modules/... are allowed there. A
// tracked file stays denied whatever .gitignore says, and the gate's own
// configuration stays configguard's (see its tests).
func TestEditsOfIgnoredFilesOnAProtectedBranch(t *testing.T) {
	root, _ := setup(t)
	os.WriteFile(filepath.Join(root, ".gitignore"), []byte("build/\n.env.local\nnode_modules/\n*.log\nsrc/a.go\n"), 0o644)
	os.WriteFile(filepath.Join(root, ".git", "info", "exclude"), []byte("scratch.txt\n"), 0o644)
	os.Symlink(filepath.Join(root, "src", "a.go"), filepath.Join(root, "ignored.log"))
	for _, tt := range []struct {
		path string
		deny bool
	}{
		{"build/out/app", false},
		{".env.local", false},
		{"node_modules/left-pad/index.js", false},
		{"debug.log", false},
		{"scratch.txt", false},
		{filepath.Join(root, "build", "x"), false},
		{"src/a.go", true},    // tracked: ignoring it changes nothing
		{"src/b.go", true},    // new and not ignored
		{".gitignore", true},  // making more ignored is a change too
		{"ignored.log", true}, // an ignored link to a tracked file
		{"build/../src/a.go", true},
	} {
		for _, fixture := range []string{"PreToolUse/write", "PreToolUse/edit"} {
			out := hooktest.Run(t, handlers, root, "PreToolUse", fixture, map[string]any{"tool_input.file_path": tt.path})
			if got := strings.Contains(out.Stdout, `"permissionDecision":"deny"`); got != tt.deny || out.Code != 0 {
				t.Errorf("%s %s: deny %v, want %v: %+v", fixture, tt.path, got, tt.deny, out)
			}
		}
	}
}

// An edited file's relative path starts in the tool's working-directory
// argument too, not only in the cwd.
func TestRelativeEditsStartInTheWorkingDirectoryArgument(t *testing.T) {
	root, feature := setup(t)
	out := hooktest.Run(t, handlers, feature, "PreToolUse", "PreToolUse/write", map[string]any{"tool_input.file_path": "src/a.go", "tool_input.workdir": root})
	deny(t, out, "protected branch main")
}

// A cd is judged as the shell runs it: to a directory the command makes
// (mkdir, git init, git clone) it goes there, after ; too; to one that
// does not exist and nothing makes, it fails, and what follows ; runs
// where the shell was. A repository the command creates has no protected
// branch yet, but what it pushes is still judged.
func TestCdAsTheShellRunsIt(t *testing.T) {
	root, feature := setup(t)
	os.WriteFile(filepath.Join(root, ".gitignore"), []byte("build/\n"), 0o644)
	outside := t.TempDir() // not a checkout, with the gate enabled
	os.WriteFile(filepath.Join(outside, ".toolingrc"), []byte("hook.enable branchguard\n"), 0o644)
	for _, tt := range []struct {
		cmd, cwd string
		denied   bool
	}{
		{"mkdir -p x && cd x && git init", outside, false},
		{"mkdir x; cd x; git init; git commit --allow-empty -m x", outside, false},
		{"mkdir x; cd x; git init -q; echo a > a; git add a; git commit -m x", feature, false},
		{"git init y && cd y && git commit --allow-empty -m x", outside, false},
		{"mkdir -p build/scratch && cd build/scratch && git init -q && git commit --allow-empty -m x", root, false},
		{"git init build/t; cd build/t; git commit --allow-empty -m x; git log", root, false},
		// Pushes from a new repository reach the remote's branches.
		{"mkdir x && cd x && git init -q && git remote add origin " + root + " && git commit --allow-empty -m x && git push -f origin main", outside, true},
		{"git init x && cd x && git push origin HEAD:master", outside, true},
		{"git init x && cd x && git push", outside, true},
		// A directory that exists and is not new stays what it is.
		{"git init " + root + "; cd " + root + "; git commit -m x", outside, true},
		// A cd that fails leaves the command where it was.
		{"cd nonexistent; git commit -m x", root, true},
		{"cd nonexistent; git commit -m x", feature, false},
		{"cd " + filepath.Join(root, "nope") + "; git commit -m x", feature, false},
		{"cd nonexistent; echo x > src/a.go", root, true},
		{"cd nonexistent && git commit -m x", feature, false},
		// A worktree the command adds has the branch the add checks out.
		{"git worktree add --force ../wtmain main && cd ../wtmain && git commit -m x", root, true},
		{"git worktree add -f " + filepath.Join(outside, "w2") + " main; cd " + filepath.Join(outside, "w2") + "; git commit -m x", root, true},
		{"git worktree add -b topic ../wt3 && cd ../wt3 && git commit -m x", root, false},
		{"git worktree add ../topic2 && cd ../topic2 && git commit -m x", root, false},
		{"git worktree add --detach ../wt4 main && cd ../wt4 && git commit -m x", root, false},
		{"git worktree add -b topic5 ../wt5 && cd ../wt5 && git switch main && git commit -m x", root, true},
		// A link the command makes may lead anywhere.
		{"ln -s " + root + " " + filepath.Join(outside, "lnk") + "; cd " + filepath.Join(outside, "lnk") + " && git commit -m x", outside, true},
		// Something that may make it leaves the directory undecided.
		{"tar -xf a.tar; cd x; git commit -m x", outside, true},
	} {
		out := hooktest.Run(t, handlers, root, "PreToolUse", "PreToolUse/bash", map[string]any{"tool_input.command": tt.cmd, "cwd": tt.cwd})
		if got := strings.Contains(out.Stdout, `"deny"`); got != tt.denied || out.Code != 0 {
			t.Errorf("%q in %s: denied %v, want %v (%+v)", tt.cmd, tt.cwd, got, tt.denied, out)
		}
	}
}

// What a git hook does is what the git command that runs it does: a
// post-commit hook written on a feature branch that pushes to main makes
// the next commit a push to main.
func TestGitHooksAreWhatTheCommandDoes(t *testing.T) {
	root, feature := setup(t)
	hooks := filepath.Join(root, ".git", "hooks")
	os.MkdirAll(hooks, 0o755)
	run := func(cmd, cwd string) hooktest.Outcome {
		return hooktest.Run(t, handlers, root, "PreToolUse", "PreToolUse/bash", map[string]any{"tool_input.command": cmd, "cwd": cwd})
	}
	allow(t, run("git commit -m x", feature))
	os.WriteFile(filepath.Join(hooks, "post-commit"), []byte("#!/bin/sh\ngit push origin HEAD:main\n"), 0o755)
	deny(t, run("git commit -m x", feature), "runs the hook")
	os.Chmod(filepath.Join(hooks, "post-commit"), 0o644) // git does not run it
	allow(t, run("git commit -m x", feature))
	os.Remove(filepath.Join(hooks, "post-commit"))
	os.WriteFile(filepath.Join(hooks, "pre-push"), []byte("#!/bin/sh\ngit push -f origin HEAD:main\n"), 0o755)
	deny(t, run("git push origin feat", feature), "runs the hook")
	allow(t, run("git commit -m x", feature)) // a commit runs no pre-push
	os.Remove(filepath.Join(hooks, "pre-push"))
	// Hook managers run what only run time knows, like a Makefile: only
	// what a hook is seen to do counts, so they stay allowed.
	os.WriteFile(filepath.Join(hooks, "pre-commit"), []byte(preCommitFramework), 0o755)
	allow(t, run("git commit -m x", feature))
	os.WriteFile(filepath.Join(hooks, "pre-commit"), []byte("#!/usr/bin/env sh\n. \"$(dirname -- \"$0\")/_/husky.sh\"\n\nnpx lint-staged\n"), 0o755)
	allow(t, run("git commit -m x", feature))
	os.WriteFile(filepath.Join(hooks, "pre-commit"), []byte("#!/usr/bin/env python3\nimport subprocess\nsubprocess.run(['git', 'diff', '--cached'])\n"), 0o755)
	allow(t, run("git commit -m x", feature))
	os.WriteFile(filepath.Join(hooks, "pre-commit"), []byte("#!/bin/sh\ngo vet ./... && gofmt -l .\n"), 0o755)
	allow(t, run("git commit -m x", feature))
	// A hook the command writes first, or a hooks path it points at.
	deny(t, run("printf 'git push origin HEAD:main' > "+hooks+"/post-merge; chmod +x "+hooks+"/post-merge; git merge main", feature), "git hooks directory")
	os.MkdirAll(filepath.Join(feature, "githooks"), 0o755)
	os.WriteFile(filepath.Join(feature, "githooks", "post-commit"), []byte("git update-ref refs/heads/main HEAD\n"), 0o755)
	deny(t, run("git -c core.hooksPath=githooks commit -m x", feature), "would move main")
	allow(t, run("git -c core.hooksPath=/dev/null commit -m x", feature))
}

// Configuration and environment that make git run other commands, or
// read aliases from files the analysis does not read.
func TestConfigurationThatRunsCommands(t *testing.T) {
	root, feature := setup(t)
	cfg := filepath.Join(t.TempDir(), "gitconfig")
	os.WriteFile(cfg, []byte("[alias]\n\tx = commit\n"), 0o644)
	for _, tt := range []struct {
		cmd    string
		denied bool
	}{
		{"printf '[alias]\\n x = commit\\n' > /tmp/gc; GIT_CONFIG_GLOBAL=/tmp/gc git x -m y", true},
		{"GIT_CONFIG_GLOBAL=" + cfg + " git -C " + root + " x -m y", true}, // the alias is read: a commit on main
		{"GIT_CONFIG_GLOBAL=" + cfg + " git x -m y", false},                // ... on the feature branch
		{"git -c include.path=" + cfg + " x -m y", true},
		{"PAGER='git push origin HEAD:main' git log", true},
		{"git -c credential.helper='!git push origin HEAD:main' fetch", true},
		{"EDITOR='sh -c \"git push origin HEAD:main\"' git commit", true},
		{"GIT_CONFIG_GLOBAL=" + cfg + " git status", false},
		{"PAGER=cat git log", false},
		{"git lfs pull", false},
	} {
		out := hooktest.Run(t, handlers, root, "PreToolUse", "PreToolUse/bash", map[string]any{"tool_input.command": tt.cmd, "cwd": feature})
		if got := strings.Contains(out.Stdout, `"deny"`); got != tt.denied || out.Code != 0 {
			t.Errorf("%q: denied %v, want %v (%+v)", tt.cmd, got, tt.denied, out)
		}
	}
}

// A write through a symbolic link the command itself makes lands where
// the link leads: main's ref, main's checkout.
func TestWritesThroughLinksTheCommandMakes(t *testing.T) {
	root, feature := setup(t)
	for _, tt := range []struct {
		cmd    string
		denied bool
	}{
		{"ln -s " + root + "/.git/refs/heads/main x && git rev-parse HEAD > x", true},
		{"ln -s " + root + "/.git/refs/heads y && cp x y/main", true},
		{"ln -s " + root + "/src/a.go z && echo hi > z", true},
		{"ln -s " + feature + "/src/a.go z2 && echo hi > z2", false},
	} {
		out := hooktest.Run(t, handlers, root, "PreToolUse", "PreToolUse/bash", map[string]any{"tool_input.command": tt.cmd, "cwd": feature})
		if got := strings.Contains(out.Stdout, `"deny"`); got != tt.denied || out.Code != 0 {
			t.Errorf("%q: denied %v, want %v (%+v)", tt.cmd, got, tt.denied, out)
		}
	}
}

// Refs kept as files on a case-insensitive file system (macOS, Windows)
// make MAIN the same ref as main, locally and on a remote kept there.
func TestBranchNamesFoldTogether(t *testing.T) {
	root, feature := setup(t)
	for _, cmd := range []string{
		"git push origin HEAD:MAIN",
		"git update-ref refs/heads/Main HEAD",
		"git branch -f MASTER HEAD",
		"echo 0000000000000000000000000000000000000000 > " + root + "/.git/refs/heads/MAIN",
	} {
		out := hooktest.Run(t, handlers, root, "PreToolUse", "PreToolUse/bash", map[string]any{"tool_input.command": cmd, "cwd": feature})
		if !strings.Contains(out.Stdout, `"deny"`) {
			t.Errorf("%q: %+v, want a deny", cmd, out)
		}
	}
	allow(t, hooktest.Run(t, handlers, root, "PreToolUse", "PreToolUse/bash", map[string]any{"tool_input.command": "git push origin HEAD:maintenance", "cwd": feature}))
}

// preCommitFramework is the hook pre-commit (pre-commit.com) installs.
const preCommitFramework = `#!/usr/bin/env bash
# File generated by pre-commit: https://pre-commit.com
INSTALL_PYTHON=/usr/bin/python3
ARGS=(hook-impl --config=.pre-commit-config.yaml --hook-type=pre-commit)
HERE="$(cd "$(dirname "$0")" && pwd)"
ARGS+=(--hook-dir "$HERE" -- "$@")
if [ -x "$INSTALL_PYTHON" ]; then
    exec "$INSTALL_PYTHON" -mpre_commit "${ARGS[@]}"
elif command -v pre-commit > /dev/null; then
    exec pre-commit "${ARGS[@]}"
else
    echo 'pre-commit not found' 1>&2
    exit 1
fi
`

// An edit of git's ref storage moves branches without git, whatever is
// checked out: the main checkout on another branch, main free.
func TestEditsOfRefStorage(t *testing.T) {
	root, feature := setup(t)
	gittest.Git(t, root, "checkout", "-q", "-b", "dev")
	for _, path := range []string{root + "/.git/refs/heads/main", root + "/.git/packed-refs", root + "/.git/refs/heads/MAIN"} {
		out := hooktest.Run(t, handlers, feature, "PreToolUse", "PreToolUse/write", map[string]any{"tool_input.file_path": path})
		deny(t, out, "where git keeps the protected branches")
	}
	allow(t, hooktest.Run(t, handlers, feature, "PreToolUse", "PreToolUse/write", map[string]any{"tool_input.file_path": root + "/.git/refs/heads/topic"}))
	allow(t, hooktest.Run(t, handlers, feature, "PreToolUse", "PreToolUse/write", map[string]any{"tool_input.file_path": root + "/.git/info/exclude"}))
}
