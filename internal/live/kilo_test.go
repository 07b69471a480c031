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

// kiloConfig points Kilo Code at the scripted model through the
// OpenAI-compatible provider it inherits from OpenCode, edits and shell
// allowed, and switches off its PostHog telemetry (on unless
// experimental.openTelemetry is false), which otherwise sends to
// us.i.posthog.com.
func (c *Consumer) kiloConfig(t *testing.T, srv *modelserver.Server, model string) {
	t.Helper()
	cfg := map[string]any{
		"provider": map[string]any{"live": map[string]any{"npm": "@ai-sdk/openai-compatible", "name": "live",
			"options": map[string]any{"baseURL": srv.URL + "/v1", "apiKey": "x"},
			"models":  map[string]any{model: map[string]any{"name": model}}}},
		"model":        "live/" + model,
		"permission":   map[string]any{"edit": "allow", "bash": "allow"},
		"autoupdate":   false,
		"share":        "disabled",
		"experimental": map[string]any{"openTelemetry": false},
	}
	b, _ := json.MarshalIndent(cfg, "", "  ")
	write(t, c.Home, ".config/kilo/kilo.json", string(b))
}

// kilo runs kilo run in dir. Its own services (api.kilo.ai, the event
// and session services) are pointed at the scripted server on loopback,
// which answers them 404 at once, and KILO_TELEMETRY_LEVEL=off (read
// before the config) keeps its PostHog client from starting: nothing
// leaves the machine but a look-up at the npm registry, and nothing
// waits on a network that is not there. Traced (strace -e
// connect,sendmmsg), Kilo Code 7.7.7 with telemetry on resolves
// us.i.posthog.com and opens an HTTPS connection to it besides the
// registry's: the one connection beyond loopback, so the one the runs
// that did not exit after a denied call held. The hang itself did not
// recur in three runs with telemetry on; with it off there is nothing
// left to wait on.
func (c *Consumer) kilo(t *testing.T, cl live.Client, srv *modelserver.Server, dir, prompt string) opencodeSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, cl.Path(), "run", prompt)
	ownGroup(cmd)
	cmd.Dir = dir
	cmd.Env = append(append([]string(nil), c.Env...), "XDG_CONFIG_HOME="+filepath.Join(c.Home, ".config"),
		"XDG_DATA_HOME="+filepath.Join(c.Home, ".local/share"), "XDG_CACHE_HOME="+filepath.Join(c.Home, ".cache"),
		"KILO_DISABLE_MODELS_FETCH=true", "KILO_DISABLE_AUTOUPDATE=true", "KILO_DISABLE_SHARE=true", "KILO_DISABLE_LSP_DOWNLOAD=true",
		"KILO_DISABLE_CODEBASE_INDEXING=true", "KILO_DISABLE_SESSION_INGEST=true", "KILO_DISABLE_PRESENCE=true",
		"KILO_DISABLE_CHANNEL_DB=true", "KILO_DISABLE_EMBEDDED_WEB_UI=true", "KILO_DISABLE_DEFAULT_PLUGINS=true", "KILO_TELEMETRY_LEVEL=off", "NO_COLOR=1",
		"KILO_API_URL="+srv.URL, "KILO_API_BASE="+srv.URL, "KILO_EVENT_SERVICE_URL="+srv.URL, "KILO_CONSOLE_BASE="+srv.URL)
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("kilo did not finish within 5 minutes\n%s", out.String())
	}
	return opencodeSession{Out: out.String(), Err: err}
}

// TestKiloGuardsMainInAFreshClone: a clone with the committed
// .kilo/plugins/magehook.js has no bin/magehook; the plugin builds it. On
// main the commit and the apply_patch of a gpt-* model are denied with the
// reason reaching the model and nothing moves, and sessionclock's context
// reaches the model; on a feature branch both happen.
func TestKiloGuardsMainInAFreshClone(t *testing.T) {
	cl := requireClient(t, "kilo")
	t.Parallel()
	c := newConsumer(t, catalogue)
	c.InstallAndPush(t, "kilo")
	clone := c.freshClone(t)
	for _, branch := range []string{"main", "feature"} {
		t.Run(branch, func(t *testing.T) {
			if branch != "main" {
				c.Run(t, clone, "git", "checkout", "-q", "-b", branch)
			}
			srv, err := modelserver.Start(opencodeWork("do the work"))
			if err != nil {
				t.Fatal(err)
			}
			defer srv.Close()
			c.kiloConfig(t, srv, "gpt-5")
			before := c.head(t, clone, "HEAD")
			s := c.kilo(t, cl, srv, clone, "do the work")
			after := c.head(t, clone, "HEAD")
			readme := read(t, filepath.Join(clone, "README.md"))
			_, newErr := os.Stat(filepath.Join(clone, "NEW.md"))
			if os.Getenv("MAGEHOOK_LIVE_EXPLORE") != "" {
				t.Logf("%s\n%s", s.Out, srv.Dump())
			}
			if branch == "main" {
				if after != before || strings.Contains(readme, "edited") || newErr == nil {
					t.Errorf("main moved or the patch applied: %s -> %s, README %q, NEW.md %v\n%s", before, after, readme, newErr, s.Out)
				}
				for _, want := range []string{"git commit would move the protected branch main", "protected branch main"} {
					if !srv.Reached(want) {
						t.Errorf("%q did not reach the model\n%s\n%s", want, srv.Dump(), s.Out)
					}
				}
				if !srv.Reached("Current date and time") {
					t.Errorf("sessionclock's SessionStart context did not reach the model\n%s", srv.Dump())
				}
				if srv.Reached("claude --worktree") {
					t.Errorf("the reason names Claude Code's way out to Kilo Code\n%s", srv.Dump())
				}
				return
			}
			if after == before || !strings.Contains(readme, "edited") || newErr != nil {
				t.Errorf("the work on %s did not happen: %s -> %s, README %q, NEW.md %v\n%s\n%s", branch, before, after, readme, newErr, s.Out, srv.Dump())
			}
		})
	}
	if _, err := os.Stat(filepath.Join(clone, "bin", "magehook")); err != nil {
		t.Errorf("the plugin did not build the binary: %v", err)
	}
}

// TestKiloMisspeltToolingrcClosesTheGates: a .toolingrc with a misspelt
// gate key denies the commit on main with a reason naming the line, which
// reaches the model; main does not move.
func TestKiloMisspeltToolingrcClosesTheGates(t *testing.T) {
	cl := requireClient(t, "kilo")
	t.Parallel()
	c := newConsumer(t, catalogue)
	c.Install(t, "kilo")
	write(t, c.Dir, ".toolingrc", strings.Replace(catalogue, "hook.enable branchguard", "hook.enabel branchguard", 1))
	write(t, c.Dir, "README.md", "# consumer\nchanged\n")
	before := c.head(t, c.Dir, "HEAD")
	srv, err := modelserver.Start(modelserver.Script{Key: "commit", Steps: []modelserver.Step{
		{Calls: []modelserver.Call{{Name: "bash", Input: map[string]any{"command": `git commit -am "agent change"`, "description": "commit"}}}},
		{Text: "done"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	c.kiloConfig(t, srv, "gpt-5")
	s := c.kilo(t, cl, srv, c.Dir, "commit the change")
	if after := c.head(t, c.Dir, "HEAD"); after != before {
		t.Errorf("main moved with a misspelt .toolingrc: %s -> %s\n%s", before, after, s.Out)
	}
	if !srv.Reached("hook.enabel: unknown key; did you mean hook.enable?") {
		t.Errorf("the configuration error did not reach the model\n%s\n%s", srv.Dump(), s.Out)
	}
}
