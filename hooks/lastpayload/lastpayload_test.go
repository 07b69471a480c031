package lastpayload_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/magehook/magehook/hooks/lastpayload"
	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/hooktest"
	"github.com/magehook/magehook/pkg/payload"
	"github.com/magehook/magehook/pkg/redact"
)

var hs = []hook.Handler{lastpayload.Handler}

func TestTheLastPayloadOfEachEventIsKeptRedacted(t *testing.T) {
	root := hooktest.Checkout(t, "hook.enable lastpayload")
	state := filepath.Join(root, ".magehook")
	secret := "ghp_" + strings.Repeat("A", 36)
	hooktest.Run(t, hs, root, "PreToolUse", "PreToolUse/bash", map[string]any{"session_id": "abc123", "tool_input.command": "echo first"})
	out := hooktest.Run(t, hs, root, "PreToolUse", "PreToolUse/bash", map[string]any{"session_id": "abc123", "tool_input.command": `curl -H "Authorization: token ` + secret + `" x`})
	if out.Code != 0 || out.Stdout != "" {
		t.Fatalf("%+v", out)
	}
	hooktest.Run(t, hs, root, "PostToolUse", "PostToolUse/bash-success", map[string]any{"session_id": "abc123"})
	hooktest.Run(t, hs, root, "Stop", "Stop/stop", nil)

	path, err := lastpayload.Find(state, "PreToolUse", "")
	if err != nil {
		t.Fatal(err)
	}
	if path != filepath.Join(state, "last", "abc123", "PreToolUse.json") {
		t.Errorf("path %s", path)
	}
	data, _ := os.ReadFile(path)
	var p map[string]any
	if err := json.Unmarshal(data, &p); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, data)
	}
	cmd := p["tool_input"].(map[string]any)["command"].(string)
	if strings.Contains(string(data), secret) || !strings.Contains(cmd, "[REDACTED]") || !strings.HasPrefix(cmd, "curl") {
		t.Errorf("the last PreToolUse, redacted: %s", data)
	}
	if p["hook_event_name"] != "PreToolUse" || p["tool_use_id"] == nil {
		t.Errorf("the envelope must be kept for replay: %s", data)
	}
	for _, ev := range []string{"PostToolUse", "Stop"} {
		if _, err := lastpayload.Find(state, ev, "abc123"); err != nil {
			t.Error(err)
		}
	}
}

func TestRedactKeepsJSONValidWhereTextRedactionWouldBreakIt(t *testing.T) {
	// A secret right before an escaped quote: a regexp over the raw text
	// would swallow the backslash and break the string.
	raw := []byte(`{"tool_input":{"command":"echo password=abcdefgh\"x\" && cat big"},"n":12345678901234567890,"list":["` + strings.Repeat("y", lastpayload.MaxString+100) + `"]}`)
	got, err := lastpayload.Redact(raw)
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		ToolInput struct{ Command string } `json:"tool_input"`
		N         json.Number
		List      []string
	}
	if err := json.Unmarshal(got, &v); err != nil {
		t.Fatalf("%v\n%s", err, got)
	}
	if strings.Contains(v.ToolInput.Command, "abcdefgh") || v.N.String() != "12345678901234567890" || len(v.List[0]) > lastpayload.MaxString+64 {
		t.Errorf("%+v", v)
	}
}

func TestHookLastFindsTheNewest(t *testing.T) {
	state := t.TempDir()
	if _, err := lastpayload.Find(state, "", ""); !errors.Is(err, lastpayload.ErrNone) {
		t.Errorf("nothing stored: %v", err)
	}
	if _, err := lastpayload.Find(state, "NoSuchEvent", ""); err == nil || errors.Is(err, lastpayload.ErrNone) {
		t.Errorf("an unknown event is a usage error: %v", err)
	}
	if _, err := lastpayload.Find(state, "", "../x"); err == nil {
		t.Error("a session id with a path in it")
	}
	write := func(session, event string, age time.Duration) string {
		p := filepath.Join(state, "last", session, event+".json")
		os.MkdirAll(filepath.Dir(p), 0o700)
		os.WriteFile(p, []byte("{}\n"), 0o600)
		when := time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC).Add(-age)
		os.Chtimes(p, when, when)
		return p
	}
	write("s1", "PreToolUse", time.Hour)
	newest := write("s2", "PreToolUse", time.Minute)
	stop := write("s1", "Stop", 0)
	if got, _ := lastpayload.Find(state, "PreToolUse", ""); got != newest {
		t.Errorf("newest PreToolUse: %s", got)
	}
	if got, _ := lastpayload.Find(state, "", ""); got != stop {
		t.Errorf("newest of any event: %s", got)
	}
	if got, _ := lastpayload.Find(state, "PreToolUse", "s1"); got != filepath.Join(state, "last", "s1", "PreToolUse.json") {
		t.Errorf("from one session: %s", got)
	}
}

