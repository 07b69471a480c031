package gitcmd_test

import (
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/magehook/magehook/pkg/gitcmd"
)

// The table: a command, and what it runs as "op@dir" (a '?' after the dir
// marks an unknown directory), comma-separated, or "" for nothing.
var table = []struct {
	cmd, want string
}{
	// Plain forms.
	{`git commit -m "fix"`, "commit@/repo"},
	{`git push`, "push@/repo"},
	{`git push origin main`, "push@/repo"},
	{`git commit --amend --no-edit`, "commit@/repo"},
	{`git status`, ""},
	{`git log --oneline | head`, ""},
	{`/usr/bin/git commit -am x`, "commit@/repo"},
	{`/opt/homebrew/bin/git push -u origin HEAD`, "push@/repo"},
	{`"git" 'commit' -m x`, "commit@/repo"},
	{`gi\t commit`, "commit@/repo"},
	{`git\ commit`, ""}, // one word "git commit": no such command
	// A case-insensitive file system (macOS, Windows) runs git for GIT, and
	// Git Bash runs git.exe.
	{`GIT commit -m x`, "commit@/repo"},
	{`Git.EXE push`, "push@/repo"},
	{`C:\\Git\\bin\\git.exe commit`, "commit@/repo"},
	{`SUDO git push`, "push@/repo"},
	{"gi\u200dt commit", "commit@/repo"}, // HFS+ ignores the zero-width joiner
	{`BASH -c 'git commit'`, "commit@/repo"},

	// Global options.
	{`git -C /other commit -m x`, "commit@/other"},
	{`git -C sub commit`, "commit@/repo/sub"},
	{`git -C a -C b push`, "push@/repo/a/b"},
	{`git -c user.name=x commit -m y`, "commit@/repo"},
	{`git -c core.hooksPath=/dev/null push`, "push@/repo"},
	{`git --no-pager commit`, "commit@/repo"},
	{`git -p push`, "push@/repo"},
	{`git --git-dir=/r/.git --work-tree=/r commit`, "commit@/repo"},
	{`git --git-dir /r/.git push`, "push@/repo"},
	{`git --work-tree=/w commit`, "commit@/w"},
	{`git --namespace foo push`, "push@/repo"},
	{`git --literal-pathspecs --no-optional-locks commit`, "commit@/repo"},
	{`git -C "$dir" commit`, "commit@?"},
	{`git -c alias.ci=commit ci -m x`, "commit@/repo"},
	{`git -c 'alias.sync=!git push' sync`, "push@/repo"},
	{`git -c alias.st=status st`, ""},

	// Not commit or push.
	{`git commit-tree HEAD^{tree} -m x`, ""},
	{`git stash push -m wip`, ""},
	{`git stash`, ""},
	{`git pull --rebase`, ""},
	{`git fetch origin`, ""},
	{`git log --grep "git push"`, ""},
	{`git show HEAD:commit`, ""},
	{`git help commit`, ""},
	{`git config alias.pushall push`, ""},
	{`git remote set-url --push origin x`, ""},
	{`git rev-parse --verify HEAD`, ""},

	// Data, not commands.
	{`echo git commit -m x`, ""},
	{`echo "git push"`, ""},
	{`printf '%s\n' "git commit"`, ""},
	{`grep -r "git commit" .`, ""},
	{`rg 'git push' docs/`, ""},
	{`git commit -m "then git push"`, "commit@/repo"},
	{`# git commit -m x`, ""},
	{`ls # git push`, ""},
	{"cat <<EOF\ngit commit -m x\nEOF", ""},
	{"cat <<'EOF' > notes.md\ngit push origin main\nEOF", ""},
	{`man git-commit`, ""},
	{`which git`, ""},
	{`command -v git`, ""},
	{`type git`, ""},
	{`git_commit_helper`, ""},
	{`gitcommit`, ""},
	{`echo $(echo git push)`, ""},
	{`x="git push"`, ""},
	{`alias gp="git push"`, ""},
	{`: git push`, ""},
	{`true || echo git commit`, ""},

	// Lists and pipelines.
	{`git add -A && git commit -m x`, "commit@/repo"},
	{`git commit -m x && git push`, "commit@/repo,push@/repo"},
	{`make test || git push`, "push@/repo"},
	{`git add .; git commit -m x; git push`, "commit@/repo,push@/repo"},
	{`yes | git commit`, "commit@/repo"},
	{`git push 2>&1 | tee log`, "push@/repo"},
	{`git push &`, "push@/repo"},
	{`! git commit`, "commit@/repo"},

	// Subshells, groups, substitutions.
	{`(git commit -m x)`, "commit@/repo"},
	{`{ git add .; git commit -m x; }`, "commit@/repo"},
	{`out=$(git commit -m x)`, "commit@/repo"},
	{"echo `git push`", "push@/repo"},
	{`echo "$(git push 2>&1)"`, "push@/repo"},
	{`diff <(git push --dry-run) /dev/null`, "push@/repo"},
	{`echo ${X:-$(git commit)}`, "commit@/repo"},
	{`local r=$(git push)`, "push@/repo"},
	{`export R=$(git commit -q)`, "commit@/repo"},

	// Control flow.
	{`if git diff --quiet; then echo clean; else git commit -am x; fi`, "commit@/repo"},
	{`if true; then git push; fi`, "push@/repo"},
	{`for r in a b; do git -C $r push; done`, "push@/repo/a,push@/repo/b,push@/repo/b"},
	{`for f in *.go; do gofmt -w $f; done && git commit -am fmt`, "commit@/repo"},
	{`while true; do git push && break; done`, "push@/repo,push@/repo"},
	{`until git push; do sleep 1; done`, "push@/repo,push@/repo"},
	{`case $x in y) git commit ;; esac`, "commit@/repo"},
	{`[[ -n $x ]] && git push`, "push@/repo"},
	{`test -f x && git commit`, "commit@/repo"},

	// Functions.
	{`ship() { git push; }; ship`, "push@/repo"},
	{`ship() { git push; }`, ""},
	{`function c { git commit -m "$1"; }; c msg`, "commit@/repo"},
	{`f() { g; }; g() { git push; }; f`, "push@/repo"},
	{`f() { f; }; f`, ""},

	// Wrappers.
	{`env GIT_AUTHOR_NAME=x git commit`, "commit@/repo"},
	{`env -i PATH=/bin git push`, "push@/repo"},
	{`env -C /other git push`, "push@/other"},
	{`env -u HOME git commit`, "commit@/repo"},
	{`GIT_DIR=x git commit`, "commit@/repo"},
	{`A=1 B=2 git push`, "push@/repo"},
	{`sudo git push`, "push@/repo"},
	{`sudo -u deploy git push`, "push@/repo"},
	{`sudo -E -u deploy -- git commit`, "commit@/repo"},
	{`time git push`, "push@/repo"},
	{`/usr/bin/time -v git commit`, "commit@/repo"},
	{`nohup git push &`, "push@/repo"},
	{`nice -n 10 git commit`, "commit@/repo"},
	{`nice git push`, "push@/repo"},
	{`timeout 60 git push`, "push@/repo"},
	{`timeout -s KILL 60 git push`, "push@/repo"},
	{`timeout 60`, ""},
	{`echo x | xargs git commit -m`, "commit@/repo"},
	{`xargs -n1 git push < remotes`, "push@/repo"},
	{`exec git push`, "push@/repo"},
	{`command git commit`, "commit@/repo"},
	{`builtin command git push`, "push@/repo"},
	{`stdbuf -oL git push`, "push@/repo"},
	{`ionice -c3 git commit`, "commit@/repo"},

	// Nested shells.
	{`bash -c "git commit -m x"`, "commit@/repo"},
	{`sh -c 'git push'`, "push@/repo"},
	{`bash -lc 'cd /x && git push'`, "push@/x"},
	{`zsh -c "echo git push"`, ""},
	{`bash -c "bash -c 'git push'"`, "push@/repo"},
	{`bash script.sh`, ""},
	{`bash -c "$CMD"`, ""},
	{`eval "git push"`, "push@/repo"},
	{`eval git commit -m x`, "commit@/repo"},
	{`ssh host git push`, ""},

	// Directories.
	{`cd /other && git commit`, "commit@/other"},
	{`cd sub; git push`, "push@/repo/sub"},
	// A cd to a directory that does not exist and that nothing in the
	// command makes fails: what follows ; runs where the shell was.
	{`cd new.d; git push`, "push@/repo"},
	{`cd new.d; cd sub; git push`, "push@/repo/sub"},
	{`cd new.d && git push; git commit`, "push@/repo,commit@/repo"},
	{`pushd new.d; git push`, "push@/repo"},
	// ... one the command makes is where it goes, after ; too.
	{`mkdir new.d; cd new.d; git push`, "push@/repo/new.d"},
	{`mkdir -p new.d/x.d; cd new.d; git commit`, "commit@/repo/new.d"},
	{`git init new.d; cd new.d; git commit`, "commit@/repo/new.d"},
	{`git clone /src new.d; cd new.d; git push`, "push@/repo/new.d"},
	{`git worktree add new.d; cd new.d; git commit`, "commit@/repo/new.d"},
	// ... and one something else may make leaves the directory unknown.
	{`tar -xf a.tar; cd new.d; git push`, "push@?"},
	{`cp -r /src new.d; cd new.d; git push`, "push@?"},
	{`ln -s /other new.d; cd new.d; git push`, "push@?"},
	{`ln -s /other new.d && cd new.d && git push`, "push@?"},
	{`ln -s /other new.d && cd new.d/sub && git push`, "push@?"},
	{`mkdir "$d"; cd new.d; git push`, "push@?"},
	{`python3 -c 'import os; os.system(x)'; cd new.d; git push`, "push@?"},
	{`cd /a && cd b && git push`, "push@/a/b"},
	{`(cd /other && git push) && git commit`, "push@/other,commit@/repo"},
	{`cd /other | git push`, "push@/repo"},
	{`cd "$WORKTREE" && git commit`, "commit@?"},
	{`cd && git push`, "push@/home/u"},
	{`cd ~/proj && git push`, "push@/home/u/proj"},
	{`cd - && git push`, "push@?"},
	{`pushd /x && git commit && popd && git push`, "commit@/x,push@/repo"},
	{`cd /x & git push`, "push@/repo"},
	{`git -C ../sibling push`, "push@/sibling"},
	{`ls | xargs -I{} git -C {} push`, "push@?"},
	{`find . -name x -exec git commit -m y \;`, "commit@/repo"},
	{`find . -type d -execdir git push \;`, "push@?"},
	{`find . -name '*.go' -exec gofmt -l {} +`, ""},
	{`function git() { echo; }; git status`, ""},

	// Scripts a shell reads from stdin.
	{`echo "git push" | bash`, "push@/repo"},
	{`printf 'git commit -m x\n' | sh`, "commit@/repo"},
	{`bash <<< "git push"`, "push@/repo"},
	{"bash <<'EOF'\ncd /x\ngit push\nEOF", "push@/x"},
	{`echo "git push" | cat`, ""},
	{`echo "git push" > x.sh`, ""},
	{`cat script.sh | bash`, ""},

	// GIT_DIR and GIT_WORK_TREE.
	{`GIT_WORK_TREE=/w git commit`, "commit@/w"},
	{`export GIT_WORK_TREE=/w; git push`, "push@/w"},
	{`GIT_DIR="$D" git commit`, "commit@?"},
	{`GIT_WORK_TREE=/w true; git push`, "push@/repo"},
}

