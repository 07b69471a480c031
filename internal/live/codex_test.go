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

// codexSession is one run of codex exec.
type codexSession struct {
	Out string
	Err error
}

// codexConfig points Codex at the scripted model (Responses API) and
// trusts the project; the hooks themselves still need trust, which
// --dangerously-bypass-hook-trust gives unless reviewed says otherwise.
func (c *Consumer) codexConfig(t *testing.T, srv *modelserver.Server, projects ...string) {
	t.Helper()
	var b strings.Builder
	b.WriteString("model = \"gpt-5.5\"\nmodel_provider = \"live\"\napproval_policy = \"never\"\nsandbox_mode = \"danger-full-access\"\n\n")
	b.WriteString("[model_providers.live]\nname = \"live\"\nbase_url = \"" + srv.URL + "/v1\"\nenv_key = \"LIVE_API_KEY\"\nwire_api = \"responses\"\n\n")
	for _, p := range projects {
		b.WriteString("[projects." + jsonString(p) + "]\ntrust_level = \"trusted\"\n\n")
	}
	write(t, c.Home, ".codex/config.toml", b.String())
}

// codex runs codex exec in dir.
func (c *Consumer) codex(t *testing.T, cl live.Client, dir, prompt string, args ...string) codexSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	argv := append([]string{"exec", "--skip-git-repo-check"}, args...)
	argv = append(argv, prompt)
	cmd := exec.CommandContext(ctx, cl.Path(), argv...)
	cmd.Dir = dir
	cmd.Env = append(append([]string(nil), c.Env...), "CODEX_HOME="+filepath.Join(c.Home, ".codex"), "LIVE_API_KEY=x", "RUST_LOG=codex_hooks=debug,codex_core::hook_runtime=debug")
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("codex did not finish within 5 minutes\n%s", out.String())
	}
	return codexSession{Out: out.String(), Err: err}
}

// recordCodex adds the recorder on every Codex event to the user's
// hooks.json (foreign to the project).
func recordCodex(t *testing.T, c *Consumer) {
	t.Helper()
	hooks := map[string]any{}
	for _, ev := range []string{"SessionStart", "SessionEnd", "UserPromptSubmit", "PreModelRequest", "PreToolUse", "PermissionRequest",
		"PostToolUse", "PreCompact", "PostCompact", "SubagentStart", "SubagentStop", "Stop", "Interrupt"} {
		hooks[ev] = []any{map[string]any{"hooks": []any{map[string]any{"type": "command", "command": recorderCommand(ev)}}}}
	}
	b, _ := json.MarshalIndent(map[string]any{"hooks": hooks}, "", "  ")
	write(t, c.Home, ".codex/hooks.json", string(b))
}

// TestCodexExplore runs one Codex session that lists the tools the model
// is offered and records every payload: the facts the dialect is built on.
func TestCodexExplore(t *testing.T) {
	if os.Getenv("MAGEHOOK_LIVE_EXPLORE") == "" {
		t.Skip("MAGEHOOK_LIVE_EXPLORE=1 prints what Codex offers and sends")
	}
	cl := requireClient(t, "codex")
	c := newConsumer(t, catalogue)
	c.Install(t, "codex")
	recordCodex(t, c)
	srv, err := modelserver.Start(modelserver.Script{Key: "", Steps: []modelserver.Step{{Text: "hello"}}})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	c.codexConfig(t, srv, c.Dir)
	s := c.codex(t, cl, c.Dir, "say hello", "--dangerously-bypass-hook-trust")
	t.Logf("codex: %v\n%s", s.Err, s.Out)
	if reqs := srv.Requests(); len(reqs) > 0 {
		var body struct {
			Tools []json.RawMessage `json:"tools"`
		}
		json.Unmarshal(reqs[0].Body, &body)
		for _, tool := range body.Tools {
			var x struct{ Type, Name string }
			json.Unmarshal(tool, &x)
			t.Logf("tool %s %s", x.Type, x.Name)
		}
	}
	for _, r := range c.Records(t) {
		t.Logf("%s %s env=%v", r.Event, r.Raw, r.Env)
	}
}

// codexShell is a call of Codex's exec_command tool.
func codexShell(command string) modelserver.Call {
	return modelserver.Call{Name: "exec_command", Input: map[string]any{"cmd": command}}
}