func TestOnlyTheRecentSessionsAreKept(t *testing.T) {
	root := hooktest.Checkout(t, "hook.enable lastpayload")
	base := filepath.Join(root, ".magehook", "last")
	for i := 0; i < lastpayload.Keep+5; i++ {
		hooktest.Run(t, hs, root, "Stop", "Stop/stop", map[string]any{"session_id": fmt.Sprintf("s%02d", i)})
		when := time.Date(2026, 11, 30, 9, 0, i, 0, time.UTC)
		os.Chtimes(filepath.Join(base, fmt.Sprintf("s%02d", i)), when, when)
	}
	entries, _ := os.ReadDir(base)
	if len(entries) != lastpayload.Keep {
		t.Fatalf("%d sessions kept, want %d", len(entries), lastpayload.Keep)
	}
	if entries[0].Name() != "s05" {
		t.Errorf("the oldest sessions go first; the oldest kept is %s", entries[0].Name())
	}
}

func TestEveryEventButMessageDisplay(t *testing.T) {
	if lastpayload.Handler.Subscribes("MessageDisplay") || !lastpayload.Handler.Subscribes("SessionEnd") || !lastpayload.Handler.Subscribes("PreToolUse") {
		t.Errorf("events: %v", lastpayload.Handler.Events)
	}
	var want []string
	for _, ev := range hook.Events() {
		if ev.Name != "MessageDisplay" {
			want = append(want, ev.Name)
		}
	}
	if got := strings.Join(lastpayload.Handler.Events, " "); got != strings.Join(want, " ") {
		t.Errorf("events:\n got %s\nwant %s", got, strings.Join(want, " "))
	}
}

// A long output is decoded only as far as what is kept needs, and what is
// kept is what redacting the whole output and cutting it keeps: the same
// bytes, a secret across the cut masked, the same count of bytes cut.
func TestALongOutputIsKeptAsIfDecodedWhole(t *testing.T) {
	token := "ghp_" + strings.Repeat("A1b2", 10)
	out := strings.Repeat("line \u00e9 \"quoted\"\t\n", (lastpayload.MaxString-20)/18) + " " + token + " " + strings.Repeat("z\\", 400<<10)
	raw := hooktest.Fixture(t, "PostToolUse/bash-success", map[string]any{"tool_response.stdout": out})
	got, err := lastpayload.Redact(raw)
	if err != nil {
		t.Fatal(err)
	}
	whole, err := payload.MapStringsIndent(raw, func(s string) string { return redact.Cut(redact.String(s), lastpayload.MaxString) }, "  ")
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(whole)+"\n" {
		t.Fatalf("Redact differs from redacting the whole output (%d bytes against %d)", len(got), len(whole)+1)
	}
	if strings.Contains(string(got), "A1b2A1b2") {
		t.Fatal("the token across the cut was kept")
	}
	if !strings.Contains(string(got), "[REDACTED]") || !strings.Contains(string(got), " bytes cut]") {
		t.Fatalf("the output was not kept masked and cut: %.200s", got[len(got)-200:])
	}
}

// An event whose payload is what is stored is not written again (its
// time, set back here, stays); a changed one is written over the same
// file in place, never renamed over it, and cut to its new length.
func TestAnUnchangedPayloadIsNotWrittenAndAChangedOneInPlace(t *testing.T) {
	root := hooktest.Checkout(t, "hook.enable lastpayload")
	long := map[string]any{"session_id": "s1", "tool_input.command": "echo " + strings.Repeat("long ", 200)}
	hooktest.Run(t, hs, root, "PreToolUse", "PreToolUse/bash", long)
	path := filepath.Join(root, ".magehook", "last", "s1", "PreToolUse.json")
	before, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	old := time.Unix(1_000_000_000, 0)
	if err := os.Chtimes(path, old, old); err != nil {
		t.Fatal(err)
	}
	hooktest.Run(t, hs, root, "PreToolUse", "PreToolUse/bash", long)
	if info, _ := os.Stat(path); !info.ModTime().Equal(old) {
		t.Errorf("the same payload was written again (time %v)", info.ModTime())
	}
	hooktest.Run(t, hs, root, "PreToolUse", "PreToolUse/bash", map[string]any{"session_id": "s1", "tool_input.command": "echo short"})
	after, _ := os.Stat(path)
	if !os.SameFile(before, after) {
		t.Error("the file was replaced, not written in place")
	}
	if after.ModTime().Equal(old) {
		t.Error("a changed payload was not written")
	}
	data, _ := lastpayload.Read(path)
	var p map[string]any
	if err := json.Unmarshal(data, &p); err != nil || !strings.Contains(string(data), "echo short") || strings.Contains(string(data), "long long") {
		t.Errorf("the shorter payload is not stored whole and alone (%v):\n%s", err, data)
	}
}
