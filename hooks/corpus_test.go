package hooks_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/magehook/magehook/hooks/branchguard"
	"github.com/magehook/magehook/hooks/cmdguard"
	"github.com/magehook/magehook/hooks/configguard"
	"github.com/magehook/magehook/internal/gittest"
	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/hooktest"
)

// gateWorld is a checkout on main enabling the gates, with a bare origin
// one commit ahead, a linked worktree on a feature branch with commits of
// its own, a stash, and branches whose commits change .toolingrc or only
// ordinary files.
type gateWorld struct {
	root, feat, bare string
}

func buildGateWorld(t *testing.T, dirty bool) gateWorld { return makeGateWorld(t, dirty) }

func benchWorld(b *testing.B) gateWorld { return makeGateWorld(b, false) }

func makeGateWorld(t testing.TB, dirty bool) gateWorld {
	t.Helper()
	gittest.Isolate(t)
	base := t.TempDir()
	root := filepath.Join(base, "repo")
	gittest.Git(t, base, "init", "-q", "-b", "main", root)
	gittest.Commit(t, root, "initial", map[string]string{
		".toolingrc":            "hook.enable branchguard\nhook.enable cmdguard\n",
		".gitignore":            "build/\nnode_modules/\n*.log\n",
		".claude/settings.json": "{}\n",
		"README.md":             "# r\n",
		"src/a.go":              "package a\n",
		"go.mod":                "module example.com/r\n\ngo 1.22\n",
	})
	bare := filepath.Join(base, "origin.git")
	gittest.Git(t, base, "clone", "-q", "--bare", root, bare)
	gittest.Git(t, root, "remote", "add", "origin", bare)
	other := filepath.Join(base, "other")
	gittest.Git(t, base, "clone", "-q", bare, other)
	gittest.Commit(t, other, "upstream", map[string]string{"UP.md": "up\n", "src/a.go": "package a\n\n// upstream\n"})
	gittest.Git(t, other, "push", "-q", "origin", "main")
	gittest.Git(t, root, "fetch", "-q", "origin")
	gittest.Git(t, root, "branch", "-q", "--set-upstream-to=origin/main", "main")
	// A branch whose commit changes .toolingrc, and one that does not.
	gittest.Git(t, root, "checkout", "-q", "-b", "evil")
	gittest.Commit(t, root, "switch the gates off", map[string]string{".toolingrc": "# off\n"})
	gittest.Git(t, root, "tag", "evilpick")
	gittest.Git(t, root, "checkout", "-q", "main")
	gittest.Git(t, root, "checkout", "-q", "-b", "other")
	gittest.Commit(t, root, "other work", map[string]string{"src/x.go": "package a\n"})
	gittest.Git(t, root, "tag", "pick")
	gittest.Git(t, root, "checkout", "-q", "main")
	feat := filepath.Join(base, "feat")
	gittest.Git(t, root, "worktree", "add", "-q", "-b", "feat", feat)
	gittest.Commit(t, feat, "feature work", map[string]string{"src/b.go": "package a\n"})
	gittest.Commit(t, feat, "more feature work", map[string]string{"src/b.go": "package a\n\n// more\n"})
	gittest.Git(t, feat, "push", "-q", "-u", "origin", "feat")
	gittest.Write(t, feat, map[string]string{"src/b.go": "package a\n\n// stashed\n"})
	gittest.Git(t, feat, "stash", "-q")
	if dirty {
		gittest.Write(t, root, map[string]string{"README.md": "# r\n\nthe user's edit\n"})
		gittest.Write(t, feat, map[string]string{"src/b.go": "package a\n\n// in progress\n"})
	}
	return gateWorld{root: root, feat: feat, bare: bare}
}

// gateCase is one command, where it runs (main: the checkout on main;
// feat: the feature worktree; both), whether it is dangerous there, and
// whether the checkouts have uncommitted changes.
type gateCase struct {
	cmd   string
	on    string
	bad   bool
	dirty bool
	// miss marks a case the gates are known to get wrong, with why: the
	// test then asserts it is still wrong (so a fix removes the mark).
	miss string
}

var gateHandlers = []hook.Handler{branchguard.Handler, configguard.Handler, cmdguard.Handler}

