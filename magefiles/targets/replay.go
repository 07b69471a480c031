package targets

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/magehook/magehook/pkg/buildinfo"
	"github.com/magehook/magehook/pkg/harness"
	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/payload"
	"github.com/magehook/magehook/pkg/toolingrc"
)

// Replay runs a payload through the installed hook binary, exactly as
// Claude Code runs it, and prints the decision, the exit code and what would
// reach the model and the user; it exits with the code Claude Code would
// see. The payload is a file, "-" for stdin (go tool mage hook:last |
// go tool mage hook:replay -), or, when the argument is an event name, one
// built from -tool, -command and -file (hook:replay PreToolUse -tool=Bash
// -command='git push'; -file made absolute, as the clients send it). The event is the payload's hook_event_name unless
// -event names one. A binary older than its sources is said to be stale
// (the harness runs it all the same). Session and worktree events change
// the library and the worktrees, so without -lifecycle they are replayed
// in-process with the enabled handlers only. -check prints the decision
// line alone, for scripts. -harness=codex (copilot, cursor, gemini,
// opencode) runs the binary as that harness's entry does and reads its
// answer in that harness's dialect; a payload built from flags is Claude
// Code's shape, which every harness's mapping accepts.
func (Hook) Replay(ctx context.Context, input string,
	event *string, // the event (default: the payload's hook_event_name)
	tool *string, // a built payload's tool_name
	command *string, // a built payload's tool_input.command
	file *string, // a built payload's tool_input.file_path
	lifecycle *bool, // run session and worktree events with the lifecycle
	check *bool, // print the decision line alone
	harness *string, // the harness whose entry runs the binary (default claude)
) error {
	return osWorld().replay(ctx, replayArgs{input: input, event: deref(event), tool: deref(tool), command: deref(command),
		file: deref(file), lifecycle: derefBool(lifecycle), check: derefBool(check), harness: deref(harness)})
}

// replayArgs are hook:replay's arguments.
type replayArgs struct {
	input, event, tool, command, file, harness string
	lifecycle, check                           bool
}

func (w world) replay(ctx context.Context, a replayArgs) error {
	agent, ok := harness.Hook(a.harness)
	if !ok {
		return usage(fmt.Errorf("unknown harness %q; use %s", a.harness, strings.Join(harness.Names(), ", ")))
	}
	data, name, err := w.replayPayload(a.input, a.event, a.tool, a.command, a.file)
	if err != nil {
		return usage(err)
	}
	ev, ok := hook.Lookup(name)
	if !ok {
		return usage(fmt.Errorf("unknown event %q", name))
	}
	var r hook.Replay
	if ev.Lifecycle && !a.lifecycle {
		r = hook.RunReplay(ctx, &hook.Dispatcher{Handlers: handlers(), Harness: agent}, name, data)
		r.Notes = append(r.Notes, "replayed in-process without the lifecycle (pass -lifecycle to run the installed binary with it)")
	} else {
		bin, err := w.replayBinary(ctx)
		if err != nil {
			return failure(err)
		}
		args := []string{"hook:" + ev.Target}
		if agent != hook.ClaudeCode {
			args = append(args, "-harness="+agent.HarnessName())
		}
		cmd := exec.CommandContext(ctx, bin, args...)
		var stdout, stderr bytes.Buffer
		cmd.Dir = w.dir
		cmd.Stdin, cmd.Stdout, cmd.Stderr = bytes.NewReader(data), &stdout, &stderr
		cmd.Env = append(os.Environ(), hook.TraceEnv+"=1")
		code := 0
		if err := cmd.Run(); err != nil {
			var exit *exec.ExitError
			if !errors.As(err, &exit) {
				return failure(fmt.Errorf("run %s: %w", bin, err))
			}
			code = exit.ExitCode()
		}
		r = hook.Interpret(name, code, stdout.String(), stderr.String())
		if agent != hook.ClaudeCode {
			r = dialect(r, agent.HarnessName())
		}
	}
	if a.check {
		fmt.Fprintf(w.stdout, "%s %s exit %d\n", r.Event, r.Decision, r.Code)
	} else {
		r.Write(w.stdout)
	}
	if r.Code != hook.ExitOK {
		// The code the harness would see, said once more where scripts
		// and Mage read it.
		return &exitError{code: r.Code, err: fmt.Errorf("hook:replay: %s %s: the harness sees exit %d", r.Event, r.Decision, r.Code)}
	}
	return nil
}

