package hook_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/magehook/magehook/internal/gittest"
	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/hooktest"
)

func handler(name string, policy hook.Policy, events []string, matcher string, run func(*hook.Call) (hook.Result, error)) hook.Handler {
	return hook.Handler{Name: name, Purpose: "test " + name, Events: events, Matcher: matcher, Policy: policy, Run: run}
}

var (
	panickingGate = handler("panicgate", hook.Gatekeeper, []string{"PreToolUse", "Stop", "PermissionRequest", "SessionStart"}, "",
		func(*hook.Call) (hook.Result, error) { panic("gate logic crashed") })
	panickingObserver = handler("panicobserver", hook.Observer, []string{"PreToolUse", "PostToolUse", "SessionStart"}, "",
		func(*hook.Call) (hook.Result, error) { panic("observer crashed") })
	failingGate = handler("errgate", hook.Gatekeeper, []string{"PreToolUse"}, "",
		func(*hook.Call) (hook.Result, error) { return hook.Result{}, errors.New("cannot read HEAD") })
	bashDenier = handler("nobash", hook.Gatekeeper, []string{"PreToolUse"}, "Bash",
		func(c *hook.Call) (hook.Result, error) { return hook.Deny("no bash for " + c.Payload.ToolName), nil })
	editAllower = handler("editok", hook.Gatekeeper, []string{"PreToolUse"}, "Edit|Write",
		func(*hook.Call) (hook.Result, error) { return hook.Allow("edits are fine"), nil })
	stopBlocker = handler("stopblock", hook.Gatekeeper, []string{"Stop", "SubagentStop"}, "",
		func(*hook.Call) (hook.Result, error) { return hook.Deny("tests fail"), nil })
	contextA = handler("ctxa", hook.Observer, []string{"SessionStart", "PreToolUse"}, "",
		func(*hook.Call) (hook.Result, error) { return hook.Context("fact A"), nil })
	contextB = handler("ctxb", hook.Observer, []string{"SessionStart", "PreToolUse"}, "",
		func(*hook.Call) (hook.Result, error) { return hook.Context("fact B"), nil })
	brokenMatcher = handler("badmatch", hook.Gatekeeper, []string{"PreToolUse"}, "(Bash",
		func(*hook.Call) (hook.Result, error) { return hook.Result{}, nil })
	all = []hook.Handler{panickingGate, panickingObserver, failingGate, bashDenier, editAllower, stopBlocker, contextA, contextB}
)

func enable(names ...string) []string {
	var lines []string
	for _, n := range names {
		lines = append(lines, "hook.enable "+n)
	}
	return lines
}

