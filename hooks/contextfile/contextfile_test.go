package contextfile_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/magehook/magehook/hooks/contextfile"
	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/hooktest"
)

var hs = []hook.Handler{contextfile.Handler}

func additionalContext(t *testing.T, out hooktest.Outcome) string {
	t.Helper()
	if out.Code != 0 {
		t.Fatalf("%+v", out)
	}
	if out.Stdout == "" {
		return ""
	}
	var a struct {
		HookSpecificOutput struct {
			HookEventName     string `json:"hookEventName"`
			AdditionalContext string `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal([]byte(out.Stdout), &a); err != nil {
		t.Fatalf("%v: %s", err, out.Stdout)
	}
	if a.HookSpecificOutput.HookEventName != "SessionStart" {
		t.Errorf("hookEventName %q", a.HookSpecificOutput.HookEventName)
	}
	return a.HookSpecificOutput.AdditionalContext
}

func TestTheNotesReachTheContextOnEverySource(t *testing.T) {
	root := hooktest.Checkout(t, "hook.enable contextfile", "context.file docs/NOTES.md", "context.file QUIRKS.txt")
	os.MkdirAll(filepath.Join(root, "docs"), 0o755)
	os.WriteFile(filepath.Join(root, "docs", "NOTES.md"), []byte("- the build needs CGO_ENABLED=0\n"), 0o644)
	os.WriteFile(filepath.Join(root, "QUIRKS.txt"), []byte("flaky: TestNetwork\n"), 0o644)
	before, _ := os.ReadFile(filepath.Join(root, "docs", "NOTES.md"))
	for _, source := range []string{"startup", "resume", "clear", "compact"} {
		got := additionalContext(t, hooktest.Run(t, hs, root, "SessionStart", "SessionStart/startup", map[string]any{"source": source}))
		want := "Contents of docs/NOTES.md (context.file in .toolingrc):\n- the build needs CGO_ENABLED=0\n\n" +
			"Contents of QUIRKS.txt (context.file in .toolingrc):\nflaky: TestNetwork"
		if got != want {
			t.Errorf("%s: got %q\nwant %q", source, got, want)
		}
	}
	after, _ := os.ReadFile(filepath.Join(root, "docs", "NOTES.md"))
	if string(before) != string(after) {
		t.Error("the notes file changed")
	}
}

func TestALongFileIsCutAtALine(t *testing.T) {
	root := hooktest.Checkout(t, "hook.enable contextfile", "context.file big.md", "context.file second.md")
	os.WriteFile(filepath.Join(root, "big.md"), []byte(strings.Repeat("a line of notes é\n", 2000)), 0o644)
	os.WriteFile(filepath.Join(root, "second.md"), []byte(strings.Repeat("second file\n", 200)), 0o644)
	got := additionalContext(t, hooktest.Run(t, hs, root, "SessionStart", "SessionStart/startup", nil))
	if !strings.HasPrefix(got, "Start of big.md (context.file in .toolingrc; cut, read the file for the rest):\na line") {
		t.Errorf("the cut is not announced: %.120q", got)
	}
	if len(got) > 10000 {
		t.Errorf("the context is %d bytes, over Claude Code's 10,000", len(got))
	}
	if !strings.Contains(got, "a line of notes é\n\nStart of second.md") {
		t.Errorf("the first file is not cut at a line end, or the second is missing: %q", got[7900:8100])
	}
}

func TestMissingAndSpecialFilesAreSkipped(t *testing.T) {
	root := hooktest.Checkout(t, "hook.enable contextfile", "context.file gone.md", "context.file fifo", "context.file dir", "context.file ok.md")
	if err := syscall.Mkfifo(filepath.Join(root, "fifo"), 0o644); err != nil {
		t.Skip(err)
	}
	os.Mkdir(filepath.Join(root, "dir"), 0o755)
	os.WriteFile(filepath.Join(root, "ok.md"), []byte("ok\n"), 0o644)
	out := hooktest.Run(t, hs, root, "SessionStart", "SessionStart/startup", nil)
	if got := additionalContext(t, out); got != "Contents of ok.md (context.file in .toolingrc):\nok" {
		t.Errorf("got %q", got)
	}
	for _, want := range []string{"gone.md: no such file", "fifo: not a regular file", "dir: not a regular file"} {
		if !strings.Contains(out.Stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, out.Stderr)
		}
	}
}

func TestNothingConfiguredAddsNothing(t *testing.T) {
	root := hooktest.Checkout(t, "hook.enable contextfile")
	if out := hooktest.Run(t, hs, root, "SessionStart", "SessionStart/startup", nil); out.Code != 0 || out.Stdout != "" || out.Stderr != "" {
		t.Errorf("%+v", out)
	}
}

func TestABadPathIsAConfigurationError(t *testing.T) {
	root := hooktest.Checkout(t, "hook.enable contextfile", "context.file ../outside.md")
	out := hooktest.Run(t, hs, root, "SessionStart", "SessionStart/startup", nil)
	// A bad value is a configuration error: the session goes on, and the
	// user is shown the key (while tool calls are blocked until it is fixed).
	if out.Code != 0 || !strings.Contains(out.Stdout, `"systemMessage":"magehook cannot read its configuration`) || !strings.Contains(out.Stderr, `context.file`) {
		t.Errorf("an observer's bad key must not stop the session, and must be named: %+v", out)
	}
}
