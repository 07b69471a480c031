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

// piHome writes the private HOME's ~/.pi/agent/models.json: the scripted
// model as a custom provider speaking Chat Completions.
func piHome(t *testing.T, c *Consumer, srv *modelserver.Server) {
	t.Helper()
	b, _ := json.MarshalIndent(map[string]any{"providers": map[string]any{"live": map[string]any{
		"baseUrl": srv.URL + "/v1", "api": "openai-completions", "apiKey": "x",
		"compat": map[string]any{"supportsDeveloperRole": false, "supportsReasoningEffort": false},
		"models": []any{map[string]any{"id": "live-model"}},
	}}}, "", "  ")
	write(t, c.Home, ".pi/agent/models.json", string(b))
}

type piSession struct {
	Out string
	Err error
}

// pi runs pi -p in dir against the scripted model, offline.
func (c *Consumer) pi(t *testing.T, cl live.Client, dir, prompt string) piSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, cl.Path(), "-p", "--offline", "--no-session", "--model", "live/live-model", prompt)
	cmd.Dir = dir
	cmd.Env = append(append([]string(nil), c.Env...), "PI_OFFLINE=1", "NO_COLOR=1")
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("pi did not finish within 5 minutes\n%s", out.String())
	}
	return piSession{Out: out.String(), Err: err}
}

func piWork(key string) modelserver.Script {
	return modelserver.Script{Key: key, Steps: []modelserver.Step{
		{Calls: []modelserver.Call{{Name: "bash", Input: map[string]any{"command": `git commit -am "agent change"`}}}},
		{Calls: []modelserver.Call{{Name: "edit", Input: map[string]any{"path": "README.md",
			"edits": []any{map[string]any{"oldText": "# consumer", "newText": "# consumer, edited"}}}}}},
		{Calls: []modelserver.Call{{Name: "write", Input: map[string]any{"path": "NEW.md", "content": "new\n"}}}},
		{Calls: []modelserver.Call{{Name: "bash", Input: map[string]any{"command": "git status --short"}}}},
		{Text: "finished"},
	}}
}

// TestPiGuardsMainInAFreshClone: a clone of a repository with the
// committed .pi/extensions/magehook.js has no bin/magehook; the extension
// builds it. On main the commit, the edit and the new file are blocked
// with the reason reaching the model and nothing moves; on a feature
// branch all of them happen. The session start's context reaches the
// model's system prompt.
func TestPiGuardsMainInAFreshClone(t *testing.T) {
	cl := requireClient(t, "pi")
	t.Parallel()
	c := newConsumer(t, catalogue)
	c.InstallAndPush(t, "pi")
	clone := c.freshClone(t)
	for _, branch := range []string{"main", "feature"} {
		t.Run(branch, func(t *testing.T) {
			if branch != "main" {
				c.Run(t, clone, "git", "checkout", "-q", "-b", branch)
			}
			srv, err := modelserver.Start(piWork("do the work"))
			if err != nil {
				t.Fatal(err)
			}
			defer srv.Close()
			piHome(t, c, srv)
			before := c.head(t, clone, "HEAD")
			s := c.pi(t, cl, clone, "do the work")
			after := c.head(t, clone, "HEAD")
			readme := read(t, filepath.Join(clone, "README.md"))
			_, newErr := os.Stat(filepath.Join(clone, "NEW.md"))
			if !srv.Reached("Current date and time") {
				t.Errorf("the session start's context did not reach the model\n%s\n%s", srv.Dump(), s.Out)
			}
			checkGuardedWork(t, branch, before, after, readme, newErr, srv, s.Out, "Pi")
		})
	}
	if _, err := os.Stat(filepath.Join(clone, "bin", "magehook")); err != nil {
		t.Errorf("the extension did not build the binary: %v", err)
	}
}

// TestPiMisspeltToolingrcClosesTheGates: a .toolingrc with a misspelt
// gate key blocks the commit on main with a reason naming the line, which
// reaches the model; main does not move.
func TestPiMisspeltToolingrcClosesTheGates(t *testing.T) {
	cl := requireClient(t, "pi")
	t.Parallel()
	c := newConsumer(t, catalogue)
	c.Install(t, "pi")
	write(t, c.Dir, ".toolingrc", strings.Replace(catalogue, "hook.enable branchguard", "hook.enabel branchguard", 1))
	write(t, c.Dir, "README.md", "# consumer\nchanged\n")
	before := c.head(t, c.Dir, "HEAD")
	srv, err := modelserver.Start(modelserver.Script{Key: "commit", Steps: []modelserver.Step{
		{Calls: []modelserver.Call{{Name: "bash", Input: map[string]any{"command": `git commit -am "agent change"`}}}},
		{Text: "done"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	piHome(t, c, srv)
	s := c.pi(t, cl, c.Dir, "commit the change")
	if after := c.head(t, c.Dir, "HEAD"); after != before {
		t.Errorf("main moved with a misspelt .toolingrc: %s -> %s\n%s", before, after, s.Out)
	}
	if !srv.Reached("hook.enabel: unknown key; did you mean hook.enable?") {
		t.Errorf("the configuration error did not reach the model\n%s\n%s", srv.Dump(), s.Out)
	}
}