func TestDispatch(t *testing.T) {
	tests := []struct {
		name      string
		enabled   []string
		event     string
		fixture   string
		overrides map[string]any
		code      int
		stdout    string
		stderr    string // a substring; "" means stderr must be empty
	}{
		{"a panicking gate blocks the tool call", enable("panicgate"), "PreToolUse", "PreToolUse/bash", nil,
			2, "", "gate panicgate failed"},
		{"a gate returning an error blocks the tool call", enable("errgate"), "PreToolUse", "PreToolUse/bash", nil,
			2, "", "errgate failed: cannot read HEAD"},
		{"a panicking observer lets the tool call proceed", enable("panicobserver"), "PreToolUse", "PreToolUse/bash", nil,
			0, "", "panicobserver failed: panic: observer crashed"},
		{"a panicking gate on PermissionRequest denies through JSON", enable("panicgate"), "PermissionRequest", "PermissionRequest/bash", nil,
			0, `{"hookSpecificOutput":{"decision":{"behavior":"deny","message":"magehook: PermissionRequest blocked: gate panicgate failed, and a failed gate blocks (see state.dir/health.jsonl)"},"hookEventName":"PermissionRequest"}}`, "panicgate failed"},
		{"a gate whose matcher misses does not run", enable("nobash"), "PreToolUse", "PreToolUse/edit", nil,
			0, "", ""},
		{"a gate whose matcher hits denies", enable("nobash"), "PreToolUse", "PreToolUse/bash", nil,
			0, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no bash for Bash"}}`, ""},
		{"deny wins over allow", enable("editok", "nobash"), "PreToolUse", "PreToolUse/bash", map[string]any{"tool_name": "Bash"},
			0, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no bash for Bash"}}`, ""},
		{"contexts join in catalogue order", enable("ctxb", "ctxa"), "SessionStart", "SessionStart/startup", nil,
			0, `{"hookSpecificOutput":{"additionalContext":"fact B\n\nfact A","hookEventName":"SessionStart"}}`, ""},
		{"a disabled handler does not run", enable("ctxa"), "SessionStart", "SessionStart/startup", nil,
			0, `{"hookSpecificOutput":{"additionalContext":"fact A","hookEventName":"SessionStart"}}`, ""},
		{"a stop block goes through", enable("stopblock"), "Stop", "Stop/stop", nil,
			0, `{"decision":"block","reason":"tests fail"}`, ""},
		{"a stop never blocks while stop_hook_active", enable("stopblock"), "Stop", "Stop/active", nil,
			0, "", ""},
		{"a stop gate is not run while stop_hook_active", enable("panicgate"), "Stop", "Stop/active", nil,
			0, "", ""},
		{"a subagent stop never blocks while stop_hook_active", enable("stopblock"), "SubagentStop", "SubagentStop/explore", map[string]any{"stop_hook_active": true},
			0, "", ""},
		{"a sub-agent's SessionStart changes nothing", enable("panicgate", "ctxa"), "SessionStart", "SessionStart/subagent", nil,
			0, "", ""},
		{"a sub-agent's tool call still meets the gates", enable("nobash"), "PreToolUse", "PreToolUse/bash", map[string]any{"agent_id": "agent-1"},
			0, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no bash for Bash"}}`, ""},
		{"an unknown hook.enable name blocks a tool call", enable("ctxa", "nosuchhook"), "PreToolUse", "PreToolUse/bash", nil,
			2, "", `:2: hook.enable: no handler is named "nosuchhook" in this binary; check the spelling with go tool mage hook:list, or rebuild with go tool mage hook:build if it is new; until the configuration reads, every tool call is blocked`},
		{"an unknown hook.enable name denies a permission request", enable("nosuchhook"), "PermissionRequest", "PermissionRequest/bash", nil,
			0, `{"hookSpecificOutput":{"decision":{"behavior":"deny","message":"magehook: PermissionRequest blocked: ` + "\x00" + `"},"hookEventName":"PermissionRequest"}}`, ""},
		{"an unknown hook.enable name lets a stop proceed", enable("stopblock", "nosuchhook"), "Stop", "Stop/stop", nil,
			3, "", `no handler is named "nosuchhook"`},
		{"a bad value of an unrelated key blocks a tool call", append(enable("ctxa"), "wiki.origin not-a-url"), "PreToolUse", "PreToolUse/bash", nil,
			2, "", `:2: wiki.origin: value "not-a-url" is not a URL with a scheme`},
		{"hook.enable a,b blocks a tool call", enable("ctxa,nobash"), "PreToolUse", "PreToolUse/bash", nil,
			2, "", `:1: hook.enable: value "ctxa,nobash" is not a name`},
		{"a configuration error reaches the user at SessionStart", enable("nosuchhook"), "SessionStart", "SessionStart/startup", nil,
			0, "\x00", `no handler is named "nosuchhook"`},
		{"a payload for another event blocks a gating target", enable("ctxa"), "PreToolUse", "PostToolUse/bash-success", nil,
			2, "", "hook:preToolUse received a PostToolUse payload; the settings entry sends this event to the wrong target"},
		{"a payload for another event is answered as the target", enable("ctxa"), "SessionStart", "PreToolUse/bash", nil,
			0, `{"hookSpecificOutput":{"additionalContext":"fact A","hookEventName":"SessionStart"}}`, "received a PreToolUse payload"},
		{"WorktreeCreate without a handler fails without a path", nil, "WorktreeCreate", "WorktreeCreate/create", nil,
			1, "", "no handler produced a worktree path"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := hooktest.Checkout(t, tt.enabled...)
			out := hooktest.Run(t, all, root, tt.event, tt.fixture, tt.overrides)
			if out.Code != tt.code {
				t.Errorf("exit %d, want %d (stderr %q)", out.Code, tt.code, out.Stderr)
			}
			// A NUL in the wanted stdout stands for any text (the file's path).
			if got := strings.TrimSuffix(out.Stdout, "\n"); !matchWild(got, tt.stdout) {
				t.Errorf("stdout\n got %s\nwant %s", got, tt.stdout)
			}
			if tt.stderr == "" && out.Stderr != "" {
				t.Errorf("unexpected stderr %q", out.Stderr)
			}
			if !strings.Contains(out.Stderr, tt.stderr) {
				t.Errorf("stderr %q does not hold %q", out.Stderr, tt.stderr)
			}
			if strings.Count(strings.TrimSpace(out.Stderr), "\n") > 1 {
				t.Errorf("stderr has more than two lines: %q", out.Stderr)
			}
		})
	}
}

func matchWild(got, want string) bool {
	before, after, wild := strings.Cut(want, "\x00")
	if !wild {
		return got == want
	}
	return len(got) >= len(before)+len(after) && strings.HasPrefix(got, before) && strings.HasSuffix(got, after)
}

// A handler set that cannot work is refused before anything runs: a
// tool-gating event blocks, naming the handler.
func TestABrokenHandlerSetIsRefused(t *testing.T) {
	noRun := bashDenier
	noRun.Name, noRun.Run = "norun", nil
	misspelt := contextA
	misspelt.Name, misspelt.Events = "misspelt", []string{"PretoolUse"}
	twice := contextB
	twice.Name = "nobash"
	tests := []struct {
		name string
		set  []hook.Handler
		want string
	}{
		{"a matcher that does not compile", append(all[:len(all):len(all)], brokenMatcher), `handler badmatch: matcher "(Bash" is not a valid regular expression`},
		{"no Run", append(all[:len(all):len(all)], noRun), "handler norun: no Run function"},
		{"a misspelt event", append(all[:len(all):len(all)], misspelt), `handler misspelt: unknown event "PretoolUse"`},
		{"a name used twice", append(all[:len(all):len(all)], twice), "handler nobash is declared twice"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := hooktest.Checkout(t, enable("ctxa")...)
			out := hooktest.Run(t, tt.set, root, "PreToolUse", "PreToolUse/bash", nil)
			if out.Code != 2 || !strings.Contains(out.Stderr, tt.want) || !strings.Contains(out.Stderr, "rebuild with go tool mage hook:build") {
				t.Errorf("exit %d, stderr %q; want 2 and %q", out.Code, out.Stderr, tt.want)
			}
			if err := hook.ValidateSet(tt.set, nil); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("ValidateSet: %v", err)
			}
		})
	}
	if err := hook.ValidateSet(all, []hook.Handler{contextA}); err == nil || !strings.Contains(err.Error(), "handler ctxa has the name of a builtin handler") {
		t.Errorf("a handler named like a builtin one: %v", err)
	}
	if err := hook.ValidateSet(all, nil); err != nil {
		t.Errorf("a good set: %v", err)
	}
}

