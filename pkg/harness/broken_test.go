package harness_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/magehook/magehook/pkg/harness"
)

// sealing is a hook binary of its own: it answers as magehook's binary
// does (harness.Seal), with the exit code its first argument after the
// target names (hook:x -code=N), or kills itself with a signal.
const sealing = `package main

import (
	"os"
	"strconv"
	"strings"
	"syscall"
)

func main() {
	code := 0
	for _, a := range os.Args[1:] {
		if v, ok := strings.CutPrefix(a, "-code="); ok {
			code, _ = strconv.Atoi(v)
		}
	}
	if os.Getenv("KILL_ME") != "" {
		syscall.Kill(os.Getpid(), syscall.SIGKILL)
	}
	if os.Getenv(` + "`" + harness.SealEnv + "`" + `) == strconv.Itoa(os.Getppid()) {
		code += ` + "100" + `
	}
	os.Stdout.WriteString("answer\n")
	os.Exit(code)
}
`

// build compiles the sealing binary for goarch into dir.
func build(t *testing.T, dir, goarch string) string {
	t.Helper()
	src := filepath.Join(dir, "src")
	os.MkdirAll(src, 0o755)
	os.WriteFile(filepath.Join(src, "go.mod"), []byte("module sealing\n\ngo 1.21\n"), 0o644)
	os.WriteFile(filepath.Join(src, "main.go"), []byte(sealing), 0o644)
	out := filepath.Join(dir, "sealing-"+goarch)
	cmd := exec.Command("go", "build", "-o", out, ".")
	cmd.Dir = src
	cmd.Env = append(os.Environ(), "GOARCH="+goarch, "CGO_ENABLED=0", "GOFLAGS=-mod=mod")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, b)
	}
	return out
}

// TestEveryFailureToRunBlocksAGate runs the installed command of every
// harness against binaries that cannot answer — a directory, an empty
// file, a truncated build, a build for another architecture, scripts
// that exit 126 and 127, a process killed by a signal, a script that
// answers 0 without magehook's seal — and a binary that is missing and
// cannot be built: at a gated PreToolUse each blocks (exit 2) with the
// reason and the fix; at an event no gate watches each goes on (exit 1)
// with the reason. The real binary's answers pass through as they are.
func TestEveryFailureToRunBlocksAGate(t *testing.T) {
	tmp := t.TempDir()
	good := build(t, tmp, runtime.GOARCH)
	other := "arm64"
	if runtime.GOARCH == "arm64" {
		other = "amd64"
	}
	foreign := build(t, tmp, other)
	elf, _ := os.ReadFile(good)
	foreignELF, _ := os.ReadFile(foreign)
	// A PATH with the shell's tools and without go: nothing can be built.
	tools := filepath.Join(tmp, "tools")
	os.Mkdir(tools, 0o755)
	for _, name := range []string{"cat", "ps"} {
		if p, err := exec.LookPath(name); err == nil {
			os.Symlink(p, filepath.Join(tools, name))
		}
	}
	type binary struct {
		name  string
		make  func(path string)
		env   []string
		why   string // in the message
		works bool
	}
	file := func(data []byte) func(string) { return func(p string) { os.WriteFile(p, data, 0o755) } }
	binaries := []binary{
		{name: "a directory", make: func(p string) { os.MkdirAll(p, 0o755) }, why: "cannot be executed here"},
		{name: "an empty file", make: file(nil), why: "without magehook's seal"},
		{name: "a truncated build", make: file(elf[:4096]), why: "magehook"},
		{name: "a build for " + other, make: file(foreignELF), why: "cannot be executed here"},
		{name: "a script exiting 126", make: file([]byte("#!/bin/sh\nexit 126\n")), why: "cannot be executed here"},
		{name: "a script exiting 127", make: file([]byte("#!/bin/sh\nexit 127\n")), why: "not found"},
		{name: "an unsealed exit 0", make: file([]byte("#!/bin/sh\necho '{}'\nexit 0\n")), why: "without magehook's seal (exit 0"},
		{name: "a process killed by a signal", make: file(elf), env: []string{"KILL_ME=1"}, why: "killed by signal 9"},
		{name: "missing", make: func(string) {}, why: "is missing and could not be built"},
		{name: "magehook's binary", make: file(elf), works: true},
	}
	if exec.Command(foreign).Run() == nil {
		// binfmt_misc runs other architectures here (qemu-user): that
		// build is no failure on this machine.
		binaries = append(binaries[:3], binaries[4:]...)
	}
	for _, h := range harness.All() {
		if h.Layout == harness.Plugin {
			continue
		}
		for _, bin := range binaries {
			root := t.TempDir()
			os.Mkdir(filepath.Join(root, ".git"), 0o755)
			os.MkdirAll(filepath.Join(root, "bin"), 0o755)
			bin.make(filepath.Join(root, "bin", "magehook"))
			for _, ev := range []struct {
				event, target string
				gated         bool
				spec          harness.CommandSpec
			}{
				{"PreToolUse", "preToolUse", true, harness.CommandSpec{GateAll: true}},
				{"PostToolUse", "postToolUse", false, harness.CommandSpec{}},
				{"PreToolUse", "preToolUse", false, harness.CommandSpec{}}, // only observers
			} {
				spec := ev.spec
				spec.Binary, spec.Event, spec.Target, spec.Timeout = "bin/magehook", ev.event, ev.target, 30
				c := h.Command(spec)
				for _, code := range []int{0, 2} {
					cmd := exec.Command("sh", "-c", strings.Replace(h.ShellText(c), "hook:"+ev.target, "hook:"+ev.target+" -code="+string(rune('0'+code)), 1))
					cmd.Dir = filepath.Join(root, "bin")
					cmd.Env = append(append(os.Environ(), projectEnv(root)...), "PATH="+tools, harness.SealEnv+"=1")
					cmd.Env = append(cmd.Env, bin.env...)
					cmd.Stdin = strings.NewReader(`{"tool_name":"Bash","tool_input":{"command":"ls"}}`)
					var stdout, stderr strings.Builder
					cmd.Stdout, cmd.Stderr = &stdout, &stderr
					cmd.Run()
					got := cmd.ProcessState.ExitCode()
					switch {
					case bin.works:
						if got != code || stdout.String() != "answer\n" {
							t.Errorf("%s %s: the binary's answer %d came out as %d %q", h.Name, bin.name, code, got, stdout.String())
						}
					case ev.gated:
						if got != 2 || !strings.Contains(stderr.String(), bin.why) || !strings.Contains(stderr.String(), "hook:build") {
							t.Errorf("%s %s at a gated %s: exit %d, want 2 with %q and the fix; stderr %q", h.Name, bin.name, ev.event, got, bin.why, stderr.String())
						}
					default:
						if got != 1 || !strings.Contains(stderr.String(), bin.why) {
							t.Errorf("%s %s at %s no gate watches: exit %d, want 1 with %q; stderr %q", h.Name, bin.name, ev.event, got, bin.why, stderr.String())
						}
					}
					if bin.name == "a directory" || !bin.works {
						break // one code is enough for a binary that never answers
					}
				}
			}
		}
	}
}

