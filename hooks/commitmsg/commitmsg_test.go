package commitmsg_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/magehook/magehook/hooks/commitmsg"
	"github.com/magehook/magehook/internal/gittest"
)

func TestClean(t *testing.T) {
	in := "feat: add the parser\n\nIt reads .toolingrc.\n\n🤖 Generated with [Claude Code](https://claude.com/claude-code)\n\nCo-Authored-By: Claude <noreply@anthropic.com>\nCo-Authored-By: Alice <alice@example.com>\n\n# Please enter the commit message\n"
	want := "feat: add the parser\n\nIt reads .toolingrc.\n\nCo-Authored-By: Alice <alice@example.com>\n\n# Please enter the commit message\n"
	if got := commitmsg.Clean(in); got != want {
		t.Errorf("Clean\n got %q\nwant %q", got, want)
	}
	plain := "fix: keep the claude.md loader\n\nMentions Claude in prose, which stays.\n"
	if got := commitmsg.Clean(plain); got != plain {
		t.Errorf("ordinary text changed: %q", got)
	}
	if got := commitmsg.Clean("x\n\n🤖\nGenerated with Claude Code\n"); got != "x\n" {
		t.Errorf("robot line: %q", got)
	}
}

func TestCheckConventional(t *testing.T) {
	good := []string{"feat: add x", "fix(parser): handle y", "feat!: drop z", "refactor(a/b)!: move", "chore(deps): bump",
		"# comment\n\ndocs: readme", "Merge branch 'x'", "Revert \"feat: x\"", "fixup! feat: x"}
	for _, m := range good {
		if err := commitmsg.CheckConventional(m); err != nil {
			t.Errorf("%q: %v", m, err)
		}
	}
	bad := map[string]string{
		"Add the parser":     "has no type",
		"Feat: add":          "must be lower case",
		"feature: add":       `"feature" is not a Conventional Commit type`,
		"feat:add":           "one space after the colon",
		"feat: ":             "one space after the colon",
		"":                   "empty",
		"# only a comment\n": "empty",
	}
	for m, why := range bad {
		err := commitmsg.CheckConventional(m)
		if err == nil || !strings.Contains(err.Error(), why) {
			t.Errorf("%q: %v, want %q", m, err, why)
		}
	}
}

func TestInstallChainsIntoAForeignHook(t *testing.T) {
	ctx := context.Background()
	root := gittest.Repo(t, nil)
	path, changed, err := commitmsg.Install(ctx, root, "/opt/bin/magehook")
	if err != nil || !changed || path != filepath.Join(root, ".git", "hooks", "commit-msg") {
		t.Fatalf("%s %v %v", path, changed, err)
	}
	if _, changed, _ := commitmsg.Install(ctx, root, "/opt/bin/magehook"); changed {
		t.Error("a second install changed the hook")
	}
	if _, _, err := commitmsg.Uninstall(ctx, root); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); err == nil {
		t.Error("uninstall left the hook magehook wrote")
	}

	foreign := "#!/usr/bin/env bash\nset -e\nnpx commitlint --edit \"$1\"\nexit 0\n"
	os.WriteFile(path, []byte(foreign), 0o750)
	if _, changed, err := commitmsg.Install(ctx, root, "/opt/bin/magehook"); err != nil || !changed {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	lines := strings.Split(string(data), "\n")
	if lines[0] != "#!/usr/bin/env bash" || !strings.Contains(lines[1], `"/opt/bin/magehook" git:commitMsg "$1"`) || !strings.Contains(string(data), "npx commitlint") {
		t.Errorf("chained hook:\n%s", data)
	}
	if info, _ := os.Stat(path); info.Mode().Perm() != 0o750 {
		t.Errorf("mode changed to %v", info.Mode().Perm())
	}
	commitmsg.Uninstall(ctx, root)
	if data, _ := os.ReadFile(path); string(data) != foreign {
		t.Errorf("uninstall did not give back the foreign hook:\n%s", data)
	}

	os.WriteFile(path, []byte("#!/usr/bin/env python3\nprint(1)\n"), 0o755)
	if _, _, err := commitmsg.Install(ctx, root, "/opt/bin/magehook"); err == nil || !strings.Contains(err.Error(), "not a shell script") {
		t.Errorf("a non-shell hook: %v", err)
	}
}