func TestFailuresGoToTheHealthLog(t *testing.T) {
	root := hooktest.Checkout(t, append(enable("panicgate", "panicobserver"), "state.dir var/state")...)
	hooktest.Run(t, all, root, "PreToolUse", "PreToolUse/bash", nil)
	data, err := os.ReadFile(filepath.Join(root, "var", "state", "health.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) != 2 {
		t.Fatalf("want one health line per failed handler, got %d:\n%s", len(lines), data)
	}
	var rec struct{ Event, Handler, Policy, Session, Error string }
	if err := json.Unmarshal([]byte(lines[0]), &rec); err != nil {
		t.Fatal(err)
	}
	session := hooktest.Payload(t, "PreToolUse/bash", nil).SessionID
	if rec.Event != "PreToolUse" || rec.Handler != "panicgate" || rec.Policy != "gatekeeper" || rec.Session != session || !strings.Contains(rec.Error, "gate logic crashed") {
		t.Errorf("health record %+v", rec)
	}
}

func TestUnreadablePayloads(t *testing.T) {
	big := bytes.Repeat([]byte("x"), 100)
	tests := []struct {
		name    string
		enabled []string
		event   string
		stdin   []byte
		code    int
		stderr  string
	}{
		{"empty stdin with a gate fails closed", enable("nobash"), "PreToolUse", nil, 2, "payload is empty"},
		{"empty stdin without a gate proceeds", enable("ctxa"), "PreToolUse", nil, 0, "payload is empty"},
		{"not JSON with a gate fails closed", enable("nobash"), "PreToolUse", []byte("tool_name=Bash"), 2, "payload is not JSON"},
		{"a JSON array is not a payload", enable("ctxa"), "SessionStart", []byte(`[1,2]`), 0, "payload is not a JSON object"},
		{"a wrongly typed field is unreadable", enable("nobash"), "PreToolUse", []byte(`{"tool_name":7}`), 2, "payload field tool_name is a JSON number, not a string"},
		{"deep nesting is refused, not a crash", enable("nobash"), "PreToolUse", append(append(bytes.Repeat([]byte("["), 100000), '1'), bytes.Repeat([]byte("]"), 100000)...), 2, "exceeded max depth"},
		{"a NUL byte is not JSON", enable("ctxa"), "SessionStart", []byte("{\x00}"), 0, "payload is not JSON"},
		{"WorktreeCreate on garbage fails", nil, "WorktreeCreate", big, 1, "payload is not JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := hooktest.Checkout(t, tt.enabled...)
			t.Chdir(root)
			var stdout, stderr bytes.Buffer
			d := &hook.Dispatcher{Handlers: all, Stdin: bytes.NewReader(tt.stdin), Stdout: &stdout, Stderr: &stderr,
				Getenv: func(string) string { return "" }}
			code := d.Dispatch(t.Context(), tt.event)
			if code != tt.code {
				t.Errorf("exit %d, want %d (stderr %q)", code, tt.code, stderr.String())
			}
			if stdout.Len() != 0 {
				t.Errorf("stdout %q, want nothing", stdout.String())
			}
			if !strings.Contains(stderr.String(), tt.stderr) {
				t.Errorf("stderr %q does not hold %q", stderr.String(), tt.stderr)
			}
		})
	}
}

