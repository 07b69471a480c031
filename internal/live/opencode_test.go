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

type opencodeSession struct {
	Out string
	Err error
}

// opencodeConfig points OpenCode at the scripted model through its
// bundled OpenAI-compatible provider, with edits and shell allowed. A
// gpt-* model name makes it offer apply_patch ({patchText}) instead of
// edit and write.
func (c *Consumer) opencodeConfig(t *testing.T, srv *modelserver.Server, model string) {
	t.Helper()
	cfg := map[string]any{
		"$schema": "https://opencode.ai/config.json",
		"provider": map[string]any{"live": map[string]any{"npm": "@ai-sdk/openai-compatible", "name": "live",
			"options": map[string]any{"baseURL": srv.URL + "/v1", "apiKey": "x"},
			"models":  map[string]any{model: map[string]any{"name": model}}}},
		"model":      "live/" + model,
		"permission": map[string]any{"edit": "allow", "bash": "allow"},
		"autoupdate": false,
		"share":      "disabled",
	}
	b, _ := json.MarshalIndent(cfg, "", "  ")
	write(t, c.Home, ".config/opencode/opencode.json", string(b))
}

func (c *Consumer) opencode(t *testing.T, cl live.Client, dir, prompt string) opencodeSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, cl.Path(), "run", prompt)
	cmd.Dir = dir
	cmd.Env = append(append([]string(nil), c.Env...), "XDG_CONFIG_HOME="+filepath.Join(c.Home, ".config"),
		"XDG_DATA_HOME="+filepath.Join(c.Home, ".local/share"), "XDG_CACHE_HOME="+filepath.Join(c.Home, ".cache"),
		"OPENCODE_DISABLE_MODELS_FETCH=true", "OPENCODE_DISABLE_AUTOUPDATE=true", "NO_COLOR=1")
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("opencode did not finish within 5 minutes\n%s", out.String())
	}
	return opencodeSession{Out: out.String(), Err: err}
}

func opencodeWork(key string) modelserver.Script {
	return modelserver.Script{Key: key, Steps: []modelserver.Step{
		{Calls: []modelserver.Call{{Name: "bash", Input: map[string]any{"command": `git commit -am "agent change"`, "description": "commit"}}}},
		{Calls: []modelserver.Call{{Name: "apply_patch", Input: map[string]any{"patchText": "*** Begin Patch\n*** Update File: README.md\n@@\n-# consumer\n+# consumer, edited\n*** Add File: NEW.md\n+new\n*** End Patch\n"}}}},
		{Text: "finished"},
	}}
}

// TestOpenCodeGuardsMainInALinkedWorktree: the plugin finds the binary of
// the checkout it runs in — a fresh clone, then a linked worktree, each
// built on first need — denies the commit and the apply_patch of a gpt-*
// model on main, and lets them through on a worktree's branch.
func TestOpenCodeGuardsMainInALinkedWorktree(t *testing.T) {
	cl := requireClient(t, "opencode")
	t.Parallel()
	c := newConsumer(t, catalogue)
	c.InstallAndPush(t, "opencode")
	clone := filepath.Join(filepath.Dir(c.Dir), "clone")
	c.Run(t, filepath.Dir(c.Dir), "git", "clone", "-q", c.Origin, clone)
	write(t, clone, "README.md", "# consumer\nchanged\n")
	wt := filepath.Join(filepath.Dir(c.Dir), "wt")
	c.Run(t, clone, "git", "worktree", "add", "-q", "-b", "feature", wt)
	write(t, wt, "README.md", "# consumer\nchanged\n")
	for _, dir := range []string{clone, wt} {
		srv, err := modelserver.Start(opencodeWork("do the work"))
		if err != nil {
			t.Fatal(err)
		}
		c.opencodeConfig(t, srv, "gpt-5")
		before := c.head(t, dir, "HEAD")
		s := c.opencode(t, cl, dir, "do the work")
		srv.Close()
		after := c.head(t, dir, "HEAD")
		readme := read(t, filepath.Join(dir, "README.md"))
		_, newErr := os.Stat(filepath.Join(dir, "NEW.md"))
		if dir == clone {
			if after != before || strings.Contains(readme, "edited") || newErr == nil {
				t.Errorf("main moved or the patch applied: %s -> %s, README %q, NEW.md %v\n%s", before, after, readme, newErr, s.Out)
			}
			if !srv.Reached("protected branch main") {
				t.Errorf("no deny reached the model\n%s\n%s", srv.Dump(), s.Out)
			}
			if !srv.Reached("Current date and time") {
				t.Errorf("sessionclock's SessionStart context did not reach the model\n%s", srv.Dump())
			}
			continue
		}
		if after == before || !strings.Contains(readme, "edited") || newErr != nil {
			t.Errorf("the work in the worktree did not happen: %s -> %s, README %q, NEW.md %v\n%s\n%s", before, after, readme, newErr, s.Out, srv.Dump())
		}
	}
}