func TestInstallFollowsHooksPathAndWorktrees(t *testing.T) {
	ctx := context.Background()
	root := gittest.Repo(t, nil)
	gittest.Git(t, root, "config", "core.hooksPath", ".githooks")
	wt := filepath.Join(t.TempDir(), "wt")
	gittest.Git(t, root, "worktree", "add", "-q", "-b", "w", wt)
	path, _, err := commitmsg.Install(ctx, wt, "/opt/bin/magehook")
	if err != nil {
		t.Fatal(err)
	}
	if path != filepath.Join(wt, ".githooks", "commit-msg") {
		t.Errorf("hook at %s; core.hooksPath is relative to the worktree git runs in", path)
	}
}

func TestProcessRewritesAndRefuses(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "COMMIT_EDITMSG")
	os.WriteFile(f, []byte("add stuff\n\nCo-Authored-By: Claude <noreply@anthropic.com>\n"), 0o644)
	if err := commitmsg.Process(f, false); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(f); string(data) != "add stuff\n" {
		t.Errorf("%q", data)
	}
	if err := commitmsg.Process(f, true); err == nil {
		t.Error("a non-conventional subject passed")
	}
}

func TestVersionedProjectsAreChecked(t *testing.T) {
	const bad = "Add f\n\nCo-Authored-By: Claude <noreply@anthropic.com>\n"
	check := func(root, conventional, msg string) (string, error) {
		file := filepath.Join(t.TempDir(), "COMMIT_EDITMSG")
		os.WriteFile(file, []byte(msg), 0o644)
		err := commitmsg.Check(context.Background(), file, root, conventional)
		data, _ := os.ReadFile(file)
		return string(data), err
	}
	plain := t.TempDir()
	if got, err := check(plain, "", bad); err != nil || got != "Add f\n" {
		t.Errorf("a project without versioning is only stripped: %q %v", got, err)
	}
	if _, err := check(plain, "yes", bad); err == nil || !strings.Contains(err.Error(), "has no type") {
		t.Errorf("commit.conventional yes checks anywhere: %v", err)
	}
	for _, marker := range []string{".versionrc.json", "commitlint.config.js", ".commitlintrc.yml"} {
		root := t.TempDir()
		os.WriteFile(filepath.Join(root, marker), []byte("{}\n"), 0o644)
		if _, err := check(root, "", bad); err == nil || !strings.Contains(err.Error(), "has no type") {
			t.Errorf("%s marks a versioned project: %v", marker, err)
		}
		if _, err := check(root, "", "feat: add f\n"); err != nil {
			t.Errorf("%s: %v", marker, err)
		}
		if _, err := check(root, "no", bad); err != nil {
			t.Errorf("commit.conventional no is the explicit switch: %v", err)
		}
	}
}

func TestCommitlintIsUsedWhenInstalled(t *testing.T) {
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "commitlint.config.js"), []byte("module.exports = {}\n"), 0o644)
	bin := filepath.Join(root, "node_modules", ".bin")
	os.MkdirAll(bin, 0o755)
	// A stand-in for commitlint at the process boundary: it reads the file
	// --edit names, refuses a subject without "type: " or a message that
	// still holds the boilerplate, and says which, as commitlint does.
	script := "#!/bin/sh\n[ \"$1\" = --edit ] || { echo usage >&2; exit 9; }\n" +
		"grep -q Claude \"$2\" && { echo '✖ boilerplate left' ; exit 1; }\n" +
		"head -1 \"$2\" | grep -qE '^[a-z]+: ' || { echo '✖   subject may not be empty [subject-empty]'; exit 1; }\n" +
		"echo ok > \"$PWD/linted\"\n"
	os.WriteFile(filepath.Join(bin, "commitlint"), []byte(script), 0o755)
	file := filepath.Join(t.TempDir(), "COMMIT_EDITMSG")
	os.WriteFile(file, []byte("Add f\n\nCo-Authored-By: Claude <noreply@anthropic.com>\n"), 0o644)
	err := commitmsg.Check(context.Background(), file, root, "")
	if err == nil || !strings.Contains(err.Error(), "commitlint refused the message:\n✖   subject may not be empty [subject-empty]") {
		t.Errorf("commitlint's verdict, on the cleaned message: %v", err)
	}
	os.WriteFile(file, []byte("Feat: add f\n"), 0o644) // the built-in check would refuse the capital
	os.WriteFile(filepath.Join(bin, "commitlint"), []byte("#!/bin/sh\necho ok > \"$PWD/linted\"\n"), 0o755)
	if err := commitmsg.Check(context.Background(), file, root, ""); err != nil {
		t.Errorf("commitlint decides, not the built-in check: %v", err)
	}
	if _, err := os.Stat(filepath.Join(root, "linted")); err != nil {
		t.Error("commitlint did not run in the root")
	}
}