func TestPayloadOverTheCap(t *testing.T) {
	root := hooktest.Checkout(t, enable("nobash")...)
	stdin := hooktest.Fixture(t, "PreToolUse/bash", map[string]any{"cwd": root})
	var stderr bytes.Buffer
	d := &hook.Dispatcher{Handlers: all, Stdin: bytes.NewReader(stdin), Stderr: &stderr, Cap: int64(len(stdin) - 1),
		Getenv: func(string) string { return "" }, Getwd: func() (string, error) { return root, nil }}
	if code := d.Dispatch(t.Context(), "PreToolUse"); code != 2 {
		t.Errorf("a payload one byte over the cap: exit %d, want 2 (a gate is enabled)", code)
	}
	if !strings.Contains(stderr.String(), "larger than the cap") {
		t.Errorf("stderr %q", stderr.String())
	}
	d = &hook.Dispatcher{Handlers: all, Stdin: bytes.NewReader(stdin), Stdout: &bytes.Buffer{}, Cap: int64(len(stdin)),
		Getenv: func(string) string { return "" }}
	if code := d.Dispatch(t.Context(), "PreToolUse"); code != 0 {
		t.Errorf("a payload exactly at the cap: exit %d, want 0", code)
	}
}

// A directory with no .toolingrc and no installed entry is not using
// magehook: every event is quiet. With installed entries, the missing
// file is a configuration error that blocks tool calls.
func TestNoConfiguration(t *testing.T) {
	dir := t.TempDir()
	for _, installed := range []bool{false, true} {
		for _, event := range []string{"PreToolUse", "SessionStart", "PostToolUse"} {
			stdin := hooktest.Fixture(t, "PreToolUse/bash", map[string]any{"cwd": dir, "hook_event_name": event})
			var stdout, stderr bytes.Buffer
			var asked []string
			d := &hook.Dispatcher{Handlers: all, Stdin: bytes.NewReader(stdin), Stdout: &stdout, Stderr: &stderr,
				Getenv: func(string) string { return "" }, Getwd: func() (string, error) { return dir, nil },
				Installed: func(d string) bool { asked = append(asked, d); return installed }}
			code := d.Dispatch(t.Context(), event)
			if len(asked) == 0 || asked[0] != dir {
				t.Errorf("asked Installed about %q, want %q first", asked, dir)
			}
			switch {
			case !installed:
				if code != 0 || stdout.Len() != 0 || stderr.Len() != 0 {
					t.Errorf("%s, nothing installed: exit %d, stdout %q, stderr %q; want 0 and quiet", event, code, stdout.String(), stderr.String())
				}
			case event == "PreToolUse":
				if code != 2 || !strings.Contains(stderr.String(), "no .toolingrc found") || !strings.Contains(stderr.String(), dir) {
					t.Errorf("%s, installed: exit %d, stderr %q; want 2 naming the missing file and the start", event, code, stderr.String())
				}
			case event == "SessionStart":
				if code != 0 || !strings.Contains(stdout.String(), `"systemMessage":"magehook cannot read its configuration, so every tool call is blocked until it is fixed: `) {
					t.Errorf("%s, installed: exit %d, stdout %q", event, code, stdout.String())
				}
			default:
				if code != hook.ExitConfig || !strings.Contains(stderr.String(), "no .toolingrc found") {
					t.Errorf("%s, installed: exit %d, stderr %q", event, code, stderr.String())
				}
			}
		}
	}
}

