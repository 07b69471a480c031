package hook

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"time"

	"github.com/magehook/magehook/pkg/jsonlog"
	"github.com/magehook/magehook/pkg/payload"
	"github.com/magehook/magehook/pkg/toolingrc"
)

// Exit codes of the hook binary.
const (
	ExitOK     = 0 // success
	ExitFail   = 1 // failure (and WorktreeCreate without a path)
	ExitBlock  = 2 // a usage error, or a blocking decision
	ExitConfig = 3 // a configuration error: no or bad .toolingrc
)

// Dispatcher answers one event: it reads the payload, finds the checkout's
// configuration, runs every enabled handler whose matcher matches, merges
// their answers and writes the one answer the event accepts. It never
// panics and never lets a handler's failure escape its failure policy.
type Dispatcher struct {
	// Handlers are the handlers available to hook.enable.
	Handlers []Handler
	// Builtin handlers run on every checkout, ahead of the enabled ones,
	// whatever hook.enable says: the lifecycle of sessions and worktrees.
	// On a session event they also run when no configuration is found,
	// with a nil Config.
	Builtin []Handler
	Stdin   io.Reader
	Stdout  io.Writer
	Stderr  io.Writer
	// Getenv reads the environment; nil means os.Getenv.
	Getenv func(string) string
	// Getwd is the process's working directory; nil means os.Getwd.
	Getwd func() (string, error)
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Cap is the payload size limit; 0 means payload.DefaultCap.
	Cap int64
	// Harness is the agent whose payload comes in and whose dialect goes
	// out; nil is Claude Code.
	Harness Harness
}

// Dispatch answers the event named by its wire name and returns the exit code.
func (d *Dispatcher) Dispatch(ctx context.Context, eventName string) int {
	d.defaults()
	ev, ok := Lookup(eventName)
	if !ok {
		fmt.Fprintf(d.Stderr, "magehook: unknown event %q\n", eventName)
		return ExitBlock
	}

	p, perr := d.decode(ev)
	if perr == nil && ev.Lifecycle && p.AgentID != "" {
		return ExitOK // a sub-agent's session and worktree events change nothing
	}
	if perr == nil && p.HookEventName != "" && p.HookEventName != ev.Name {
		if fired, known := Lookup(p.HookEventName); known {
			fmt.Fprintf(d.Stderr, "magehook: hook:%s received a %s payload; answering %s (check the settings entry)\n", ev.Target, fired.Name, fired.Name)
			ev = fired
		}
	}

	cfg, cerr := d.discover(ev, p)
	if perr != nil {
		return d.badPayload(ev, cfg, perr)
	}
	var enabled []Handler
	if cerr == nil {
		enabled, cerr = d.enabled(cfg)
	}
	if cerr != nil {
		fmt.Fprintf(d.Stderr, "magehook: %s: %v\n", ev.Name, cerr)
		switch {
		case ev.Output == OutputPath:
			return ExitFail
		case ev.Lifecycle:
			// A session event never stops a session: warn, and let the
			// lifecycle do what it can without a configuration.
			cfg, enabled = nil, nil
		default:
			return ExitConfig
		}
	}
	enabled = append(append([]Handler(nil), d.Builtin...), enabled...)

	value := matchValue(ev, p)
	var results []Result
	var failed []string
	var late []Handler
	fault := func(h Handler, err error) {
		if cfg != nil {
			d.health(cfg, ev, p, h.Name, h.Policy, err)
		}
		fmt.Fprintf(d.Stderr, "magehook: %s: %s failed: %v\n", ev.Name, h.Name, oneLine(err.Error()))
		if h.Policy == Gatekeeper {
			failed = append(failed, h.Name)
		}
	}
	runOne := func(h Handler, merged *Result) {
		r, err := d.run(ctx, h, ev, p, cfg, merged, failed)
		if err != nil {
			fault(h, err)
			return
		}
		results = append(results, r)
	}
	for _, h := range enabled {
		if !h.Subscribes(ev.Name) {
			continue
		}
		if ev.MatcherField != "" {
			ok, err := Match(h.Matcher, value)
			if err != nil {
				fault(h, err) // a gate whose matcher is broken must not silently stop checking
				continue
			}
			if !ok {
				continue
			}
		}
		if h.Late {
			late = append(late, h)
			continue
		}
		runOne(h, nil)
	}
	if len(late) > 0 {
		early := Merge(results...)
		for _, h := range late {
			runOne(h, &early)
		}
	}
	merged := Merge(results...)
	stopLoop := (ev.Name == "Stop" || ev.Name == "SubagentStop") && p.StopHookActive
	if stopLoop {
		// A stop hook already fired for this stop: blocking again would loop.
		if merged.Decision == DecisionDeny {
			merged.Decision, merged.Reason = NoDecision, ""
		}
		failed = nil
	}
	if len(failed) > 0 {
		reason := fmt.Sprintf("magehook: %s blocked: gate %s failed, and a failed gate blocks (see %s)", ev.Name, strings.Join(failed, ", "), toolingrc.KeyStateDir+"/health.jsonl")
		return d.failClosed(ev, reason)
	}
	return d.write(d.Harness.Render(ev, merged))
}

