package payload_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/magehook/magehook/internal/live"
	"github.com/magehook/magehook/pkg/harness"
	"github.com/magehook/magehook/pkg/payload"
)

// captured is where the live suite writes the payloads real clients sent:
// testdata/live/<client>/<version>/<Event>/<case>.json.
const captured = "../../testdata/live"

// drift lists what the captured fixtures under root say pkg/payload has
// not kept up with: a top-level field neither typed nor in Untyped, and a
// client's fixtures of a version other than the pinned one without a
// NOTE.md saying why they stay.
func drift(root string, pinned func(client string) (string, error)) []string {
	known := map[string]bool{}
	typ := reflect.TypeOf(payload.Payload{})
	for i := 0; i < typ.NumField(); i++ {
		if tag := strings.Split(typ.Field(i).Tag.Get("json"), ",")[0]; tag != "" && tag != "-" {
			known[tag] = true
		}
	}
	for _, k := range payload.Untyped() {
		known[k] = true
	}
	var problems []string
	versions, _ := filepath.Glob(filepath.Join(root, "*", "*"))
	for _, dir := range versions {
		client, version := filepath.Base(filepath.Dir(dir)), filepath.Base(dir)
		want, err := pinned(client)
		if err != nil {
			problems = append(problems, err.Error())
			continue
		}
		if version != want {
			if _, err := os.Stat(filepath.Join(dir, "NOTE.md")); err != nil {
				problems = append(problems, fmt.Sprintf("%s: captured from %s %s, but %s is pinned; refresh with `go tool mage live:bump %s %s`, or write %s/NOTE.md saying why these stay",
					dir, client, version, want, client, want, dir))
			}
		}
		files, _ := filepath.Glob(filepath.Join(dir, "*", "*.json"))
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				problems = append(problems, err.Error())
				continue
			}
			// A client whose payload is a dialect of its own (Cline's) is
			// read by its harness's Normalize, which adds Claude Code's
			// fields beside the client's own: those it adds must be typed.
			native := map[string]json.RawMessage{}
			if h, ok := harness.Lookup(client); ok && h.NativePayload {
				ev, ok := h.CommonEvent(filepath.Base(filepath.Dir(f)))
				n, err := h.Normalize(data, ev)
				if !ok || err != nil || json.Unmarshal(data, &native) != nil {
					problems = append(problems, fmt.Sprintf("%s: %s's harness cannot normalise it (%v)", f, client, err))
					continue
				}
				data = n
			}
			var obj map[string]json.RawMessage
			if err := json.Unmarshal(data, &obj); err != nil {
				problems = append(problems, fmt.Sprintf("%s: %v", f, err))
				continue
			}
			var unknown []string
			for k := range obj {
				if _, own := native[k]; !own && !known[k] {
					unknown = append(unknown, k)
				}
			}
			sort.Strings(unknown)
			if len(unknown) > 0 {
				problems = append(problems, fmt.Sprintf("%s: %s sends %s, which pkg/payload neither types nor lists in Untyped", f, client+" "+version, strings.Join(unknown, ", ")))
			}
		}
	}
	return problems
}

func pinnedVersion(client string) (string, error) {
	c, err := live.Lookup(client)
	return c.Version, err
}

// TestCapturedPayloadsHaveNoDrift: every field a pinned client really sent
// is typed or deliberately untyped, and no client's captures are of a
// version other than the pinned one without a note.
func TestCapturedPayloadsHaveNoDrift(t *testing.T) {
	if _, err := os.Stat(captured); err != nil {
		t.Skip("no captured fixtures yet: run the live suite with MAGEHOOK_LIVE_CAPTURE=1")
	}
	for _, p := range drift(captured, pinnedVersion) {
		t.Error(p)
	}
}

func TestDriftFindsAnUntypedFieldAndAStaleVersion(t *testing.T) {
	root := t.TempDir()
	write := func(name, content string) {
		p := filepath.Join(root, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(content), 0o644)
	}
	write("claude/9.9.9/Stop/event.json", `{"session_id":"s","hook_event_name":"Stop","brand_new_field":1}`)
	write("claude/1.0.0/Stop/event.json", `{"session_id":"s"}`)
	write("claude/1.0.0/NOTE.md", "kept: the last version with the old shape\n")
	write("claude/1.0.1/Stop/event.json", `{"pricing":"catalog"}`)
	got := drift(root, func(string) (string, error) { return "9.9.9", nil })
	if len(got) != 2 {
		t.Fatalf("want 2 problems (brand_new_field; 1.0.1 without a note), got %d:\n%s", len(got), strings.Join(got, "\n"))
	}
	if !slices.ContainsFunc(got, func(s string) bool { return strings.Contains(s, "brand_new_field") }) ||
		!slices.ContainsFunc(got, func(s string) bool { return strings.Contains(s, "1.0.1") && strings.Contains(s, "NOTE.md") }) {
		t.Errorf("problems:\n%s", strings.Join(got, "\n"))
	}
}
