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

// claudeSession is one run of claude -p.
type claudeSession struct {
	// Stdout is the stream-json output; Debug the --debug-file log.
	Stdout, Debug string
	Err           error
}

// claudeEnv is the environment that keeps Claude Code offline and on the
// scripted model.
func claudeEnv(c *Consumer, srv *modelserver.Server) []string {
	return append(append([]string(nil), c.Env...),
		"ANTHROPIC_BASE_URL="+srv.URL,
		"ANTHROPIC_API_KEY=sk-ant-live-test",
		"DISABLE_AUTOUPDATER=1",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
		"DISABLE_TELEMETRY=1",
		"IS_SANDBOX=1", // bypassPermissions as root
	)
}

// recordClaude puts the recorder hook on every event in the private
// HOME's user settings: foreign to the project, beside magehook's entries.
func recordClaude(t *testing.T, c *Consumer) {
	t.Helper()
	hooks := map[string]any{}
	for _, ev := range allEvents() {
		hooks[ev] = []any{map[string]any{"hooks": []any{map[string]any{"type": "command", "command": recorderCommand(ev)}}}}
	}
	b, _ := json.MarshalIndent(map[string]any{"hooks": hooks}, "", "  ")
	write(t, c.Home, ".claude/settings.json", string(b))
}

// claude runs one non-interactive session in dir; args come after -p's.
func (c *Consumer) claude(t *testing.T, cl live.Client, srv *modelserver.Server, dir, prompt string, args ...string) claudeSession {
	t.Helper()
	debug := filepath.Join(t.TempDir(), "debug.log")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	argv := append([]string{"-p", prompt, "--output-format", "stream-json", "--verbose", "--include-hook-events",
		"--debug-file", debug, "--permission-mode", "bypassPermissions"}, args...)
	cmd := exec.CommandContext(ctx, cl.Path(), argv...)
	cmd.Dir = dir
	cmd.Env = claudeEnv(c, srv)
	var out strings.Builder
	cmd.Stdout = &out
	cmd.Stderr = &out
	err := cmd.Run()
	d, _ := os.ReadFile(debug)
	s := claudeSession{Stdout: out.String(), Debug: string(d), Err: err}
	if ctx.Err() != nil {
		t.Fatalf("claude did not finish within 5 minutes (a hang, not a slow machine)\n%s", s.Stdout)
	}
	return s
}

// catalogue enables every shipped handler.
const catalogue = "hook.enable sessionclock\nhook.enable branchguard\nhook.enable stopguard\nhook.enable auditlog\nhook.enable decisionlog\n"

// installClaude runs hook:install for Claude Code and commits the
// settings, as a user would, then adds the recorder.
func (c *Consumer) installClaude(t *testing.T) {
	t.Helper()
	c.InstallAndPush(t, "claude")
	recordClaude(t, c)
}

// checkClaudeHooks fails the test on any hook error in the debug log and
// returns the magehook runs.
func checkClaudeHooks(t *testing.T, s claudeSession, cutOff ...string) []hookRun {
	t.Helper()
	if errs := hookErrors(s.Debug, cutOff...); len(errs) > 0 {
		keep, _ := os.CreateTemp("", "magehook-live-claude-*.log")
		keep.WriteString(s.Debug)
		keep.Close()
		t.Errorf("Claude Code reported hook errors (debug log kept in %s):\n%s", keep.Name(), strings.Join(errs, "\n"))
	}
	return hookRuns(s.Debug, "bin/magehook")
}

// changeScript is the work the guard scenarios try: a commit, a push, an
// edit and a new file, in dir.
func changeScript(key, dir string) modelserver.Script {
	readme := filepath.Join(dir, "README.md")
	return modelserver.Script{Key: key, Steps: []modelserver.Step{
		{Calls: []modelserver.Call{modelserver.Bash(`git commit -am "agent change"`)}},
		{Calls: []modelserver.Call{modelserver.Bash("git push origin HEAD")}},
		{Calls: []modelserver.Call{{Name: "Read", Input: map[string]any{"file_path": readme}}}},
		{Calls: []modelserver.Call{{Name: "Edit", Input: map[string]any{"file_path": readme, "old_string": "# consumer", "new_string": "# consumer, edited"}}}},
		{Calls: []modelserver.Call{{Name: "Write", Input: map[string]any{"file_path": filepath.Join(dir, "NEW.md"), "content": "new\n"}}}},
		{Text: "finished"},
	}}
}