// decode reads the payload and maps a harness's shape onto Claude Code's.
func (d *Dispatcher) decode(ev Event) (*payload.Payload, error) {
	data, err := payload.ReadAll(d.Stdin, d.Cap)
	if err != nil {
		return nil, err
	}
	if data, err = d.Harness.Normalize(data, ev.Name); err != nil {
		return nil, err
	}
	return payload.Parse(data)
}

func (d *Dispatcher) defaults() {
	if d.Getenv == nil {
		d.Getenv = os.Getenv
	}
	if d.Getwd == nil {
		d.Getwd = os.Getwd
	}
	if d.Now == nil {
		d.Now = time.Now
	}
	if d.Stdin == nil {
		d.Stdin = strings.NewReader("")
	}
	if d.Stdout == nil {
		d.Stdout = io.Discard
	}
	if d.Stderr == nil {
		d.Stderr = io.Discard
	}
	if d.Harness == nil {
		d.Harness = ClaudeCode
	}
}

// discover finds the configuration: from MAGEHOOK_ROOT when set, else from
// the payload's cwd, falling back to CLAUDE_PROJECT_DIR and the process's
// working directory when the cwd has none (the session may have cd'ed out
// of the checkout).
func (d *Dispatcher) discover(ev Event, p *payload.Payload) (*toolingrc.Config, error) {
	if root := d.Getenv(toolingrc.RootEnv); root != "" {
		return toolingrc.Discover(root)
	}
	var starts []string
	if p != nil && p.CWD != "" {
		starts = append(starts, p.CWD)
	}
	if ev.Output == OutputPath {
		// WorktreeCreate acts on the checkout of the payload's cwd alone.
		if len(starts) == 0 {
			return nil, errors.New("the payload has no cwd")
		}
		return toolingrc.Discover(starts[0])
	}
	if dir := d.Getenv("CLAUDE_PROJECT_DIR"); dir != "" {
		starts = append(starts, dir)
	}
	if wd, err := d.Getwd(); err == nil {
		starts = append(starts, wd)
	}
	var first error
	for _, s := range starts {
		cfg, err := toolingrc.Discover(s)
		if err == nil {
			return cfg, nil
		}
		var cerr *toolingrc.Error
		if errors.As(err, &cerr) && cerr.Line > 0 {
			return nil, err // a bad file is an error, not a reason to look elsewhere
		}
		if first == nil {
			first = err
		}
	}
	if first == nil {
		first = errors.New("no directory to start the search for " + toolingrc.FileName)
	}
	return nil, first
}

// enabled resolves hook.enable to handlers; an unknown name is an error,
// since a typo there would silently turn a gate off.
func (d *Dispatcher) enabled(cfg *toolingrc.Config) ([]Handler, error) {
	v, err := cfg.Get(toolingrc.KeyHookEnable)
	if err != nil {
		return nil, err
	}
	var out []Handler
	for i, name := range v.Values {
		h, ok := find(d.Handlers, name)
		if !ok {
			return nil, &toolingrc.Error{File: v.File, Line: lineOf(cfg, v, i), Key: toolingrc.KeyHookEnable,
				Msg: fmt.Sprintf("no handler is named %q; run hook:list for the names", name)}
		}
		out = append(out, h)
	}
	return out, nil
}

