// Package hooktest builds hook payloads for tests from the fixtures in
// testdata/payloads and runs handlers through the real dispatcher.
//
// Tests never write a payload by hand: they load a fixture whose shape
// comes from the contract (or, for tool calls, from a captured transcript)
// and override only the fields they need, so a fictional shape cannot creep
// in. An override key is a dotted path into the object ("tool_input.command");
// a nil value deletes the field.
package hooktest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/magehook/magehook"
	harnesspkg "github.com/magehook/magehook/pkg/harness"
	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/payload"
)

// Dir is the fixture directory in this module's source tree:
// testdata/payloads. Fixture reads the copy embedded in the module
// (magehook.Payloads), which is there under -trimpath and vendoring too;
// Dir is for magehook's own tests that list or write fixtures.
var Dir = func() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "testdata", "payloads")
}()

// HarnessDir holds other harnesses' payloads: testdata/harness.
var HarnessDir = filepath.Join(Dir, "..", "harness")

// HarnessFixture returns a payload of another harness ("cursor/stop") with
// top-level overrides applied.
func HarnessFixture(t testing.TB, name string, overrides map[string]any) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(HarnessDir, filepath.FromSlash(name)+".json"))
	if err != nil {
		t.Fatalf("hooktest: harness fixture %s: %v", name, err)
	}
	var obj map[string]any
	if err := json.Unmarshal(data, &obj); err != nil {
		t.Fatal(err)
	}
	for k, v := range overrides {
		obj[k] = v
	}
	out, err := json.Marshal(obj)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// Fixture returns the bytes of fixture name ("PreToolUse/bash") with the
// overrides applied.
func Fixture(t testing.TB, name string, overrides map[string]any) []byte {
	t.Helper()
	data, err := fs.ReadFile(magehook.Payloads, "testdata/payloads/"+name+".json")
	if err != nil {
		t.Fatalf("hooktest: fixture %s: %v", name, err)
	}
	if len(overrides) == 0 {
		return data
	}
	var obj map[string]any
	if err := json.Unmarshal(data, &obj); err != nil {
		t.Fatalf("hooktest: fixture %s: %v", name, err)
	}
	for path, v := range overrides {
		if err := set(obj, strings.Split(path, "."), v); err != nil {
			t.Fatalf("hooktest: fixture %s: override %s: %v", name, path, err)
		}
	}
	out, err := json.Marshal(obj)
	if err != nil {
		t.Fatalf("hooktest: fixture %s: %v", name, err)
	}
	return out
}

// Legacy derives, from a PostToolUse fixture, the legacy shape older
// harnesses sent: the result under tool_output with an exit_code, and no
// tool_response. It moves fields; it never retypes a shape. A failure
// string "Error: Exit code N ..." gives exit_code N and its text as stderr.
func Legacy(t testing.TB, name string) []byte {
	t.Helper()
	var obj map[string]any
	if err := json.Unmarshal(Fixture(t, name, nil), &obj); err != nil {
		t.Fatal(err)
	}
	resp, ok := obj["tool_response"]
	if !ok {
		t.Fatalf("hooktest: fixture %s has no tool_response to move", name)
	}
	delete(obj, "tool_response")
	out := map[string]any{}
	switch r := resp.(type) {
	case map[string]any:
		for k, v := range r {
			out[k] = v
		}
		out["exit_code"] = 0
	case string:
		code := 1
		fmt.Sscanf(r, "Error: Exit code %d", &code)
		out["exit_code"] = code
		out["stderr"] = r
	}
	obj["tool_output"] = out
	data, err := json.Marshal(obj)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// Payload is Fixture decoded.
func Payload(t testing.TB, name string, overrides map[string]any) *payload.Payload {
	t.Helper()
	p, err := payload.Parse(Fixture(t, name, overrides))
	if err != nil {
		t.Fatalf("hooktest: fixture %s: %v", name, err)
	}
	return p
}

func set(obj map[string]any, path []string, v any) error {
	for _, key := range path[:len(path)-1] {
		next, ok := obj[key].(map[string]any)
		if !ok {
			next = map[string]any{}
			obj[key] = next
		}
		obj = next
	}
	last := path[len(path)-1]
	if v == nil {
		delete(obj, last)
	} else {
		obj[last] = v
	}
	return nil
}

// Checkout makes a temporary directory holding a .toolingrc with the given
// lines and returns its path.
func Checkout(t testing.TB, toolingrc ...string) string {
	t.Helper()
	dir := t.TempDir()
	text := strings.Join(toolingrc, "\n") + "\n"
	if err := os.WriteFile(filepath.Join(dir, ".toolingrc"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// Outcome is what one dispatch produced.
type Outcome struct {
	Code   int
	Stdout string
	Stderr string
}

// Run dispatches a fixture (with overrides; cwd is set to root) to the
// handlers as the hook binary would, at a fixed clock, and returns what it
// printed and its exit code.
func Run(t testing.TB, handlers []hook.Handler, root, event, fixture string, overrides map[string]any) Outcome {
	t.Helper()
	if overrides == nil {
		overrides = map[string]any{}
	}
	if _, ok := overrides["cwd"]; !ok {
		overrides["cwd"] = root
	}
	return RunBytes(t, handlers, event, Fixture(t, fixture, overrides))
}

// Clock is the time Run's handlers see.
var Clock = time.Date(2026, 11, 30, 9, 15, 0, 0, time.UTC)

// RunBytes dispatches raw stdin bytes.
func RunBytes(t testing.TB, handlers []hook.Handler, event string, stdin []byte) Outcome {
	t.Helper()
	return RunHarness(t, handlers, "claude", event, stdin)
}

// RunHarness dispatches raw stdin bytes as the hook binary does for a
// harness (-harness=name).
func RunHarness(t testing.TB, handlers []hook.Handler, harness, event string, stdin []byte) Outcome {
	t.Helper()
	h, ok := harnesspkg.Lookup(harness)
	if !ok {
		t.Fatalf("hooktest: no harness %q", harness)
	}
	var stdout, stderr bytes.Buffer
	d := &hook.Dispatcher{
		Handlers: handlers,
		Harness:  h,
		Stdin:    bytes.NewReader(stdin),
		Stdout:   &stdout,
		Stderr:   &stderr,
		Getenv:   func(string) string { return "" },
		Getwd:    func() (string, error) { return "", os.ErrNotExist },
		Now:      func() time.Time { return Clock },
	}
	code := d.Dispatch(context.Background(), event)
	return Outcome{Code: code, Stdout: stdout.String(), Stderr: stderr.String()}
}
