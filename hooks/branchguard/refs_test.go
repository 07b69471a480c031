package branchguard_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/magehook/magehook/hooks/branchguard"
	"github.com/magehook/magehook/internal/gittest"
	"github.com/magehook/magehook/pkg/hooktest"
)

// scratch is a world to run a command in: a checkout (root) with a linked
// worktree on feat, a bare origin whose main is one commit ahead, and a
// parked branch dev.
type scratch struct {
	root, feat, bare, home string
}

// newScratch copies a template world (built once per branch of the main
// checkout) and runs setup in it; rootOn names the branch the main
// checkout has checked out (main, or dev so that main is free).
func newScratch(t *testing.T, rootOn string, setup ...string) scratch {
	t.Helper()
	w, ok := templates[rootOn]
	if !ok {
		w.orig = t.TempDir()
		buildWorld(t, w.orig, rootOn)
		w.dir = w.orig
		if keep, err := os.MkdirTemp("", "branchguard-world-"); err == nil {
			if exec.Command("cp", "-a", w.orig+"/.", keep).Run() == nil {
				w.dir = keep
				templates[rootOn] = w
			}
		}
	}
	tmpl := w.dir
	base := t.TempDir()
	if out, err := exec.Command("cp", "-a", tmpl+"/.", base).CombinedOutput(); err != nil {
		t.Fatalf("copy the world: %v\n%s", err, out)
	}
	// The copy's absolute paths: the worktree links and origin's URL.
	for _, f := range []string{"repo/.git/config", "repo/.git/worktrees/feat/gitdir", "repo/.claude/worktrees/feat/.git"} {
		p := filepath.Join(base, f)
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(p, []byte(strings.ReplaceAll(string(data), w.orig, base)), 0o644)
	}
	s := scratch{root: filepath.Join(base, "repo"), bare: filepath.Join(base, "origin.git"), home: t.TempDir()}
	s.feat = filepath.Join(s.root, ".claude", "worktrees", "feat")
	for _, c := range setup {
		cmd := exec.Command("bash", "-c", c)
		cmd.Dir = s.root
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("setup %q: %v\n%s", c, err, out)
		}
	}
	return s
}

// templates are the worlds built so far, by the main checkout's branch.
// (orig is where a template was built: the paths inside it name orig.)
var templates = map[string]struct{ dir, orig string }{}

func TestMain(m *testing.M) {
	code := m.Run()
	for _, w := range templates {
		os.RemoveAll(w.dir)
	}
	os.Exit(code)
}

