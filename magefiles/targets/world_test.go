package targets

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/magehook/magehook/hooks/lastpayload"
	"github.com/magehook/magehook/internal/gittest"
	"github.com/magehook/magehook/pkg/fixture"
	"github.com/magehook/magehook/pkg/hook"
)

// testWorld is a world on dir with only env in its environment.
func testWorld(dir string, env map[string]string) (world, *bytes.Buffer, *bytes.Buffer) {
	var stdout, stderr bytes.Buffer
	return world{dir: dir, getenv: func(k string) string { return env[k] }, stdin: strings.NewReader(""),
		stdout: &stdout, stderr: &stderr}, &stdout, &stderr
}

// mageExit is what Mage's generated main does with a target's error: it
// asserts ExitStatus on the error itself (no errors.As), else exits 1.
func mageExit(err error) int {
	if err == nil {
		return 0
	}
	if c, ok := err.(interface{ ExitStatus() int }); ok {
		return c.ExitStatus()
	}
	return 1
}

// outcome is one call of a target's function: its exit code, and the
// one line Mage would print.
type outcome struct {
	code int
	msg  string
}

func run(err error) outcome {
	o := outcome{code: mageExit(err)}
	if err != nil {
		o.msg = err.Error()
	}
	return o
}

// check fails unless o has the code and its message holds every part,
// on one line.
func check(t *testing.T, o outcome, code int, parts ...string) {
	t.Helper()
	if o.code != code {
		t.Errorf("exit %d, want %d (%q)", o.code, code, o.msg)
	}
	if code != 0 && strings.Contains(o.msg, "\n") {
		t.Errorf("the message takes more than one line: %q", o.msg)
	}
	for _, p := range parts {
		if !strings.Contains(o.msg, p) {
			t.Errorf("message %q does not say %q", o.msg, p)
		}
	}
}

// noConfig is a directory with no .toolingrc above it.
func noConfig(t *testing.T) string {
	dir := t.TempDir()
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, ".toolingrc")); err == nil {
			t.Skipf("%s holds a .toolingrc: no directory here is without one", d)
		}
		if filepath.Dir(d) == d {
			return dir
		}
	}
}

func TestLastExitCodes(t *testing.T) {
	bare := noConfig(t)
	repo := gittest.Repo(t, map[string]string{".toolingrc": "hook.enable lastpayload\n"})
	stored := `{"hook_event_name":"PreToolUse","tool_name":"Bash"}` + "\n"
	withPayload := gittest.Repo(t, map[string]string{".toolingrc": "hook.enable lastpayload\n",
		".magehook/last/s1/PreToolUse.json": stored})
	for _, c := range []struct {
		name           string
		dir            string
		event, session string
		code           int
		says           []string
		stdout         string
	}{
		{"an unknown event is a usage error before the configuration is read", bare, "NoSuchEvent", "", 2, []string{`unknown event "NoSuchEvent"`, "PreToolUse"}, ""},
		{"a session id of the wrong shape is a usage error", bare, "", "../x", 2, []string{`"../x" is not a session id`}, ""},
		{"no .toolingrc is a configuration error", bare, "", "", 3, []string{".toolingrc"}, ""},
		{"nothing stored is a failure that says how to store one", repo, "", "", 1, []string{"no payload stored", "hook.enable lastpayload"}, ""},
		{"nothing stored of the event named is a failure", withPayload, "Stop", "", 1, []string{"none of Stop"}, ""},
		{"the newest payload of the event is printed", withPayload, "PreToolUse", "", 0, nil, stored},
		{"the newest payload of any event is printed", withPayload, "", "s1", 0, nil, stored},
	} {
		t.Run(c.name, func(t *testing.T) {
			w, stdout, _ := testWorld(c.dir, nil)
			err := w.last(c.event, c.session)
			check(t, run(err), c.code, c.says...)
			if c.code == 1 && c.dir == repo && !errors.Is(err, lastpayload.ErrNone) {
				t.Errorf("%v is not lastpayload.ErrNone", err)
			}
			if stdout.String() != c.stdout {
				t.Errorf("stdout %q, want %q", stdout, c.stdout)
			}
		})
	}
}

