// Package gittest makes real git repositories in temporary directories
// for tests: no mocks, and no network (a "remote" is a bare repository on
// disk).
package gittest

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// Isolate points git at an empty global configuration with a fixed
// identity, so tests neither read nor depend on the machine's settings.
func Isolate(t testing.TB) {
	t.Helper()
	cfg := filepath.Join(t.TempDir(), "gitconfig")
	if err := os.WriteFile(cfg, []byte("[user]\n\tname = Test\n\temail = test@example.com\n[init]\n\tdefaultBranch = main\n[protocol \"file\"]\n\tallow = always\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GIT_CONFIG_GLOBAL", cfg)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("GIT_TERMINAL_PROMPT", "0")
}

// Git runs git in dir and returns its trimmed output, failing the test on
// an error.
func Git(t testing.TB, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s in %s: %v\n%s", strings.Join(args, " "), dir, err, out)
	}
	return strings.TrimSpace(string(out))
}

// Repo makes a repository on branch main with one commit holding files
// (name to content) and returns its directory.
func Repo(t testing.TB, files map[string]string) string {
	t.Helper()
	Isolate(t)
	dir := filepath.Join(t.TempDir(), "repo")
	Git(t, filepath.Dir(dir), "init", "-q", "-b", "main", dir)
	if len(files) == 0 {
		files = map[string]string{"README.md": "# test\n"}
	}
	Write(t, dir, files)
	Git(t, dir, "add", "-A")
	Git(t, dir, "commit", "-q", "-m", "initial")
	return dir
}

// Write writes files under dir, making directories.
func Write(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// Commit writes files and commits them.
func Commit(t testing.TB, dir, msg string, files map[string]string) {
	t.Helper()
	Write(t, dir, files)
	Git(t, dir, "add", "-A")
	Git(t, dir, "commit", "-q", "-m", msg)
}

// Bare makes a bare repository seeded with the history of src, sets it as
// src's origin with upstream tracking, and returns its path.
func Bare(t testing.TB, src string) string {
	t.Helper()
	bare := filepath.Join(t.TempDir(), "origin.git")
	Git(t, filepath.Dir(bare), "clone", "-q", "--bare", src, bare)
	Git(t, src, "remote", "add", "origin", bare)
	Git(t, src, "fetch", "-q", "origin")
	Git(t, src, "branch", "-q", "--set-upstream-to=origin/main", "main")
	return bare
}

// MageRepo makes a repository whose magefiles define Bootstrap with the
// given body (imports os, os/exec and time are available), buildable
// offline from the module cache with go tool mage. Bootstrap first writes
// MAIN=<$MAIN> to bootstrap.out in its working directory.
func MageRepo(t testing.TB, body string) string {
	t.Helper()
	return MageRepoWith(t, `//go:build mage

package main

import (
	"os"
	"os/exec"
	"time"
)

var _ = exec.Command
var _ = time.Second

// Bootstrap prepares a new worktree.
func Bootstrap() error {
	wd, _ := os.Getwd()
	os.WriteFile(wd+"/bootstrap.out", []byte("MAIN="+os.Getenv("MAIN")), 0o644)
`+body+`
}
`)
}

// MageRepoWith makes a repository whose magefiles/magefile.go is
// magefile, buildable offline from the module cache with go tool mage.
func MageRepoWith(t testing.TB, magefile string) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	sum, err := os.ReadFile(filepath.Join(filepath.Dir(file), "..", "..", "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("GOFLAGS", "-mod=mod")
	t.Setenv("GOPROXY", "off")
	t.Setenv("GOWORK", "off")
	return Repo(t, map[string]string{
		"go.mod":                "module example.com/r\n\ngo 1.26\n\ntool github.com/magefile/mage\n\nrequire github.com/magefile/mage v1.17.2\n",
		"go.sum":                string(sum),
		".gitignore":            "bootstrap.out\n*.marker\n",
		".toolingrc":            "worktree.base .claude/worktrees\n",
		"magefiles/magefile.go": magefile,
	})
}

// PluginRepo makes a repository that imports the magehook plugin from this
// working tree (a replace), with the given .toolingrc and no hook binary:
// a consumer, as hook:install and the first hook call see one. The go
// command works offline from the module cache.
func PluginRepo(t testing.TB, toolingrc string) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(file), "..", "..")
	root, err := filepath.Abs(root)
	if err != nil {
		t.Fatal(err)
	}
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("GOFLAGS", "-mod=mod")
	t.Setenv("GOPROXY", "off")
	t.Setenv("GOWORK", "off")
	return Repo(t, map[string]string{
		"go.mod":                "module example.com/consumer\n\ngo 1.26\n\ntool github.com/magefile/mage\n\nrequire (\n\tgithub.com/magefile/mage v1.17.2\n\tgithub.com/magehook/magehook v0.0.0\n)\n\nreplace github.com/magehook/magehook => " + root + "\n",
		"go.sum":                string(sum),
		".toolingrc":            toolingrc,
		".gitignore":            "bin/\n.magehook/\n",
		"magefiles/magefile.go": "//go:build mage\n\npackage main\n\nimport (\n\t//mage:import\n\t_ \"github.com/magehook/magehook/magefiles/targets\"\n)\n",
	})
}
