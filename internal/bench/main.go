// Command bench measures what a hook call costs: the hook binary against a
// floor (a bare Go program that reads and decodes stdin), the floor plus
// the shell parser magehook links, the floor compiled as a Mage binary, and
// a reference bash+jq hook making branchguard's decision, on a 1.5 KB
// PreToolUse Bash payload that is allowed and one that is denied
// (branchguard alone, and the whole catalogue enabled), and on a 5 MB
// PostToolUse payload.
//
// CPU time (user + system, from the kernel's accounting of each child) is
// measured in interleaved rounds: every call of a round runs each variant
// once, in a new random order, and a round's figure is the mean over its
// calls. The least over rounds is reported with the range of the per-round
// ratio to the floor, which is the noise. Beside the timings it prints the
// deterministic measures: syscalls and threads (strace -f -c), page faults
// and peak RSS (GNU time), instructions (valgrind --tool=callgrind), the
// hook binary's packages, their init cost and the binary sizes. A missing
// tool skips its column and says how to install it. Run it with
// go tool mage bench.
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/magehook/magehook/hooks"
	"github.com/magehook/magehook/pkg/buildinfo"
)

var (
	rounds = flag.Int("rounds", 11, "interleaved rounds")
	calls  = flag.Int("calls", 20, "calls of each variant per round (small payloads)")
	quick  = flag.Bool("quick", false, "skip strace, callgrind and init tracing")
	keep   = flag.String("keep", "", "build the binaries, checkouts and payloads into this new directory, leave them there and measure nothing (for profiling)")
)

// reference is the bash+jq hook making branchguard's decision the way such
// hooks are usually written: jq for every field, git for the branch.
const reference = `#!/usr/bin/env bash
input=$(cat)
event=$(jq -r '.hook_event_name' <<<"$input")
[ "$event" = PreToolUse ] || exit 0
cmd=$(jq -r '.tool_input.command // empty' <<<"$input")
cwd=$(jq -r '.cwd' <<<"$input")
case "$cmd" in
*"git commit"*|*"git push"*)
  branch=$(git -C "$cwd" branch --show-current 2>/dev/null)
  if [ "$branch" = main ] || [ "$branch" = master ]; then
    jq -n --arg b "$branch" '{hookSpecificOutput:{hookEventName:"PreToolUse",permissionDecision:"deny",permissionDecisionReason:("protected branch " + $b)}}'
  fi ;;
esac
exit 0
`

// minimal is the configuration a catalogue handler needs beyond its
// hook.enable line to do its work in the whole-catalogue checkout.
var minimal = map[string][]string{
	"stopguard":    {"guard.stopcheck true"},
	"docdrift":     {"docdrift.watch *.go"},
	"contextfile":  {"context.file AGENTS.md"},
	"notify":       {"notify.command true"},
	"subagentgate": {"subagentgate.types worker", "subagentgate.check true"},
}

// variant is one program answering the payload.
type variant struct {
	name   string
	argv   []string
	dir    string
	stride int  // run at every stride-th call of a round (0 or 1: every call)
	silent bool // enables no handler, so it answers nothing
}

