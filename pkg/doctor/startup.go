package doctor

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/magehook/magehook/pkg/buildinfo"
	"github.com/magehook/magehook/pkg/toolingrc"
)

// StartupRounds is how many times the startup check runs the hook binary
// and the floor, interleaved; the least CPU time of each is compared, which
// is what the machine's load disturbs least.
const StartupRounds = 9

// DefaultStartupBudget is the most a tool call's CPU time may be, as a
// multiple of the floor's, before the doctor calls it a problem.
const DefaultStartupBudget = 2.0

// floorSource is the floor: the least a Go hook can do, read stdin and
// decode the JSON.
const floorSource = `package main

import (
	"encoding/json"
	"io"
	"os"
)

func main() {
	data, err := io.ReadAll(os.Stdin)
	if err != nil {
		os.Exit(1)
	}
	var v map[string]any
	if json.Unmarshal(data, &v) != nil {
		os.Exit(1)
	}
}
`

// checkStartup measures what every tool call pays before any handler
// runs: the hook binary answering a PreToolUse with nothing enabled
// (imports, package initialisation, binary size), in CPU time against the
// floor, and the packages whose initialisation does work (GODEBUG=inittrace).
// A magefile's imports are linked into the hook binary, so a heavy one
// costs every tool call; the check names it. It runs in checkouts with
// magefiles (the binary is theirs to make lighter) and needs the go command
// to build the floor, once, into the user cache.
func (d *doctor) checkStartup(ctx context.Context, bin string) {
	const check = "startup"
	if d.SkipStartup {
		d.add(Skip, check, bin, "not measured (-startup=false)")
		return
	}
	if !buildinfo.HasMagefiles(d.cfg.Root()) {
		d.add(Skip, check, bin, "no magefiles: the binary's imports are magehook's own")
		return
	}
	budget := DefaultStartupBudget
	if v, err := d.cfg.Get(toolingrc.KeyHookStartBudget); err == nil && v.String() != "" {
		b, perr := strconv.ParseFloat(strings.TrimSuffix(v.String(), "x"), 64)
		if perr != nil || b <= 0 {
			d.add(Problem, check, v.File, "%s:%d: hook.startbudget %q is not a ratio such as 1.5", v.File, v.Line, v.String())
			return
		}
		budget = b
	}
	floor, err := buildFloor(ctx, d.Progress)
	if err != nil {
		d.add(Skip, check, bin, "cannot build the floor to compare with: %v", err)
		return
	}
	scratch, err := os.MkdirTemp("", "magehook-startup-")
	if err != nil {
		d.add(Problem, check, bin, "%v", err)
		return
	}
	defer os.RemoveAll(scratch)
	if err := os.WriteFile(filepath.Join(scratch, toolingrc.FileName), []byte("# the doctor's startup check: nothing enabled\n"), 0o644); err != nil {
		d.add(Problem, check, bin, "%v", err)
		return
	}
	payload := []byte(`{"session_id":"magehook-doctor","transcript_path":"","cwd":` + strconv.Quote(scratch) +
		`,"permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":` +
		strconv.Quote(filepath.Join(scratch, toolingrc.FileName)) + `},"tool_use_id":"toolu_doctor"}`)
	env := append(os.Environ(), toolingrc.RootEnv+"="+scratch)
	hookCPU, floorCPU := time.Duration(1<<62), time.Duration(1<<62)
	for i := 0; i < StartupRounds; i++ {
		t, _, err := cpuOf(ctx, env, payload, bin, "hook:preToolUse")
		if err != nil {
			d.add(Problem, check, bin, "run %s hook:preToolUse: %v", bin, err)
			return
		}
		hookCPU = min(hookCPU, t)
		if t, _, err = cpuOf(ctx, env, payload, floor); err != nil {
			d.add(Skip, check, bin, "run the floor: %v", err)
			return
		}
		floorCPU = min(floorCPU, t)
	}
	_, trace, err := cpuOf(ctx, append(env, "GODEBUG=inittrace=1"), payload, bin, "hook:preToolUse")
	if err != nil {
		d.add(Problem, check, bin, "run %s hook:preToolUse: %v", bin, err)
		return
	}
	heavy := heavyInits(trace)
	ratio := float64(hookCPU) / float64(max(floorCPU, time.Microsecond))
	detail := fmt.Sprintf("%.2f ms CPU per tool call before any handler, %.2fx the bare-Go floor (%.2f ms; budget %.2gx, hook.startbudget)",
		ms(hookCPU), ratio, ms(floorCPU), budget)
	if len(heavy) > 0 {
		detail += "; heaviest package inits: " + strings.Join(heavy, ", ")
	}
	if ratio > budget {
		d.add(Problem, check, bin, "%s; every import of the magefiles runs on every tool call: move heavy targets (net/http, templates, SDKs) to a program of their own", detail)
		return
	}
	d.add(OK, check, bin, "%s", detail)
}