// codexPatch is a call of Codex's apply_patch tool (free-form).
func codexPatch(patch string) modelserver.Call {
	return modelserver.Call{Name: "apply_patch", Input: patch}
}

// codexWork is the work the guard scenarios try through Codex's tools.
func codexWork(key string) modelserver.Script {
	return modelserver.Script{Key: key, Steps: []modelserver.Step{
		{Calls: []modelserver.Call{codexShell(`git commit -am "agent change"`)}},
		{Calls: []modelserver.Call{codexPatch("*** Begin Patch\n*** Update File: ../README.md\n@@\n-# consumer\n+# consumer, edited\n*** Add File: ../NEW.md\n+new\n*** End Patch\n")}},
		{Calls: []modelserver.Call{codexShell("ls /no-such-dir; exit 3")}},
		{Text: "finished"},
	}}
}

// hookFailures are the hooks Codex reports as failed (an answer its
// schema rejected, a crash): "hook: <Event> Failed".
func hookFailures(out string) []string {
	var bad []string
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "hook: ") && strings.HasSuffix(strings.TrimSpace(line), " Failed") {
			bad = append(bad, strings.TrimSpace(line))
		}
	}
	return bad
}

// TestCodexGuardsMain: on main the commit and the patch are denied (the
// reason reaches the model, nothing moves) and Codex reports no hook
// failure; on a branch both happen. The session starts in a subdirectory,
// so the command must find the checkout itself.
func TestCodexGuardsMain(t *testing.T) {
	cl := requireClient(t, "codex")
	t.Parallel()
	c := newConsumer(t, catalogue)
	c.Install(t, "codex")
	write(t, c.Dir, "sub/keep.txt", "x\n")
	write(t, c.Dir, "README.md", "# consumer\nchanged\n")
	recordCodex(t, c)
	for _, branch := range []string{"main", "feature"} {
		t.Run(branch, func(t *testing.T) {
			if branch != "main" {
				c.Git(t, "checkout", "-q", "-b", branch)
			}
			srv, err := modelserver.Start(codexWork("do the work"))
			if err != nil {
				t.Fatal(err)
			}
			defer srv.Close()
			c.codexConfig(t, srv, c.Dir)
			before := c.head(t, c.Dir, "HEAD")
			s := c.codex(t, cl, filepath.Join(c.Dir, "sub"), "do the work", "--dangerously-bypass-hook-trust")
			if bad := hookFailures(s.Out); len(bad) > 0 {
				t.Errorf("Codex reported hook failures: %v\n%s", bad, s.Out)
			}
			if strings.Contains(s.Out, "clamping") {
				t.Errorf("Codex clamped a timeout magehook wrote:\n%s", s.Out)
			}
			after := c.head(t, c.Dir, "HEAD")
			readme := read(t, filepath.Join(c.Dir, "README.md"))
			_, newErr := os.Stat(filepath.Join(c.Dir, "NEW.md"))
			if branch == "main" {
				if after != before || strings.Contains(readme, "edited") || newErr == nil {
					t.Errorf("main moved or the patch applied: %s -> %s, README %q, NEW.md %v\n%s", before, after, readme, newErr, s.Out)
				}
				if !srv.Reached("protected branch main") {
					t.Errorf("no deny reached the model\n%s", srv.Dump())
				}
				if srv.Reached("claude --worktree") {
					t.Errorf("a Codex model was told to run claude --worktree\n%s", srv.Dump())
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
			t.Logf("%s %s", r.Event, r.Raw)
		}
	}
	captureHarness(t, c, "codex", records, map[string]func(Record) bool{
		"PreToolUse-bash":        tool("PreToolUse", "Bash"),
		"PreToolUse-apply_patch": tool("PreToolUse", "apply_patch"),
		"PostToolUse-apply_patch": func(r Record) bool {
			return tool("PostToolUse", "apply_patch")(r)
		},
		"PostToolUse-bash-failed": func(r Record) bool {
			return tool("PostToolUse", "Bash")(r) && strings.Contains(jsonString(r.Payload["tool_input"]), "no-such-dir")
		},
		"SessionStart":     event("SessionStart"),
		"SessionEnd":       event("SessionEnd"),
		"UserPromptSubmit": event("UserPromptSubmit"),
		"PreModelRequest":  event("PreModelRequest"),
		"Stop":             event("Stop"),
	})
}

// captureHarness writes recorded payloads as the harness fixtures of
// testdata/harness/<harness>/ when MAGEHOOK_LIVE_CAPTURE is set: each
// fixture is the first record for which its pick returns true, with the
// test's directories replaced by /home/user/my-project and /home/user.
// testdata/harness/README.md names the client, version and scenario.
func captureHarness(t *testing.T, c *Consumer, harness string, records []Record, picks map[string]func(Record) bool, dirs ...string) {
	t.Helper()
	if os.Getenv("MAGEHOOK_LIVE_CAPTURE") == "" {
		return
	}
	dir := filepath.Join(moduleRoot(t), "testdata", "harness", harness)
	for name, pick := range picks {
		found := false
		for _, r := range records {
			if !pick(r) {
				continue
			}
			var v any
			json.Unmarshal(r.Raw, &v)
			var b strings.Builder
			enc := json.NewEncoder(&b)
			enc.SetEscapeHTML(false)
			enc.SetIndent("", "  ")
			enc.Encode(v)
			text := strings.TrimSpace(b.String())
			for _, d := range append(dirs, c.Dir) {
				text = strings.ReplaceAll(text, d, "/home/user/my-project")
				// Droid names a session's directory after its path, / made -.
				text = strings.ReplaceAll(text, strings.ReplaceAll(d, "/", "-"), "-home-user-my-project")
			}
			text = strings.ReplaceAll(text, c.Home, "/home/user")
			write(t, dir, name+".json", text+"\n")
			found = true
			break
		}
		if !found {
			t.Errorf("capture %s/%s: no record matched", harness, name)
		}
	}
}

func tool(event, name string) func(Record) bool {
	return func(r Record) bool { return r.Event == event && r.Payload["tool_name"] == name }
}

func event(name string) func(Record) bool { return func(r Record) bool { return r.Event == name } }

// TestCodexFreshCloneKeepsTheGates: a clone has the committed
// .codex/hooks.json but no bin/magehook; the first hook builds it and the
// commit on main is denied.
func TestCodexFreshCloneKeepsTheGates(t *testing.T) {
	cl := requireClient(t, "codex")
	t.Parallel()
	c := newConsumer(t, catalogue)
	c.InstallAndPush(t, "codex")
	clone := c.freshClone(t)
	srv, err := modelserver.Start(codexWork("do the work"))
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	c.codexConfig(t, srv, clone)
	before := c.head(t, clone, "HEAD")
	s := c.codex(t, cl, clone, "do the work", "--dangerously-bypass-hook-trust")
	if bad := hookFailures(s.Out); len(bad) > 0 {
		t.Errorf("Codex reported hook failures: %v\n%s", bad, s.Out)
	}
	if after := c.head(t, clone, "HEAD"); after != before {
		t.Errorf("main moved in a fresh clone: %s -> %s\n%s", before, after, s.Out)
	}
	if !srv.Reached("protected branch main") {
		t.Errorf("no deny reached the model\n%s\n%s", srv.Dump(), s.Out)
	}
	if _, err := os.Stat(filepath.Join(clone, "bin", "magehook")); err != nil {
		t.Errorf("the first hook did not build the binary: %v", err)
	}
}

// TestCodexTrustIsVisible: without --dangerously-bypass-hook-trust Codex
// runs no project hook it has not reviewed, and says nothing; the doctor
// names each magehook hook Codex does not trust, with the fix.
func TestCodexTrustIsVisible(t *testing.T) {
	cl := requireClient(t, "codex")
	t.Parallel()
	c := newConsumer(t, catalogue)
	c.Install(t, "codex")
	srv, err := modelserver.Start(codexWork("do the work"))
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	c.codexConfig(t, srv, c.Dir)
	env := append([]string(nil), c.Env...)
	env = append(env, "CODEX_HOME="+filepath.Join(c.Home, ".codex"), "MAGEHOOK_CODEX="+cl.Path())
	cmd := exec.Command(filepath.Join(c.Dir, "bin", "magehook"), "doctor")
	cmd.Dir, cmd.Env = c.Dir, env
	out, _ := cmd.CombinedOutput()
	if !strings.Contains(string(out), "problem codex trust: Codex will not run") || !strings.Contains(string(out), "pre_tool_use:0:0 (untrusted)") ||
		!strings.Contains(string(out), "/hooks") {
		t.Errorf("the doctor does not report the untrusted hooks:\n%s", out)
	}
}
