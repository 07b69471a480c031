package configguard_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/magehook/magehook/internal/gittest"
	"github.com/magehook/magehook/pkg/gitcmd"
	"github.com/magehook/magehook/pkg/hooktest"
)

// truthWorld builds the template every ground-truth case copies: a
// checkout on a feature branch (so branchguard allows everything and only
// configguard can deny) with .toolingrc and a wired .claude/settings.json,
// an origin whose main is ahead in ordinary files, a branch whose commit
// changes .toolingrc (evil), one whose commit changes the settings file
// (wiring), one with an ordinary commit (other), and a stash.
func truthWorld(t *testing.T) string {
	t.Helper()
	gittest.Isolate(t)
	base := t.TempDir()
	root := filepath.Join(base, "repo")
	gittest.Git(t, base, "init", "-q", "-b", "main", root)
	gittest.Commit(t, root, "initial", map[string]string{
		".toolingrc":            "hook.enable branchguard\n",
		".claude/settings.json": "{}\n",
		".gitignore":            "build/\n",
		"README.md":             "# r\n",
		"src/a.go":              "package a\n",
	})
	bare := filepath.Join(base, "origin.git")
	gittest.Git(t, base, "clone", "-q", "--bare", root, bare)
	gittest.Git(t, root, "remote", "add", "origin", bare)
	other := filepath.Join(base, "other")
	gittest.Git(t, base, "clone", "-q", bare, other)
	gittest.Commit(t, other, "upstream", map[string]string{"UP.md": "up\n", "src/a.go": "package a\n\n// up\n"})
	gittest.Git(t, other, "push", "-q", "origin", "main")
	os.RemoveAll(other)
	gittest.Git(t, root, "fetch", "-q", "origin")
	for _, b := range []struct {
		name  string
		files map[string]string
	}{
		{"evil", map[string]string{".toolingrc": "# off\n"}},
		{"wiring", map[string]string{".claude/settings.json": "{\"hooks\":{}}\n"}},
		{"other", map[string]string{"src/x.go": "package a\n"}},
	} {
		gittest.Git(t, root, "checkout", "-q", "-b", b.name, "main")
		gittest.Commit(t, root, b.name, b.files)
	}
	gittest.Git(t, root, "checkout", "-q", "-b", "feature", "main")
	gittest.Git(t, root, "branch", "-q", "--set-upstream-to=origin/main")
	gittest.Commit(t, root, "feature work", map[string]string{"src/b.go": "package a\n"})
	gittest.Write(t, root, map[string]string{"src/b.go": "package a\n\n// stashed\n"})
	gittest.Git(t, root, "stash", "-q")
	return base
}

// snapshot maps every file of the checkout (not .git) to its content and
// mode.
func snapshot(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		if d.IsDir() {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return nil
		}
		data, _ := os.ReadFile(p)
		sum := sha256.Sum256(data)
		rel, _ := filepath.Rel(root, p)
		out[filepath.ToSlash(rel)] = string(sum[:]) + info.Mode().String()
		return nil
	})
	return out
}

