package main

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestParseEtime(t *testing.T) {
	for in, want := range map[string]time.Duration{
		"00:07":      7 * time.Second,
		"01:02":      62 * time.Second,
		"1:00:00":    time.Hour,
		"2-03:04:05": 2*24*time.Hour + 3*time.Hour + 4*time.Minute + 5*time.Second,
		"12:34:56":   12*time.Hour + 34*time.Minute + 56*time.Second,
	} {
		if got, ok := parseEtime(in); !ok || got != want {
			t.Errorf("parseEtime(%q) = %v, %v; want %v", in, got, ok, want)
		}
	}
	for _, bad := range []string{"", "7", "a:b", "1:2:3:4", "x-01:02"} {
		if _, ok := parseEtime(bad); ok {
			t.Errorf("parseEtime(%q) accepted", bad)
		}
	}
}

// The build gets what the compile of this program left of the timeout,
// less the margin for the binary's answer; nothing when it took it all.
func TestBudget(t *testing.T) {
	if left := budget(22*time.Second, 0); left != 21*time.Second {
		t.Errorf("nothing spent: %v", left)
	}
	if left := budget(22*time.Second, 18*time.Second); left != 3*time.Second {
		t.Errorf("18 s spent: %v", left)
	}
	if left := budget(22*time.Second, 30*time.Second); left > 0 {
		t.Errorf("more than the timeout spent: %v left", left)
	}
}

// What spentBefore measures is the parent's age when this program
// started: from the two start times, else from ps's elapsed time.
func TestSpentIsTheParentsAge(t *testing.T) {
	ticks := map[int]uint64{10: 1500, 9: 1000}
	start := func(pid int) uint64 { return ticks[pid] }
	asked := 0
	etime := func(pid int) (string, error) {
		asked = pid
		return " 01:05\n", nil
	}
	if got := spent(10, 9, start, etime); got != 5*time.Second {
		t.Errorf("from the start times: %v, want 5s", got)
	}
	if got := spent(10, 8, start, etime); got != 65*time.Second || asked != 8 {
		t.Errorf("parent's start unknown, from ps of pid %d: %v, want 65s from pid 8", asked, got)
	}
	ticks[9] = 2000 // a parent that started after its child: a reused pid
	if got := spent(10, 9, start, etime); got != 65*time.Second {
		t.Errorf("a later parent, from ps: %v, want 65s", got)
	}
	noPS := func(int) (string, error) { return "", errors.New("no ps") }
	if got := spent(10, 8, start, noPS); got != 0 {
		t.Errorf("nothing known: %v, want 0", got)
	}
}

// Started in a checkout's hook module (go -C <checkout>/magefiles run),
// ensure builds in the checkout; started anywhere else, where it starts.
func TestCheckoutOfAHookModule(t *testing.T) {
	root := t.TempDir()
	mf := filepath.Join(root, "magefiles")
	if err := os.MkdirAll(mf, 0o755); err != nil {
		t.Fatal(err)
	}
	if got := checkout(mf); got != mf {
		t.Errorf("magefiles/ without a go.mod: checkout %s, want %s", got, mf)
	}
	if err := os.WriteFile(filepath.Join(mf, "go.mod"), []byte("module x/magefiles\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := checkout(mf); got != root {
		t.Errorf("a hook module: checkout %s, want %s", got, root)
	}
	if got := checkout(root); got != root {
		t.Errorf("the checkout itself: %s", got)
	}
}
