package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"magehook": func() { os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
	})
}

// TestScripts runs testdata/script: the first hour of a new user, from an
// empty directory to a custom gate that denies, through the real go
// command (which needs the module proxy or a warm module cache).
func TestScripts(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a consumer repository with the go command; run without -short")
	}
	src, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	goEnv := map[string]string{}
	out, err := exec.Command("go", "env", "GOPATH", "GOMODCACHE", "GOCACHE", "GOPROXY", "GOSUMDB", "GOFLAGS", "GOTOOLCHAIN").Output()
	if err != nil {
		t.Fatal(err)
	}
	for i, line := range strings.Split(strings.TrimSuffix(string(out), "\n"), "\n") {
		goEnv[[]string{"GOPATH", "GOMODCACHE", "GOCACHE", "GOPROXY", "GOSUMDB", "GOFLAGS", "GOTOOLCHAIN"}[i]] = line
	}
	// published.txtar runs the README's first command against this tree
	// served as a release by a module proxy on disk; the module cache's
	// own download directory (a proxy too) serves the rest offline.
	proxy := t.TempDir()
	proxyErr := writeProxy(src, proxy)
	testscript.Run(t, testscript.Params{
		Dir:                 filepath.Join("testdata", "script"),
		RequireExplicitExec: true,
		Condition: func(cond string) (bool, error) {
			switch cond {
			case "proxy":
				return proxyErr == nil, nil
			case "nogo":
				_, err := withoutProgram(os.Getenv("PATH"), "git", "go")
				return err == nil, nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
		Setup: func(env *testscript.Env) error {
			for k, v := range goEnv {
				env.Setenv(k, v)
			}
			env.Setenv("MAGEHOOK_SRC", src)
			env.Setenv("MAGEHOOK_PROXY", "file://"+filepath.ToSlash(proxy))
			env.Setenv("MAGEHOOK_CACHEPROXY", "file://"+filepath.ToSlash(filepath.Join(goEnv["GOMODCACHE"], "cache", "download")))
			// testscript's TMPDIR is inside $WORK, the consumer repository:
			// a test's temporary checkout there would sit below the
			// repository's .toolingrc, which a checkout may only add to.
			tmp, err := os.MkdirTemp("", "magehook-first-hour-")
			if err != nil {
				return err
			}
			env.Defer(func() { os.RemoveAll(tmp) })
			env.Setenv("TMPDIR", tmp)
			env.Setenv("HOME", filepath.Join(env.WorkDir, "home"))
			env.Setenv("GIT_AUTHOR_NAME", "t")
			env.Setenv("GIT_AUTHOR_EMAIL", "t@example.com")
			env.Setenv("GIT_COMMITTER_NAME", "t")
			env.Setenv("GIT_COMMITTER_EMAIL", "t@example.com")
			// NOGIT_PATH finds go and this test's commands but no git:
			// a machine without git.
			nogit, err := noGitPath(env.Getenv("PATH"))
			if err != nil {
				return err
			}
			env.Setenv("NOGIT_PATH", nogit)
			// NOGO_PATH, when git's directory holds no go: a machine
			// without Go.
			if nogo, err := withoutProgram(env.Getenv("PATH"), "git", "go"); err == nil {
				env.Setenv("NOGO_PATH", nogo)
			}
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"readme":      cmdReadme,
			"hookcommand": cmdHookCommand,
			"readmeout":   cmdReadmeOut,
			"copysrc":     cmdCopySrc,
		},
	})
}

// noGitPath is a PATH holding the directories of go and of testscript's
// commands (magehook), neither of which holds git.
func noGitPath(path string) (string, error) { return withoutProgram(path, "go", "git") }

// withoutProgram is a PATH holding the directories of keep and of
// testscript's commands (magehook), an error when one of them holds
// without.
func withoutProgram(path, keep, without string) (string, error) {
	bin, err := exec.LookPath(keep)
	if err != nil {
		return "", err
	}
	dirs := []string{filepath.Dir(bin)}
	for _, dir := range filepath.SplitList(path) {
		if _, err := os.Stat(filepath.Join(dir, "magehook")); err == nil {
			dirs = append(dirs, dir)
			break
		}
	}
	for _, dir := range dirs {
		if _, err := os.Stat(filepath.Join(dir, without)); err == nil {
			return "", fmt.Errorf("%s holds %s: cannot make a PATH without it", dir, without)
		}
	}
	return strings.Join(dirs, string(filepath.ListSeparator)), nil
}

// hookcommand [-settings=path] Event file writes the shell command
// .claude/settings.json (or the settings file named) runs for Event, as
// the harness would run it, to file: what a teammate's first session runs
// before any build.
func cmdHookCommand(ts *testscript.TestScript, neg bool, args []string) {
	settingsFile := ".claude/settings.json"
	if len(args) > 0 && strings.HasPrefix(args[0], "-settings=") {
		settingsFile, args = strings.TrimPrefix(args[0], "-settings="), args[1:]
	}
	if neg || len(args) != 2 {
		ts.Fatalf("usage: hookcommand [-settings=path] Event file")
	}
	var s struct {
		Hooks map[string][]struct {
			Hooks []struct{ Command string }
		}
	}
	ts.Check(json.Unmarshal([]byte(ts.ReadFile(settingsFile)), &s))
	for _, g := range s.Hooks[args[0]] {
		for _, h := range g.Hooks {
			if strings.Contains(h.Command, "hook:") {
				ts.Check(os.WriteFile(ts.MkAbs(args[1]), []byte(h.Command+"\n"), 0o644))
				return
			}
		}
	}
	ts.Fatalf("hookcommand: %s runs no hook: target for %s", settingsFile, args[0])
}

// TestMageVersionFollowsGoMod keeps the Mage release init pins in step with
// the one this module requires.
func TestMageVersionFollowsGoMod(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	want := MageModule + " " + MageVersion
	if !strings.Contains(string(data), want) {
		t.Fatalf("go.mod does not require %s; update MageVersion in adopt.go", want)
	}
	if !strings.Contains(string(data), "\ngo "+MinGo+"\n") {
		t.Fatalf("go.mod's go line is not go %s; update MinGo in adopt.go", MinGo)
	}
}
