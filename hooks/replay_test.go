package hooks_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/magehook/magehook/hooks"
	"github.com/magehook/magehook/internal/gittest"
	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/hooktest"
)

// TestReplayGoldens replays every fixture through the catalogue (the
// gates and observers enabled, a failing completion check) in a real git
// checkout on its protected branch, main, with each fixture's working
// directory and paths moved into it, so the gates have something to
// decide; it compares the report with testdata/replay/<Event>/<case>.txt.
// UPDATE_GOLDEN=1 rewrites them.
func TestReplayGoldens(t *testing.T) {
	root := gittest.Repo(t, map[string]string{
		".toolingrc": strings.Join([]string{"hook.enable sessionclock", "hook.enable branchguard", "hook.enable stopguard",
			"hook.enable cmdguard", "hook.enable auditlog", "hook.enable decisionlog", "guard.stopcheck false"}, "\n") + "\n",
		".gitignore": ".magehook/\n",
		"README.md":  "# project\n",
	})
	files, _ := filepath.Glob(filepath.Join(hooktest.Dir, "*", "*.json"))
	if len(files) < 40 {
		t.Fatalf("only %d fixtures", len(files))
	}
	goldens := filepath.Join(hooktest.Dir, "..", "replay")
	update := os.Getenv("UPDATE_GOLDEN") != ""
	for _, f := range files {
		event := filepath.Base(filepath.Dir(f))
		name := strings.TrimSuffix(filepath.Base(f), ".json")
		data := intoCheckout(t, f, root)
		d := &hook.Dispatcher{Handlers: hooks.All(),
			Getenv: func(string) string { return "" },
			Getwd:  func() (string, error) { return root, nil },
			Now:    func() time.Time { return hooktest.Clock }}
		if event == "Stop" || event == "SubagentStop" {
			// The agent changed a file since the session began: the
			// completion check runs (and fails).
			os.WriteFile(filepath.Join(root, "README.md"), []byte("# project\n\n"+name+"\n"), 0o644)
		}
		r := hook.RunReplay(context.Background(), d, event, data)
		var raw bytes.Buffer
		r.Write(&raw)
		var got bytes.Buffer
		got.WriteString(strings.ReplaceAll(raw.String(), root, "$ROOT"))
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

// intoCheckout reads a fixture with its working directory set to root and
// each path its tool input names moved to the same name in root.
func intoCheckout(t *testing.T, fixture, root string) []byte {
	t.Helper()
	data, err := os.ReadFile(fixture)
	if err != nil {
		t.Fatal(err)
	}
	var p map[string]any
	if err := json.Unmarshal(data, &p); err != nil {
		t.Fatalf("%s: %v", fixture, err)
	}
	p["cwd"] = root
	if in, ok := p["tool_input"].(map[string]any); ok {
		for _, key := range []string{"file_path", "notebook_path", "path"} {
			if v, ok := in[key].(string); ok && filepath.IsAbs(v) {
				in[key] = filepath.Join(root, filepath.Base(v))
			}
		}
	}
	out, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	return out
}