func TestInstallExitCodes(t *testing.T) {
	ctx := context.Background()
	bare := noConfig(t)
	broken := `{"hooks": [`
	repo := gittest.Repo(t, map[string]string{".toolingrc": "hook.enable sessionclock\n", ".claude/settings.json": broken})
	for _, c := range []struct {
		name string
		dir  string
		args installArgs
		code int
		says []string
	}{
		{"an unknown scope is a usage error, with no configuration to read", bare, installArgs{scope: "everywhere"}, 2, []string{"everywhere"}},
		{"an unknown harness is a usage error that lists the harnesses", bare, installArgs{harness: "vim"}, 2, []string{`unknown harness "vim"`, "codex", "all"}},
		{"a Claude Code scope for another harness is a usage error", bare, installArgs{scope: "user", harness: "codex"}, 2, []string{"-scope=user is Claude Code's", "codex"}},
		{"no .toolingrc is a configuration error", bare, installArgs{}, 3, []string{".toolingrc"}},
		{"a settings file that does not parse is refused", repo, installArgs{}, 1, []string{"settings.json"}},
		{"... in a dry run too", repo, installArgs{dryRun: true}, 1, []string{"settings.json"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			w, _, _ := testWorld(c.dir, nil)
			check(t, run(w.install(ctx, c.args)), c.code, c.says...)
			if c.dir == repo {
				if got, _ := os.ReadFile(filepath.Join(repo, ".claude", "settings.json")); string(got) != broken {
					t.Errorf("the refused file was written: %q", got)
				}
			}
			w, _, _ = testWorld(c.dir, nil)
			if c.code == 2 || c.code == 3 {
				check(t, run(w.uninstall(ctx, c.args)), c.code, c.says...)
			}
		})
	}
}

func TestInstallTwiceWritesOnce(t *testing.T) {
	ctx := context.Background()
	repo := gittest.Repo(t, map[string]string{".toolingrc": "hook.enable sessionclock\n"})
	w, _, stderr := testWorld(repo, nil)
	check(t, run(w.install(ctx, installArgs{})), 0)
	if !strings.Contains(stderr.String(), "magehook: next: ") {
		t.Errorf("a successful install does not say the next step:\n%s", stderr)
	}
	first, err := os.ReadFile(filepath.Join(repo, ".claude", "settings.json"))
	if err != nil {
		t.Fatal(err)
	}
	w, _, stderr = testWorld(repo, nil)
	check(t, run(w.install(ctx, installArgs{})), 0)
	if !strings.Contains(stderr.String(), "is up to date") {
		t.Errorf("a second install does not say the file is up to date:\n%s", stderr)
	}
	second, _ := os.ReadFile(filepath.Join(repo, ".claude", "settings.json"))
	if !bytes.Equal(first, second) {
		t.Errorf("a second install changed the file:\n%s\n---\n%s", first, second)
	}
	w, _, _ = testWorld(repo, nil)
	check(t, run(w.uninstall(ctx, installArgs{})), 0)
	if after, _ := os.ReadFile(filepath.Join(repo, ".claude", "settings.json")); bytes.Contains(after, []byte("hook:")) {
		t.Errorf("uninstall left entries:\n%s", after)
	}
}

func TestPlanExitCodes(t *testing.T) {
	declared := `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "gate.sh"}]}]}}`
	repo := gittest.Repo(t, map[string]string{".toolingrc": "hook.enable sessionclock\n", "declared.json": declared,
		"drift.json": `{"model": "opus"}`, "same.json": declared, "bad.json": `{"hooks":`})
	for _, c := range []struct {
		name    string
		runtime string
		env     map[string]string
		apply   bool
		code    int
		says    []string
	}{
		{"drift is a configuration error that names the command converging it", "drift.json", nil, false, 3, []string{"drift.json differs from declared.json", "hook:apply declared.json converges it"}},
		{"a converged file exits 0", "same.json", nil, false, 0, nil},
		{"a runtime file that does not parse is a failure that leaves it alone", "bad.json", nil, true, 1, []string{"the runtime file was left alone", "hook:apply declared.json again"}},
		{"no HOME and no -runtime is a failure that names the option", "", map[string]string{}, false, 1, []string{"-runtime"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			w, _, _ := testWorld(repo, c.env)
			before, _ := os.ReadFile(filepath.Join(repo, c.runtime))
			check(t, run(w.reconcile("declared.json", c.runtime, false, false, c.apply)), c.code, c.says...)
			if c.runtime != "" {
				if after, _ := os.ReadFile(filepath.Join(repo, c.runtime)); !bytes.Equal(before, after) && c.code != 0 {
					t.Errorf("%s was written: %s", c.runtime, after)
				}
			}
		})
	}
}

