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

// droidEvents are the events Factory Droid 0.225 has (its hooks schema).
var droidEvents = []string{"SessionStart", "SessionEnd", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop", "SubagentStop",
	"PreCompact", "Notification"}

// droidModel is the custom model's id; droid exec names it custom:<id>.
const droidModel = "live-model"

// droidHome writes the private HOME's ~/.factory/settings.json: the
// scripted model as a BYOK custom model (Chat Completions), which needs no
// Factory login, and the recorder on every event.
func droidHome(t *testing.T, c *Consumer, srv *modelserver.Server) {
	t.Helper()
	hooks := map[string]any{}
	for _, ev := range droidEvents {
		hooks[ev] = []any{map[string]any{"hooks": []any{map[string]any{"type": "command", "command": recorderCommand(ev), "timeout": 10}}}}
	}
	b, _ := json.MarshalIndent(map[string]any{
		"customModels": []any{map[string]any{"model": droidModel, "displayName": "Live", "baseUrl": srv.URL + "/v1", "apiKey": "x",
			"provider": "generic-chat-completion-api", "maxOutputTokens": 4096}},
		"hooks": hooks,
	}, "", "  ")
	write(t, c.Home, ".factory/settings.json", string(b))
}

type droidSession struct {
	Out string
	Err error
}

// droid runs droid exec in dir against the scripted model, with the
// autonomy that lets it commit and edit (the gates, not droid, refuse).
func (c *Consumer) droid(t *testing.T, cl live.Client, dir, prompt string) droidSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, cl.Path(), "exec", "-m", "custom:"+droidModel, "--auto", "high", prompt)
	cmd.Dir = dir
	cmd.Env = append(append([]string(nil), c.Env...), "NO_COLOR=1")
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("droid did not finish within 5 minutes\n%s", out.String())
	}
	return droidSession{Out: out.String(), Err: err}
}

// droidShell is a call of Droid's Execute tool, which refuses a call
// without its risk level.
func droidShell(command string) modelserver.Call {
	return modelserver.Call{Name: "Execute", Input: map[string]any{"command": command, "riskLevel": "medium", "riskLevelReason": "scripted"}}
}

func droidWork(key, dir string) modelserver.Script {
	readme := filepath.Join(dir, "README.md")
	return modelserver.Script{Key: key, Steps: []modelserver.Step{
		{Calls: []modelserver.Call{droidShell(`git commit -am "agent change"`)}},
		{Calls: []modelserver.Call{{Name: "Read", Input: map[string]any{"file_path": readme}}}}, // Edit refuses a file not read
		{Calls: []modelserver.Call{{Name: "Edit", Input: map[string]any{"file_path": readme, "old_str": "# consumer", "new_str": "# consumer, edited"}}}},
		{Calls: []modelserver.Call{{Name: "Create", Input: map[string]any{"file_path": filepath.Join(dir, "NEW.md"), "content": "new\n"}}}},
		{Calls: []modelserver.Call{droidShell("git status --short")}},
		{Text: "finished"},
	}}
}

// TestDroidGuardsMainInAFreshClone: a clone of a repository with the
// committed .factory/settings.json has no bin/magehook; the first hook
// builds it. On main the commit, the edit and the new file are denied with
// the reason reaching the model and nothing moves; on a feature branch
// all of them happen. The session start's context reaches the model once
// the binary exists.
func TestDroidGuardsMainInAFreshClone(t *testing.T) {
	cl := requireClient(t, "droid")
	t.Parallel()
	c := newConsumer(t, catalogue)
	c.InstallAndPush(t, "droid")
	clone := c.freshClone(t)
	for _, branch := range []string{"main", "feature"} {
		t.Run(branch, func(t *testing.T) {
			if branch != "main" {
				c.Run(t, clone, "git", "checkout", "-q", "-b", branch)
			}
			srv, err := modelserver.Start(droidWork("do the work", clone))
			if err != nil {
				t.Fatal(err)
			}
			defer srv.Close()
			droidHome(t, c, srv)
			before := c.head(t, clone, "HEAD")
			s := c.droid(t, cl, clone, "do the work")
			after := c.head(t, clone, "HEAD")
			readme := read(t, filepath.Join(clone, "README.md"))
			_, newErr := os.Stat(filepath.Join(clone, "NEW.md"))
			// Droid waits a budget (10 s in 0.225.2) for SessionStart hooks
			// before its first model call; on main the hook builds the binary,
			// which may take longer, so the context is checked once it exists.
			if branch != "main" && !srv.Reached("Current date and time") {
				t.Errorf("the session start's context did not reach the model\n%s\n%s", srv.Dump(), s.Out)
			}
			checkGuardedWork(t, branch, before, after, readme, newErr, srv, s.Out, "Droid")
		})
	}
	if _, err := os.Stat(filepath.Join(clone, "bin", "magehook")); err != nil {
		t.Errorf("the first hook did not build the binary: %v", err)
	}
	records := c.Records(t)
	if os.Getenv("MAGEHOOK_LIVE_EXPLORE") != "" {
		for _, r := range records {
			t.Logf("%s %s %v", r.Event, r.Raw, r.Env)
		}
	}
	capture(t, cl, c, "TestDroidGuardsMainInAFreshClone", records, nil)
	captureHarness(t, c, "droid", records, map[string]func(Record) bool{
		"PreToolUse-execute":  tool("PreToolUse", "Execute"),
		"PreToolUse-edit":     tool("PreToolUse", "Edit"),
		"PreToolUse-create":   tool("PreToolUse", "Create"),
		"PostToolUse-execute": tool("PostToolUse", "Execute"),
		"PostToolUse-edit":    tool("PostToolUse", "Edit"),
		"SessionStart":        event("SessionStart"),
		"Stop":                event("Stop"),
	}, clone)
}

// TestDroidMisspeltToolingrcClosesTheGates: a .toolingrc with a misspelt
// gate key blocks the commit on main with a reason naming the line, which
// reaches the model; main does not move.
func TestDroidMisspeltToolingrcClosesTheGates(t *testing.T) {
	cl := requireClient(t, "droid")
	t.Parallel()
	c := newConsumer(t, catalogue)
	c.Install(t, "droid")
	write(t, c.Dir, ".toolingrc", strings.Replace(catalogue, "hook.enable branchguard", "hook.enabel branchguard", 1))
	write(t, c.Dir, "README.md", "# consumer\nchanged\n")
	before := c.head(t, c.Dir, "HEAD")
	srv, err := modelserver.Start(modelserver.Script{Key: "commit", Steps: []modelserver.Step{
		{Calls: []modelserver.Call{droidShell(`git commit -am "agent change"`)}},
		{Text: "done"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	droidHome(t, c, srv)
	s := c.droid(t, cl, c.Dir, "commit the change")
	if after := c.head(t, c.Dir, "HEAD"); after != before {
		t.Errorf("main moved with a misspelt .toolingrc: %s -> %s\n%s", before, after, s.Out)
	}
	if !srv.Reached("hook.enabel: unknown key; did you mean hook.enable?") {
		t.Errorf("the configuration error did not reach the model\n%s\n%s", srv.Dump(), s.Out)
	}
}
