package live_test

import (
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/magehook/magehook/internal/live"
	"github.com/magehook/magehook/internal/live/modelserver"
)

// clineEvents are the hook files Cline 3.0 runs.
var clineEvents = []string{"TaskStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "TaskComplete", "SessionShutdown"}

// clineHome writes the recorder as the private HOME's user hooks
// (~/.cline/hooks/<name>): Cline runs them beside the project's.
func clineHome(t *testing.T, c *Consumer) {
	t.Helper()
	for _, ev := range clineEvents {
		write(t, c.Home, ".cline/hooks/"+ev, "#!/bin/sh\n"+recorderCommand(ev)+"\n")
	}
}

type clineSession struct {
	Out string
	Err error
}

// cline runs one task in dir against the scripted model through Cline's
// OpenAI-compatible provider, tools auto-approved.
func (c *Consumer) cline(t *testing.T, cl live.Client, srv *modelserver.Server, dir, prompt string) clineSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	env := append(append([]string(nil), c.Env...), "NO_COLOR=1", "CLINE_TELEMETRY_DISABLED=1", "CLINE_NO_AUTO_UPDATE=1",
		"CLINE_HUB_PORT="+clineHub(t, c))
	auth := exec.CommandContext(ctx, cl.Path(), "auth", "-p", "openai-compatible", "-k", "x", "-m", "gpt-4o", "-b", srv.URL+"/v1")
	auth.Dir, auth.Env = dir, env
	if out, err := auth.CombinedOutput(); err != nil {
		t.Fatalf("cline auth: %v\n%s", err, out)
	}
	cmd := exec.CommandContext(ctx, cl.Path(), append(append([]string{"--json"}, clineExtra...), "--auto-approve", "true", "-c", dir, "-P", "openai-compatible", "-m", "gpt-4o", prompt)...)
	ownGroup(cmd)
	cmd.Dir, cmd.Env = dir, env
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("cline did not finish within 5 minutes\n%s", out.String())
	}
	return clineSession{Out: out.String(), Err: err}
}

// clineHub is the port of the consumer's own Cline hub: cline starts a
// hub daemon that outlives the run, and one on the default port would
// serve every test's runs with the environment of the first. The daemon
// is ended when the test ends, by its process id.
func clineHub(t *testing.T, c *Consumer) string {
	t.Helper()
	if c.clineHubPort == "" {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		c.clineHubPort = strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
		l.Close()
	}
	// Each (sub)test that runs cline ends the daemon its run started.
	port := c.clineHubPort
	t.Cleanup(func() {
		procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
		for _, p := range procs {
			b, err := os.ReadFile(p)
			args := strings.Split(string(b), "\x00")
			if err != nil || !slices.Contains(args, "--cline-hub-daemon") || !slices.Contains(args, port) {
				continue
			}
			if pid, err := strconv.Atoi(filepath.Base(filepath.Dir(p))); err == nil {
				if proc, err := os.FindProcess(pid); err == nil {
					proc.Kill()
				}
			}
		}
	})
	return port
}

func clineScript(key string, calls ...modelserver.Call) modelserver.Script {
	var steps []modelserver.Step
	for _, c := range calls {
		steps = append(steps, modelserver.Step{Calls: []modelserver.Call{c}})
	}
	return modelserver.Script{Key: key, Steps: append(steps, modelserver.Step{Text: "finished"})}
}

func clineCommit() modelserver.Call {
	return modelserver.Call{Name: "run_commands", Input: map[string]any{"commands": []any{`git commit -am "agent change"`}}}
}

// clinePatch is an edit as Cline offers it to a gpt-* model: apply_patch
// (its editor tool is offered to other models instead).
func clinePatch(body string) modelserver.Call {
	return modelserver.Call{Name: "apply_patch", Input: map[string]any{"input": "*** Begin Patch\n" + body + "*** End Patch\n"}}
}

func clineEdit() modelserver.Call {
	return clinePatch("*** Update File: README.md\n@@\n-# consumer\n+# consumer, edited\n")
}

