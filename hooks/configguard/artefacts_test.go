package configguard_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/magehook/magehook/internal/gittest"
)

// What magehook later runs or builds what it runs from is guarded as the
// hook binary is (issue 29: the shipper, the build's sidecars, the
// magefiles and the hook module's go.mod, go.sum and local replacements,
// magehook's commit-msg hook), through every tool; ordinary builds and
// the project's own files are not.
func TestWhatMagehookRunsIsGuarded(t *testing.T) {
	root := checkout(t)
	lib := filepath.Join(t.TempDir(), "lib")
	rel, err := filepath.Rel(filepath.Join(root, "magefiles"), lib)
	if err != nil {
		t.Fatal(err)
	}
	gittest.Write(t, root, map[string]string{
		"bin/magehook":             "binary",
		"bin/magehook-ship":        "shipper",
		"bin/.magehook.build.lock": "",
		"magefiles/magefile.go":    "//go:build mage\n\npackage main\n",
		"magefiles/go.mod":         "module example.com/r/magefiles\n\nrequire github.com/magehook/magehook v0.0.0\n\nreplace github.com/magehook/magehook => " + rel + " // a local copy\n",
		"magefiles/go.sum":         "",
		"go.mod":                   "module example.com/r\n",
		"cmd/app/main.go":          "package main\n\nfunc main() {}\n",
	})
	gittest.Write(t, lib, map[string]string{"hooks/branchguard/check.go": "package branchguard\n"})
	hooks := filepath.Join(root, ".git", "hooks")
	gittest.Write(t, hooks, map[string]string{
		"commit-msg": "#!/bin/sh\n\"bin/magehook\" git:commitMsg \"$1\" || exit $? # magehook commit-msg\n",
		"pre-push":   "#!/bin/sh\nexit 0\n",
	})
	for _, tt := range []struct {
		tool  string
		input map[string]any
		want  string // "" for an allowed call
	}{
		{"Write", map[string]any{"file_path": "bin/magehook-ship", "content": "x"}, "the OTel shipper"},
		{"Bash", map[string]any{"command": "cp /bin/true bin/magehook-ship"}, "the OTel shipper"},
		{"Bash", map[string]any{"command": "echo 1 > bin/.magehook.build.lock"}, "a build file of the hook binary"},
		{"Bash", map[string]any{"command": "cp /bin/true bin/.magehook.4242.tmp"}, "a build file of the hook binary"},
		{"PowerShell", map[string]any{"command": "Set-Content -Path bin/magehook-ship -Value x"}, "the OTel shipper"},
		{"Edit", map[string]any{"file_path": filepath.Join(root, "magefiles", "magefile.go"), "old_string": "a", "new_string": "b"}, "a source of the hook binary (magefiles/"},
		{"Write", map[string]any{"file_path": "magefiles/targets/new.go", "content": "package targets\n"}, "a source of the hook binary (magefiles/"},
		{"Bash", map[string]any{"command": "sed -i s/v0/v1/ magefiles/go.mod"}, "a source of the hook binary (magefiles/"},
		{"Bash", map[string]any{"command": "rm -rf magefiles"}, "a source of the hook binary"},
		{"mcp__fs__write_file", map[string]any{"path": filepath.Join(root, "magefiles", "go.sum"), "content": "x"}, "a source of the hook binary"},
		{"Write", map[string]any{"file_path": filepath.Join(lib, "hooks", "branchguard", "check.go"), "content": "x"}, "where the hook module's go.mod replaces a module"},
		{"Bash", map[string]any{"command": "rm -rf " + lib}, "where the hook module's go.mod replaces a module"},
		{"Bash", map[string]any{"command": "sed -i /magehook/d .git/hooks/commit-msg"}, "the commit-msg git hook that runs magehook"},
		{"Write", map[string]any{"file_path": ".git/hooks/commit-msg", "content": "#!/bin/sh\n"}, "the commit-msg git hook that runs magehook"},
		{"Bash", map[string]any{"command": "rm -rf .git/hooks"}, "the commit-msg git hook that runs magehook"},

		{"Bash", map[string]any{"command": "go build ./... && go vet ./... && go test ./..."}, ""},
		{"Bash", map[string]any{"command": "go tool mage -l; go -C magefiles tool mage -w .. build"}, ""},
		{"Bash", map[string]any{"command": "go build -o bin/app ./cmd/app"}, ""},
		{"Bash", map[string]any{"command": "cat magefiles/magefile.go magefiles/go.mod > /tmp/notes"}, ""},
		{"Write", map[string]any{"file_path": "bin/other", "content": "x"}, ""},
		{"Write", map[string]any{"file_path": "cmd/app/main.go", "content": "package main\n"}, ""},
		{"Write", map[string]any{"file_path": "go.mod", "content": "module example.com/r\n"}, ""},
		{"Write", map[string]any{"file_path": ".git/hooks/pre-push", "content": "#!/bin/sh\n"}, ""},
		{"mcp__fs__read_text_file", map[string]any{"path": filepath.Join(root, "magefiles", "go.mod")}, ""},
	} {
		out := run(t, root, tt.tool, tt.input)
		switch {
		case out.Code != 0:
			t.Errorf("%s %v: exit %d: %s", tt.tool, tt.input, out.Code, out.Stderr)
		case tt.want == "" && out.Stdout != "":
			t.Errorf("%s %v: want it allowed, got %s", tt.tool, tt.input, out.Stdout)
		case tt.want != "" && (!denied(out) || !strings.Contains(out.Stdout, tt.want)):
			t.Errorf("%s %v: want a deny naming %q, got %q", tt.tool, tt.input, tt.want, out.Stdout)
		}
	}
	// A commit-msg hook without magehook's line is the project's own.
	if err := os.WriteFile(filepath.Join(hooks, "commit-msg"), []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if out := run(t, root, "Write", map[string]any{"file_path": ".git/hooks/commit-msg", "content": "#!/bin/sh\n"}); out.Stdout != "" {
		t.Errorf("a commit-msg hook that is not magehook's: %s", out.Stdout)
	}
}

// From a checkout that enables no gatekeeper, another repository's gate
// configuration is still guarded when that repository's policy enables
// handlers (issue 29.1: a call is judged by the policy of the repository
// it reaches); the caller's own files and a scratch repository's are not
// (a call that writes into such a repository has all its writes judged).
func TestAnotherRepositorysGatesAreGuardedFromACheckoutWithout(t *testing.T) {
	gated := checkout(t) // enables branchguard, on a feature branch
	open := gittest.Repo(t, map[string]string{".toolingrc": "state.dir .magehook\n"})
	scratch := gittest.Repo(t, map[string]string{"README.md": "x\n"})
	for _, tt := range []struct {
		tool  string
		input map[string]any
		deny  bool
	}{
		{"Bash", map[string]any{"command": "echo x > " + gated + "/.toolingrc"}, true},
		{"Bash", map[string]any{"command": "cd " + gated + " && rm -rf .toolingrc"}, true},
		{"Write", map[string]any{"file_path": filepath.Join(gated, ".claude", "settings.json"), "content": "{}"}, true},
		{"mcp__fs__write_file", map[string]any{"path": filepath.Join(gated, ".toolingrc"), "content": "x"}, true},
		{"Bash", map[string]any{"command": "echo x > .toolingrc"}, false},
		{"Bash", map[string]any{"command": "echo y > " + gated + "/notes.txt"}, false},
		{"Write", map[string]any{"file_path": filepath.Join(scratch, ".toolingrc"), "content": "x"}, false},
		{"Write", map[string]any{"file_path": filepath.Join(open, ".claude", "settings.json"), "content": "{}"}, false},
	} {
		out := run(t, open, tt.tool, tt.input)
		if denied(out) != tt.deny || out.Code != 0 {
			t.Errorf("%s %v from a checkout without gates: %+v, want deny %v", tt.tool, tt.input, out, tt.deny)
		}
	}
}
