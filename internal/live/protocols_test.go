package live_test

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/magehook/magehook/internal/live"
	"github.com/magehook/magehook/internal/live/modelserver"
)

// Each pinned client follows a script through the protocol it speaks: it
// runs the shell tool call of step 0 and sends the output back (so the
// scripted server reads that client's tool calls and results right), then
// ends on step 1's text. These are the starting point of each client's
// scenarios: how to point it at the server offline, with a private HOME.

// runClient runs a client command in the consumer, with extra environment.
func runClient(t *testing.T, c *Consumer, cl live.Client, env []string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, cl.Path(), args...)
	cmd.Dir = c.Dir
	cmd.Env = append(append([]string(nil), c.Env...), env...)
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		t.Fatalf("%s did not finish within 5 minutes\n%s", cl, out)
	}
	if err != nil {
		t.Fatalf("%s: %v\n%s", cl, err, out)
	}
	return string(out)
}

func shellScript(tool string, input map[string]any) modelserver.Script {
	return modelserver.Script{Key: "run the probe", Steps: []modelserver.Step{
		{Calls: []modelserver.Call{{Name: tool, Input: input}}},
		{Text: "probe finished"},
	}}
}

func checkScript(t *testing.T, srv *modelserver.Server, out string) {
	t.Helper()
	if !srv.Reached("hi-from-the-probe") {
		t.Errorf("the tool's output did not come back to the model\n%s\n%s", out, srv.Dump())
	}
	if n := len(srv.Scripted()); n != 2 {
		t.Errorf("%d scripted requests, want 2\n%s", n, srv.Dump())
	}
	if !strings.Contains(out, "probe finished") {
		t.Errorf("the closing text is not in the output:\n%s", out)
	}
}

func TestCodexSpeaksResponses(t *testing.T) {
	cl := requireClient(t, "codex")
	t.Parallel()
	c := newConsumer(t, catalogue)
	srv, err := modelserver.Start(shellScript("exec_command", map[string]any{"cmd": "echo hi-from-the-probe"}))
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	codexHome := filepath.Join(c.Home, ".codex")
	write(t, codexHome, "config.toml", `model = "gpt-5.5"
model_provider = "scripted"

[model_providers.scripted]
name = "scripted"
base_url = "`+srv.URL+`/v1"
env_key = "SCRIPTED_API_KEY"
wire_api = "responses"

[projects."`+c.Dir+`"]
trust_level = "trusted"
`)
	out := runClient(t, c, cl, []string{"CODEX_HOME=" + codexHome, "SCRIPTED_API_KEY=x"},
		"exec", "--dangerously-bypass-approvals-and-sandbox", "run the probe")
	checkScript(t, srv, out)
}

func TestGeminiSpeaksGenerateContent(t *testing.T) {
	cl := requireClient(t, "gemini")
	t.Parallel()
	c := newConsumer(t, catalogue)
	srv, err := modelserver.Start(shellScript("run_shell_command", map[string]any{"command": "echo hi-from-the-probe"}))
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	write(t, c.Home, ".gemini/settings.json", `{"security":{"auth":{"selectedType":"gemini-api-key"}}}`)
	out := runClient(t, c, cl, []string{"GEMINI_API_KEY=x", "GOOGLE_GEMINI_BASE_URL=" + srv.URL, "GEMINI_CLI_TRUST_WORKSPACE=true"},
		"-p", "run the probe", "--yolo")
	checkScript(t, srv, out)
}

func TestCopilotSpeaksChatCompletions(t *testing.T) {
	cl := requireClient(t, "copilot")
	t.Parallel()
	c := newConsumer(t, catalogue)
	srv, err := modelserver.Start(shellScript("bash", map[string]any{"command": "echo hi-from-the-probe", "description": "probe"}))
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	out := runClient(t, c, cl, []string{"COPILOT_OFFLINE=true", "COPILOT_PROVIDER_BASE_URL=" + srv.URL + "/v1", "COPILOT_MODEL=gpt-4.1", "COPILOT_PROVIDER_API_KEY=x"},
		"-p", "run the probe", "--allow-all-tools", "--no-auto-update", "--log-level", "all", "--log-dir", filepath.Join(c.Home, "copilot-logs"))
	checkScript(t, srv, out)
}

func TestOpencodeSpeaksChatCompletions(t *testing.T) {
	cl := requireClient(t, "opencode")
	t.Parallel()
	c := newConsumer(t, catalogue)
	srv, err := modelserver.Start(shellScript("bash", map[string]any{"command": "echo hi-from-the-probe", "description": "probe"}))
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	config := filepath.Join(c.Home, ".config")
	write(t, config, "opencode/opencode.json", `{
  "provider": {"scripted": {"npm": "@ai-sdk/openai-compatible", "name": "scripted",
    "options": {"baseURL": "`+srv.URL+`/v1", "apiKey": "x"},
    "models": {"scripted-model": {"name": "scripted-model"}}}},
  "model": "scripted/scripted-model",
  "permission": {"edit": "allow", "bash": "allow"}
}`)
	out := runClient(t, c, cl, []string{"XDG_CONFIG_HOME=" + config, "OPENCODE_DISABLE_MODELS_FETCH=true"}, "run", "run the probe")
	checkScript(t, srv, out)
}
