package live

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeFiles(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestCompareNamesEveryPayloadAndAnswerChange(t *testing.T) {
	old, new := t.TempDir(), t.TempDir()
	writeFiles(t, old, map[string]string{
		"Stop/event.json":         `{"session_id":"a","stop_hook_active":false,"gone":1}`,
		"Setup/init.json":         `{"trigger":"init"}`,
		"answers/guard-main.txt":  "PreToolUse:Bash status=0 json\nStop status=0 plain\n",
		"answers/every-event.txt": "Setup status=0 json\n",
	})
	writeFiles(t, new, map[string]string{
		"Stop/event.json":         `{"session_id":"b","stop_hook_active":"no","session_crons":[]}`,
		"Notification/idle.json":  `{"message":"x"}`,
		"answers/guard-main.txt":  "PreToolUse:Bash status=0 validation failed\nStop status=0 plain\n",
		"answers/every-event.txt": "Setup status=0 json\n",
	})
	var b strings.Builder
	differs, err := Compare(&b, old, new)
	if err != nil || !differs {
		t.Fatalf("differs=%v err=%v", differs, err)
	}
	want := `payload Notification/idle: new (fields message)
payload Setup/init: no longer seen
payload Stop/event: field gone gone
payload Stop/event: new field session_crons (array)
payload Stop/event: field stop_hook_active was boolean, is string
answers guard-main: - PreToolUse:Bash status=0 json
answers guard-main: + PreToolUse:Bash status=0 validation failed
`
	if b.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", b.String(), want)
	}
	b.Reset()
	if differs, _ := Compare(&b, old, old); differs || b.Len() != 0 {
		t.Errorf("a directory differs from itself:\n%s", b.String())
	}
}

func TestSetVersionChangesOnlyTheVersion(t *testing.T) {
	p := filepath.Join(t.TempDir(), "clients.txt")
	writeFiles(t, filepath.Dir(p), map[string]string{"clients.txt": "# pinned\nclaude   @anthropic-ai/claude-code 2.1.328 claude\ncodex    @openai/codex             0.169.0 codex\n"})
	if err := SetVersion(p, "claude", "2.1.400"); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(p)
	if want := "# pinned\nclaude   @anthropic-ai/claude-code 2.1.400 claude\ncodex    @openai/codex             0.169.0 codex\n"; string(got) != want {
		t.Errorf("got:\n%s", got)
	}
	if err := SetVersion(p, "cursor", "1"); err == nil {
		t.Error("an unknown client was accepted")
	}
}
