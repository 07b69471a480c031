// Command bench times the hook binary against a floor (a bare Go program
// that reads and decodes stdin) and a reference bash+jq hook making the
// same decision, interleaved in one run, on a 1.5 KB PreToolUse Bash
// payload (branchguard enabled) and a 5 MB PostToolUse payload. It prints
// medians, ranges, ratios and peak RSS, the per-package start-up cost of
// the hook binary, and checks the targets. Run it with go tool mage bench.
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
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/magehook/magehook/pkg/buildinfo"
)

var rounds = flag.Int("n", 300, "interleaved rounds per payload")

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

type variant struct {
	name string
	argv []string
}

type sample struct {
	wall time.Duration
}

func main() {
	flag.Parse()
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

func run() error {
	root, err := os.Getwd()
	if err != nil {
		return err
	}
	work, err := os.MkdirTemp("", "magehook-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)

	bin := filepath.Join(work, "magehook")
	fmt.Fprintln(os.Stderr, "building the hook binary and the floor ...")
	if err := buildinfo.Build(context.Background(), root, bin, os.Stderr); err != nil {
		return err
	}
	floor := filepath.Join(work, "floor")
	floorsh := filepath.Join(work, "floorsh")
	for out, pkg := range map[string]string{floor: "./internal/bench/floor", floorsh: "./internal/bench/floorsh"} {
		if msg, err := exec.Command("go", "build", "-ldflags=-s -w", "-o", out, pkg).CombinedOutput(); err != nil {
			return fmt.Errorf("build %s: %v\n%s", pkg, err, msg)
		}
	}
	ref := filepath.Join(work, "reference.sh")
	if err := os.WriteFile(ref, []byte(reference), 0o755); err != nil {
		return err
	}

	checkout := filepath.Join(work, "checkout")
	for _, args := range [][]string{{"init", "-q", "-b", "main", checkout}, {"-C", checkout, "commit", "-q", "--allow-empty", "-m", "init"}} {
		cmd := exec.Command("git", append([]string{"-c", "user.name=bench", "-c", "user.email=bench@localhost"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("git %v: %v\n%s", args, err, out)
		}
	}
	if err := os.WriteFile(filepath.Join(checkout, ".toolingrc"), []byte("hook.enable branchguard\n"), 0o644); err != nil {
		return err
	}
	small := prePayload(checkout, 1536)
	big := postPayload(checkout, 5<<20)

	variants := []variant{
		{"magehook", []string{bin}},
		{"floor (Go, decode only)", []string{floor}},
		{"floor + mvdan.cc/sh/v3/syntax", []string{floorsh}},
		{"bash+jq reference", []string{"bash", ref}},
	}
	hasJQ := true
	if _, err := exec.LookPath("jq"); err != nil {
		fmt.Fprintln(os.Stderr, "jq is not installed: the bash+jq reference is skipped")
		variants = variants[:3]
		hasJQ = false
	}
	fmt.Printf("# magehook bench, %s\n\n", time.Now().UTC().Format("2006-01-02 15:04 MST"))
	fmt.Printf("Machine: %s, %d CPUs, %s, %s/%s\n\n", cpuModel(), runtime.NumCPU(), runtime.Version(), runtime.GOOS, runtime.GOARCH)
	ok := true
	for _, p := range []struct {
		name, target string
		data         []byte
	}{
		{fmt.Sprintf("PreToolUse Bash, %d bytes, branchguard enabled", len(small)), "hook:preToolUse", small},
		{fmt.Sprintf("PostToolUse Bash, %d bytes", len(big)), "hook:postToolUse", big},
	} {
		res := measure(variants, p.target, p.data, checkout)
		rss := peakRSS(variants, p.target, p.data, checkout)
		fmt.Printf("## %s\n\n| variant | median | min–max | p90 | × floor | peak RSS |\n|---|---|---|---|---|---|\n", p.name)
		floorMed := median(res[1])
		for i, v := range variants {
			med := median(res[i])
			lo, hi, p90 := spread(res[i])
			fmt.Printf("| %s | %s | %s–%s | %s | %.2f | %s |\n", v.name, ms(med), ms(lo), ms(hi), ms(p90),
				float64(med)/float64(floorMed), kb(rss[i]))
		}
		fmt.Println()
		mh := median(res[0])
		ratio := float64(mh) / float64(floorMed)
		fmt.Printf("- magehook / floor: %.2f (target ≤ 1.30): %s\n", ratio, verdict(ratio <= 1.30, &ok))
		fmt.Printf("- magehook / (floor + syntax): %.2f\n", float64(mh)/float64(median(res[2])))
		if hasJQ {
			speed := float64(median(res[3])) / float64(mh)
			fmt.Printf("- bash+jq / magehook: %.1f× (target ≥ 5×): %s\n", speed, verdict(speed >= 5, &ok))
		}
		if len(p.data) > 1<<20 && rss[0] > 0 {
			r := float64(rss[0]*1024) / float64(len(p.data))
			fmt.Printf("- magehook peak RSS / payload: %.2f (target ≤ 4): %s\n", r, verdict(r <= 4, &ok))
		}
		fmt.Println()
	}
	fmt.Println("## Start-up cost by package (GODEBUG=inittrace=1, mean of 20 runs)")
	fmt.Println()
	inits(bin, small, checkout)
	if !ok {
		fmt.Println("Some targets were missed.")
	}
	return nil
}

func prePayload(cwd string, size int) []byte {
	p := map[string]any{
		"session_id": "bench-session", "transcript_path": "/home/user/.claude/projects/bench/bench-session.jsonl",
		"cwd": cwd, "permission_mode": "default", "hook_event_name": "PreToolUse", "tool_name": "Bash",
		"tool_use_id": "toolu_bench", "prompt_id": "550e8400-e29b-41d4-a716-446655440000",
		"tool_input": map[string]any{"command": "go test ./... 2>&1 | tail -n 40 && git status --short", "timeout": 120000},
	}
	data, _ := json.Marshal(p)
	p["tool_input"].(map[string]any)["description"] = strings.Repeat("Run the tests and show the status. ", (size-len(data))/35+1)[:size-len(data)-len(`,"description":""`)]
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

func measure(variants []variant, target string, payload []byte, dir string) [][]sample {
	res := make([][]sample, len(variants))
	order := make([]int, len(variants))
	for i := range order {
		order[i] = i
	}
	for r := 0; r < *rounds; r++ {
		// A new order each round: the run after bash+jq pays for its
		// cache and scheduler wake-up, and must not always be the same.
		rand.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		for _, i := range order {
			v := variants[i]
			argv := v.argv
			if v.name == "magehook" {
				argv = append(argv, target)
			}
			cmd := exec.Command(argv[0], argv[1:]...)
			cmd.Dir = dir
			cmd.Stdin = bytes.NewReader(payload)
			start := time.Now()
			cmd.Run()
			res[i] = append(res[i], sample{wall: time.Since(start)})
		}
	}
	return res
}

func median(s []sample) time.Duration {
	d := durations(s)
	return d[len(d)/2]
}

func spread(s []sample) (lo, hi, p90 time.Duration) {
	d := durations(s)
	return d[0], d[len(d)-1], d[len(d)*9/10]
}

func durations(s []sample) []time.Duration {
	d := make([]time.Duration, len(s))
	for i, x := range s {
		d[i] = x.wall
	}
	sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
	return d
}

// peakRSS measures each variant's peak resident memory, in KB, under GNU
// time (a small C program): a Go parent's own rusage would count the
// memory the child shared with it before exec. 0 when time is missing.
func peakRSS(variants []variant, target string, payload []byte, dir string) []int64 {
	out := make([]int64, len(variants))
	if _, err := os.Stat("/usr/bin/time"); err != nil {
		return out
	}
	for i, v := range variants {
		argv := v.argv
		if v.name == "magehook" {
			argv = append(argv, target)
		}
		for r := 0; r < 5; r++ {
			cmd := exec.Command("/usr/bin/time", append([]string{"-f", "%M"}, argv...)...)
			cmd.Dir = dir
			cmd.Stdin = bytes.NewReader(payload)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			cmd.Run()
			lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
			if k, err := strconv.ParseInt(strings.TrimSpace(lines[len(lines)-1]), 10, 64); err == nil {
				out[i] = max(out[i], k)
			}
		}
	}
	return out
}

func ms(d time.Duration) string { return fmt.Sprintf("%.2f ms", float64(d)/1e6) }
func kb(k int64) string         { return fmt.Sprintf("%.1f MB", float64(k)/1024) }

func verdict(pass bool, ok *bool) string {
	if pass {
		return "met"
	}
	*ok = false
	return "MISSED"
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

// inits prints the packages whose init work costs the most at start-up.
func inits(bin string, payload []byte, dir string) {
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
	for k, v := range total {
		list = append(list, kv{k, v / runs})
		sum += v / runs
	}
	sort.Slice(list, func(i, j int) bool { return list[i].ms > list[j].ms })
	fmt.Printf("All package inits: %.3f ms.\n\n| package | init (ms) |\n|---|---|\n", sum)
	for i := 0; i < len(list) && i < 8; i++ {
		fmt.Printf("| %s | %.3f |\n", list[i].pkg, list[i].ms)
	}
	fmt.Println()
}
