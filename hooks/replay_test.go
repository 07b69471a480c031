package hooks_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/magehook/magehook/hooks"
	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/hooktest"
)

// TestReplayGoldens replays every fixture through the catalogue (every
// handler enabled, a failing completion check) and compares the report
// with testdata/replay/<Event>/<case>.txt. UPDATE_GOLDEN=1 rewrites them.
func TestReplayGoldens(t *testing.T) {
	root := hooktest.Checkout(t, "hook.enable sessionclock", "hook.enable branchguard", "hook.enable stopguard",
		"hook.enable auditlog", "hook.enable decisionlog", "guard.stopcheck false")
	files, _ := filepath.Glob(filepath.Join(hooktest.Dir, "*", "*.json"))
	if len(files) < 40 {
		t.Fatalf("only %d fixtures", len(files))
	}
	goldens := filepath.Join(hooktest.Dir, "..", "replay")
	update := os.Getenv("UPDATE_GOLDEN") != ""
	for _, f := range files {
		event := filepath.Base(filepath.Dir(f))
		name := strings.TrimSuffix(filepath.Base(f), ".json")
		data, _ := os.ReadFile(f)
		d := &hook.Dispatcher{Handlers: hooks.All(),
			Getenv: func(string) string { return "" },
			Getwd:  func() (string, error) { return root, nil },
			Now:    func() time.Time { return hooktest.Clock }}
		r := hook.RunReplay(context.Background(), d, event, data)
		var got bytes.Buffer
		r.Write(&got)
		golden := filepath.Join(goldens, event, name+".txt")
		if update {
			os.MkdirAll(filepath.Dir(golden), 0o755)
			os.WriteFile(golden, got.Bytes(), 0o644)
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Errorf("%s: no golden (run with UPDATE_GOLDEN=1): %v", golden, err)
			continue
		}
		if got.String() != string(want) {
			t.Errorf("replay of %s/%s:\n--- got\n%s--- want\n%s", event, name, got.String(), want)
		}
	}
}