// TestClineGuardsMainInAFreshClone: a clone of a repository with the
// committed .clinerules/hooks has no bin/magehook; the first PreToolUse
// builds it. On main the commit and the edit are blocked before they run
// and nothing moves: the answer nulls the call's input, so Cline's own
// tool fails it ("Invalid input"), and the reason reaches the model as the
// hook's context while the task goes on to its end; on a feature branch
// the commit and the edit happen, and formatter's PostToolUse context
// reaches the model.
func TestClineGuardsMainInAFreshClone(t *testing.T) {
	cl := requireClient(t, "cline")
	t.Parallel()
	c := newConsumer(t, catalogue+"hook.enable formatter\n")
	c.InstallAndPush(t, "cline")
	clone := c.freshClone(t)
	clineHome(t, c)
	for _, step := range []struct {
		name string
		call modelserver.Call
		want string
	}{
		{"commit", clineCommit(), "git commit would move the protected branch main"},
		{"edit", clineEdit(), "protected branch main"},
	} {
		t.Run("main/"+step.name, func(t *testing.T) {
			srv, err := modelserver.Start(clineScript("do the work", step.call))
			if err != nil {
				t.Fatal(err)
			}
			defer srv.Close()
			before := c.head(t, clone, "HEAD")
			s := c.cline(t, cl, srv, clone, "do the work")
			if after := c.head(t, clone, "HEAD"); after != before || strings.Contains(read(t, filepath.Join(clone, "README.md")), "edited") {
				t.Errorf("main moved or README changed: %s -> %s\n%s", before, after, s.Out)
			}
			if !strings.Contains(s.Out, `"finishReason":"completed"`) {
				t.Errorf("the task did not go on to its end after the block\n%s", s.Out)
			}
			if !srv.Reached(step.want) {
				t.Errorf("%q did not reach the model\n%s\n%s", step.want, srv.Dump(), s.Out)
			}
		})
	}
	t.Run("feature", func(t *testing.T) {
		c.Run(t, clone, "git", "checkout", "-q", "-b", "feature")
		add := filepath.Join(clone, "add.go")
		srv, err := modelserver.Start(clineScript("do the work", clineCommit(), clineEdit(),
			clinePatch("*** Add File: add.go\n+"+strings.ReplaceAll(strings.TrimSuffix(messyGo, "\n"), "\n", "\n+")+"\n")))
		if err != nil {
			t.Fatal(err)
		}
		defer srv.Close()
		before := c.head(t, clone, "HEAD")
		s := c.cline(t, cl, srv, clone, "do the work")
		after := c.head(t, clone, "HEAD")
		if after == before || !strings.Contains(read(t, filepath.Join(clone, "README.md")), "edited") {
			t.Errorf("the work on feature did not happen: %s -> %s\n%s\n%s", before, after, s.Out, srv.Dump())
		}
		if got, _ := os.ReadFile(add); string(got) != tidyGo {
			t.Errorf("add.go was not formatted: %q\n%s", got, s.Out)
		}
		if !srv.Reached("formatter reformatted add.go (gofmt -w)") {
			t.Errorf("formatter's context did not reach the model\n%s\n%s", srv.Dump(), s.Out)
		}
	})
	if _, err := os.Stat(filepath.Join(clone, "bin", "magehook")); err != nil {
		t.Errorf("the first hook did not build the binary: %v", err)
	}
	records := c.Records(t)
	if os.Getenv("MAGEHOOK_LIVE_EXPLORE") != "" {
		for _, r := range records {
			t.Logf("%s %s", r.Event, r.Raw)
		}
	}
	capture(t, cl, c, "TestClineGuardsMainInAFreshClone", records, nil)
	captureHarness(t, c, "cline", records, map[string]func(Record) bool{
		"PreToolUse-run_commands": clineTool("PreToolUse", "run_commands"),
		"PreToolUse-apply_patch":  clineTool("PreToolUse", "apply_patch"),
		"PostToolUse-apply_patch": clineTool("PostToolUse", "apply_patch"),
		"TaskStart":               event("TaskStart"),
	}, clone)
}

func clineTool(event, name string) func(Record) bool {
	return func(r Record) bool {
		call, _ := r.Payload["tool_call"].(map[string]any)
		if call == nil {
			call, _ = r.Payload["tool_result"].(map[string]any)
		}
		return r.Event == event && call != nil && call["name"] == name
	}
}

// TestClineMisspeltToolingrcClosesTheGates: a .toolingrc with a misspelt
// gate key blocks the commit on main and main does not move; the reason,
// naming the line, reaches the model and the task goes on to its end.
func TestClineMisspeltToolingrcClosesTheGates(t *testing.T) {
	cl := requireClient(t, "cline")
	t.Parallel()
	c := newConsumer(t, catalogue)
	c.Install(t, "cline")
	clineHome(t, c)
	write(t, c.Dir, ".toolingrc", strings.Replace(catalogue, "hook.enable branchguard", "hook.enabel branchguard", 1))
	write(t, c.Dir, "README.md", "# consumer\nchanged\n")
	before := c.head(t, c.Dir, "HEAD")
	srv, err := modelserver.Start(clineScript("commit", clineCommit()))
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	s := c.cline(t, cl, srv, c.Dir, "commit the change")
	if after := c.head(t, c.Dir, "HEAD"); after != before {
		t.Errorf("main moved with a misspelt .toolingrc: %s -> %s\n%s", before, after, s.Out)
	}
	if !strings.Contains(s.Out, `"finishReason":"completed"`) {
		t.Errorf("the task did not go on to its end after the block\n%s", s.Out)
	}
	if !srv.Reached("hook.enabel: unknown key; did you mean hook.enable?") {
		t.Errorf("the configuration error did not reach the model\n%s\n%s", srv.Dump(), s.Out)
	}
}

var clineExtra []string