// TestClaudeGuardsMainAndFreesBranches runs the same work on main, on a
// feature branch and in a linked worktree: on main the commit, the push,
// the edit and the new file are denied, nothing moves and each reason
// reaches the model; elsewhere all of it happens. The session's added
// context (sessionclock) reaches the model in every case.
func TestClaudeGuardsMainAndFreesBranches(t *testing.T) {
	cl := requireClient(t, "claude")
	for _, where := range []string{"main", "feature branch", "worktree"} {
		t.Run(where, func(t *testing.T) {
			t.Parallel()
			c := newConsumer(t, catalogue)
			c.installClaude(t)
			dir, branch := c.Dir, "main"
			switch where {
			case "feature branch":
				branch = "feature"
				c.Git(t, "switch", "-q", "-c", branch)
			case "worktree":
				// magehook's own way to a worktree (worktree:create); a bare
				// git worktree add is the worktree-session scenario's.
				dir = c.Run(t, c.Dir, "go", "tool", "mage", "worktree:create", "feature")
				branch = c.Run(t, dir, "git", "branch", "--show-current")
			}
			// A commit of the user's own, not pushed, and an uncommitted change.
			write(t, dir, "user.txt", "mine\n")
			c.Run(t, dir, "git", "add", "user.txt")
			c.Run(t, dir, "git", "commit", "-q", "-m", "user commit")
			write(t, dir, "README.md", "# consumer\nchanged\n")
			before, origin := c.head(t, dir, "HEAD"), c.head(t, c.Origin, "main")

			srv, err := modelserver.Start(changeScript("do the work", dir))
			if err != nil {
				t.Fatal(err)
			}
			defer srv.Close()
			s := c.claude(t, cl, srv, dir, "do the work")
			if s.Err != nil {
				t.Fatalf("claude: %v\n%s", s.Err, s.Stdout)
			}
			runs := checkClaudeHooks(t, s)
			if len(runs) == 0 {
				t.Fatalf("magehook never ran\n%s", s.Debug)
			}
			capture(t, cl, c, "guard-"+strings.ReplaceAll(where, " ", "-"), c.Records(t), runs)
			if !srv.Reached("Current date and time: ") {
				t.Error("sessionclock's context did not reach the model")
			}
			if len(srv.Scripted()) < 6 {
				t.Fatalf("the session stopped after %d model turns, want 6\n%s", len(srv.Scripted()), srv.Dump())
			}
			after := c.head(t, dir, "HEAD")
			readme := read(t, filepath.Join(dir, "README.md"))
			_, newErr := os.Stat(filepath.Join(dir, "NEW.md"))
			if where == "main" {
				for _, reason := range []string{
					"git commit would move the protected branch main",
					"would update main on",
					"on the protected branch main",
				} {
					if !srv.Reached(reason) {
						t.Errorf("the reason %q did not reach the model\n%s", reason, srv.Dump())
					}
				}
				if after != before {
					t.Errorf("main moved: %s -> %s", before, after)
				}
				if got := c.head(t, c.Origin, "main"); got != origin {
					t.Errorf("origin main moved: %s -> %s", origin, got)
				}
				if strings.Contains(readme, "edited") {
					t.Error("the edit of README.md on main happened")
				}
				if newErr == nil {
					t.Error("NEW.md was written on main")
				}
				return
			}
			if srv.Reached("protected branch") {
				t.Errorf("a deny reached the model on %s\n%s", where, srv.Dump())
			}
			if after == before {
				t.Errorf("the commit on %s did not happen", branch)
			}
			if got := c.head(t, c.Origin, branch); got != after {
				t.Errorf("origin %s = %s, want the pushed %s", branch, got, after)
			}
			if !strings.Contains(readme, "edited") {
				t.Errorf("the edit did not happen:\n%s", readme)
			}
			if newErr != nil {
				t.Error("NEW.md was not written")
			}
		})
	}
}