// dialect reads the decision of an answer in another harness's dialect,
// which Interpret (Claude Code's) does not know: the first decision-like
// member anywhere in the JSON answer (permissionDecision, permission,
// decision, behavior).
func dialect(r hook.Replay, name string) hook.Replay {
	r.Notes = append(r.Notes, "answered in "+name+"'s dialect")
	if r.Decision != "none" || strings.TrimSpace(r.Stdout) == "" {
		return r
	}
	var v any
	if json.Unmarshal([]byte(r.Stdout), &v) != nil {
		return r
	}
	var find func(v any) string
	find = func(v any) string {
		switch x := v.(type) {
		case map[string]any:
			for _, k := range []string{"permissionDecision", "permission", "behavior", "decision"} {
				if s, ok := x[k].(string); ok && s != "" {
					return s
				}
			}
			for _, k := range slices.Sorted(maps.Keys(x)) {
				if d := find(x[k]); d != "" {
					return d
				}
			}
		}
		return ""
	}
	if d := find(v); d != "" {
		r.Decision = d
	}
	return r
}

// mageTyped is how a person runs targets in root before the hook binary
// is built: go tool mage, or in a hook module (magefiles/go.mod) Mage
// started there and run in the checkout.
func mageTyped(root string) string {
	if buildinfo.HookModule(root) {
		return "go -C magefiles tool mage -w .."
	}
	return "go tool mage"
}

// replayBinary is the checkout's installed hook binary, with a warning on
// stderr when it is older than the sources.
func (w world) replayBinary(ctx context.Context) (string, error) {
	cfg, err := toolingrc.Discover(w.start())
	if err != nil {
		return "", err
	}
	v, err := cfg.Get(toolingrc.KeyHookBinary)
	if err != nil {
		return "", err
	}
	bin := v.Abs()
	if _, err := os.Stat(bin); err != nil {
		return "", fmt.Errorf("no hook binary at %s: run %s hook:install (replay runs the binary the harness runs)", bin, mageTyped(cfg.Root()))
	}
	if buildinfo.HasMagefiles(cfg.Root()) {
		want, werr := buildinfo.SourceHash(ctx, cfg.Root())
		built, berr := buildinfo.BinarySource(bin)
		if werr == nil && berr == nil && want != built {
			fmt.Fprintf(w.stderr, "magehook: %s is stale (built from %s, the sources are %s): replaying what the harness runs today; %s hook:build refreshes it\n", bin, built, want, buildinfo.Typed(cfg.Root(), bin))
		}
	}
	return bin, nil
}

// replayPayload reads the payload file ("-": stdin), or builds one for
// the event the argument names when no such file exists. A built
// payload's file_path is absolute, as the clients send it: a gate that
// judges the path sees what it sees in a session.
func (w world) replayPayload(arg, event, tool, command, path string) ([]byte, string, error) {
	var data []byte
	var err error
	if arg == "-" {
		if data, err = io.ReadAll(w.stdin); err != nil {
			return nil, "", fmt.Errorf("read the payload from stdin: %w", err)
		}
		if len(bytes.TrimSpace(data)) == 0 {
			return nil, "", errors.New("no payload on stdin (hook:replay - reads one JSON payload, as hook:last prints it)")
		}
	} else {
		data, err = os.ReadFile(w.abs(arg))
	}
	if err == nil {
		name := event
		if name == "" {
			p, err := payload.Parse(data)
			if err != nil || p.HookEventName == "" {
				return nil, "", fmt.Errorf("%s: no hook_event_name to replay (%v); pass -event=<Event>", arg, err)
			}
			name = p.HookEventName
		}
		return data, name, nil
	}
	if _, known := hook.Lookup(arg); !known {
		return nil, "", fmt.Errorf("%s is neither a payload file (%v) nor an event name (hook:replay PreToolUse -tool=Bash -command='git push')", arg, err)
	}
	cwd, err := w.wd()
	if err != nil {
		return nil, "", err
	}
	obj := map[string]any{
		"hook_event_name": arg,
		"session_id":      "replay",
		"cwd":             cwd,
		"permission_mode": "default",
		"transcript_path": filepath.Join(os.TempDir(), "replay.jsonl"),
	}
	if tool != "" {
		input := map[string]any{}
		if command != "" {
			input["command"] = command
		}
		if path != "" {
			abs, err := filepath.Abs(w.abs(path))
			if err != nil {
				return nil, "", err
			}
			input["file_path"] = abs
		}
		obj["tool_name"], obj["tool_input"], obj["tool_use_id"] = tool, input, "toolu_replay"
	} else if command != "" || path != "" {
		return nil, "", errors.New("-command and -file need -tool (Bash, Edit, Write, ...)")
	}
	data, err = json.Marshal(obj)
	return data, arg, err
}