// fakeFS: every path whose base name has no dot is a directory.
type dirInfo struct{ fs.FileInfo }

func (dirInfo) IsDir() bool { return true }

func fakeStat(p string) (fs.FileInfo, error) {
	if strings.Contains(filepath.Base(p), ".") {
		return nil, fs.ErrNotExist
	}
	return dirInfo{}, nil
}

func testOptions() gitcmd.Options {
	return gitcmd.Options{Dir: "/repo", Home: "/home/u", Stat: fakeStat, Getenv: func(string) string { return "" }}
}

// gitOps is the table's view of an analysis: every git commit and push,
// as op@dir (dir? when unknown).
func gitOps(a *gitcmd.Analysis) string {
	var parts []string
	for _, c := range a.Commands {
		g := c.Git
		if g == nil || (g.Sub != "commit" && g.Sub != "push") || g.Help {
			continue
		}
		s := g.Sub + "@" + g.Dir
		if g.WorkTree != "" && g.GitDir == "" {
			s = g.Sub + "@" + g.WorkTree
		}
		if g.DirDynamic != "" || g.GitDirDynamic != "" {
			s = g.Sub + "@?"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, ",")
}

func TestAnalyze(t *testing.T) {
	if len(table) < 100 {
		t.Fatalf("the table must hold at least 100 commands, it holds %d", len(table))
	}
	for _, tt := range table {
		got, err := gitcmd.Analyze(tt.cmd, testOptions())
		if err != nil {
			t.Errorf("%q: %v", tt.cmd, err)
			continue
		}
		if g := gitOps(got); g != tt.want {
			t.Errorf("%q\n got %q\nwant %q", tt.cmd, g, tt.want)
		}
	}
}

func TestGitDir(t *testing.T) {
	for _, cmd := range []string{`git --git-dir=/r/.git commit`, `GIT_DIR=/r/.git git commit`, `export GIT_DIR=/r/.git; git commit`, `env GIT_DIR=/r/.git git commit`} {
		a, _ := gitcmd.Analyze(cmd, testOptions())
		var dirs []string
		for _, c := range a.Commands {
			if c.Git != nil && c.Git.Sub == "commit" {
				dirs = append(dirs, c.Git.GitDir)
			}
		}
		if len(dirs) != 1 || dirs[0] != "/r/.git" {
			t.Errorf("%s: %v", cmd, dirs)
		}
	}
}

func TestUnparsableRunsWholeLinesBefore(t *testing.T) {
	for _, tt := range []struct{ cmd, want string }{
		{`git commit -m "unterminated`, ""},
		{`if then fi`, ""},
		{"git push\necho $(", "push@/repo"},
		{"git commit -m x\n(git push", "commit@/repo"},
	} {
		a, err := gitcmd.Analyze(tt.cmd, testOptions())
		if err != nil || a.SyntaxError == nil || a.Unparsed == "" {
			t.Errorf("%q: want a syntax error and the unparsed rest, got %v %+v", tt.cmd, err, a)
			continue
		}
		if g := gitOps(a); g != tt.want {
			t.Errorf("%q: got %q, want %q", tt.cmd, g, tt.want)
		}
	}
}

func FuzzAnalyze(f *testing.F) {
	for _, tt := range table {
		f.Add(tt.cmd)
	}
	f.Fuzz(func(t *testing.T, cmd string) {
		gitcmd.Analyze(cmd, testOptions()) // must not panic or hang
	})
}

func BenchmarkAnalyze(b *testing.B) {
	cmd := "cd /repo/sub && go test ./... 2>&1 | tail -n 40 && git add -A && git commit -m \"$(cat <<'EOF'\nfix: handle it\nEOF\n)\" && git push origin HEAD"
	for b.Loop() {
		if _, err := gitcmd.Analyze(cmd, testOptions()); err != nil {
			b.Fatal(err)
		}
	}
}