// UserPromptSubmit shows a configuration problem once per session.
func TestConfigurationProblemOncePerSession(t *testing.T) {
	root := hooktest.Checkout(t, enable("nosuchhook")...)
	prompt := func(session string) hooktest.Outcome {
		return hooktest.Run(t, all, root, "UserPromptSubmit", "UserPromptSubmit/prompt", map[string]any{"session_id": session})
	}
	first := prompt("s1")
	if first.Code != 0 || !strings.Contains(first.Stdout, `"systemMessage":"magehook cannot read its configuration`) {
		t.Fatalf("first prompt: %+v", first)
	}
	if again := prompt("s1"); again.Code != 0 || again.Stdout != "" {
		t.Errorf("second prompt of the session: %+v, want no message", again)
	}
	if other := prompt("s2"); !strings.Contains(other.Stdout, "systemMessage") {
		t.Errorf("another session: %+v, want the message", other)
	}
}

func TestConfigurationFallsBackToTheProjectDir(t *testing.T) {
	root := hooktest.Checkout(t, enable("nobash")...)
	elsewhere := t.TempDir()
	stdin := hooktest.Fixture(t, "PreToolUse/bash", map[string]any{"cwd": elsewhere})
	var stdout bytes.Buffer
	d := &hook.Dispatcher{Handlers: all, Stdin: bytes.NewReader(stdin), Stdout: &stdout,
		Getenv: func(k string) string {
			if k == "CLAUDE_PROJECT_DIR" {
				return root
			}
			return ""
		}, Getwd: func() (string, error) { return elsewhere, nil }}
	if code := d.Dispatch(t.Context(), "PreToolUse"); code != 0 || !strings.Contains(stdout.String(), `"deny"`) {
		t.Errorf("exit %d, stdout %q: the gate of CLAUDE_PROJECT_DIR's checkout should deny", code, stdout.String())
	}
}

func TestMagehookRootWins(t *testing.T) {
	root := hooktest.Checkout(t, enable("ctxa")...)
	other := hooktest.Checkout(t, enable("ctxb")...)
	stdin := hooktest.Fixture(t, "SessionStart/startup", map[string]any{"cwd": other})
	var stdout bytes.Buffer
	d := &hook.Dispatcher{Handlers: all, Stdin: bytes.NewReader(stdin), Stdout: &stdout,
		Getenv: func(k string) string {
			if k == "MAGEHOOK_ROOT" {
				return root
			}
			return ""
		}}
	d.Dispatch(t.Context(), "SessionStart")
	if !strings.Contains(stdout.String(), "fact A") {
		t.Errorf("stdout %q: MAGEHOOK_ROOT's configuration should be used", stdout.String())
	}
}