// TestAMissingBinaryBlocksOnlyWatchedTools: when the binary is missing
// and cannot be built (no Go, a compile error), a tool no gatekeeper
// watches goes on with a one-line message, a watched tool is blocked with
// the fix, and a payload whose tool cannot be told (none, two) is
// blocked — in every harness's command form.
func TestAMissingBinaryBlocksOnlyWatchedTools(t *testing.T) {
	tools := t.TempDir()
	p, err := exec.LookPath("cat")
	if err != nil {
		t.Skip("no cat")
	}
	os.Symlink(p, filepath.Join(tools, "cat"))
	root := t.TempDir()
	os.Mkdir(filepath.Join(root, ".git"), 0o755)
	for _, h := range harness.All() {
		if h.Layout == harness.Plugin {
			continue
		}
		c := h.Command(harness.CommandSpec{Binary: "bin/magehook", Event: "PreToolUse", Target: "preToolUse", Timeout: 30,
			Gated: []string{"Bash", "Edit", "Write", "run_shell_command"}})
		for _, tc := range []struct {
			payload string
			want    int
		}{
			{`{"session_id":"s","tool_name":"Read","tool_input":{"file_path":"/x"}}`, 1},
			{`{"session_id":"s", "tool_name": "Glob", "tool_input": {}}`, 1},
			{`{"session_id":"s","tool_name":"Bash","tool_input":{"command":"git commit"}}`, 2},
			{`{"tool_name":"run_shell_command","tool_input":{}}`, 2},
			{`{"tool_name":"Edit","tool_input":{"content":"\"tool_name\":\"Read\""}}`, 2},
			{`{"tool_input":{"x":{"tool_name":"Read"}},"tool_name":"Write"}`, 2}, // two names: cannot be told
			{`{"tool_input":{}}`, 2},
			{``, 2},
		} {
			cmd := exec.Command("sh", "-c", h.ShellText(c))
			cmd.Dir = root
			cmd.Env = append(append(os.Environ(), projectEnv(root)...), "PATH="+tools)
			field := h.ToolField
			if field == "" {
				field = "tool_name"
			}
			cmd.Stdin = strings.NewReader(strings.ReplaceAll(tc.payload, `"tool_name"`, `"`+field+`"`))
			var stderr strings.Builder
			cmd.Stderr = &stderr
			cmd.Run()
			got := cmd.ProcessState.ExitCode()
			lines := strings.Count(strings.TrimSpace(stderr.String()), "\n") + 1
			if got != tc.want || lines != 1 || !strings.Contains(stderr.String(), "hook:build") {
				t.Errorf("%s %s: exit %d (want %d), stderr %q", h.Name, tc.payload, got, tc.want, stderr.String())
			}
		}
	}
}

// projectEnv sets every harness's project directory variable to root.
func projectEnv(root string) []string {
	var out []string
	for _, h := range harness.All() {
		if v := h.ProjectVar(); v != "" {
			out = append(out, v+"="+root)
		}
	}
	return out
}
