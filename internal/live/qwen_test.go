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

// qwenEvents are the events Qwen Code 0.24 fires that magehook answers or
// records.
var qwenEvents = []string{"SessionStart", "SessionEnd", "UserPromptSubmit", "PreToolUse", "PostToolUse", "PostToolUseFailure",
	"PermissionRequest", "Stop", "SubagentStart", "SubagentStop", "PreCompact", "PostCompact", "Notification"}

// qwenHome writes the private HOME's user settings: the OpenAI-compatible
// provider (the scripted model's Chat Completions) and the recorder on
// every event.
func qwenHome(t *testing.T, c *Consumer) {
	t.Helper()
	hooks := map[string]any{}
	for _, ev := range qwenEvents {
		hooks[ev] = []any{map[string]any{"hooks": []any{map[string]any{"type": "command", "command": recorderCommand(ev), "timeout": 10}}}}
	}
	b, _ := json.MarshalIndent(map[string]any{
		"security": map[string]any{"auth": map[string]any{"selectedType": "openai"}},
		// Offline: nothing to check or send at exit.
		"general":   map[string]any{"enableAutoUpdate": false},
		"privacy":   map[string]any{"usageStatisticsEnabled": false},
		"telemetry": map[string]any{"enabled": false},
		"hooks":     hooks,
	}, "", "  ")
	write(t, c.Home, ".qwen/settings.json", string(b))
}

type qwenSession struct {
	Out string
	Err error
}

// qwen runs qwen -p in dir against the scripted model.
func (c *Consumer) qwen(t *testing.T, cl live.Client, srv *modelserver.Server, dir, prompt string) qwenSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, cl.Path(), "-p", prompt, "--yolo", "--auth-type", "openai", "-m", "qwen3-coder-plus")
	cmd.Dir = dir
	cmd.Env = append(append([]string(nil), c.Env...), "OPENAI_API_KEY=x", "OPENAI_BASE_URL="+srv.URL+"/v1", "OPENAI_MODEL=qwen3-coder-plus",
		"NO_COLOR=1", "QWEN_CODE_NO_RELAUNCH=1")
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("qwen did not finish within 5 minutes\n%s", out.String())
	}
	return qwenSession{Out: out.String(), Err: err}
}

func qwenWork(key, dir string) modelserver.Script {
	readme := filepath.Join(dir, "README.md")
	return modelserver.Script{Key: key, Steps: []modelserver.Step{
		{Calls: []modelserver.Call{{Name: "run_shell_command", Input: map[string]any{"command": `git commit -am "agent change"`, "description": "commit"}}}},
		{Calls: []modelserver.Call{{Name: "read_file", Input: map[string]any{"file_path": readme}}}}, // edit refuses a file not read
		{Calls: []modelserver.Call{{Name: "edit", Input: map[string]any{"file_path": readme, "old_string": "# consumer", "new_string": "# consumer, edited"}}}},
		{Calls: []modelserver.Call{{Name: "write_file", Input: map[string]any{"file_path": filepath.Join(dir, "NEW.md"), "content": "new\n"}}}},
		{Calls: []modelserver.Call{{Name: "run_shell_command", Input: map[string]any{"command": "ls /no-such-dir; exit 3", "description": "fail"}}}},
		{Text: "finished"},
	}}
}

