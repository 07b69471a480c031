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

// geminiEvents are the events Gemini CLI 0.61 fires.
var geminiEvents = []string{"SessionStart", "SessionEnd", "BeforeAgent", "AfterAgent", "BeforeModel", "AfterModel",
	"BeforeToolSelection", "BeforeTool", "AfterTool", "PreCompress", "Notification"}

// geminiHome writes the private HOME's user settings: the API key auth
// type (without it the base URL selects another and gemini exits 41),
// and the recorder on every event.
func geminiHome(t *testing.T, c *Consumer) {
	t.Helper()
	hooks := map[string]any{}
	for _, ev := range geminiEvents {
		hooks[ev] = []any{map[string]any{"hooks": []any{map[string]any{"type": "command", "name": "recorder", "command": recorderCommand(ev)}}}}
	}
	b, _ := json.MarshalIndent(map[string]any{
		"security": map[string]any{"auth": map[string]any{"selectedType": "gemini-api-key"}},
		"hooks":    hooks,
	}, "", "  ")
	write(t, c.Home, ".gemini/settings.json", string(b))
}

type geminiSession struct {
	Out string
	Err error
}

// gemini runs gemini -p in dir against the scripted model.
func (c *Consumer) gemini(t *testing.T, cl live.Client, srv *modelserver.Server, dir, prompt string) geminiSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, cl.Path(), "-p", prompt, "--yolo", "-m", "gemini-2.5-flash")
	cmd.Dir = dir
	cmd.Env = append(append([]string(nil), c.Env...), "GEMINI_API_KEY=x", "GOOGLE_GEMINI_BASE_URL="+srv.URL,
		"GEMINI_CLI_TRUST_WORKSPACE=true", "NO_COLOR=1")
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("gemini did not finish within 5 minutes\n%s", out.String())
	}
	return geminiSession{Out: out.String(), Err: err}
}

func geminiWork(key, dir string) modelserver.Script {
	readme := filepath.Join(dir, "README.md")
	return modelserver.Script{Key: key, Steps: []modelserver.Step{
		{Calls: []modelserver.Call{{Name: "run_shell_command", Input: map[string]any{"command": `git commit -am "agent change"`}}}},
		{Calls: []modelserver.Call{{Name: "replace", Input: map[string]any{"file_path": readme, "old_string": "# consumer", "new_string": "# consumer, edited", "instruction": "edit"}}}},
		{Calls: []modelserver.Call{{Name: "write_file", Input: map[string]any{"file_path": filepath.Join(dir, "NEW.md"), "content": "new\n"}}}},
		{Calls: []modelserver.Call{{Name: "run_shell_command", Input: map[string]any{"command": "ls /no-such-dir; exit 3"}}}},
		{Text: "finished"},
	}}
}

// TestGeminiGuardsMainInAnOddDirectory: Gemini substitutes
// $GEMINI_PROJECT_DIR into the command text, so the checkout here is a
// fresh clone in a directory whose name holds spaces, single quotes, a
// dollar sign, backquotes and an ampersand: the command must still find it, build the binary
// on first need, deny the commit and the edits on main, and let them
// through on a branch.
func TestGeminiGuardsMainInAnOddDirectory(t *testing.T) {
	cl := requireClient(t, "gemini")
	t.Parallel()
	c := newConsumer(t, catalogue)
	c.InstallAndPush(t, "gemini")
	// Not a double quote: Gemini CLI's shell tool itself refuses a
	// workspace whose path holds one ("suspicious characters").
	odd := filepath.Join(filepath.Dir(c.Dir), "my odd $HOME 'dir' `x` & more")
	c.Run(t, filepath.Dir(c.Dir), "git", "clone", "-q", c.Origin, odd)
	write(t, odd, "README.md", "# consumer\nchanged\n")
	// Gemini's shell tool does not pass HOME's git identity through.
	c.Run(t, odd, "git", "config", "user.name", "Live Test")
	c.Run(t, odd, "git", "config", "user.email", "live@example.com")
	geminiHome(t, c)
	for _, branch := range []string{"main", "feature"} {
		t.Run(branch, func(t *testing.T) {
			if branch != "main" {
				c.Run(t, odd, "git", "checkout", "-q", "-b", branch)
			}
			srv, err := modelserver.Start(geminiWork("do the work", odd))
			if err != nil {
				t.Fatal(err)
			}
			defer srv.Close()
			before := c.head(t, odd, "HEAD")
			s := c.gemini(t, cl, srv, odd, "do the work")
			after := c.head(t, odd, "HEAD")
			readme := read(t, filepath.Join(odd, "README.md"))
			_, newErr := os.Stat(filepath.Join(odd, "NEW.md"))
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
				t.Errorf("the work on %s did not happen: %s -> %s, README %q, NEW.md %v\n%s", branch, before, after, readme, newErr, s.Out)
			}
		})
	}
	records := c.Records(t)
	if os.Getenv("MAGEHOOK_LIVE_EXPLORE") != "" {
		for _, r := range records {
			if r.Event == "BeforeTool" || r.Event == "AfterTool" || r.Event == "SessionStart" {
				t.Logf("%s %s", r.Event, r.Raw)
			}
		}
	}
	captureHarness(t, c, "gemini", records, map[string]func(Record) bool{
		"BeforeTool-shell":      tool("BeforeTool", "run_shell_command"),
		"BeforeTool-replace":    tool("BeforeTool", "replace"),
		"BeforeTool-write_file": tool("BeforeTool", "write_file"),
		"AfterTool-shell-failed": func(r Record) bool {
			return tool("AfterTool", "run_shell_command")(r) && strings.Contains(jsonString(r.Payload["tool_input"]), "no-such-dir")
		},
		"AfterTool-replace": tool("AfterTool", "replace"),
		"SessionStart":      event("SessionStart"),
		"SessionEnd":        event("SessionEnd"),
		"BeforeAgent":       event("BeforeAgent"),
		"AfterAgent":        event("AfterAgent"),
		"PreCompress":       event("PreCompress"),
	}, odd)
}