func buildWorld(t *testing.T, base, rootOn string) {
	git := func(dir string, args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	root := filepath.Join(base, "repo")
	bare := filepath.Join(base, "origin.git")
	git(base, "init", "-q", "--template=", "-b", "main", root)
	gittest.Commit(t, root, "initial", map[string]string{
		".toolingrc": "hook.enable branchguard\n",
		".gitignore": ".claude/\nbuild/\n*.log\n",
		"README.md":  "# r\n",
		"src/a.go":   "package a\n",
	})
	git(base, "clone", "-q", "--template=", "--bare", root, bare)
	git(root, "remote", "add", "origin", bare)
	git(root, "fetch", "-q", "origin")
	git(root, "branch", "-q", "--set-upstream-to=origin/main", "main")
	// origin's main moves ahead, from another clone.
	other := filepath.Join(t.TempDir(), "other")
	git(filepath.Dir(other), "clone", "-q", bare, other)
	gittest.Commit(t, other, "upstream", map[string]string{"UP.md": "up\n"})
	git(other, "push", "-q", "origin", "main")
	gittest.Commit(t, root, "second", map[string]string{"src/c.go": "package a\n"})
	git(root, "push", "-q", "origin", "main:side")
	git(root, "checkout", "-q", "-b", "dev")
	gittest.Commit(t, root, "dev work", map[string]string{"src/d.go": "package a\n"})
	git(root, "checkout", "-q", "main")
	feat := filepath.Join(root, ".claude", "worktrees", "feat")
	git(root, "worktree", "add", "-q", "-b", "feat", feat)
	gittest.Commit(t, feat, "feature work", map[string]string{"src/b.go": "package a\n"})
	git(feat, "push", "-q", "-u", "origin", "feat")
	if rootOn != "main" {
		git(root, "checkout", "-q", rootOn)
	}
	// Fewer files to copy per case (and packed refs, as real clones have).
	git(root, "gc", "-q")
	git(bare, "gc", "-q")
}

// mainCheckouts are the checkouts that have main checked out.
func (s scratch) mainCheckouts() []string {
	var out []string
	for _, dir := range []string{s.root, s.feat} {
		head := exec.Command("git", "symbolic-ref", "-q", "HEAD")
		head.Dir = dir
		b, _ := head.Output()
		if strings.TrimSpace(string(b)) == "refs/heads/main" {
			out = append(out, dir)
		}
	}
	return out
}

// state is what must not change: main here and on origin, and the files
// of the checkouts that had main checked out.
func (s scratch) state(t *testing.T, checkouts []string) string {
	t.Helper()
	refs := func(dir string) string {
		cmd := exec.Command("git", "for-each-ref", "--format=%(refname) %(objectname) %(symref)", "refs/heads/main", "refs/heads/master")
		cmd.Dir = dir
		out, _ := cmd.Output()
		return string(out)
	}
	st := refs(s.root) + "|" + refs(s.bare)
	for _, dir := range checkouts {
		status := exec.Command("git", "status", "--porcelain")
		status.Dir = dir
		out, _ := status.Output()
		st += "|" + dir + ":" + string(out)
	}
	return st
}

// moves runs the command with bash in dir and reports whether it moved
// main (here or on origin) or changed the checkout on main: the ground
// truth the guard is measured against.
func (s scratch) moves(t *testing.T, dir, command string) bool {
	t.Helper()
	checkouts := s.mainCheckouts()
	before := s.state(t, checkouts)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second) // a safety net, not a measure
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-c", command)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_PAGER=cat", "PAGER=cat", "MANPAGER=cat", "EDITOR=true")
	cmd.Stdin = strings.NewReader("")
	cmd.Run()
	return s.state(t, checkouts) != before
}

func (s scratch) decide(t *testing.T, dir, command string) (bool, string) {
	t.Helper()
	out := hooktest.Run(t, handlers, s.root, "PreToolUse", "PreToolUse/bash", map[string]any{"tool_input.command": command, "cwd": dir})
	if out.Code != 0 {
		t.Fatalf("%q: exit %d: %s", command, out.Code, out.Stderr)
	}
	return strings.Contains(out.Stdout, `"permissionDecision":"deny"`), out.Stdout
}

// refCase is one command; in is "root" or "feat", on the branch the main
// checkout has. closed marks a deny that is fail-closed (git may not move
// anything, but the guard cannot know).
type refCase struct {
	cmd    string
	in     string
	rootOn string
	deny   bool
	closed bool
	setup  []string
}