// TestQwenGuardsMainInAFreshClone: a clone of a repository with the
// committed .qwen/settings.json has no bin/magehook; the first hook builds
// it. On main the commit, the edit and the new file are denied with the
// reason reaching the model and nothing moves; on a feature branch all of
// them happen. The session start's context reaches the model.
func TestQwenGuardsMainInAFreshClone(t *testing.T) {
	cl := requireClient(t, "qwen")
	t.Parallel()
	c := newConsumer(t, catalogue)
	c.InstallAndPush(t, "qwen")
	clone := c.freshClone(t)
	qwenHome(t, c)
	for _, branch := range []string{"main", "feature"} {
		t.Run(branch, func(t *testing.T) {
			if branch != "main" {
				c.Run(t, clone, "git", "checkout", "-q", "-b", branch)
			}
			srv, err := modelserver.Start(qwenWork("do the work", clone))
			if err != nil {
				t.Fatal(err)
			}
			defer srv.Close()
			before := c.head(t, clone, "HEAD")
			s := c.qwen(t, cl, srv, clone, "do the work")
			after := c.head(t, clone, "HEAD")
			readme := read(t, filepath.Join(clone, "README.md"))
			_, newErr := os.Stat(filepath.Join(clone, "NEW.md"))
			if !srv.Reached("Current date and time") {
				t.Errorf("the session start's context did not reach the model\n%s\n%s", srv.Dump(), s.Out)
			}
			if branch == "main" {
				if after != before || strings.Contains(readme, "edited") || newErr == nil {
					t.Errorf("main moved or a file changed: %s -> %s, README %q, NEW.md %v\n%s", before, after, readme, newErr, s.Out)
				}
				for _, want := range []string{"git commit would move the protected branch main", "protected branch main"} {
					if !srv.Reached(want) {
						t.Errorf("%q did not reach the model\n%s\n%s", want, srv.Dump(), s.Out)
					}
				}
				if srv.Reached("claude --worktree") {
					t.Errorf("the reason names Claude Code's way out to Qwen Code\n%s", srv.Dump())
				}
				return
			}
			if after == before || !strings.Contains(readme, "edited") || newErr != nil {
				t.Errorf("the work on %s did not happen: %s -> %s, README %q, NEW.md %v\n%s", branch, before, after, readme, newErr, s.Out)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(clone, "bin", "magehook")); err != nil {
		t.Errorf("the first hook did not build the binary: %v", err)
	}
	records := c.Records(t)
	if os.Getenv("MAGEHOOK_LIVE_EXPLORE") != "" {
		for _, r := range records {
			t.Logf("%s %s", r.Event, r.Raw)
		}
	}
	capture(t, cl, c, "TestQwenGuardsMainInAFreshClone", records, nil)
	captureHarness(t, c, "qwen", records, map[string]func(Record) bool{
		"PreToolUse-shell":      tool("PreToolUse", "run_shell_command"),
		"PreToolUse-edit":       tool("PreToolUse", "edit"),
		"PreToolUse-write_file": tool("PreToolUse", "write_file"),
		"PostToolUse-edit":      tool("PostToolUse", "edit"),
		"SessionStart":          event("SessionStart"),
		"Stop":                  event("Stop"),
	}, clone)
}

// TestQwenMisspeltToolingrcClosesTheGates: a .toolingrc with a misspelt
// gate key blocks the commit on main with a reason naming the line, which
// reaches the model; main does not move.
func TestQwenMisspeltToolingrcClosesTheGates(t *testing.T) {
	cl := requireClient(t, "qwen")
	t.Parallel()
	c := newConsumer(t, catalogue)
	c.Install(t, "qwen")
	write(t, c.Dir, ".toolingrc", strings.Replace(catalogue, "hook.enable branchguard", "hook.enabel branchguard", 1))
	write(t, c.Dir, "README.md", "# consumer\nchanged\n")
	qwenHome(t, c)
	before := c.head(t, c.Dir, "HEAD")
	srv, err := modelserver.Start(modelserver.Script{Key: "commit", Steps: []modelserver.Step{
		{Calls: []modelserver.Call{{Name: "run_shell_command", Input: map[string]any{"command": `git commit -am "agent change"`}}}},
		{Text: "done"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	s := c.qwen(t, cl, srv, c.Dir, "commit the change")
	if after := c.head(t, c.Dir, "HEAD"); after != before {
		t.Errorf("main moved with a misspelt .toolingrc: %s -> %s\n%s", before, after, s.Out)
	}
	if !srv.Reached("hook.enabel: unknown key; did you mean hook.enable?") {
		t.Errorf("the configuration error did not reach the model\n%s\n%s", srv.Dump(), s.Out)
	}
}