func ms(t time.Duration) float64 { return float64(t) / float64(time.Millisecond) }

// cpuOf runs a program with stdin and returns its user+system CPU time and
// its stderr.
func cpuOf(ctx context.Context, env []string, stdin []byte, name string, args ...string) (time.Duration, string, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Env = env
	cmd.Stdin = bytes.NewReader(stdin)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return 0, stderr.String(), fmt.Errorf("%w: %s", err, strings.TrimSpace(stderr.String()))
	}
	return cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime(), stderr.String(), nil
}

// buildFloor builds the floor program once per Go release into the user
// cache directory and returns its path.
func buildFloor(ctx context.Context, progress io.Writer) (string, error) {
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	dir := filepath.Join(cache, "magehook", "floor-"+runtime.Version())
	exe := filepath.Join(dir, "floor")
	if runtime.GOOS == "windows" {
		exe += ".exe"
	}
	if _, err := os.Stat(exe); err == nil {
		return exe, nil
	}
	if progress != nil {
		fmt.Fprintf(progress, "magehook: doctor: building a bare Go program to measure the hook binary's start-up against (once per Go release, into %s)\n", dir)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(floorSource), 0o644); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module floor\n\ngo 1.22\n"), 0o644); err != nil {
		return "", err
	}
	tmp := exe + ".tmp"
	cmd := exec.CommandContext(ctx, "go", "build", "-trimpath", "-ldflags=-s -w", "-o", tmp, ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=", "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build: %v: %s", err, strings.TrimSpace(string(out)))
	}
	return exe, os.Rename(tmp, exe)
}

// heavyInits reads GODEBUG=inittrace output ("init net/http @1.2 ms,
// 0.040 ms clock, 11320 bytes, 132 allocs") and names the three packages
// whose initialisation took longest, among those that took 20 µs or
// allocated 8 KiB (the runtime's own packages aside).
func heavyInits(trace string) []string {
	type init struct {
		pkg   string
		clock float64
		bytes int
	}
	var inits []init
	for _, line := range strings.Split(trace, "\n") {
		f := strings.Fields(line)
		if len(f) < 10 || f[0] != "init" || f[5] != "ms" {
			continue
		}
		clock, err1 := strconv.ParseFloat(f[4], 64)
		b, err2 := strconv.Atoi(f[7])
		if err1 != nil || err2 != nil {
			continue
		}
		if f[1] == "runtime" || strings.HasPrefix(f[1], "internal/") {
			continue // the Go runtime's own: every Go program pays it
		}
		if clock >= 0.02 || b >= 8<<10 {
			inits = append(inits, init{f[1], clock, b})
		}
	}
	sort.SliceStable(inits, func(i, j int) bool { return inits[i].clock > inits[j].clock })
	var out []string
	for i, in := range inits {
		if i == 3 {
			break
		}
		out = append(out, fmt.Sprintf("%s (%.3f ms, %d bytes)", in.pkg, in.clock, in.bytes))
	}
	return out
}
