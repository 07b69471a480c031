package magehook_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/magehook/magehook/internal/gittest"
	"github.com/magehook/magehook/pkg/buildinfo"
)

// binDir holds the hook binaries the scripts run: magehook (this
// repository's build) and faulty (testdata/mage/faulty, with broken
// handlers). They are built once, from inside the first test that needs
// them, so that go test's cache sees the sources the build reads.
var (
	binDir   string
	buildErr error
	built    sync.Once
)

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "magehook-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binDir = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func binaries(t *testing.T) string {
	t.Helper()
	built.Do(func() {
		root, _ := os.Getwd()
		var log bytes.Buffer
		if err := buildinfo.Build(context.Background(), root, filepath.Join(binDir, "magehook"), &log); err != nil {
			buildErr = fmt.Errorf("build the hook binary: %v\n%s", err, log.String())
			return
		}
		cmd := exec.Command("go", "tool", "mage", "-d", filepath.Join(root, "testdata", "mage", "faulty", "magefiles"),
			"-compile", filepath.Join(binDir, "faulty"), "-ldflags", "-s -w")
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("build the faulty hook binary: %v\n%s", err, out)
		}
		// Read every source so the test cache is invalidated when one changes.
		filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".go") {
				os.ReadFile(p)
			}
			return nil
		})
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binDir
}

func TestScripts(t *testing.T) {
	binaries(t)
	root, _ := os.Getwd()
	testscript.Run(t, testscript.Params{
		Dir:                 filepath.Join("testdata", "script"),
		RequireExplicitExec: true,
		UpdateScripts:       os.Getenv("UPDATE_GOLDEN") != "",
		Setup: func(env *testscript.Env) error {
			env.Setenv("PATH", binDir+string(os.PathListSeparator)+env.Getenv("PATH"))
			env.Setenv("PAYLOADS", filepath.Join(root, "testdata", "payloads"))
			env.Setenv("HOME", filepath.Join(env.WorkDir, "home"))
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"exitcode":  cmdExitcode,
			"onejson":   cmdOneJSON,
			"oldtime":   cmdOldtime,
			"validjson": cmdValidJSON,
			"isold":     cmdIsold,
		},
	})
}

// exitcode N program args... runs the program (stdin from a preceding
// stdin command) and fails unless it exits with N.
func cmdExitcode(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exitcode N program [args...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("exitcode: %v", err)
	}
	err = ts.Exec(args[1], args[2:]...)
	got := 0
	var exitErr *exec.ExitError
	switch {
	case errors.As(err, &exitErr):
		got = exitErr.ExitCode()
	case err != nil:
		ts.Fatalf("exitcode: %v", err)
	}
	if got != want {
		ts.Fatalf("exit code %d, want %d", got, want)
	}
}

// onejson checks that the last command's stdout is empty or exactly one
// JSON object followed by a newline; with an argument, that it is one
// object (not empty).
func cmdOneJSON(ts *testscript.TestScript, neg bool, args []string) {
	out := ts.ReadFile("stdout")
	if out == "" {
		if len(args) > 0 {
			ts.Fatalf("stdout is empty, want one JSON object")
		}
		return
	}
	dec := json.NewDecoder(strings.NewReader(out))
	var obj map[string]any
	if err := dec.Decode(&obj); err != nil {
		ts.Fatalf("stdout is not a JSON object: %v\n%s", err, out)
	}
	if dec.More() || !strings.HasSuffix(out, "}\n") || strings.Count(out, "\n") != 1 {
		ts.Fatalf("stdout is more than one JSON object on one line:\n%s", out)
	}
}

// ancient is the modification time oldtime sets and isold checks.
var ancient = time.Date(2001, 2, 3, 4, 5, 6, 0, time.UTC)

// oldtime file... sets the files' modification time far in the past.
func cmdOldtime(ts *testscript.TestScript, neg bool, args []string) {
	for _, f := range args {
		ts.Check(os.Chtimes(ts.MkAbs(f), ancient, ancient))
	}
}

// isold file... fails unless the files still carry oldtime's time, that
// is, nothing wrote them since.
func cmdIsold(ts *testscript.TestScript, neg bool, args []string) {
	for _, f := range args {
		info, err := os.Stat(ts.MkAbs(f))
		ts.Check(err)
		if old := info.ModTime().Equal(ancient); old == neg {
			ts.Fatalf("%s: modification time %v (was it written?)", f, info.ModTime())
		}
	}
}

