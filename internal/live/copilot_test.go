package live_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/magehook/magehook/internal/live"
	"github.com/magehook/magehook/internal/live/modelserver"
)

type copilotSession struct {
	Out, Log string
	Err      error
}

// copilot runs copilot -p in dir in bring-your-own-key mode against the
// scripted model (Chat Completions).
func (c *Consumer) copilot(t *testing.T, cl live.Client, srv *modelserver.Server, dir, prompt string) copilotSession {
	t.Helper()
	logs := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, cl.Path(), "-p", prompt, "--allow-all-tools", "--trust-folder", "--no-auto-update", "--log-level", "all", "--log-dir", logs)
	cmd.Dir = dir
	cmd.Env = append(append([]string(nil), c.Env...), "COPILOT_OFFLINE=true", "COPILOT_PROVIDER_BASE_URL="+srv.URL+"/v1",
		"COPILOT_MODEL=gpt-4.1", "COPILOT_PROVIDER_API_KEY=x", "NO_COLOR=1")
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("copilot did not finish within 5 minutes\n%s", out.String())
	}
	var log strings.Builder
	entries, _ := os.ReadDir(logs)
	for _, e := range entries {
		b, _ := os.ReadFile(filepath.Join(logs, e.Name()))
		log.Write(b)
	}
	return copilotSession{Out: out.String(), Log: log.String(), Err: err}
}

// recordCopilot adds the recorder on every event Copilot fires, in a
// second file of the repository's hooks directory.
func recordCopilot(t *testing.T, dir string) {
	t.Helper()
	hooks := map[string]any{}
	for _, ev := range []string{"SessionStart", "SessionEnd", "UserPromptSubmit", "PreToolUse", "PostToolUse", "PostToolUseFailure",
		"PermissionRequest", "Stop", "SubagentStart", "SubagentStop", "PreCompact", "Notification", "ErrorOccurred"} {
		hooks[ev] = []any{map[string]any{"type": "command", "bash": recorderCommand(ev), "timeoutSec": 10}}
	}
	b, _ := json.MarshalIndent(map[string]any{"version": 1, "hooks": hooks}, "", "  ")
	write(t, dir, ".github/hooks/recorder.json", string(b))
}

func copilotWork(key, dir string) modelserver.Script {
	readme := filepath.Join(dir, "README.md")
	return modelserver.Script{Key: key, Steps: []modelserver.Step{
		{Calls: []modelserver.Call{{Name: "bash", Input: map[string]any{"command": `git commit -am "agent change"`, "description": "commit"}}}},
		{Calls: []modelserver.Call{{Name: "edit", Input: map[string]any{"path": readme, "old_str": "# consumer", "new_str": "# consumer, edited"}}}},
		{Calls: []modelserver.Call{{Name: "create", Input: map[string]any{"path": filepath.Join(dir, "NEW.md"), "file_text": "new\n"}}}},
		{Calls: []modelserver.Call{{Name: "bash", Input: map[string]any{"command": "ls /no-such-dir; exit 3", "description": "fail"}}}},
		{Text: "finished"},
	}}
}

// TestCopilotGuardsMain: Copilot CLI sends its own argument names (path,
// file_text, old_str, new_str) under Claude's tool names; on main the
// commit, the edit and the new file are denied with the reason, on a
// branch all of them happen (before the mapping every edit was blocked on
// every branch).
func TestCopilotGuardsMain(t *testing.T) {
	cl := requireClient(t, "copilot")
	t.Parallel()
	c := newConsumer(t, catalogue)
	c.Install(t, "copilot")
	write(t, c.Dir, "README.md", "# consumer\nchanged\n")
	recordCopilot(t, c.Dir)
	for _, branch := range []string{"main", "feature"} {
		t.Run(branch, func(t *testing.T) {
			if branch != "main" {
				c.Git(t, "checkout", "-q", "-b", branch)
			}
			srv, err := modelserver.Start(copilotWork("do the work", c.Dir))
			if err != nil {
				t.Fatal(err)
			}
			defer srv.Close()
			before := c.head(t, c.Dir, "HEAD")
			s := c.copilot(t, cl, srv, c.Dir, "do the work")
			after := c.head(t, c.Dir, "HEAD")
			readme := read(t, filepath.Join(c.Dir, "README.md"))
			_, newErr := os.Stat(filepath.Join(c.Dir, "NEW.md"))
			if branch == "main" {
				if after != before || strings.Contains(readme, "edited") || newErr == nil {
					t.Errorf("main moved or a file changed: %s -> %s, README %q, NEW.md %v\n%s", before, after, readme, newErr, s.Out)
				}
				if !srv.Reached("protected branch main") {
					t.Errorf("no deny reached the model\n%s\n%s", srv.Dump(), s.Out)
				}
				return
			}
			if after == before || !strings.Contains(readme, "edited") || newErr != nil {
				t.Errorf("the work on %s did not happen: %s -> %s, README %q, NEW.md %v\n%s\n%s", branch, before, after, readme, newErr, s.Out, srv.Dump())
			}
		})
	}
	records := c.Records(t)
	if os.Getenv("MAGEHOOK_LIVE_EXPLORE") != "" {
		for _, r := range records {
			t.Logf("%s %s env=%v", r.Event, r.Raw, r.Env)
		}
	}
	captureHarness(t, c, "copilot", records, map[string]func(Record) bool{
		"PreToolUse-bash":   tool("PreToolUse", "Bash"),
		"PreToolUse-edit":   tool("PreToolUse", "Edit"),
		"PreToolUse-create": tool("PreToolUse", "Write"),
		"PostToolUse-bash-failed": func(r Record) bool {
			return r.Event == "PostToolUse" && strings.Contains(jsonString(r.Payload), "no-such-dir")
		},
		"PermissionRequest-bash": func(r Record) bool { return r.Event == "PermissionRequest" && r.Payload["toolName"] == "bash" },
		"PermissionRequest-edit": func(r Record) bool { return r.Event == "PermissionRequest" && r.Payload["toolName"] == "edit" },
		"UserPromptSubmit":       event("UserPromptSubmit"),
		"SessionStart":           event("SessionStart"),
		"SessionEnd":             event("SessionEnd"),
		"Stop":                   event("Stop"),
	})
}