func changed(before, after map[string]string) []string {
	var out []string
	for k, v := range before {
		if after[k] != v {
			out = append(out, k)
		}
	}
	for k := range after {
		if _, ok := before[k]; !ok {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// guardedName: the files this world guards, by name.
func guardedName(rel string) bool {
	base := strings.ToLower(filepath.Base(rel))
	return base == ".toolingrc" || strings.HasPrefix(strings.ToLower(rel), ".claude/settings") || strings.Contains(strings.ToLower(rel), "/.claude/settings")
}

type truthCase struct {
	cmd   string
	setup []string
	// closed: a deny that fails closed (the model cannot know, and the
	// command may write nothing guarded).
	closed bool
}

var truthCases = []truthCase{
	// The review loop: allowed unless what it applies changes a gate file.
	{cmd: "git rebase -q origin/main"},
	{cmd: "git merge -q --no-edit origin/main"},
	{cmd: "git pull -q --rebase origin main"},
	{cmd: "git pull -q --no-rebase --no-edit origin main"},
	{cmd: "git stash pop -q"},
	{cmd: "git stash apply -q --index"},
	{cmd: "git cherry-pick other"},
	{cmd: "git revert --no-edit HEAD"},
	{cmd: "git checkout -q origin/main -- src/a.go"},
	{cmd: "git restore --source=other src"},
	{cmd: "git reset -q --hard origin/main"},
	{cmd: "git switch -q -c topic other"},
	{cmd: "git checkout -q --detach origin/main"},
	{cmd: "git rebase -q evil"},
	{cmd: "git merge -q --no-edit evil"},
	{cmd: "git merge -q --no-edit wiring"},
	{cmd: "git cherry-pick evil"},
	{cmd: "git cherry-pick -n wiring"},
	{cmd: "git revert --no-edit HEAD", setup: []string{"printf 'hook.enable branchguard\\n# x\\n' > .toolingrc && git commit -qam x"}},
	{cmd: "git checkout -q evil -- ."},
	{cmd: "git checkout -q evil -- .toolingrc"},
	{cmd: "git restore -s wiring :/"},
	{cmd: "git reset -q --hard evil"},
	{cmd: "git switch -q -c x evil"},
	{cmd: "git checkout -q --detach wiring"},
	{cmd: "git read-tree -m -u evil"},
	{cmd: "git stash pop -q", setup: []string{"echo '# local' >> .toolingrc && git stash -q"}},
	// A pop of the entry a stash of the same line made brings back what
	// that stash took (no older entry to judge instead); with nothing to
	// stash, it pops the older entry.
	{cmd: "git stash -q && git stash pop -q", setup: []string{"git stash clear && echo '# x' >> README.md"}},
	{cmd: "git stash -q && git pull -q --rebase origin main && git stash pop -q", setup: []string{"git stash clear && echo '# x' >> README.md"}},
	{cmd: "git stash -q && git rebase -q origin/main && git stash apply -q", setup: []string{"git stash clear && echo '# x' >> README.md"}},
	{cmd: "git stash -q && git stash pop -q"},
	{cmd: "git stash -q && git stash drop -q && git stash pop -q", setup: []string{"echo '# x' >> README.md"}},
	// A file written from an index the same line changed first.
	{cmd: "B=$(printf 'hook.enable sessionclock\\n' | git hash-object -w --stdin) && git update-index --cacheinfo 100644,$B,.toolingrc && git checkout-index -f .toolingrc"},
	{cmd: "git update-index --cacheinfo 100644,$(git rev-parse HEAD:README.md),.toolingrc && git restore .toolingrc"},
	{cmd: "git checkout-index -f --prefix=build/ src/a.go .toolingrc"},
	{cmd: "git switch -q --orphan blank"},
	{cmd: "git checkout -q --orphan blank"},
	{cmd: "git checkout -- .toolingrc", setup: []string{"echo '# local' >> .toolingrc"}},
	{cmd: "git checkout -- .toolingrc"},
	{cmd: "git restore .", setup: []string{"echo '# local' >> .toolingrc"}},
	{cmd: "git restore src", setup: []string{"echo '// x' >> src/a.go"}},
	{cmd: "git reset -q --hard", setup: []string{"echo '{ }' > .claude/settings.json"}},
	{cmd: "git stash -q", setup: []string{"echo '# local' >> .toolingrc"}},
	{cmd: "git stash -q", setup: []string{"echo '// x' >> src/a.go"}},
	{cmd: "git rebase --abort", setup: []string{"git rebase -q evil 2>/dev/null; true"}},
	{cmd: "git merge --abort", setup: []string{"echo '# mine' >> .toolingrc && git commit -qam mine && (git merge -q --no-edit evil 2>/dev/null; true)"}},
	// Git's own content writes of the paths it names.
	{cmd: "git rm -q .toolingrc"},
	{cmd: "git rm -q --cached .toolingrc"},
	{cmd: "git mv .claude/settings.json x.json"},
	{cmd: "git rm -q src/a.go"},
	{cmd: "git merge-file README.md src/a.go .toolingrc"},
	{cmd: "git merge-file .toolingrc README.md src/a.go"},
	// Shell writes.
	{cmd: "echo x > .toolingrc"},
	{cmd: "echo x > notes.txt"},
	{cmd: "echo 'hook.enable sessionclock' > .toolingr?"},
	{cmd: "echo x > notes.tx?"},
	{cmd: "sed -i s/a/b/ .claude/settings.json", closed: true}, // matches nothing: rewrites the same bytes
	{cmd: "sed -i s/{/[/ .claude/settings.json"},
	{cmd: "sed -i s/a/b/ src/a.go"},
	{cmd: "cp README.md .toolingrc"},
	{cmd: "cp .toolingrc /tmp/magehook-truth-copy"},
	{cmd: "mv .claude c2"},
	{cmd: "rm -rf build src"},
	{cmd: "touch .toolingrc", closed: true}, // its times only
	{cmd: "/usr/bin/time -o .toolingrc true"},
	{cmd: "git diff --output=.toolingrc HEAD~1"},
	{cmd: "git diff --output=build/d.patch HEAD~1"},
	{cmd: "git archive -o .claude/settings.json HEAD"},
	{cmd: `python3 -c "import os; os.system('echo x > .toolingrc')"`},
	{cmd: `python3 -c "import subprocess; subprocess.run(['git', 'checkout', 'evil', '--', '.'])"`},
	{cmd: `python3 -c "import subprocess; subprocess.run(['git', 'status', '-s'])"`},
	{cmd: "trap 'echo x > .toolingrc' EXIT; true"},
	{cmd: "parallel ::: 'echo x > .toolingrc'", closed: true}, // GNU parallel need not be installed
	{cmd: "echo .toolingrc | xargs -I{} cp README.md {}"},
	{cmd: "script -q -c 'echo x > .toolingrc' /dev/null"},
	{cmd: "find . -name -delete -print"},
}

// TestWritesAgainstTheFileSystem runs every case through configguard and
// for real with bash in a copy of the world, and compares: a guarded file
// changed and the gate allowed it (a bypass), the gate denied and nothing
// guarded changed (a false deny, unless it fails closed), and every file
// that changed is one a write of the model names (a path, a tree holding
// it, a pattern or find selection under it, or a write the model says it
// cannot name), and for git's own writes one git listed.
func TestWritesAgainstTheFileSystem(t *testing.T) {
	if testing.Short() {
		t.Skip("runs git for real per case")
	}
	tmpl := truthWorld(t)
	for _, tc := range truthCases {
		t.Run(tc.cmd, func(t *testing.T) {
			t.Parallel()
			base := t.TempDir()
			if out, err := exec.Command("cp", "-a", tmpl+"/.", base).CombinedOutput(); err != nil {
				t.Fatalf("copy: %v\n%s", err, out)
			}
			root := filepath.Join(base, "repo")
			// The copy's origin is the copy's.
			gittest.Git(t, root, "remote", "set-url", "origin", filepath.Join(base, "origin.git"))
			for _, s := range tc.setup {
				bash(t, root, s)
			}
			out := hooktest.Run(t, handlers, root, "PreToolUse", "PreToolUse/edit", map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": tc.cmd}, "cwd": root})
			if out.Code != 0 {
				t.Fatalf("exit %d: %s", out.Code, out.Stderr)
			}
			denied := denied(out)
			a, err := gitcmd.Analyze(tc.cmd, gitcmd.Options{Dir: root, Home: os.Getenv("HOME"), ReadFile: os.ReadFile, Stat: os.Stat, Getenv: func(string) string { return "" }})
			if err != nil {
				t.Fatal(err)
			}
			// What git lists for its own writes, before they happen.
			var listed []string
			for _, c := range a.Commands {
				if tc, ok := c.Git.TreeChange(); ok && tc.Unknown == "" {
					files, err := tc.Files(func(args ...string) ([]byte, error) {
						cmd := exec.Command("git", args...)
						cmd.Dir = root
						return cmd.Output()
					})
					if err == nil {
						listed = append(listed, files...)
					}
				}
			}
			before := snapshot(t, root)
			bash(t, root, tc.cmd+" >/dev/null 2>&1; true")
			diff := changed(before, snapshot(t, root))
			guardedChanged := false
			for _, f := range diff {
				if guardedName(f) {
					guardedChanged = true
				}
				if !covered(a, listed, root, f) {
					t.Errorf("%s changed, and no write of the model names it (writes %v, git lists %v)", f, describeWrites(a), listed)
				}
			}
			switch {
			case guardedChanged && !denied:
				t.Errorf("a bypass: the command changed a guarded file (%v) and configguard allowed it", diff)
			case denied && !guardedChanged && !tc.closed:
				t.Errorf("a false deny: nothing guarded changed (%v):\n%s", diff, out.Stdout)
			}
		})
	}
}

// covered reports whether a changed file (relative to root) is one the
// analysis predicted.
func covered(a *gitcmd.Analysis, listed []string, root, rel string) bool {
	for _, l := range listed {
		if l == rel {
			return true
		}
	}
	p := filepath.Join(root, filepath.FromSlash(rel))
	for _, w := range a.Writes {
		switch {
		case w.Dynamic != "":
			return true
		case w.Path == p:
			return true
		case (w.Tree || w.Glob || w.Match != nil) && strings.HasPrefix(p, strings.TrimRight(globDir(w.Path), "/")+"/"):
			return true
		}
	}
	return false
}

func globDir(p string) string {
	if i := strings.IndexAny(p, "*?[{"); i >= 0 {
		return filepath.Dir(p[:i] + "x")
	}
	return p
}

func describeWrites(a *gitcmd.Analysis) []string {
	var out []string
	for _, w := range a.Writes {
		s := w.Op + " " + w.Path
		if w.Tree {
			s += "/**"
		}
		if w.Dynamic != "" {
			s += " (" + w.Dynamic + ")"
		}
		out = append(out, s)
	}
	return out
}

func bash(t *testing.T, dir, command string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second) // a safety net, not a measure
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-c", command)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_PAGER=cat", "PAGER=cat", "EDITOR=true", "GIT_EDITOR=true")
	cmd.Stdin = strings.NewReader("")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("%q: %v\n%s", command, err, out.String())
	}
}