var refCases = []refCase{
	// Pushes to the protected branch of a remote, from a feature branch.
	{cmd: "git push origin HEAD:main -f", in: "feat", deny: true},
	{cmd: "git push -f origin feat:main", in: "feat", deny: true},
	{cmd: "git push origin +HEAD:refs/heads/main", in: "feat", deny: true},
	{cmd: "git push --force origin HEAD:heads/main", in: "feat", deny: true},
	{cmd: "git push --mirror origin", in: "feat", deny: true},
	// Spellings read by the shared grammar: --force-with-lease takes no
	// separate value, abbreviations and negations are options.
	{cmd: "git push --force-with-lease origin HEAD:main", in: "feat", deny: true, closed: true}, // the lease refuses here
	{cmd: "git push --force-w origin +HEAD:main", in: "feat", deny: true},
	{cmd: "git push --no-verif -f origin HEAD:main", in: "feat", deny: true},
	{cmd: "git push --force-with-lease origin feat", in: "feat"},
	{cmd: "git push --all -f origin", in: "feat", deny: true},
	{cmd: "git push -f origin 'refs/heads/*:refs/heads/*'", in: "feat", deny: true},
	{cmd: "git push origin --delete main", in: "feat", deny: true, closed: true},
	{cmd: "git push origin :main", in: "feat", deny: true, closed: true},
	{cmd: "git config remote.origin.push +HEAD:refs/heads/main && git push", in: "feat", deny: true},
	{cmd: "git config push.default upstream && git branch -u origin/main && git push -f", in: "feat", deny: true},
	// Local moves from another branch.
	{cmd: "git switch main && git commit --allow-empty -m x", in: "root", rootOn: "dev", deny: true},
	{cmd: "git checkout main && git merge --no-edit feat", in: "root", rootOn: "dev", deny: true},
	{cmd: "git update-ref refs/heads/main HEAD", in: "root", rootOn: "dev", deny: true},
	{cmd: "git branch -f main HEAD", in: "root", rootOn: "dev", deny: true},
	{cmd: "git branch -M main old", in: "root", rootOn: "dev", deny: true},
	{cmd: "git branch -D main", in: "root", rootOn: "dev", deny: true},
	{cmd: `c=$(git commit-tree 'HEAD^{tree}' -p HEAD -m x) && git update-ref refs/heads/main "$c"`, in: "root", rootOn: "dev", deny: true},
	{cmd: "git commit-tree 'HEAD^{tree}' -p HEAD -m x | xargs git update-ref refs/heads/main", in: "root", rootOn: "dev", deny: true},
	{cmd: "git fetch . dev:main", in: "root", rootOn: "dev", deny: true, closed: true},
	{cmd: "git fetch origin +main:main", in: "root", rootOn: "dev", deny: true},
	{cmd: "git checkout -B main feat", in: "root", rootOn: "dev", deny: true},
	{cmd: "git symbolic-ref HEAD refs/heads/main && git commit --allow-empty -m x", in: "root", rootOn: "dev", deny: true},
	{cmd: "git symbolic-ref refs/heads/alias refs/heads/main && git checkout -q alias && git commit --allow-empty -m x", in: "root", rootOn: "dev", deny: true},
	{cmd: "git rev-parse HEAD > .git/refs/heads/main", in: "root", rootOn: "dev", deny: true},
	// On main.
	{cmd: "git commit --allow-empty -m x", in: "root", deny: true},
	{cmd: "git merge --no-edit feat", in: "root", deny: true},
	{cmd: "git cherry-pick feat", in: "root", deny: true},
	{cmd: "git revert --no-edit HEAD", in: "root", deny: true},
	{cmd: "git pull --no-rebase --no-edit", in: "root", deny: true},
	{cmd: "git pull --rebase", in: "root", deny: true},
	{cmd: "git rebase feat", in: "root", deny: true},
	{cmd: "git reset --hard HEAD~1", in: "root", deny: true},
	{cmd: "git format-patch -1 feat --stdout > ../p.patch && git am ../p.patch", in: "root", deny: true},
	{cmd: "git -c help.autocorrect=immediate comit --allow-empty -m x", in: "root", deny: true},
	{cmd: "git -c alias.ci='commit --allow-empty -m x' ci", in: "root", deny: true},
	{cmd: "git ci", in: "root", deny: true, setup: []string{"git config alias.ci 'commit --allow-empty -m x'"}},
	{cmd: "git config alias.ci 'commit --allow-empty -m x'; git ci", in: "root", deny: true},
	{cmd: "git sh", in: "root", deny: true, setup: []string{`git config alias.sh '!git commit --allow-empty -m x'`}},
	{cmd: "bash -c -- 'git commit --allow-empty -m x'", in: "root", deny: true},
	{cmd: "env X=1 git commit --allow-empty -m x", in: "root", deny: true},
	{cmd: "flock /tmp/branchguard-test.lock git commit --allow-empty -m x", in: "root", deny: true},
	{cmd: "timeout 20 nice -n 1 git commit --allow-empty -m x", in: "root", deny: true},
	{cmd: `eval "git commit --allow-empty -m x"`, in: "root", deny: true},
	{cmd: "$(git --exec-path)/git-commit --allow-empty -m x", in: "root", deny: true},
	{cmd: "echo 'git commit --allow-empty -m x' | sh", in: "root", deny: true},
	{cmd: `python3 -c "import subprocess; subprocess.run(['git','commit','--allow-empty','-m','x'])"`, in: "root", deny: true},
	{cmd: "./ship.sh", in: "root", deny: true, setup: []string{"printf 'git commit --allow-empty -m x\\n' > .claude/ship.sh && chmod +x .claude/ship.sh && cp .claude/ship.sh ship.sh && echo ship.sh >> .git/info/exclude"}},
	{cmd: "shopt -s expand_aliases\nalias g=git\ng commit --allow-empty -m x", in: "root", deny: true},
	{cmd: "printf '%s\\n' 'git commit --allow-empty -m x' > ../s.sh && bash ../s.sh", in: "root", deny: true},
	{cmd: "cat > ../s.sh <<'EOF'\ngit commit --allow-empty -m x\nEOF\nsh ../s.sh", in: "root", deny: true},
	{cmd: "GIT_EDITOR='git commit --allow-empty -m y' git commit --allow-empty -m x", in: "root", deny: true},
	{cmd: "git -c core.editor='git push -f origin HEAD:main' commit --allow-empty", in: "feat", deny: true, closed: true},
	{cmd: "git -c core.editor='git push -f origin HEAD:main; true' commit --allow-empty", in: "feat", deny: true},
	{cmd: "git rebase -x 'git push -f origin HEAD:main' HEAD~1", in: "feat", deny: true},
	{cmd: "git -c remote.origin.push=+HEAD:main push", in: "feat", deny: true},
	{cmd: "git fetch -f origin 'refs/heads/*:refs/heads/*'", in: "root", rootOn: "dev", deny: true, closed: true},
	// Environment and directories, from the feature worktree.
	{cmd: "cd ../../.. && git commit --allow-empty -m x", in: "feat", deny: true},
	{cmd: "cd ~+/../../.. && git commit --allow-empty -m x", in: "feat", deny: true},
	{cmd: "git -C ../../.. commit --allow-empty -m x", in: "feat", deny: true},
	{cmd: "export GIT_DIR=../../../.git GIT_WORK_TREE=../../..; git commit --allow-empty -m x", in: "feat", deny: true},
	{cmd: "GIT_DIR=../../../.git; export GIT_DIR; git commit --allow-empty -m x", in: "feat", deny: true},
	{cmd: "declare -x GIT_DIR=../../../.git; git commit --allow-empty -m x", in: "feat", deny: true},
	{cmd: "typeset -x GIT_DIR=../../../.git; git commit --allow-empty -m x", in: "feat", deny: true},
	{cmd: "set -a; GIT_DIR=../../../.git; git commit --allow-empty -m x", in: "feat", deny: true},
	{cmd: "git --git-dir=../../../.git --work-tree=../../.. commit --allow-empty -m x", in: "feat", deny: true},
	{cmd: `cd "$(git rev-parse --git-common-dir)/.." && git commit --allow-empty -m x`, in: "feat", deny: true},
	// Writes into the checkout on main.
	{cmd: "echo x > README.md", in: "root", deny: true},
	{cmd: "echo x >> ../../../README.md", in: "feat", deny: true},
	{cmd: "sed -i s/r/R/ README.md", in: "root", deny: true},
	{cmd: "tee -a README.md <<< x", in: "root", deny: true},
	{cmd: "cp README.md copy.md", in: "root", deny: true},
	{cmd: "mv README.md R.md", in: "root", deny: true},
	{cmd: "rm src/a.go", in: "root", deny: true},
	{cmd: "touch new.txt", in: "root", deny: true},
	{cmd: "git apply <<'EOF'\ndiff --git a/README.md b/README.md\n--- a/README.md\n+++ b/README.md\n@@ -1 +1 @@\n-# r\n+# R\nEOF", in: "root", deny: true},
	{cmd: `python3 -c "open('README.md','w').write('x')"`, in: "root", deny: true},
	// Allowed: nothing protected moves.
	{cmd: "git commit --allow-empty -m x", in: "feat"},
	{cmd: "git push origin HEAD", in: "feat"},
	{cmd: "git push -u origin feat", in: "feat"},
	{cmd: "git push", in: "feat"},
	{cmd: "git fetch origin && git rebase origin/main", in: "feat"},
	{cmd: "git merge --no-edit main", in: "feat"},
	{cmd: "echo x > notes.txt && git add notes.txt && git commit -m notes", in: "feat"},
	{cmd: "git push --dry-run origin HEAD:main", in: "feat"},
	{cmd: "git push -n -f origin HEAD:main", in: "feat"},
	{cmd: "git switch -c fix && git commit --allow-empty -m x", in: "root"},
	{cmd: "git checkout -b fix; git commit --allow-empty -m x", in: "root"},
	{cmd: "git stash && git checkout -b fix && git stash pop", in: "root"},
	{cmd: "git commit --dry-run", in: "root"},
	{cmd: "git commit -h", in: "root"},
	{cmd: "git push -h", in: "root"},
	{cmd: "git --version && git --exec-path", in: "root"},
	{cmd: "git help -a > /dev/null", in: "root"},
	{cmd: "git status && git log --oneline -3 && git diff main", in: "root"},
	{cmd: "git diff > /tmp/branchguard-test.diff", in: "root"},
	{cmd: "mkdir -p build && echo x > build/out.log", in: "root"},
	{cmd: "mkdir -p sub && cd sub && pwd", in: "root"},
	{cmd: "git fetch origin", in: "root"},
	{cmd: "git fetch origin main", in: "root"},
	{cmd: "git branch -a && git branch --show-current && git branch topic", in: "root"},
	{cmd: "git tag v1", in: "root"},
	{cmd: "git checkout -- README.md && git reset --hard", in: "root"},
	{cmd: "git rebase --abort; git merge --abort; true", in: "root"},
	{cmd: "git worktree add -q ../wt2 -b wt2", in: "root"},
	{cmd: `echo "unterminated`, in: "root"},
	{cmd: "python3 -c 'print(1)'", in: "root"},
	{cmd: "go version > /dev/null", in: "root"},
	{cmd: "cat README.md | wc -l", in: "root"},
	{cmd: "git log --grep 'git push origin main'", in: "root"},
	{cmd: `echo "git commit -m x" > /tmp/branchguard-note.txt`, in: "root"},
	{cmd: "git switch main", in: "root", rootOn: "dev"},
	{cmd: "git push --tags", in: "root"},
	{cmd: "git merge --no-ff --no-commit feat", in: "root", deny: true},
	{cmd: "git merge --squash feat", in: "root", deny: true},
	{cmd: "git cherry-pick -n feat", in: "root", deny: true},
	{cmd: "git checkout feat -- src/b.go", in: "root", deny: true},
	{cmd: "git restore --source=feat src/b.go", in: "root", deny: true},
	{cmd: "git stash pop", in: "root", deny: true, setup: []string{"echo y > README.md && git stash -q"}},
	{cmd: `python3 -c "import os; os.system('ls > /dev/null')"`, in: "root"},
	{cmd: "git reset HEAD README.md && git reset -- src", in: "root"},
	{cmd: "git restore --staged README.md", in: "root"},
	{cmd: "git update-ref refs/heads/feat2 HEAD", in: "root"},
	{cmd: "git branch -m feat2 && true", in: "root", deny: true},
	{cmd: "git checkout main && git log -1", in: "root", rootOn: "dev"},
	{cmd: "git commit --allow-empty -m x", in: "root", rootOn: "dev"},
	{cmd: "git branch -f dev2 HEAD && git branch -D dev2", in: "root", rootOn: "dev"},
	// Fail closed: only run time knows.
	{cmd: `git -C "$(mktemp -d)" commit --allow-empty -m x`, in: "root", deny: true, closed: true},
	{cmd: `sub=commit; git $sub --allow-empty -m x`, in: "root", deny: true},
	{cmd: `git "$(echo commit)" --allow-empty -m x`, in: "root", deny: true, closed: true},
	{cmd: `bash -c "$CMD"`, in: "root", deny: true, closed: true},
}