func lineOf(cfg *toolingrc.Config, v toolingrc.Value, i int) int {
	entries, _, _ := cfg.Lookup(v.Key)
	if i < len(entries) {
		return entries[i].Line
	}
	return v.Line
}

func find(hs []Handler, name string) (Handler, bool) {
	for _, h := range hs {
		if h.Name == name {
			return h, true
		}
	}
	return Handler{}, false
}

// run calls one handler, turning a panic into an error.
func (d *Dispatcher) run(ctx context.Context, h Handler, ev Event, p *payload.Payload, cfg *toolingrc.Config, merged *Result, failed []string) (r Result, err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("panic: %v\n%s", v, debug.Stack())
		}
	}()
	return h.Run(&Call{Context: ctx, Event: ev, Payload: p, Config: cfg, Getenv: d.Getenv, Now: d.Now, Stderr: d.Stderr, Harness: d.Harness,
		Merged: merged, FailedGates: append([]string(nil), failed...)})
}

// badPayload answers a payload that could not be decoded: a gatekeeper
// enabled on the event fails closed, everything else proceeds.
func (d *Dispatcher) badPayload(ev Event, cfg *toolingrc.Config, perr error) int {
	fmt.Fprintf(d.Stderr, "magehook: %s: %v\n", ev.Name, perr)
	if ev.Output == OutputPath {
		return ExitFail
	}
	if cfg == nil {
		return ExitOK
	}
	d.health(cfg, ev, nil, "", 0, perr)
	enabled, err := d.enabled(cfg)
	if err != nil {
		return ExitOK
	}
	var gates []string
	for _, h := range enabled {
		if h.Subscribes(ev.Name) && h.Policy == Gatekeeper {
			gates = append(gates, h.Name)
		}
	}
	if len(gates) == 0 {
		return ExitOK
	}
	return d.failClosed(ev, fmt.Sprintf("magehook: %s blocked: the payload could not be read, and gate %s fails closed", ev.Name, strings.Join(gates, ", ")))
}

// failClosed blocks the event after a gate could not decide.
func (d *Dispatcher) failClosed(ev Event, reason string) int {
	if ev.Block == BlockBehavior {
		// PermissionRequest does not honour exit 2; deny through JSON.
		return d.write(d.Harness.Render(ev, Deny(reason)))
	}
	fmt.Fprintln(d.Stderr, reason)
	return ExitBlock
}

func (d *Dispatcher) write(a Answer) int {
	for _, line := range a.Stderr {
		fmt.Fprintln(d.Stderr, line)
	}
	if len(a.Stdout) > 0 {
		if _, err := d.Stdout.Write(a.Stdout); err != nil {
			fmt.Fprintf(d.Stderr, "magehook: cannot write the answer: %v\n", err)
			return ExitFail
		}
	}
	return a.Code
}

// health appends one JSON line about a failure to state.dir/health.jsonl
// (rotated at 1 MB). It is best effort: a hook must not fail because its
// log cannot be written.
func (d *Dispatcher) health(cfg *toolingrc.Config, ev Event, p *payload.Payload, handler string, policy Policy, failure error) {
	v, err := cfg.Get(toolingrc.KeyStateDir)
	if err != nil {
		return
	}
	rec := struct {
		Time    string `json:"time"`
		Event   string `json:"event"`
		Handler string `json:"handler,omitempty"`
		Policy  string `json:"policy,omitempty"`
		Session string `json:"session,omitempty"`
		Error   string `json:"error"`
	}{Time: d.Now().UTC().Format(time.RFC3339Nano), Event: ev.Name, Handler: handler, Error: failure.Error()}
	if policy != 0 {
		rec.Policy = policy.String()
	}
	if p != nil {
		rec.Session = p.SessionID
	}
	jsonlog.Log{Path: filepath.Join(v.Abs(), "health.jsonl"), MaxBytes: 1 << 20, Keep: 3}.Append(rec)
}

func oneLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
