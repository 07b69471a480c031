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
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/magehook/magehook/pkg/buildinfo"
)

// binDir holds the hook binaries the scripts run: magehook (this
// repository's build) and faulty (testdata/mage/faulty, with broken
// handlers).
var binDir string

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	dir, err := os.MkdirTemp("", "magehook-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	binDir = dir
	root, _ := os.Getwd()
	var log bytes.Buffer
	if err := buildinfo.Build(context.Background(), root, filepath.Join(dir, "magehook"), &log); err != nil {
		fmt.Fprintf(os.Stderr, "build the hook binary: %v\n%s", err, log.String())
		return 1
	}
	cmd := exec.Command("go", "tool", "mage", "-d", filepath.Join(root, "testdata", "mage", "faulty", "magefiles"),
		"-compile", filepath.Join(dir, "faulty"), "-ldflags", "-s -w")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "build the faulty hook binary: %v\n%s", err, out)
		return 1
	}
	return m.Run()
}

func TestScripts(t *testing.T) {
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
			"exitcode": cmdExitcode,
			"onejson":  cmdOneJSON,
			"oldtime":  cmdOldtime,
			"isold":    cmdIsold,
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