// TestClaudeHookCheckCatchesABrokenAnswer proves the debug-log check can
// fail: a binary that answers PreToolUse with a decision the schema does
// not know, and SessionStart with broken JSON, must be reported.
func TestClaudeHookCheckCatchesABrokenAnswer(t *testing.T) {
	cl := requireClient(t, "claude")
	t.Parallel()
	c := newConsumer(t, catalogue)
	c.installClaude(t)
	write(t, c.Dir, "bin/magehook", "#!/bin/sh\ncat >/dev/null\ncase \"$1\" in\n"+
		"hook:preToolUse) echo '{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"perhaps\"}}';;\n"+
		"hook:sessionStart) echo '{not json';;\nesac\n")
	os.Chmod(filepath.Join(c.Dir, "bin/magehook"), 0o755)
	srv, err := modelserver.Start(modelserver.Script{Key: "list", Steps: []modelserver.Step{{Calls: []modelserver.Call{modelserver.Bash("ls")}}}})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	s := c.claude(t, cl, srv, c.Dir, "list the files")
	errs := strings.Join(hookErrors(s.Debug), "\n")
	for _, want := range []string{"PreToolUse:Bash: Hook JSON output validation failed", "SessionStart:startup: Hook output starts with { but is not a JSON object"} {
		if !strings.Contains(errs, want) {
			t.Errorf("the check missed %q; it found:\n%s", want, errs)
		}
	}
}

// TestClaudeStopguardBlocksOnce: a failing completion check blocks the
// first stop with its output, which reaches the model; the second stop
// carries stop_hook_active and ends the session.
func TestClaudeStopguardBlocksOnce(t *testing.T) {
	cl := requireClient(t, "claude")
	t.Parallel()
	// Without branchguard: the model's write on main is what it denies.
	c := newConsumer(t, strings.Replace(catalogue, "hook.enable branchguard\n", "", 1)+"guard.stopcheck sh -c \"echo tests failed: TestLive; exit 1\"\n")
	c.installClaude(t)
	// The model changes a file first: stopguard checks only a stop after
	// files changed (issue 17).
	srv, err := modelserver.Start(modelserver.Script{Key: "finish", Steps: []modelserver.Step{
		{Calls: []modelserver.Call{modelserver.Bash("echo wip > work.txt")}}, {Text: "I am done"}}, Final: "fixed it"})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	s := c.claude(t, cl, srv, c.Dir, "finish the task")
	if s.Err != nil {
		t.Fatalf("claude: %v\n%s", s.Err, s.Stdout)
	}
	capture(t, cl, c, "stopguard", c.Records(t), checkClaudeHooks(t, s))
	if !srv.Reached("tests failed: TestLive") {
		t.Errorf("the completion check's output did not reach the model\n%s", srv.Dump())
	}
	stops := Of(c.Records(t), "Stop")
	if len(stops) != 2 {
		t.Fatalf("Stop fired %d times, want 2 (blocked, then let through)", len(stops))
	}
	if stops[0].Payload["stop_hook_active"] != false || stops[1].Payload["stop_hook_active"] != true {
		t.Errorf("stop_hook_active: first %v, second %v; want false then true", stops[0].Payload["stop_hook_active"], stops[1].Payload["stop_hook_active"])
	}
	if n := len(srv.Scripted()); n != 3 {
		t.Errorf("the model was asked %d times, want 3 (the change, the answer, then after the block)", n)
	}
}

// TestClaudeFreshCloneKeepsTheGates: a clone of the repository has the
// committed settings but no bin/magehook (it is gitignored); a commit on
// main must still be denied, not waved through by a hook that is not
// there.
func TestClaudeFreshCloneKeepsTheGates(t *testing.T) {
	cl := requireClient(t, "claude")
	t.Parallel()
	c := newConsumer(t, catalogue)
	c.installClaude(t)
	clone := filepath.Join(filepath.Dir(c.Dir), "clone")
	c.Run(t, filepath.Dir(c.Dir), "git", "clone", "-q", c.Origin, clone)
	write(t, clone, "README.md", "# consumer\nchanged\n")
	before := c.head(t, clone, "HEAD")
	srv, err := modelserver.Start(changeScript("do the work", clone))
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	s := c.claude(t, cl, srv, clone, "do the work")
	checkClaudeHooks(t, s)
	if after := c.head(t, clone, "HEAD"); after != before {
		t.Errorf("main moved in a fresh clone: %s -> %s", before, after)
	}
	if !srv.Reached("protected branch main") {
		t.Errorf("no deny reached the model\n%s", srv.Dump())
	}
}