func TestMatch(t *testing.T) {
	tests := []struct {
		matcher, value string
		want           bool
	}{
		{"", "Bash", true},
		{"*", "anything", true},
		{"Bash", "Bash", true},
		{"Bash", "BashOutput", false},
		{"Edit|Write", "Write", true},
		{"Edit|Write", "NotebookEdit", false},
		{"Edit, Write", "Write", true},
		{"Edit.*", "NotebookEdit", true}, // unanchored regular expression
		{"^Edit$", "NotebookEdit", false},
		{"code-reviewer", "senior-code-reviewer", false}, // hyphen is part of an exact list
		{"mcp__memory__.*", "mcp__memory__create_entities", true},
		{"mcp__memory", "mcp__memory__create_entities", false},
		{"Agent", "Task", true},
		{"Task", "Agent", true},
		{"startup|resume", "resume", true},
		{"|Edit||", "Edit", true},
		{"Edit|", "", false},
		{" Write ,Edit", "Write", true},
	}
	for _, tt := range tests {
		got, err := hook.Match(tt.matcher, tt.value)
		if err != nil || got != tt.want {
			t.Errorf("Match(%q, %q) = %v, %v; want %v", tt.matcher, tt.value, got, err, tt.want)
		}
	}
	if _, err := hook.Match("(unclosed", "x"); err == nil {
		t.Error("a matcher that does not compile should be an error")
	}
	// Every call of every handler matches: an exact list costs nothing.
	if n := testing.AllocsPerRun(100, func() { hook.Match("Edit|MultiEdit|Write|NotebookEdit|Bash", "Bash") }); n != 0 {
		t.Errorf("an exact list allocates %v times a match", n)
	}
}

func TestHandlerValidation(t *testing.T) {
	good := bashDenier
	if err := good.Validate(); err != nil {
		t.Fatal(err)
	}
	bad := map[string]func(h *hook.Handler){
		"no name":         func(h *hook.Handler) { h.Name = "" },
		"a name with /":   func(h *hook.Handler) { h.Name = "a/b" },
		"no purpose":      func(h *hook.Handler) { h.Purpose = "" },
		"no events":       func(h *hook.Handler) { h.Events = nil },
		"an unknown name": func(h *hook.Handler) { h.Events = []string{"PreToolUsed"} },
		"no policy":       func(h *hook.Handler) { h.Policy = 0 },
		"no run":          func(h *hook.Handler) { h.Run = nil },
		"a bad matcher":   func(h *hook.Handler) { h.Matcher = "(" },
	}
	for name, spoil := range bad {
		h := good
		spoil(&h)
		if h.Validate() == nil {
			t.Errorf("%s: Validate accepted it", name)
		}
	}
}

func TestExtraArgs(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"bin/magehook", "hook:preToolUse"}, ""},
		{[]string{"bin/magehook", "hook:pretooluse"}, ""},
		{[]string{"bin/magehook", "-v", "-t", "5m", "hook:preToolUse"}, ""},
		{[]string{"bin/magehook", "hook:preToolUse", "extra"}, "extra"},
		{[]string{"bin/magehook", "hook:preToolUse", "hook:stop"}, "hook:stop"},
	}
	for _, tt := range tests {
		if got := strings.Join(hook.ExtraArgs(tt.args, "hook:preToolUse"), " "); got != tt.want {
			t.Errorf("ExtraArgs(%q) = %q, want %q", tt.args, got, tt.want)
		}
	}
}

// FuzzDispatch feeds arbitrary stdin to every event with a gate and an
// observer enabled: the dispatcher never panics, and its exit code is
// always one the contract allows.
func FuzzDispatch(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join(hooktest.Dir, "*", "*.json"))
	for _, file := range files {
		data, _ := os.ReadFile(file)
		f.Add(filepath.Base(filepath.Dir(file)), data)
	}
	f.Add("PreToolUse", []byte(`{"tool_name":7}`))
	f.Add("Stop", []byte(`[[[[`))
	root := hooktest.Checkout(f, enable("nobash", "ctxa", "stopblock")...)
	f.Fuzz(func(t *testing.T, event string, stdin []byte) {
		if _, ok := hook.Lookup(event); !ok {
			event = "PreToolUse"
		}
		var stdout, stderr bytes.Buffer
		d := &hook.Dispatcher{Handlers: all, Stdin: bytes.NewReader(stdin), Stdout: &stdout, Stderr: &stderr,
			Getenv: func(string) string { return "" }, Getwd: func() (string, error) { return root, nil }, Cap: 1 << 20}
		code := d.Dispatch(context.Background(), event)
		if code < 0 || code > 3 {
			t.Fatalf("exit %d", code)
		}
		if out := stdout.Bytes(); len(out) > 0 && out[0] == '{' {
			var v map[string]any
			if json.Unmarshal(out, &v) != nil {
				t.Fatalf("stdout is not one JSON object: %q", out)
			}
		}
	})
}