func main() {
	flag.Parse()
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

type bins struct {
	hook, floor, floorsh, mage string
	// floorGC is the floor built as the hook binary is, with gcEnv
	// (buildinfo.GCEnv; empty when that adds nothing).
	floorGC, gcEnv string
	// mapped is the hook binary copied through a memory map, as the
	// linker writes its output: Place's page-cache effect (empty where it
	// could not be made).
	mapped string
}

func run() error {
	root, err := os.Getwd()
	if err != nil {
		return err
	}
	work := *keep
	if work != "" {
		if err := os.Mkdir(work, 0o755); err != nil {
			return err
		}
		if work, err = filepath.Abs(work); err != nil {
			return err
		}
	} else {
		if work, err = os.MkdirTemp("", "magehook-bench-"); err != nil {
			return err
		}
		defer os.RemoveAll(work)
	}

	b, err := build(root, work)
	if err != nil {
		return err
	}
	ref := filepath.Join(work, "reference.sh")
	if err := os.WriteFile(ref, []byte(reference), 0o755); err != nil {
		return err
	}
	one, err := checkout(filepath.Join(work, "one"), []string{"hook.enable branchguard"})
	if err != nil {
		return err
	}
	// branchguard with export on (otel.export yes): each call also appends
	// its records to the spool; the shipper is not there, so none starts.
	otel, err := checkout(filepath.Join(work, "otel"), []string{"hook.enable branchguard", "otel.export yes"})
	if err != nil {
		return err
	}
	// A checkout whose .toolingrc enables nothing: what the hook binary
	// costs to start, read the payload and find the configuration.
	none, err := checkout(filepath.Join(work, "none"), []string{"# no handler enabled"})
	if err != nil {
		return err
	}
	// The same for a call that names no command or path (a Read): the
	// gates that look into other repositories (hook.Handler.Reach) have
	// nothing to analyse, so this is the start-up alone.
	noneRead, err := checkout(filepath.Join(work, "none-read"), []string{"# no handler enabled"})
	if err != nil {
		return err
	}
	var cat []string
	for _, h := range hooks.All() {
		cat = append(cat, "hook.enable "+h.Name)
		cat = append(cat, minimal[h.Name]...)
	}
	all, err := checkout(filepath.Join(work, "all"), cat)
	if err != nil {
		return err
	}

	hasJQ := true
	if _, err := exec.LookPath("jq"); err != nil {
		fmt.Fprintln(os.Stderr, "jq is not installed (apt-get install -y jq): the bash+jq reference is skipped")
		hasJQ = false
	}
	small := func(hookArgs ...string) []variant {
		vs := []variant{
			{name: "floor (Go, decode only)", argv: []string{b.floor}, dir: one},
			{name: "floor + mvdan.cc/sh/v3/syntax", argv: []string{b.floorsh}, dir: one},
			{name: "floor as a Mage binary", argv: []string{b.mage, "hook:preToolUse"}, dir: one},
			{name: "magehook through Mage's main (-v=false)", argv: append([]string{b.hook, "-v=false"}, hookArgs...), dir: one},
			{name: "magehook, no handler enabled, a Read call", argv: append([]string{b.hook}, hookArgs...), dir: noneRead, silent: true},
			{name: "magehook, no handler enabled", argv: append([]string{b.hook}, hookArgs...), dir: none, silent: true},
			{name: "magehook, branchguard", argv: append([]string{b.hook}, hookArgs...), dir: one},
			{name: "magehook, branchguard, otel.export yes", argv: append([]string{b.hook}, hookArgs...), dir: otel},
			{name: "magehook, whole catalogue", argv: append([]string{b.hook}, hookArgs...), dir: all},
		}
		if b.floorGC != "" {
			vs = slices.Insert(vs, 1, variant{name: "floor built as the hook binary (" + b.gcEnv + ")", argv: []string{b.floorGC}, dir: one})
		}
		if b.mapped != "" {
			vs = append(vs, variant{name: "magehook, branchguard, file written as the linker writes it", argv: append([]string{b.mapped}, hookArgs...), dir: one})
		}
		if hasJQ {
			vs = append(vs, variant{name: "bash+jq reference", argv: []string{"bash", ref}, dir: one, stride: max(*calls/2, 1)})
		}
		return vs
	}
	big := []variant{
		{name: "floor (Go, decode only)", argv: []string{b.floor}, dir: one},
		{name: "magehook, branchguard", argv: []string{b.hook, "hook:postToolUse"}, dir: one},
		{name: "magehook, whole catalogue", argv: []string{b.hook, "hook:postToolUse"}, dir: all},
	}
	if hasJQ {
		big = append(big, variant{name: "bash+jq reference", argv: []string{"bash", ref}, dir: one})
	}

	if *keep == "" {
		fmt.Printf("# magehook bench, %s\n\n", time.Now().UTC().Format("2006-01-02 15:04 MST"))
		fmt.Printf("Machine: %s, %d CPUs, load %s, %s, %s/%s. %d interleaved rounds; CPU is user + system time per call, the least over rounds; the range is the per-round ratio to the floor.\n\n",
			cpuModel(), runtime.NumCPU(), loadavg(), runtime.Version(), runtime.GOOS, runtime.GOARCH, *rounds)
		fmt.Printf("Whole catalogue: %s.\n\n", strings.Join(names(), ", "))
	}

	cases := []struct {
		name  string
		title string
		vs    []variant
		data  func(dir string) []byte
		calls int
		deny  bool
	}{
		{"allowed", "PreToolUse Bash, 1.5 KB, allowed", small("hook:preToolUse"), func(dir string) []byte {
			if dir == noneRead {
				return readPayload(dir, 1536)
			}
			return prePayload(dir, "go test ./... 2>&1 | tail -n 40 && git status --short", 1536)
		}, *calls, false},
		{"denied", "PreToolUse Bash, 1.5 KB, denied (git commit on main)", small("hook:preToolUse"), func(dir string) []byte {
			if dir == noneRead {
				return readPayload(dir, 1536)
			}
			return prePayload(dir, "git add -A && git commit -m wip", 1536)
		}, *calls, true},
		{"post", "PostToolUse Bash, 5 MB", big, func(dir string) []byte { return postPayload(dir, 5<<20) }, 2, false},
	}
	for _, c := range cases {
		payloads := map[string][]byte{}
		for _, v := range c.vs {
			if payloads[v.dir] == nil {
				payloads[v.dir] = c.data(v.dir)
			}
		}
		if err := check(c.vs, payloads, c.deny); err != nil {
			return fmt.Errorf("%s: %v", c.title, err)
		}
		if *keep != "" {
			if err := keepCase(work, c.name, c.vs, payloads); err != nil {
				return err
			}
			continue
		}
		fmt.Printf("## %s (%d bytes)\n\n", c.title, len(payloads[one]))
		cpu, wall := measure(c.vs, payloads, c.calls)
		mem := gnuTime(c.vs, payloads)
		var sys []map[string]float64
		var ins []int64
		if !*quick && c.calls > 2 {
			sys = straceCounts(c.vs, payloads)
			ins = instructions(c.vs, payloads)
		}
		table(c.vs, cpu, wall, mem, sys, ins)
	}
	if !*quick && *keep == "" {
		packages(root, b)
		inits(b.hook, none, prePayload(none, "go test ./... 2>&1 | tail -n 40 && git status --short", 1536))
	}
	return nil
}

// keepCase writes a case's payloads beside the checkouts, as
// <checkout>.<case>.json, and lists its variants on stdout: the command
// line, the checkout it runs in and the payload file it reads.
func keepCase(work, name string, vs []variant, payloads map[string][]byte) error {
	for dir, data := range payloads {
		if err := os.WriteFile(dir+"."+name+".json", data, 0o644); err != nil {
			return err
		}
	}
	for _, v := range vs {
		fmt.Printf("%s\t%s\t%s\t%s\n", name, v.name, strings.Join(v.argv, " "), v.dir+"."+name+".json")
	}
	return nil
}

func names() []string {
	var out []string
	for _, h := range hooks.All() {
		out = append(out, h.Name)
	}
	return out
}

func build(root, work string) (bins, error) {
	b := bins{hook: filepath.Join(work, "magehook"), floor: filepath.Join(work, "floor"),
		floorsh: filepath.Join(work, "floorsh"), mage: filepath.Join(work, "trivialmage")}
	fmt.Fprintln(os.Stderr, "building the hook binary, the floors and the floor as a Mage binary ...")
	if err := buildinfo.Build(context.Background(), root, b.hook, os.Stderr); err != nil {
		return b, err
	}
	for out, pkg := range map[string]string{b.floor: "./internal/bench/floor", b.floorsh: "./internal/bench/floorsh"} {
		if msg, err := exec.Command("go", "build", "-ldflags=-s -w", "-o", out, pkg).CombinedOutput(); err != nil {
			return b, fmt.Errorf("build %s: %v\n%s", pkg, err, msg)
		}
	}
	if env := buildinfo.GCEnv(context.Background(), root); env != nil {
		b.floorGC, b.gcEnv = filepath.Join(work, "floor-gc"), env[0]
		cmd := exec.Command("go", "build", "-ldflags=-s -w", "-o", b.floorGC, "./internal/bench/floor")
		cmd.Env = append(os.Environ(), env...)
		if msg, err := cmd.CombinedOutput(); err != nil {
			return b, fmt.Errorf("build the floor with %s: %v\n%s", env, err, msg)
		}
	}
	// The Mage floor is built as the hook binary is (GCEnv), so that what
	// it costs over the floor is Mage's structure, not the collector.
	cmd := exec.Command("go", "tool", "mage", "-d", filepath.Join("internal", "bench", "trivialmage", "magefiles"),
		"-compile", b.mage, "-ldflags", "-s -w")
	cmd.Env = append(os.Environ(), buildinfo.GCEnv(context.Background(), root)...)
	if msg, err := cmd.CombinedOutput(); err != nil {
		return b, fmt.Errorf("build the floor as a Mage binary: %v\n%s", err, msg)
	}
	// The hook binary is written as Build writes it (buildinfo.Place):
	// the floors the same way, so that every variant's code is cached
	// alike and the ratios compare the programs, not how their files
	// were written.
	for _, out := range []string{b.floor, b.floorsh, b.mage, b.floorGC} {
		if out == "" {
			continue
		}
		if err := buildinfo.Place(out, out); err != nil {
			return b, err
		}
	}
	b.mapped = filepath.Join(work, "magehook-mapped")
	if err := mapCopy(b.hook, b.mapped); err != nil {
		fmt.Fprintf(os.Stderr, "the hook binary as the linker writes it is skipped: %v\n", err)
		b.mapped = ""
	}
	return b, nil
}

// checkout makes a git repository on main with one commit and the given
// .toolingrc lines.
func checkout(dir string, rc []string) (string, error) {
	for _, args := range [][]string{{"init", "-q", "-b", "main", dir}, {"-C", dir, "commit", "-q", "--allow-empty", "-m", "init"}} {
		cmd := exec.Command("git", append([]string{"-c", "user.name=bench", "-c", "user.email=bench@localhost"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			return "", fmt.Errorf("git %v: %v\n%s", args, err, out)
		}
	}
	return dir, os.WriteFile(filepath.Join(dir, ".toolingrc"), []byte(strings.Join(rc, "\n")+"\n"), 0o644)
}

// check runs every variant once and makes sure it answers as expected: a
// benchmark of a hook that fails says nothing.
func check(vs []variant, payloads map[string][]byte, deny bool) error {
	for _, v := range vs {
		cmd := exec.Command(v.argv[0], v.argv[1:]...)
		cmd.Dir = v.dir
		cmd.Stdin = bytes.NewReader(payloads[v.dir])
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil || stderr.Len() > 0 {
			return fmt.Errorf("%s: %v: %s", v.name, err, stderr.String())
		}
		if !v.silent && (strings.HasPrefix(v.name, "magehook") || strings.HasPrefix(v.name, "bash")) {
			var answer struct {
				HookSpecificOutput struct{ PermissionDecision string } `json:"hookSpecificOutput"`
			}
			json.Unmarshal(stdout.Bytes(), &answer)
			if got := answer.HookSpecificOutput.PermissionDecision == "deny"; got != deny {
				return fmt.Errorf("%s: denied %v, want %v: %s", v.name, got, deny, stdout.String())
			}
		}
	}
	return nil
}

func prePayload(cwd, command string, size int) []byte {
	p := map[string]any{
		"session_id": "bench-session", "transcript_path": "/home/user/.claude/projects/bench/bench-session.jsonl",
		"cwd": cwd, "permission_mode": "default", "hook_event_name": "PreToolUse", "tool_name": "Bash",
		"tool_use_id": "toolu_bench", "prompt_id": "550e8400-e29b-41d4-a716-446655440000",
		"tool_input": map[string]any{"command": command, "timeout": 120000},
	}
	data, _ := json.Marshal(p)
	pad := size - len(data) - len(`,"description":""`)
	p["tool_input"].(map[string]any)["description"] = strings.Repeat("Run the tests and show the status. ", pad/35+1)[:pad]
	data, _ = json.Marshal(p)
	return data
}

// readPayload is a PreToolUse Read of a file in cwd, padded to size as
// prePayload pads.
func readPayload(cwd string, size int) []byte {
	p := map[string]any{
		"session_id": "bench-session", "transcript_path": "/home/user/.claude/projects/bench/bench-session.jsonl",
		"cwd": cwd, "permission_mode": "default", "hook_event_name": "PreToolUse", "tool_name": "Read",
		"tool_use_id": "toolu_bench", "prompt_id": "550e8400-e29b-41d4-a716-446655440000",
		"tool_input": map[string]any{"file_path": filepath.Join(cwd, "main.go"), "limit": 200},
	}
	data, _ := json.Marshal(p)
	p["session_note"] = strings.Repeat("x", max(size-len(data)-len(`,"session_note":""`), 0))
	data, _ = json.Marshal(p)
	return data
}

func postPayload(cwd string, size int) []byte {
	var b strings.Builder
	for b.Len() < size {
		b.WriteString("ok  \texample.com/pkg/" + strconv.Itoa(b.Len()) + "\t0.012s\n")
	}
	p := map[string]any{
		"session_id": "bench-session", "cwd": cwd, "hook_event_name": "PostToolUse", "tool_name": "Bash",
		"tool_use_id": "toolu_bench", "tool_input": map[string]any{"command": "go test -v ./..."},
		"tool_response": map[string]any{"stdout": b.String()[:size], "stderr": "", "interrupted": false, "isImage": false},
	}
	data, _ := json.Marshal(p)
	return data
}

// measure returns, per variant and round, the mean CPU and wall time per
// call.
func measure(vs []variant, payloads map[string][]byte, calls int) (cpu, wall [][]time.Duration) {
	cpu = make([][]time.Duration, len(vs))
	wall = make([][]time.Duration, len(vs))
	order := make([]int, len(vs))
	for i := range order {
		order[i] = i
	}
	for r := 0; r < *rounds; r++ {
		sumCPU := make([]time.Duration, len(vs))
		sumWall := make([]time.Duration, len(vs))
		n := make([]int, len(vs))
		for k := 0; k < calls; k++ {
			// A new order each call: the run after bash+jq pays for its
			// cache and scheduler wake-up, and must not always be the same.
			rand.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
			for _, i := range order {
				if vs[i].stride > 1 && k%vs[i].stride != 0 {
					continue
				}
				c, w := once(vs[i], payloads[vs[i].dir])
				sumCPU[i] += c
				sumWall[i] += w
				n[i]++
			}
		}
		for i := range vs {
			cpu[i] = append(cpu[i], sumCPU[i]/time.Duration(n[i]))
			wall[i] = append(wall[i], sumWall[i]/time.Duration(n[i]))
		}
	}
	return cpu, wall
}

func once(v variant, payload []byte) (cpu, wall time.Duration) {
	cmd := exec.Command(v.argv[0], v.argv[1:]...)
	cmd.Dir = v.dir
	cmd.Stdin = bytes.NewReader(payload)
	start := time.Now()
	cmd.Run()
	wall = time.Since(start)
	if cmd.ProcessState != nil {
		cpu = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	}
	return cpu, wall
}

// memory is what GNU time reports for one call: peak RSS in KB and minor
// page faults, the median of five calls.
type memory struct{ rss, faults int64 }

func gnuTime(vs []variant, payloads map[string][]byte) []memory {
	out := make([]memory, len(vs))
	if _, err := os.Stat("/usr/bin/time"); err != nil {
		fmt.Fprintln(os.Stderr, "GNU time is not installed (apt-get install -y time): no RSS or page faults")
		return out
	}
	for i, v := range vs {
		var rss, faults []int64
		for r := 0; r < 5; r++ {
			cmd := exec.Command("/usr/bin/time", append([]string{"-f", "%M %R"}, v.argv...)...)
			cmd.Dir = v.dir
			cmd.Stdin = bytes.NewReader(payloads[v.dir])
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			cmd.Run()
			lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
			f := strings.Fields(lines[len(lines)-1])
			if len(f) == 2 {
				m, _ := strconv.ParseInt(f[0], 10, 64)
				p, _ := strconv.ParseInt(f[1], 10, 64)
				rss, faults = append(rss, m), append(faults, p)
			}
		}
		out[i] = memory{medianInt(rss), medianInt(faults)}
	}
	return out
}

// straceCounts counts each variant's syscalls under strace -f -c, the
// median over five calls of each.
func straceCounts(vs []variant, payloads map[string][]byte) []map[string]float64 {
	if _, err := exec.LookPath("strace"); err != nil {
		fmt.Fprintln(os.Stderr, "strace is not installed (apt-get install -y strace): no syscall counts")
		return nil
	}
	out := make([]map[string]float64, len(vs))
	for i, v := range vs {
		runs := map[string][]int64{}
		for r := 0; r < 5; r++ {
			f, err := os.CreateTemp("", "strace-")
			if err != nil {
				return nil
			}
			f.Close()
			cmd := exec.Command("strace", append([]string{"-f", "-c", "-o", f.Name()}, v.argv...)...)
			cmd.Dir = v.dir
			cmd.Stdin = bytes.NewReader(payloads[v.dir])
			cmd.Run()
			data, _ := os.ReadFile(f.Name())
			os.Remove(f.Name())
			counts := map[string]int64{}
			for _, line := range strings.Split(string(data), "\n") {
				fs := strings.Fields(line)
				if len(fs) < 5 || fs[0] == "%" {
					continue
				}
				name := fs[len(fs)-1]
				n, err := strconv.ParseInt(fs[3], 10, 64)
				if err != nil {
					continue
				}
				if name == "total" {
					counts["total"] = n
					continue
				}
				if name == "clone3" {
					name = "clone"
				}
				counts[name] += n
			}
			// Threads apart from child processes (a clone each too).
			cmd = exec.Command("strace", append([]string{"-f", "-qq", "-e", "trace=clone,clone3", "-o", f.Name()}, v.argv...)...)
			cmd.Dir = v.dir
			cmd.Stdin = bytes.NewReader(payloads[v.dir])
			cmd.Run()
			data, _ = os.ReadFile(f.Name())
			os.Remove(f.Name())
			counts["threads"] = int64(strings.Count(string(data), "CLONE_THREAD"))
			for _, k := range []string{"total", "threads", "futex", "nanosleep"} {
				runs[k] = append(runs[k], counts[k])
			}
		}
		out[i] = map[string]float64{}
		for k, v := range runs {
			out[i][k] = float64(medianInt(v))
		}
	}
	return out
}

// instructions counts each variant's instructions under callgrind (the
// least of three calls that ended as they do without valgrind; asynchronous preemption off, since callgrind
// cannot follow its signals). 0 when valgrind is missing or fails.
func instructions(vs []variant, payloads map[string][]byte) []int64 {
	if _, err := exec.LookPath("valgrind"); err != nil {
		fmt.Fprintln(os.Stderr, "valgrind is not installed (apt-get install -y valgrind): no instruction counts")
		return nil
	}
	out := make([]int64, len(vs))
	for i, v := range vs {
		if v.argv[0] == "bash" {
			continue
		}
		for r := 0; r < 3; r++ {
			dir, err := os.MkdirTemp("", "callgrind-")
			if err != nil {
				return nil
			}
			cmd := exec.Command("valgrind", append([]string{"--tool=callgrind", "--log-file=" + filepath.Join(dir, "log"),
				"--callgrind-out-file=" + filepath.Join(dir, "out")}, v.argv...)...)
			cmd.Dir = v.dir
			cmd.Env = append(os.Environ(), "GODEBUG=asyncpreemptoff=1")
			cmd.Stdin = bytes.NewReader(payloads[v.dir])
			err = cmd.Run()
			data, _ := os.ReadFile(filepath.Join(dir, "log"))
			os.RemoveAll(dir)
			if err != nil {
				// A run valgrind broke (it does not decode every
				// instruction the runtime may use: RDTSCP) counts only
				// the part before it died: not a figure.
				continue
			}
			for _, line := range strings.Split(string(data), "\n") {
				if _, rest, ok := strings.Cut(line, "Collected : "); ok {
					if n, err := strconv.ParseInt(strings.TrimSpace(rest), 10, 64); err == nil && (out[i] == 0 || n < out[i]) {
						out[i] = n
					}
				}
			}
		}
	}
	return out
}

func table(vs []variant, cpu, wall [][]time.Duration, mem []memory, sys []map[string]float64, ins []int64) {
	fmt.Println("| variant | CPU/call | × floor (range) | wall/call | peak RSS | page faults | syscalls | threads started | futex | nanosleep | instructions |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|---|---|")
	floorCPU := least(cpu[0])
	for i, v := range vs {
		lo, hi := ratioRange(cpu[i], cpu[0])
		row := []string{v.name, ms(least(cpu[i])), fmt.Sprintf("%.2f (%.2f–%.2f)", float64(least(cpu[i]))/float64(floorCPU), lo, hi),
			ms(least(wall[i])), mb(mem[i].rss), num(mem[i].faults)}
		if sys != nil {
			row = append(row, num(int64(sys[i]["total"])), num(int64(sys[i]["threads"])), num(int64(sys[i]["futex"])), num(int64(sys[i]["nanosleep"])))
		} else {
			row = append(row, "–", "–", "–", "–")
		}
		if ins != nil && ins[i] > 0 {
			row = append(row, fmt.Sprintf("%d k", ins[i]/1000))
		} else {
			row = append(row, "–")
		}
		fmt.Println("| " + strings.Join(row, " | ") + " |")
	}
	fmt.Println()
}

func least(d []time.Duration) time.Duration {
	m := d[0]
	for _, x := range d {
		m = min(m, x)
	}
	return m
}

// ratioRange is the least and the largest per-round ratio of a to b.
func ratioRange(a, b []time.Duration) (lo, hi float64) {
	for r := range a {
		x := float64(a[r]) / float64(b[r])
		if r == 0 || x < lo {
			lo = x
		}
		if r == 0 || x > hi {
			hi = x
		}
	}
	return lo, hi
}

func medianInt(v []int64) int64 {
	if len(v) == 0 {
		return 0
	}
	s := append([]int64(nil), v...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}

func ms(d time.Duration) string { return fmt.Sprintf("%.3f ms", float64(d)/1e6) }
func mb(k int64) string {
	if k == 0 {
		return "–"
	}
	return fmt.Sprintf("%.1f MB", float64(k)/1024)
}
func num(n int64) string {
	if n == 0 {
		return "–"
	}
	return strconv.FormatInt(n, 10)
}

func loadavg() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(data))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

func cpuModel() string {
	data, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return "unknown CPU"
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return "unknown CPU"
}

// packages prints the hook binary's packages (those of the magefiles, as
// go list -deps sees them) and the sizes of the binaries.
func packages(root string, b bins) {
	out, err := exec.Command("go", "list", "-tags", "mage", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", "./magefiles").Output()
	if err != nil {
		return
	}
	std, _ := exec.Command("go", "list", "-tags", "mage", "-deps", "-f", "{{if .Standard}}{{.ImportPath}}{{end}}", "./magefiles").Output()
	own := strings.Fields(string(out))
	fmt.Println("## The hook binary")
	fmt.Println()
	fmt.Printf("Packages: %d of the standard library, %d others:\n%s.\n\n", len(strings.Fields(string(std))), len(own), strings.Join(own, ", "))
	fmt.Println("| binary | size |")
	fmt.Println("|---|---|")
	for _, x := range []struct{ name, path string }{{"magehook", b.hook}, {"floor", b.floor}, {"floor + syntax", b.floorsh}, {"floor as a Mage binary", b.mage}} {
		if fi, err := os.Stat(x.path); err == nil {
			fmt.Printf("| %s | %.1f MB |\n", x.name, float64(fi.Size())/(1<<20))
		}
	}
	fmt.Println()
}

// inits prints the packages whose init work costs the most at start-up,
// on a PreToolUse call in a checkout that enables nothing: the early
// answer is given inside the init of magefiles/targets, so that package's
// line is the answer itself, listed apart. (hook:version is no measure of
// this: a hook:<word> that names no event asks the binary's own -l, a
// child process, from that init.)
func inits(bin, dir string, payload []byte) {
	total := map[string]float64{}
	const runs = 20
	for i := 0; i < runs; i++ {
		cmd := exec.Command(bin, "hook:preToolUse")
		cmd.Dir = dir
		cmd.Stdin = bytes.NewReader(payload)
		cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		cmd.Run()
		for _, line := range strings.Split(stderr.String(), "\n") {
			f := strings.Fields(line)
			if len(f) >= 6 && f[0] == "init" {
				v, _ := strconv.ParseFloat(f[4], 64)
				total[f[1]] += v
			}
		}
	}
	type kv struct {
		pkg string
		ms  float64
	}
	var list []kv
	sum := 0.0
	answer := total["github.com/magehook/magehook/magefiles/targets"] / runs
	delete(total, "github.com/magehook/magehook/magefiles/targets")
	for k, v := range total {
		list = append(list, kv{k, v / runs})
		sum += v / runs
	}
	sort.Slice(list, func(i, j int) bool { return list[i].ms > list[j].ms })
	fmt.Println("## Start-up cost by package (GODEBUG=inittrace=1, PreToolUse with no handler enabled, mean of 20 calls)")
	fmt.Println()
	fmt.Printf("%d packages run init work, %.3f ms in all, before the answer (magefiles/targets' init: %.3f ms).\n\n| package | init (ms) |\n|---|---|\n", len(list), sum, answer)
	for i := 0; i < len(list) && i < 8; i++ {
		fmt.Printf("| %s | %.3f |\n", list[i].pkg, list[i].ms)
	}
	fmt.Println()
}
