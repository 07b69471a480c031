package hooks_test

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/magehook/magehook/hooks"
	"github.com/magehook/magehook/pkg/hooktest"
)

// TestNoHandlerWritesThroughTheStateDirsLinks enables every handler in a
// checkout whose state directory a hostile repository filled with links
// to the outside (each log, each state subdirectory), runs every fixture
// through them, and checks that nothing outside changed.
func TestNoHandlerWritesThroughTheStateDirsLinks(t *testing.T) {
	var rc []string
	for _, h := range hooks.All() {
		rc = append(rc, "hook.enable "+h.Name)
	}
	rc = append(rc, "notify.command true", "devserver.command true", "guard.stopcheck true")
	root := hooktest.Checkout(t, rc...)
	outside := t.TempDir()
	state := filepath.Join(root, ".magehook")
	os.MkdirAll(state, 0o755)
	dirs := []string{"audit", "ledger", "stopreminder", "devserver", "last", "backups"}
	files := []string{"health.jsonl", "decisions.jsonl", "notify.log", "config-warning"}
	for _, d := range dirs {
		os.Mkdir(filepath.Join(outside, d), 0o755)
		os.Symlink(filepath.Join(outside, d), filepath.Join(state, d))
	}
	for _, f := range files {
		os.WriteFile(filepath.Join(outside, f), []byte("echo untouched\n"), 0o644)
		os.Symlink(filepath.Join(outside, f), filepath.Join(state, f))
	}
	before := snapshot(t, outside)
	fixtures, _ := filepath.Glob(filepath.Join("..", "testdata", "payloads", "*", "*.json"))
	if len(fixtures) < 20 {
		t.Fatalf("only %d fixtures", len(fixtures))
	}
	for _, f := range fixtures {
		event := filepath.Base(filepath.Dir(f))
		name := event + "/" + strings.TrimSuffix(filepath.Base(f), ".json")
		hooktest.Run(t, hooks.All(), root, event, name, map[string]any{"session_id": "s1"})
	}
	if after := snapshot(t, outside); after != before {
		t.Errorf("a handler wrote outside through a link:\nbefore:\n%s\nafter:\n%s", before, after)
	}
}

func snapshot(t *testing.T, dir string) string {
	var lines []string
	filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		line := rel
		if !info.IsDir() {
			data, _ := os.ReadFile(p)
			line += " " + string(data)
		}
		lines = append(lines, line)
		return nil
	})
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}