func TestVerifyExitCodes(t *testing.T) {
	good := gittest.Repo(t, map[string]string{".toolingrc": "hook.enable cmdguard\n"})
	broken := gittest.Repo(t, map[string]string{".toolingrc": "hook.enable cmdguard\n" +
		"cmdguard.rule no-publish npm publish : publishing is the release job's\n" +
		"cmdguard.deny no-publish npm publish --tag next\n" +
		"cmdguard.allow no-publish npm publish --dry-run\n"})
	w, _, _ := testWorld(noConfig(t), nil)
	check(t, run(w.verify()), 3, ".toolingrc")
	w, stdout, _ := testWorld(good, nil)
	check(t, run(w.verify()), 0)
	if !strings.Contains(stdout.String(), "ok       cmdguard") {
		t.Errorf("stdout:\n%s", stdout)
	}
	w, stdout, _ = testWorld(broken, nil)
	check(t, run(w.verify()), 1, "1 problem in the handlers' configuration")
	if !strings.Contains(stdout.String(), "problem  cmdguard") {
		t.Errorf("stdout:\n%s", stdout)
	}
}

func TestWikiExitCodes(t *testing.T) {
	ctx := context.Background()
	bare := noConfig(t)
	repo := gittest.Repo(t, map[string]string{".toolingrc": "hook.enable sessionclock\n"})
	for _, c := range []struct {
		name string
		call func(w world) error
		code int
		says []string
	}{
		{"a project of the wrong shape is a usage error before the configuration", func(w world) error { return w.wikiOpen(ctx, "../p", "s1") }, 2, []string{`invalid project "../p"`}},
		{"a session of the wrong shape is a usage error", func(w world) error { return w.wikiOpen(ctx, "p", "s 1") }, 2, []string{`invalid session "s 1"`}},
		{"a page of the wrong shape is a usage error", func(w world) error { return w.wikiNote(ctx, "../x", "f", false) }, 2, []string{`invalid page name "../x"`}},
		{"close checks its session", func(w world) error { return w.wikiClose(ctx, "..") }, 2, []string{`invalid session ".."`}},
		{"no .toolingrc is a configuration error", func(w world) error { return w.wikiStatus(ctx) }, 3, []string{".toolingrc"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			w, stdout, _ := testWorld(bare, nil)
			check(t, run(c.call(w)), c.code, c.says...)
			if stdout.Len() > 0 {
				t.Errorf("stdout %q", stdout)
			}
		})
	}
	t.Run("init without wiki.origin is a configuration error naming the key", func(t *testing.T) {
		w, _, _ := testWorld(repo, nil)
		check(t, run(w.wikiInit(ctx)), 3, "wiki.origin")
	})
}