// TestGateCorpus runs every case through the three gates on a real
// checkout and reports each verdict that differs from the label, per
// class: dangerous commands caught, ordinary ones allowed, on main and
// on the feature branch. CORPUS_OUT=file writes every verdict, for
// diffing the gates' answers between two versions.
func TestGateCorpus(t *testing.T) {
	worlds := map[bool]gateWorld{false: buildGateWorld(t, false), true: buildGateWorld(t, true)}
	type tally struct{ n, ok int }
	score := map[string]*tally{}
	var lines []string
	for _, tc := range gateCorpus {
		w := worlds[tc.dirty]
		places := []string{tc.on}
		if tc.on == "both" {
			places = []string{"main", "feat"}
		}
		for _, on := range places {
			dir := w.root
			if on == "feat" {
				dir = w.feat
			}
			out := hooktest.Run(t, gateHandlers, dir, "PreToolUse", "PreToolUse/bash", map[string]any{"tool_input.command": tc.cmd, "cwd": dir})
			denied := out.Code != 0 || strings.Contains(out.Stdout, `"permissionDecision":"deny"`)
			class := on + " ordinary"
			if tc.bad {
				class = on + " dangerous"
			}
			if score[class] == nil {
				score[class] = &tally{}
			}
			score[class].n++
			verdict := "allow"
			if denied {
				verdict = "deny"
			}
			lines = append(lines, fmt.Sprintf("%s\t%s\t%v\t%q", verdict, on, tc.dirty, tc.cmd))
			if denied == tc.bad {
				score[class].ok++
				if tc.miss != "" {
					t.Errorf("on %s: %q is marked as a known miss (%s) and is now right: remove the mark", on, tc.cmd, tc.miss)
				}
				continue
			}
			if tc.miss != "" {
				t.Logf("known miss on %s: %q (%s)", on, tc.cmd, tc.miss)
				continue
			}
			if tc.bad {
				t.Errorf("on %s (dirty %v): %q is dangerous and was allowed", on, tc.dirty, tc.cmd)
			} else {
				t.Errorf("on %s (dirty %v): %q is ordinary and was denied: %s", on, tc.dirty, tc.cmd, out.Stdout+out.Stderr)
			}
		}
	}
	var classes []string
	for c := range score {
		classes = append(classes, c)
	}
	sort.Strings(classes)
	for _, c := range classes {
		t.Logf("%-16s %d/%d", c, score[c].ok, score[c].n)
	}
	if f := os.Getenv("CORPUS_OUT"); f != "" {
		os.WriteFile(f, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
	}
}

// TestGateWorldIsWhatTheCorpusSays: the world's facts the labels rely on.
func TestGateWorldIsWhatTheCorpusSays(t *testing.T) {
	w := buildGateWorld(t, false)
	diff := func(dir string, args ...string) string {
		cmd := exec.Command("git", append([]string{"diff", "--name-only"}, args...)...)
		cmd.Dir = dir
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("git diff %v: %v", args, err)
		}
		return strings.TrimSpace(string(out))
	}
	if got := diff(w.feat, "HEAD...origin/main"); got != "UP.md\nsrc/a.go" {
		t.Errorf("origin/main brings %q", got)
	}
	if got := diff(w.feat, "HEAD...evil"); got != ".toolingrc" {
		t.Errorf("evil brings %q", got)
	}
}

// BenchmarkGates is the three gates' decision on one call: an ordinary
// command on main (the hot path), and the review loop's rebase on the
// feature branch (which asks git what the rebase changes).
func BenchmarkGates(b *testing.B) {
	for _, bc := range []struct {
		name, cmd string
		feat      bool
	}{
		{"main-go-test", "go test ./... 2>&1 | tail -n 40", false},
		{"feat-rebase", "git fetch origin && git rebase origin/main", true},
	} {
		b.Run(bc.name, func(b *testing.B) {
			w := benchWorld(b)
			dir := w.root
			if bc.feat {
				dir = w.feat
			}
			stdin := hooktest.Fixture(b, "PreToolUse/bash", map[string]any{"tool_input.command": bc.cmd, "cwd": dir})
			for b.Loop() {
				hooktest.RunBytes(b, gateHandlers, "PreToolUse", stdin)
			}
		})
	}
}