// TestRefMovingAgainstGit runs every case twice: through the guard, and
// for real with bash in a fresh scratch world, where the ground truth is
// whether main (here or on origin) or its checkout changed.
func TestRefMovingAgainstGit(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a git world per case")
	}
	gittest.Isolate(t)
	t.Setenv("HOME", t.TempDir())
	newScratch(t, "main") // the templates, before the cases run in parallel
	newScratch(t, "dev")
	for _, tc := range refCases {
		t.Run(tc.cmd, func(t *testing.T) {
			t.Parallel()
			rootOn := tc.rootOn
			if rootOn == "" {
				rootOn = "main"
			}
			s := newScratch(t, rootOn, tc.setup...)
			dir := s.root
			if tc.in == "feat" {
				dir = s.feat
			}
			denied, out := s.decide(t, dir, tc.cmd)
			if denied != tc.deny {
				t.Errorf("guard: denied %v, want %v\n%s", denied, tc.deny, out)
			}
			moved := s.moves(t, dir, tc.cmd)
			switch {
			case tc.deny && !tc.closed && !moved:
				t.Errorf("ground truth: git moved nothing protected, so this deny is a false block")
			case !tc.deny && moved:
				t.Errorf("ground truth: git moved a protected branch or changed its checkout: a bypass")
			}
		})
	}
}