func TestWorktreeExitCodes(t *testing.T) {
	ctx := context.Background()
	repo := gittest.Repo(t, map[string]string{".toolingrc": "worktree.bootstrap none\n", ".gitignore": ".claude/worktrees/\n"})
	w, stdout, _ := testWorld(repo, nil)
	check(t, run(w.worktreeCreate(ctx, "feat/a")), 0)
	path := strings.TrimSpace(stdout.String())
	if path != filepath.Join(repo, ".claude", "worktrees", "feat", "a") {
		t.Fatalf("create printed %q", stdout)
	}
	for _, c := range []struct {
		name string
		call func(w world) error
		code int
		says []string
	}{
		{"a name of the wrong shape is refused", func(w world) error { return w.worktreeCreate(ctx, "../out") }, 1, []string{"../out"}},
		{"an option before the name is a usage error that shows the order", func(w world) error { return w.worktreeRemove(ctx, "-force", false) }, 2, []string{"worktree:remove <name> -force"}},
		{"work at risk is refused, naming the way to force it", func(w world) error {
			os.WriteFile(filepath.Join(path, "new.txt"), []byte("x\n"), 0o644)
			return w.worktreeRemove(ctx, "feat/a", false)
		}, 1, []string{"holds work at risk", "worktree:remove feat/a -force"}},
		{"clone outside a checkout's worktree names what it could not read", func(w world) error {
			w.dir = noConfig(t)
			return w.worktreeClone(ctx, []string{".env"})
		}, 1, []string{"is not in a git worktree"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			w, stdout, _ := testWorld(repo, nil)
			o := run(c.call(w))
			if o.code != c.code {
				t.Errorf("exit %d, want %d (%q)", o.code, c.code, o.msg)
			}
			for _, p := range c.says {
				if !strings.Contains(o.msg, p) {
					t.Errorf("message %q does not say %q", o.msg, p)
				}
			}
			if stdout.Len() > 0 {
				t.Errorf("stdout %q", stdout)
			}
		})
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("the refused remove removed the worktree: %v", err)
	}
	w, _, _ = testWorld(repo, nil)
	check(t, run(w.worktreeRemove(ctx, "feat/a", true)), 0)
	if _, err := os.Stat(path); err == nil {
		t.Errorf("the forced remove left %s", path)
	}
	w, _, _ = testWorld(noConfig(t), nil)
	check(t, run(w.worktreeList(ctx)), 3, ".toolingrc")
}

func TestReplayExitCodes(t *testing.T) {
	ctx := context.Background()
	repo := gittest.Repo(t, map[string]string{".toolingrc": "hook.enable branchguard\n"})
	for _, c := range []struct {
		name string
		args replayArgs
		code int
		says []string
	}{
		{"neither a file nor an event is a usage error showing both forms", replayArgs{input: "nothing.json"}, 2, []string{"neither a payload file", "hook:replay PreToolUse -tool=Bash"}},
		{"a command without a tool is a usage error", replayArgs{input: "PreToolUse", command: "ls"}, 2, []string{"-command and -file need -tool"}},
		{"no installed binary is a failure that says how to install it", replayArgs{input: "PreToolUse", tool: "Bash", command: "ls"}, 1, []string{"no hook binary at", "hook:install"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			w, stdout, _ := testWorld(repo, nil)
			check(t, run(w.replay(ctx, c.args)), c.code, c.says...)
			if stdout.Len() > 0 {
				t.Errorf("stdout %q", stdout)
			}
		})
	}
}

func TestRecordNeverFails(t *testing.T) {
	w, stdout, stderr := testWorld(noConfig(t), nil)
	w.stdin = strings.NewReader(`{"hook_event_name":"Stop"}`)
	w.record(time.Unix(0, 0))
	if stdout.Len() > 0 || !strings.Contains(stderr.String(), "magehook: fixture:record: ") {
		t.Errorf("stdout %q, stderr %q", stdout, stderr)
	}
}

func TestCommitMsgExitCodes(t *testing.T) {
	ctx := context.Background()
	repo := gittest.Repo(t, map[string]string{".toolingrc": "commit.conventional yes\n", "bad.txt": "Add f\n", "good.txt": "feat: add f\n"})
	w, _, _ := testWorld(repo, nil)
	check(t, run(w.commitMsg(ctx, "bad.txt")), 1, "commit-msg: ", `"Add f" has no type`)
	check(t, run(w.commitMsg(ctx, "good.txt")), 0)
	bad := gittest.Repo(t, map[string]string{".toolingrc": "commit.conventional perhaps\n", "good.txt": "feat: add f\n"})
	w, _, _ = testWorld(bad, nil)
	check(t, run(w.commitMsg(ctx, "good.txt")), 3, "commit.conventional")
}

