package gitcmd

import (
	"slices"
	"strings"
	"testing"
)

// TestGitGrammar: each spelling git accepts reads as its canonical form,
// and what git would reject or the grammar does not know stays as written.
func TestGitGrammar(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"git reset --har HEAD", "reset --hard HEAD"},
		{"git reset --hard", "reset --hard"},
		{"git restore -SW :/", "restore -S -W :/"},
		{"git checkout -qf main", "checkout -q -f main"},
		{"git commit -am msg", "commit -a -m msg"},
		{"git commit -mmsg", "commit -m msg"},
		{"git commit -m --hard", "commit -m --hard"},
		{"git push --forc origin HEAD:main", "push --forc origin HEAD:main"}, // ambiguous in git too
		{"git push --force-w origin x", "push --force-with-lease origin x"},
		{"git push --no-verif", "push --no-verify"},
		{"git push --no-ver", "push --no-ver"}, // --no-verbose or --no-verify
		{"git push --verify", "push --verify"},
		{"git push --f", "push --f"}, // ambiguous: git refuses it
		{"git clean -fdx", "clean -f -d -x"},
		{"git stash push -um x", "stash push -u -m x"},
		{"git stash -ku", "stash -k -u"},
		{"git stash pop --ind", "stash pop --index"},
		{"git log -3 --oneline", "log -3 --oneline"},
		{"git checkout -- -qf", "checkout -- -qf"},
		{"git branch -Df x", "branch -D -f x"},
		{"git rebase -xmake HEAD~2", "rebase -x make HEAD~2"},
		{"git rebase --exe=make HEAD~2", "rebase --exec=make HEAD~2"},
		{"git commit -uno", "commit -uno"},
		{"git worktree add -fb x ../x", "worktree add -f -b x ../x"},
		{"git tag -fa v1 -m x", "tag -f -a v1 -m x"},
		{"git filter-branch --msg-f cat -f HEAD", "filter-branch --msg-filter cat -f HEAD"},
	} {
		a, err := Analyze(tt.in, Options{Dir: "/r"})
		if err != nil {
			t.Fatal(err)
		}
		g := a.Commands[0].Git
		got := strings.Join(append([]string{g.Sub}, wordValues(g.Args)...), " ")
		if got != tt.want {
			t.Errorf("%s: read as %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestGitArgsParse(t *testing.T) {
	a, _ := Analyze("git restore -qSWs evil -- :/", Options{Dir: "/r"})
	p := a.Commands[0].Git.Parse()
	if !p.Has("--staged") || !p.Has("--worktree") || !p.DashDash || len(p.Paths) != 1 {
		t.Errorf("%+v", p)
	}
	if v, ok := p.Value("--source"); !ok || v.Value != "evil" {
		t.Errorf("--source: %+v", p)
	}
	a, _ = Analyze("git checkout --no-overlay main x", Options{Dir: "/r"})
	p = a.Commands[0].Git.Parse()
	if !p.Has("--no-overlay") || len(p.Operands) != 2 || p.Unknown != "" {
		t.Errorf("%+v", p)
	}
}

func wordValues(ws []Word) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = w.Value
	}
	return out
}

func TestGitArgsSpelling(t *testing.T) {
	p := parseGitArgs("push", nil)
	for key, want := range map[string]string{"--force": "-f true=false", "--repo": " true=true", "--no-verify": " true=false", "-x": " false=false"} {
		short, valued := p.Spelling(key)
		_, known := map[string]bool{"--force": true, "--repo": true, "--no-verify": true}[key]
		if got := short + " " + boolStr(known) + "=" + boolStr(valued); got != want {
			t.Errorf("%s: %q, want %q", key, got, want)
		}
	}
	if s, v := parseGitArgs("no-such-subcommand", nil).Spelling("--force"); s != "" || v {
		t.Error("a subcommand without a grammar spells nothing")
	}
}

func boolStr(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

// TestGitCommandsAreSorted: isGitCommand searches the table by halves, so
// an entry out of order would read a built-in command as an alias's name.
func TestGitCommandsAreSorted(t *testing.T) {
	if !slices.IsSorted(gitCommands[:]) {
		t.Fatal("gitCommands is not sorted")
	}
	for _, c := range gitCommands {
		if !isGitCommand(c) {
			t.Errorf("isGitCommand(%q) = false", c)
		}
	}
	if isGitCommand("staus") {
		t.Error(`isGitCommand("staus") = true`)
	}
}