// fragments are the pieces FuzzAgainstGit builds commands from: safe to
// run in a scratch world, and each able to move main or not.
var fragments = []string{
	"git commit --allow-empty -m x",
	"git switch main",
	"git switch -c topic",
	"git checkout dev",
	"git checkout -",
	"cd ../../..",
	"cd .claude/worktrees/feat",
	"git push -f origin HEAD:main",
	"git push origin HEAD",
	"git push -f",
	"git branch -f main HEAD",
	"git reset --hard HEAD~1",
	"echo x > README.md",
	"echo x > notes.log",
	"git stash",
	"git merge --no-edit feat",
	"export GIT_DIR=$PWD/.git",
	"git update-ref refs/heads/main HEAD",
	"git symbolic-ref HEAD refs/heads/main",
	"git config alias.c 'commit --allow-empty -m y'",
	"git c",
	"git fetch -q origin",
	"git rebase origin/main",
	"true",
	"false",
}

var joiners = []string{" && ", "; ", " || ", "\n"}

var wrappers = []string{"", "env X=1 ", "command ", "timeout 20 ", "nice "}

// FuzzAgainstGit generates commands from fragments, runs each through the
// guard and for real in a scratch world, and fails on a bypass: git moved
// main (here or on origin) or changed its checkout, and the guard allowed
// it. (False blocks are not failures here; the table measures them.)
func FuzzAgainstGit(f *testing.F) {
	for _, seed := range [][]byte{{0, 0, 0}, {1, 2, 0, 0}, {3, 7, 0, 1}, {5, 0, 0, 0}, {2, 0, 1, 0, 0, 3, 1}, {19, 0, 0, 0}, {16, 1, 0, 0}, {20, 3, 21}} {
		f.Add(seed)
	}
	gittest.Isolate(f)
	f.Setenv("HOME", f.TempDir())
	f.Fuzz(func(t *testing.T, choice []byte) {
		if len(choice) < 2 {
			return
		}
		rootOn := "main"
		if choice[0]&1 == 1 {
			rootOn = "dev"
		}
		inFeat := choice[0]&2 == 2
		var b strings.Builder
		for i := 1; i+1 < len(choice) && i < 10; i += 2 {
			if i > 1 {
				b.WriteString(joiners[int(choice[i])%len(joiners)])
			}
			b.WriteString(wrappers[int(choice[i+1])>>4%len(wrappers)])
			b.WriteString(fragments[int(choice[i+1])%len(fragments)])
		}
		if len(choice)%2 == 0 {
			b.WriteString(" && " + fragments[int(choice[len(choice)-1])%len(fragments)])
		}
		command := b.String()
		s := newScratch(t, rootOn)
		dir := s.root
		if inFeat {
			dir = s.feat
		}
		denied, out := s.decide(t, dir, command)
		if s.moves(t, dir, command) && !denied {
			t.Errorf("bypass: %q in %s (main checkout on %s) moved main or changed its checkout, and the guard allowed it\n%s", command, dir, rootOn, out)
		}
	})
}

// BenchmarkCheck is the decision on a typical command in a real checkout:
// the analysis, the repository's HEAD, the effects.
func BenchmarkCheck(b *testing.B) {
	root := gittest.Repo(b, nil)
	in := branchguard.Input{Command: "cd " + root + " && go test ./... 2>&1 | tail -n 40 && git add -A && git commit -m \"$(cat <<'EOF'\nfix: handle it\nEOF\n)\" && git push origin HEAD", Dir: root, Protect: []string{"main", "master"}}
	for b.Loop() {
		if _, err := branchguard.Check(in); err != nil {
			b.Fatal(err)
		}
	}
}