// TestWorktreeCreateInterrupted sends a real SIGINT or SIGTERM to the
// compiled binary during the bootstrap: the bootstrap's process group is
// stopped and everything the create made is removed. SIGINT is Mage's (it
// cancels the target and exits 5 s later), SIGTERM the create's own
// handler's (Mage has none, and the process would die with the worktree
// made). A child of the bootstrap that ignores SIGTERM is killed with the
// group once its leader has stopped, and the cleanup still ends inside
// Mage's window. The signal is sent once the bootstrap has said it runs.
func TestWorktreeCreateInterrupted(t *testing.T) {
	bin := filepath.Join(binaries(t), "magehook")
	plain := `
	os.WriteFile(os.Getenv("MAIN")+"/started.marker", nil, 0o644)
	time.Sleep(60 * time.Second)
	return nil`
	stubborn := `
	return exec.Command("sh", "-c", "trap '' TERM; : > \"$MAIN/started.marker\"; sleep 60").Run()`
	for _, c := range []struct {
		name      string
		bootstrap string
		sig       syscall.Signal
	}{
		{"SIGINT, Mage's", plain, syscall.SIGINT},
		{"SIGTERM, the create's own handler's", plain, syscall.SIGTERM},
		{"SIGINT to a bootstrap whose child ignores SIGTERM", stubborn, syscall.SIGINT},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := gittest.MageRepo(t, c.bootstrap)
			cmd := exec.Command(bin, "worktree:create", "slow/one")
			cmd.Dir = root
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			deadline := time.Now().Add(60 * time.Second)
			for {
				if _, err := os.Stat(filepath.Join(root, "started.marker")); err == nil {
					break
				}
				if time.Now().After(deadline) {
					cmd.Process.Kill()
					t.Fatalf("the bootstrap never started:\n%s", stderr.String())
				}
				time.Sleep(20 * time.Millisecond)
			}
			sent := time.Now()
			cmd.Process.Signal(c.sig)
			err := cmd.Wait()
			t.Logf("exited %v after the signal", time.Since(sent).Round(time.Millisecond))
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() != 1 {
				t.Fatalf("an interrupted create exited %v, want exit status 1:\n%s", err, stderr.String())
			}
			if stdout.Len() != 0 {
				t.Errorf("stdout %q: an interrupted create prints no path", stdout.String())
			}
			if !strings.Contains(stderr.String(), "magehook: interrupted: removing what the create of slow/one made") {
				t.Errorf("stderr does not say the create is cleaning up:\n%s", stderr.String())
			}
			if !regexp.MustCompile(`(?m)^Error: worktree slow/one: .*; everything the create made was removed$`).MatchString(stderr.String()) {
				t.Errorf("stderr has no one-line Error: saying what was removed:\n%s", stderr.String())
			}
			if strings.Contains(stderr.String(), "cleanup timeout exceeded") {
				t.Errorf("the cleanup did not fit in Mage's window:\n%s", stderr.String())
			}
			if b := gittest.Git(t, root, "branch", "--list", "slow/one"); b != "" {
				t.Errorf("branch left: %q", b)
			}
			if entries, _ := os.ReadDir(filepath.Join(root, ".claude", "worktrees")); len(entries) > 0 {
				t.Errorf("left under the base: %v", entries)
			}
		})
	}
}

// TestParallelWorktreeCreates starts several hook processes creating one
// name at once, as parallel sessions would: exactly one creates it, the
// others fail with nothing on stdout and change nothing. The winner's
// bootstrap holds the create open until every other process has answered
// (it waits for a file the test makes then), so no loser can come after
// the winner is done, whatever the machine's speed.
func TestParallelWorktreeCreates(t *testing.T) {
	bin := filepath.Join(binaries(t), "magehook")
	root := gittest.MageRepo(t, `for {
		if _, err := os.Stat(os.Getenv("MAIN") + "/release"); err == nil {
			return nil
		}
		time.Sleep(10 * time.Millisecond)
	}`)
	payload := fmt.Sprintf(`{"session_id":"s","cwd":%q,"hook_event_name":"WorktreeCreate","name":"same"}`, root)
	const n = 6
	type result struct {
		code   int
		stdout string
	}
	results := make(chan result, n)
	for i := 0; i < n; i++ {
		go func() {
			cmd := exec.Command(bin, "hook:worktreeCreate")
			cmd.Dir = root
			cmd.Stdin = strings.NewReader(payload)
			var stdout bytes.Buffer
			cmd.Stdout = &stdout
			err := cmd.Run()
			code := 0
			var exitErr *exec.ExitError
			if errors.As(err, &exitErr) {
				code = exitErr.ExitCode()
			}
			results <- result{code, stdout.String()}
		}()
	}
	wins := 0
	for i := 0; i < n; i++ {
		if i == n-1 {
			os.WriteFile(filepath.Join(root, "release"), nil, 0o644) // every loser has answered
		}
		r := <-results
		switch r.code {
		case 0:
			wins++
			if r.stdout != filepath.Join(root, ".claude", "worktrees", "same")+"\n" {
				t.Errorf("the winner printed %q", r.stdout)
			}
		case 1:
			if r.stdout != "" {
				t.Errorf("a loser printed %q", r.stdout)
			}
		default:
			t.Errorf("exit %d", r.code)
		}
	}
	if wins != 1 {
		t.Errorf("%d creates won, want exactly 1", wins)
	}
	if list := gittest.Git(t, root, "worktree", "list", "--porcelain"); strings.Count(list, "refs/heads/same") != 1 {
		t.Errorf("worktrees:\n%s", list)
	}
}

// validjson file... fails unless each file holds exactly one JSON value.
func cmdValidJSON(ts *testscript.TestScript, neg bool, args []string) {
	for _, f := range args {
		if ok := json.Valid([]byte(ts.ReadFile(f))); ok == neg {
			ts.Fatalf("%s: valid JSON is %v", f, ok)
		}
	}
}

// TestDoctorFindsAStaleBinary builds the hook binary of a repository that
// imports the plugin, then changes a magefile: the doctor must say the
// binary is stale, and fresh again after hook:build.
func TestDoctorFindsAStaleBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a binary")
	}
	repo := gittest.PluginRepo(t, "hook.enable sessionclock\n")
	bin := filepath.Join(repo, "bin", "magehook")
	var log bytes.Buffer
	if err := buildinfo.Build(context.Background(), repo, bin, &log); err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	doctor := func() string {
		cmd := exec.Command(bin, "doctor")
		cmd.Dir = repo
		out, _ := cmd.CombinedOutput()
		return string(out)
	}
	if out := doctor(); !strings.Contains(out, "ok binary fresh: built from the current sources") {
		t.Fatalf("a fresh build:\n%s", out)
	}
	gittest.Write(t, repo, map[string]string{"magefiles/extra.go": "//go:build mage\n\npackage main\n\n// Extra is a new target.\nfunc Extra() {}\n"})
	if out := doctor(); !strings.Contains(out, "problem binary fresh: stale: built from sources") {
		t.Fatalf("after a magefile changed:\n%s", out)
	}
}