func TestABadHandlerSetIsRefusedBeforeAnythingIsWritten(t *testing.T) {
	ctx := context.Background()
	saved := Local
	t.Cleanup(func() { Local = saved })
	Local = []hook.Handler{{Name: "branchguard", Purpose: "a second branchguard", Policy: hook.Observer, Events: []string{"PreToolUse"}, Run: func(*hook.Call) (hook.Result, error) { return hook.Result{}, nil }}}
	repo := gittest.Repo(t, map[string]string{".toolingrc": "hook.enable sessionclock\n"})
	w, stdout, _ := testWorld(repo, nil)
	check(t, run(w.list()), 3, "handler branchguard is declared twice", "rename one")
	if stdout.Len() > 0 {
		t.Errorf("hook:list printed a catalogue it refused:\n%s", stdout)
	}
	w, _, _ = testWorld(repo, nil)
	check(t, run(w.install(ctx, installArgs{})), 3, "handler branchguard is declared twice")
	if _, err := os.Stat(filepath.Join(repo, ".claude", "settings.json")); err == nil {
		t.Error("install wrote a settings file for a set it refused")
	}
}

func TestBuildAndCaptureExitCodes(t *testing.T) {
	ctx := context.Background()
	bare := noConfig(t)
	repo := gittest.Repo(t, map[string]string{".toolingrc": "hook.binary ../outside\n"})
	plain := gittest.Repo(t, map[string]string{".toolingrc": "hook.enable sessionclock\n"})
	for _, c := range []struct {
		name string
		call func(w world) error
		dir  string
		code int
		says []string
	}{
		{"hook:build without .toolingrc is a configuration error", func(w world) error { return w.build(ctx) }, bare, 3, []string{".toolingrc"}},
		{"hook:build with a binary outside the checkout is a configuration error naming the key", func(w world) error { return w.build(ctx) }, repo, 3, []string{"hook.binary"}},
		{"fixture:capture without .toolingrc is a configuration error", func(w world) error { return w.capture(fixture.Capture{Transcript: "t.jsonl"}) }, bare, 3, []string{".toolingrc"}},
		{"fixture:capture of a transcript that is not there is a failure naming it", func(w world) error { return w.capture(fixture.Capture{Transcript: "absent.jsonl"}) }, plain, 1, []string{"absent.jsonl"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			w, stdout, _ := testWorld(c.dir, nil)
			check(t, run(c.call(w)), c.code, c.says...)
			if stdout.Len() > 0 {
				t.Errorf("stdout %q", stdout)
			}
		})
	}
}

// hook:replay - reads the payload from stdin; a payload built from flags
// carries an absolute file_path, as the clients send it; an empty stdin is
// a usage error that says what to pipe.
func TestReplayPayloadFromStdinAndAbsolutePaths(t *testing.T) {
	repo := gittest.Repo(t, map[string]string{".toolingrc": "hook.enable branchguard\n"})
	w, _, _ := testWorld(repo, nil)
	w.stdin = strings.NewReader(`{"hook_event_name":"Stop","session_id":"s","cwd":"/x"}`)
	data, name, err := w.replayPayload("-", "", "", "", "")
	if err != nil || name != "Stop" || !strings.Contains(string(data), `"session_id":"s"`) {
		t.Fatalf("stdin: %q %q %v", data, name, err)
	}
	w.stdin = strings.NewReader(" \n")
	if _, _, err := w.replayPayload("-", "", "", "", ""); err == nil || !strings.Contains(err.Error(), "no payload on stdin") {
		t.Errorf("empty stdin: %v", err)
	}
	data, _, err = w.replayPayload("PreToolUse", "", "Edit", "", "src/a.go")
	if err != nil {
		t.Fatal(err)
	}
	var p struct {
		ToolInput struct {
			FilePath string `json:"file_path"`
		} `json:"tool_input"`
	}
	if err := json.Unmarshal(data, &p); err != nil || p.ToolInput.FilePath != filepath.Join(repo, "src", "a.go") {
		t.Errorf("file_path %q (%v), want %s", p.ToolInput.FilePath, err, filepath.Join(repo, "src", "a.go"))
	}
}