// TestClaudeMisspeltToolingrcClosesTheGates: a .toolingrc with a misspelt
// gate key must not leave the gates open silently: the session is told at
// its start, git commit on main is blocked (exit 2, Claude Code's
// blocking error) with a reason naming the line, and main does not move.
func TestClaudeMisspeltToolingrcClosesTheGates(t *testing.T) {
	cl := requireClient(t, "claude")
	t.Parallel()
	c := newConsumer(t, catalogue)
	c.installClaude(t)
	write(t, c.Dir, ".toolingrc", strings.Replace(catalogue, "hook.enable branchguard", "hook.enabel branchguard", 1))
	write(t, c.Dir, "README.md", "# consumer\nchanged\n")
	before := c.head(t, c.Dir, "HEAD")
	srv, err := modelserver.Start(modelserver.Script{Key: "commit", Steps: []modelserver.Step{{Calls: []modelserver.Call{modelserver.Bash(`git commit -am "agent change"`)}}}})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	s := c.claude(t, cl, srv, c.Dir, "commit the change")
	if after := c.head(t, c.Dir, "HEAD"); after != before {
		t.Errorf("main moved with a misspelt .toolingrc: %s -> %s", before, after)
	}
	blocked := false
	for _, r := range hookRuns(s.Debug, "bin/magehook") {
		if r.Outcome != "json" && r.Outcome != "plain" && r.Outcome != "none" {
			t.Errorf("%s: %s", r.Event, r.Outcome)
		}
		if r.Event == "PreToolUse:Bash" && r.Status == 2 {
			blocked = true
		}
	}
	if !blocked {
		t.Errorf("PreToolUse:Bash was not blocked with exit 2\n%s", s.Debug)
	}
	for _, want := range []string{"magehook cannot read its configuration", "PreToolUse blocked", "hook.enabel: unknown key; did you mean hook.enable?"} {
		if !srv.Reached(want) {
			t.Errorf("%q did not reach the model\n%s", want, srv.Dump())
		}
	}
}

// TestClaudeWorktreeSession: claude --worktree fires WorktreeCreate, which
// magehook answers by making the worktree; the session then runs there,
// with CLAUDE_PROJECT_DIR the worktree. Work in the worktree is allowed; a
// commit aimed at the main checkout's main branch is still denied.
func TestClaudeWorktreeSession(t *testing.T) {
	cl := requireClient(t, "claude")
	t.Parallel()
	c := newConsumer(t, catalogue)
	c.installClaude(t)
	write(t, c.Dir, "README.md", "# consumer\nchanged on main\n")
	mainBefore := c.head(t, c.Dir, "main")
	srv, err := modelserver.Start(modelserver.Script{Key: "worktree work", Steps: []modelserver.Step{
		{Calls: []modelserver.Call{modelserver.Bash(`echo wt > wt.txt && git add wt.txt && git commit -qm "worktree change"`)}},
		{Calls: []modelserver.Call{modelserver.Bash(`git -C ` + c.Dir + ` commit -am "aimed at main"`)}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	s := c.claude(t, cl, srv, c.Dir, "worktree work", "--worktree", "feat")
	if s.Err != nil {
		t.Fatalf("claude --worktree: %v\n%s", s.Err, s.Stdout)
	}
	records := c.Records(t)
	creates := Of(records, "WorktreeCreate")
	if len(creates) != 1 {
		t.Fatalf("WorktreeCreate fired %d times, want 1; fired %v", len(creates), Fired(records))
	}
	wt := filepath.Join(c.Dir, ".claude", "worktrees", "feat")
	if _, err := os.Stat(filepath.Join(wt, ".git")); err != nil {
		t.Fatalf("magehook did not make the worktree %s: %v\n%s", wt, err, s.Debug)
	}
	capture(t, cl, c, "worktree-session", records, checkClaudeHooks(t, s))
	for _, r := range Of(records, "PreToolUse") {
		if got := r.Env["CLAUDE_PROJECT_DIR"]; got != wt {
			t.Errorf("PreToolUse: CLAUDE_PROJECT_DIR = %q, want the worktree %s", got, wt)
		}
	}
	if c.head(t, wt, "HEAD") == mainBefore {
		t.Error("the commit in the worktree did not happen")
	}
	if got := c.head(t, c.Dir, "main"); got != mainBefore {
		t.Errorf("main moved from a worktree session: %s -> %s", mainBefore, got)
	}
	if !srv.Reached("git commit would move the protected branch main") {
		t.Errorf("the deny did not reach the model\n%s", srv.Dump())
	}
}