// TestTheHealthLogRedactsErrors: a failure's text can quote the command
// that failed, secrets included; the health log keeps the failure, not
// the secret.
func TestTheHealthLogRedactsErrors(t *testing.T) {
	leaky := hook.Handler{Name: "leaky", Purpose: "p", Events: []string{"PreToolUse"}, Policy: hook.Gatekeeper,
		Run: func(*hook.Call) (hook.Result, error) {
			return hook.Result{}, errors.New("mysql -uroot -pHunter2xyz failed: access denied")
		}}
	root := hooktest.Checkout(t, "hook.enable leaky")
	hooktest.Run(t, []hook.Handler{leaky}, root, "PreToolUse", "PreToolUse/bash", nil)
	data, err := os.ReadFile(filepath.Join(root, ".magehook", "health.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), "Hunter2xyz") || !strings.Contains(string(data), "access denied") {
		t.Errorf("health log:\n%s", data)
	}
}

// A command over the gate's size budget is refused without being analysed,
// and what the dispatch allocates stays linear in the payload: at most
// four bytes per payload byte (the chunked read and its join; measured
// 3.0 at 4 MiB, 2.3 at 16 MiB). (docs/reliability.md states the bound
// for the compiled binary, measured with a 60 MiB command.)
func TestMemoryIsLinearInThePayload(t *testing.T) {
	analysed := false
	gate := handler("analyser", hook.Gatekeeper, []string{"PreToolUse"}, "Bash",
		func(c *hook.Call) (hook.Result, error) { analysed = true; return hook.Result{}, nil })
	root := hooktest.Checkout(t, enable("analyser")...)
	for _, mib := range []int{4, 16} {
		cmd := strings.Repeat("x", mib<<20)
		stdin := hooktest.Fixture(t, "PreToolUse/bash", map[string]any{"cwd": root, "tool_input": map[string]any{"command": cmd}})
		var stderr bytes.Buffer
		d := &hook.Dispatcher{Handlers: []hook.Handler{gate}, Stdin: bytes.NewReader(stdin), Stderr: &stderr,
			Getenv: func(string) string { return "" }}
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		code := d.Dispatch(t.Context(), "PreToolUse")
		runtime.ReadMemStats(&after)
		if code != 2 || analysed || !strings.Contains(stderr.String(), "over the gate's budget: the command is") {
			t.Fatalf("%d MiB: exit %d, analysed %v, stderr %q", mib, code, analysed, stderr.String())
		}
		per := float64(after.TotalAlloc-before.TotalAlloc) / float64(len(stdin))
		t.Logf("%d MiB: %.2f bytes allocated per payload byte", mib, per)
		if per > 4 {
			t.Errorf("%d MiB: %.2f bytes allocated per payload byte, want at most 4", mib, per)
		}
	}
}

// A linked worktree without a .toolingrc of its own runs the entries of
// its main checkout: their presence makes the missing file an error.
func TestALinkedWorktreeAsksItsMainCheckout(t *testing.T) {
	main, _ := filepath.EvalSymlinks(gittest.Repo(t, map[string]string{"README.md": "x\n"}))
	tmp, _ := filepath.EvalSymlinks(t.TempDir())
	wt := filepath.Join(tmp, "wt")
	gittest.Git(t, main, "worktree", "add", "-q", "-b", "topic", wt)
	stdin := hooktest.Fixture(t, "PreToolUse/bash", map[string]any{"cwd": filepath.Join(wt)})
	var asked []string
	var stderr bytes.Buffer
	d := &hook.Dispatcher{Handlers: all, Stdin: bytes.NewReader(stdin), Stderr: &stderr,
		Getenv: func(string) string { return "" }, Getwd: func() (string, error) { return wt, nil },
		Installed: func(dir string) bool { asked = append(asked, dir); return dir == main }}
	if code := d.Dispatch(t.Context(), "PreToolUse"); code != 2 {
		t.Errorf("exit %d, stderr %q; want 2 (the main checkout's entries run)", code, stderr.String())
	}
	if len(asked) < 2 || asked[0] != wt || asked[1] != main {
		t.Errorf("asked %q, want the worktree, then its main checkout", asked)
	}
}

// Once a gatekeeper denies a tool call, the gatekeepers after it are not
// run (the call is denied whatever they say), and the observers are; on a
// Stop, every gate runs, so the model hears every reason at once.
func TestGatesAfterADenyDoNotRun(t *testing.T) {
	ran := map[string]int{}
	count := func(name string, policy hook.Policy, events []string, r hook.Result) hook.Handler {
		return handler(name, policy, events, "", func(*hook.Call) (hook.Result, error) {
			ran[name]++
			return r, nil
		})
	}
	set := []hook.Handler{
		count("first", hook.Gatekeeper, []string{"PreToolUse", "Stop"}, hook.Deny("first says no")),
		count("second", hook.Gatekeeper, []string{"PreToolUse", "Stop"}, hook.Deny("second says no")),
		count("watcher", hook.Observer, []string{"PreToolUse", "Stop"}, hook.Result{}),
	}
	root := hooktest.Checkout(t, enable("first", "second", "watcher")...)
	out := hooktest.Run(t, set, root, "PreToolUse", "PreToolUse/bash", nil)
	if ran["first"] != 1 || ran["second"] != 0 || ran["watcher"] != 1 {
		t.Fatalf("PreToolUse ran %v, want first and watcher once, second never", ran)
	}
	if !strings.Contains(out.Stdout, "first says no") || strings.Contains(out.Stdout, "second") {
		t.Fatalf("PreToolUse answer %s", out.Stdout)
	}
	// Replay's trace says why the second gate did not run.
	r := hook.RunReplay(context.Background(), &hook.Dispatcher{Handlers: set, Getenv: func(string) string { return "" }},
		"PreToolUse", hooktest.Fixture(t, "PreToolUse/bash", map[string]any{"cwd": root}))
	if !slices.Contains(r.Handlers, "second skipped 0µs (first denied first: no gate runs after a deny)") {
		t.Errorf("replay's handler lines %q do not say why second was skipped", r.Handlers)
	}
	out = hooktest.Run(t, set, root, "Stop", "Stop/stop", nil)
	if ran["second"] != 1 || !strings.Contains(out.Stdout, "first says no") || !strings.Contains(out.Stdout, "second says no") {
		t.Fatalf("Stop ran %v, answered %s: want both gates and both reasons", ran, out.Stdout)
	}
}

// A gate in warn-only mode that would deny does not stop the gates after
// it: its deny is not enforced.
func TestWarnOnlyDenyDoesNotStopTheOtherGates(t *testing.T) {
	ran := 0
	set := []hook.Handler{
		handler("warner", hook.Gatekeeper, []string{"PreToolUse"}, "", func(*hook.Call) (hook.Result, error) { return hook.Deny("would say no"), nil }),
		handler("after", hook.Gatekeeper, []string{"PreToolUse"}, "", func(*hook.Call) (hook.Result, error) { ran++; return hook.Result{}, nil }),
	}
	root := hooktest.Checkout(t, append(enable("warner", "after"), "hook.warn warner")...)
	hooktest.Run(t, set, root, "PreToolUse", "PreToolUse/bash", nil)
	if ran != 1 {
		t.Fatalf("the gate after a warn-only deny ran %d times, want 1", ran)
	}
}

// A set the build checked (SetChecked) is not validated again per call;
// one it did not is, and a set that does not hold then closes the gates.
func TestACheckedSetIsNotValidatedPerCall(t *testing.T) {
	twice := []hook.Handler{bashDenier, bashDenier}
	root := hooktest.Checkout(t, "hook.enable nobash")
	for _, checked := range []bool{false, true} {
		var stdout, stderr bytes.Buffer
		d := &hook.Dispatcher{Handlers: twice, SetChecked: checked,
			Stdin:  strings.NewReader(`{"session_id":"s","cwd":"` + root + `","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`),
			Stdout: &stdout, Stderr: &stderr,
			Getenv: func(string) string { return "" }, Getwd: func() (string, error) { return root, nil }}
		code := d.Dispatch(context.Background(), "PreToolUse")
		validated := strings.Contains(stderr.String(), "declared twice")
		if validated == checked {
			t.Errorf("SetChecked %v: validated %v (exit %d, stderr %q)", checked, validated, code, stderr.String())
		}
	}
}
