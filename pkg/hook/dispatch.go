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

	"github.com/magehook/magehook/pkg/atomicfile"
	"github.com/magehook/magehook/pkg/budget"
	"github.com/magehook/magehook/pkg/buildinfo"
	"github.com/magehook/magehook/pkg/confined"
	"github.com/magehook/magehook/pkg/gitrepo"
	"github.com/magehook/magehook/pkg/jsonlog"
	"github.com/magehook/magehook/pkg/payload"
	"github.com/magehook/magehook/pkg/redact"
	"github.com/magehook/magehook/pkg/regfile"
	"github.com/magehook/magehook/pkg/spool"
	"github.com/magehook/magehook/pkg/toolargs"
	"github.com/magehook/magehook/pkg/toolingrc"
)

// Exit codes of the hook binary.
const (
	ExitOK     = 0 // success
	ExitFail   = 1 // failure (and WorktreeCreate without a path)
	ExitBlock  = 2 // a usage error, or a blocking decision
	ExitConfig = 3 // a configuration error: no or bad .toolingrc
)

// DeadlineEnv names the environment variable that shortens a tool-gating
// decision's deadline (a Go duration below budget.DefaultDeadline), for
// tests of what a late gate does.
const DeadlineEnv = "MAGEHOOK_GATE_DEADLINE"

// Dispatcher answers one event: it reads the payload, finds the checkout's
// configuration, runs every enabled handler whose matcher matches, merges
// their answers and writes the one answer the event accepts. It never
// panics and never lets a handler's failure escape its failure policy.
//
// A configuration that cannot be fully read (a bad .toolingrc, an unknown
// handler name, a handler set that does not validate, a bad environment
// setting) closes the gates: a tool-gating event (Gating) blocks with the
// one-line error, WorktreeCreate fails, and every other event proceeds
// with the error on stderr, SessionStart and the first UserPromptSubmit of
// a session showing it to the user. Only a checkout with no .toolingrc at
// all and no installed entry (see Installed) is left quiet.
type Dispatcher struct {
	// Handlers are the handlers available to hook.enable.
	Handlers []Handler
	// Builtin handlers run on every checkout, ahead of the enabled ones,
	// whatever hook.enable says: the lifecycle of sessions and worktrees.
	// On a session event the builtin observers also run when no
	// configuration is found, with a nil Config. (The gate that guards the
	// gates' configuration is an Implied handler among Handlers: it runs
	// wherever a gatekeeper is enabled.)
	Builtin []Handler
	// Installed reports whether a checkout directory holds magehook's
	// installed entries (settings.Installed); it decides whether a
	// checkout without any .toolingrc is misconfigured (its entries run,
	// so its gates must hold) or simply not using magehook. Nil means
	// never.
	Installed func(dir string) bool
	Stdin     io.Reader
	Stdout    io.Writer
	Stderr    io.Writer
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
	Harness Protocol
	// SetupErr is a problem found before dispatch (a bad environment
	// setting); Dispatch treats it as a configuration error.
	SetupErr error
	// Alarm, when set, arms a watchdog on each tool-gating decision
	// (watchdog.go); nil arms none.
	Alarm *Alarm
	// SetChecked: Handlers and Builtin were validated when the binary was
	// built (Set.Checked); otherwise every dispatch validates them.
	SetChecked bool
	// User, when set, makes this a user-scope dispatch (UserScope).
	User *UserScope

	// early and read serve Early and Resume (early.go): the answer from a
	// hook:<event> target's init, before the magefile has registered its
	// own handlers.
	early bool
	read  *Pending
	// memo is what the handlers of this dispatch found (Call.Repo,
	// Call.StateDir).
	memo *memo
	// disarm stops the watchdog; owner is who writes the answer.
	disarm func() bool
	owner  owner
}

// Dispatch answers the event named by its wire name and returns the exit
// code, in three steps: prepare reads the payload and the configuration and
// picks the handlers, run runs them, answer merges what they said into the
// one answer the event accepts.
func (d *Dispatcher) Dispatch(ctx context.Context, eventName string) int {
	c, code, ok := d.prepare(ctx, eventName)
	if ok {
		code = d.answer(c, d.runAll(ctx, c))
	}
	d.settle()
	if ok {
		d.exportCall(c, code)
	}
	return code
}

// call is one event being answered: what prepare found.
type call struct {
	ev       Event
	p        *payload.Payload
	cfg      *toolingrc.Config
	b        *budget.Budget // nil on events that gate no tool call
	handlers []Handler      // builtin, then enabled, in order, then Reach gates not enabled
	// reachOnly names the Reach gates among handlers the configuration
	// does not enable (Call.ReachOnly).
	reachOnly map[string]bool
	// shape is the pre-scan's verdict (shapeOf), once shaped.
	shape  error
	shaped bool
	// spool is set when the checkout exports (otel.export yes; export.go):
	// start and times are then kept for the call's records.
	spool *spool.Spool
	start time.Time
	times []handlerTime
}

// outcome is what the handlers of a call answered.
type outcome struct {
	results []Result
	failed  []string // the gatekeepers that failed
}

// prepare decodes the payload, finds the configuration and resolves the
// handlers to run; when the event is answered without them (a bad payload,
// a configuration that cannot be read, an event a sub-agent's session
// does not need), it returns false and the exit code.
func (d *Dispatcher) prepare(ctx context.Context, eventName string) (*call, int, bool) {
	d.defaults()
	d.memo = newMemo()
	d.owner.Store(0)
	ev, ok := Lookup(eventName)
	if !ok {
		fmt.Fprintf(d.Stderr, "magehook: unknown event %q\n", eventName)
		return nil, ExitBlock, false
	}
	c := &call{ev: ev}
	if ev.Gating() {
		c.b = d.budget()
		d.arm(ev, c.b)
	}

	p, sent, perr := d.decode(ev)
	if perr == nil && ev.Lifecycle && ev.Output != OutputPath && p.AgentID != "" {
		// A sub-agent's session events and WorktreeRemove change nothing
		// (HOOK-EVENTS-4). WorktreeCreate is never skipped: exit 0 with
		// no path fails the creation, and Claude Code 2.1.328 sends an
		// isolated sub-agent's WorktreeCreate (name "agent-<id>") for
		// the worktree it needs.
		return nil, ExitOK, false
	}
	if perr == nil && sent != "" && !sameEvent(d.Harness, sent, ev) {
		// The target is what the settings entry asked for; a payload that
		// names another event never moves the answer to that event.
		msg := fmt.Sprintf("magehook: hook:%s received a %s payload; the settings entry sends this event to the wrong target (reinstall with go tool mage hook:install)", ev.Target, sent)
		if ev.Gating() {
			return nil, d.failClosed(ev, "", msg+"; a gate does not guess, so the call is blocked"), false
		}
		fmt.Fprintln(d.Stderr, msg+"; answering "+ev.Name)
	}
	if perr == nil {
		p.HookEventName = ev.Name
	}
	c.p = p

	cfg, starts, cerr := d.discover(ev, p)
	var enabled []Handler
	if cerr == nil {
		enabled, cerr = d.enabled(cfg)
	}
	c.cfg = cfg
	if cerr == nil && perr == nil {
		if c.spool = d.spoolFor(cfg); c.spool != nil {
			c.start = d.Now()
		}
	}
	switch {
	case cerr == errStepAside:
		return nil, stepAside, false
	case cerr == errOwnMagehook:
		return nil, ExitOK, false
	case perr != nil:
		return nil, d.badPayload(ev, cfg, enabled, starts, cerr, perr), false
	case cerr != nil:
		return nil, d.configProblem(ctx, ev, p, starts, cerr), false
	}
	// The handlers that answer this event; runAll applies their matchers.
	for _, h := range append(append([]Handler(nil), d.Builtin...), enabled...) {
		if h.Subscribes(ev.Name) {
			c.handlers = append(c.handlers, h)
		}
	}
	if ev.Gating() {
		// A gate that judges other repositories by their own policies
		// runs where this one does not enable it, for them alone.
		for _, h := range d.Handlers {
			if _, on := find(enabled, h.Name); h.Reach && !on && h.Subscribes(ev.Name) {
				c.handlers = append(c.handlers, h)
				if c.reachOnly == nil {
					c.reachOnly = map[string]bool{}
				}
				c.reachOnly[h.Name] = true
			}
		}
	}
	return c, 0, true
}

// runAll runs the call's handlers whose matcher matches, the Late ones
// after the others with what those answered. On an event that gates a
// tool call, once a gatekeeper has denied, the gatekeepers after it are not
// run: the call is denied whatever they say, and a gate's work (docorphan's
// git diff, say) is the costliest part of a call. Observers still run.
func (d *Dispatcher) runAll(ctx context.Context, c *call) outcome {
	var o outcome
	tracing := d.Getenv(TraceEnv) != ""
	denied := "" // the gatekeeper whose deny ended the gates
	// While stop_hook_active is set, answer drops every block (it would
	// loop), so a gate's work there is thrown away: stopguard's check
	// would run a second full time for nothing. Gates do not run.
	stopActive := (c.ev.Name == "Stop" || c.ev.Name == "SubagentStop") && c.p.StopHookActive
	fault := func(h Handler, err error) {
		if c.cfg != nil {
			d.health(c.cfg, c.ev, c.p, h.Name, h.Policy, err)
		}
		fmt.Fprintf(d.Stderr, "magehook: %s: %s failed: %v\n", c.ev.Name, h.Name, clip(oneLine(err.Error())))
		if h.Policy == Gatekeeper {
			o.failed = append(o.failed, h.Name)
		}
	}
	runOne := func(h Handler, merged *Result) {
		if h.Policy == Gatekeeper {
			if denied != "" || stopActive {
				if tracing {
					// Said, so that a gate that seems not to run is
					// known to have been reached after a deny.
					why := denied + " denied first: no gate runs after a deny"
					if denied == "" {
						why = "stop_hook_active: a stop is not blocked twice, so no gate runs"
					}
					fmt.Fprintf(d.Stderr, "%s%s skipped 0µs (%s)\n", tracePrefix, h.Name, why)
				}
				return
			}
			// A gate that could not finish in time has not decided.
			if err := overBudget(c.b, c.p); err != nil {
				fault(h, err)
				return
			}
			if !c.shaped {
				c.shaped, c.shape = true, shapeOf(c.p)
			}
			if c.shape != nil {
				fault(h, c.shape)
				return
			}
		}
		var start time.Time
		if tracing || c.spool != nil {
			start = d.Now()
		}
		r, err := d.run(ctx, h, c.ev, c.p, c.cfg, c.b, merged, o.failed, c.reachOnly[h.Name])
		if err == nil && h.Policy == Gatekeeper {
			err = c.b.Check()
		}
		if tracing {
			d.trace(h, r, err, d.Now().Sub(start))
		}
		if c.spool != nil {
			c.times = append(c.times, handlerTime{h.Name, h.Policy, r, err, d.Now().Sub(start)})
		}
		if err != nil {
			fault(h, err)
			return
		}
		r = d.warnOnly(c.cfg, h, c.ev, c.p, r)
		if h.Policy == Gatekeeper && r.Decision == DecisionDeny && c.ev.Gating() && denied == "" {
			denied = h.Name
		}
		o.results = append(o.results, r)
	}
	value := matchValue(c.ev, c.p)
	var late []Handler
	for _, h := range c.handlers {
		if c.ev.MatcherField != "" {
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
		early := Merge(o.results...)
		for _, h := range late {
			runOne(h, &early)
		}
	}
	return o
}

// answer merges the handlers' results into the event's one answer and
// writes it; a failed gatekeeper blocks the event.
func (d *Dispatcher) answer(c *call, o outcome) int {
	merged := Merge(o.results...)
	failed := o.failed
	if (c.ev.Name == "Stop" || c.ev.Name == "SubagentStop") && c.p.StopHookActive {
		// A stop hook already fired for this stop: blocking again would loop.
		if merged.Decision == DecisionDeny {
			merged.Decision, merged.Reason = NoDecision, ""
		}
		failed = nil
	}
	if len(failed) > 0 {
		reason := fmt.Sprintf("magehook: %s blocked: gate %s failed, and a failed gate blocks (see %s)", c.ev.Name, strings.Join(failed, ", "), toolingrc.KeyStateDir+"/health.jsonl")
		return d.failClosed(c.ev, c.p.ToolName, reason)
	}
	merged.Tool = c.p.ToolName
	return d.write(d.Harness.Render(c.ev, merged))
}

// TraceEnv, when set, makes the dispatcher write one line per handler it
// runs to stderr: "magehook: trace <handler> <decision> <µs>" (hook:replay
// sets it to show what each handler decided).
const TraceEnv = "MAGEHOOK_TRACE"

// tracePrefix starts every trace line.
const tracePrefix = "magehook: trace "

func (d *Dispatcher) trace(h Handler, r Result, err error, took time.Duration) {
	decision := r.Decision.String()
	switch {
	case err != nil:
		decision = "failed"
	case decision == "":
		decision = "none"
	}
	fmt.Fprintf(d.Stderr, "%s%s %s %dµs\n", tracePrefix, h.Name, decision, took.Microseconds())
}

// budget is a tool-gating decision's budget, counted from now. The
// deadline can be shortened (never lengthened) with MAGEHOOK_GATE_DEADLINE,
// a Go duration (a negative one is already past), to test what a late
// gate does.
func (d *Dispatcher) budget() *budget.Budget {
	b := budget.New(d.Now(), d.Now)
	if v := d.Getenv(DeadlineEnv); v != "" {
		if t, err := time.ParseDuration(v); err == nil && t < budget.DefaultDeadline {
			b.Deadline = b.Deadline.Add(t - budget.DefaultDeadline)
		}
	}
	return b
}

// overBudget reports a shell command too large for a gate to analyse, or a
// deadline already passed.
func overBudget(b *budget.Budget, p *payload.Payload) error {
	if b == nil {
		return nil
	}
	if p.IsTool("Bash", "PowerShell") {
		if err := b.CheckSize("the command", p.InputSize("command")); err != nil {
			return err
		}
	}
	return b.Check()
}

// shapeOf is the pre-scan of what a gate would analyse (budget.CheckShell,
// CheckPowerShell, CheckPath): nesting, pipelines and path components
// bounded before any analysis allocates for them. It runs once per call,
// after the size check.
func shapeOf(p *payload.Payload) error {
	if p == nil {
		return nil
	}
	switch {
	case p.IsTool("Bash"):
		if cmd, ok := p.InputString("command"); ok {
			if err := budget.CheckSeparators("the command", cmd); err != nil {
				return err
			}
			return budget.CheckShell("the command", cmd)
		}
	case p.IsTool("PowerShell"):
		if cmd, ok := p.InputString("command"); ok {
			if err := budget.CheckSeparators("the command", cmd); err != nil {
				return err
			}
			return budget.CheckPowerShell("the command", cmd)
		}
	}
	if cmd, ok := toolargs.Shell(p); ok {
		if err := budget.CheckSeparators("the command", cmd); err != nil {
			return err
		}
	}
	for _, path := range p.EditedPaths() {
		if err := budget.CheckPath("the path "+p.ToolName+" names", path); err != nil {
			return err
		}
	}
	if !toolargs.Known(p.ToolName) {
		// Another tool's (an MCP tool's) path arguments, every one the
		// gates may resolve, each bounded and all of them together.
		var paths []string
		for _, a := range toolargs.Read(p, toolargs.Options{Readers: true, Relative: true}).Paths {
			paths = append(paths, a.Value)
		}
		return budget.CheckPaths("a path "+p.ToolName+" names", "the paths "+p.ToolName+" names", paths)
	}
	return nil
}

// configProblem answers an event whose configuration cannot be fully read.
func (d *Dispatcher) configProblem(ctx context.Context, ev Event, p *payload.Payload, starts []string, cerr error) int {
	if errors.Is(cerr, toolingrc.ErrNotFound) && !d.installedAt(starts) {
		// Not a magehook checkout: nothing to guard, nothing to say.
		if ev.Output == OutputPath {
			fmt.Fprintf(d.Stderr, "magehook: %s: %v\n", ev.Name, cerr)
			return ExitFail
		}
		if ev.Lifecycle {
			return d.lifecycleOnly(ctx, ev, p, Result{})
		}
		return ExitOK
	}
	problem := configMessage(cerr)
	switch {
	case ev.Gating():
		return d.failClosed(ev, toolOf(p), fmt.Sprintf("magehook: %s blocked: %s; until the configuration reads, every tool call is blocked", ev.Name, problem))
	case ev.Output == OutputPath:
		fmt.Fprintf(d.Stderr, "magehook: %s: %s\n", ev.Name, problem)
		return ExitFail
	}
	fmt.Fprintf(d.Stderr, "magehook: %s: %s\n", ev.Name, problem)
	shown := "magehook cannot read its configuration, so every tool call is blocked until it is fixed: " + problem
	switch ev.Name {
	case "SessionStart":
		return d.lifecycleOnly(ctx, ev, p, Result{SystemMessage: shown,
			Context: shown + ". Tell the user; the fix is theirs to make."})
	case "UserPromptSubmit":
		if p == nil || !d.firstWarning(starts, cerr, p.SessionID, problem) {
			return ExitOK
		}
		return d.write(d.Harness.Render(ev, Result{SystemMessage: shown}))
	}
	if ev.Lifecycle {
		return d.lifecycleOnly(ctx, ev, p, Result{})
	}
	return ExitConfig
}

// configMessage is the one line that names what cannot be read and what
// to do.
func configMessage(err error) string {
	return oneLine(err.Error())
}

// lifecycleOnly runs the builtin observers of a session event without a
// configuration (a session event never stops a session) and adds extra to
// their answer.
func (d *Dispatcher) lifecycleOnly(ctx context.Context, ev Event, p *payload.Payload, extra Result) int {
	results := []Result{extra}
	if p != nil {
		for _, h := range d.Builtin {
			if h.Policy != Observer || !h.Subscribes(ev.Name) {
				continue
			}
			r, err := d.run(ctx, h, ev, p, nil, nil, nil, nil, false)
			if err != nil {
				fmt.Fprintf(d.Stderr, "magehook: %s: %s failed: %v\n", ev.Name, h.Name, oneLine(err.Error()))
				continue
			}
			results = append(results, r)
		}
	}
	return d.write(d.Harness.Render(ev, Merge(results...)))
}

// decode reads the payload and maps a harness's shape onto Claude Code's.
// sent is the event name the payload itself carries, as the harness wrote
// it ("" when it names none).
func (d *Dispatcher) decode(ev Event) (p *payload.Payload, sent string, err error) {
	if d.read == nil {
		data, err := payload.ReadAll(d.Stdin, d.Cap)
		d.read = &Pending{data: data, err: err}
	}
	data, err := d.read.data, d.read.err
	if err != nil {
		return nil, "", err
	}
	if d.Harness != ClaudeCode {
		sent = payload.EventName(data)
		if data, err = d.Harness.Normalize(data, ev.Name); err != nil {
			return nil, "", err
		}
		p, err = payload.Parse(data)
		return p, sent, err
	}
	p, err = payload.Parse(data)
	if err != nil {
		return nil, "", err
	}
	return p, p.HookEventName, nil
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
// of the checkout). It returns the directories it started from. A file
// that exists but cannot be read is an error, never a reason to look
// elsewhere; so is any other configuration problem (SetupErr, a
// configuration value that does not check).
func (d *Dispatcher) discover(ev Event, p *payload.Payload) (*toolingrc.Config, []string, error) {
	root := d.Getenv(toolingrc.RootEnv)
	if d.User != nil && root == "" {
		return d.userDiscover(p)
	}
	var starts []string
	askWd := false // the process's working directory comes last
	if root != "" {
		starts = []string{root}
	} else {
		if p != nil && p.CWD != "" {
			starts = append(starts, p.CWD)
		}
		if ev.Output == OutputPath {
			// WorktreeCreate acts on the checkout of the payload's cwd alone.
			if len(starts) == 0 {
				return nil, nil, errors.New("the payload has no cwd")
			}
		} else {
			if dir := d.Getenv("CLAUDE_PROJECT_DIR"); dir != "" {
				starts = append(starts, dir)
			}
			askWd = true
		}
	}
	var first error
	for i := 0; i < len(starts) || askWd; i++ {
		if i == len(starts) {
			// Asked only when the walk gets here: os.Getwd costs two
			// system calls that the payload's cwd almost always spares.
			askWd = false
			wd, err := d.Getwd()
			if err != nil {
				break
			}
			starts = append(starts, wd)
		}
		cfg, err := toolingrc.Discover(starts[i])
		if err == nil && root != "" && p != nil && p.CWD != "" && !within(p.CWD, root) {
			// MAGEHOOK_ROOT is confined: the cwd's own gates still count.
			cwdCfg, cerr := toolingrc.Discover(p.CWD)
			switch {
			case cerr == nil && ev.Gating():
				// For a gate, the cwd's checkout sets the policy (its
				// hook.warn, not the root's); the root's gates add.
				cwdCfg.Join(cfg)
				cfg = cwdCfg
			case cerr == nil:
				cfg.Join(cwdCfg)
			case !errors.Is(cerr, toolingrc.ErrNotFound):
				return nil, starts, cerr
			}
		}
		if err == nil {
			return cfg, starts, d.usable(cfg)
		}
		if !errors.Is(err, toolingrc.ErrNotFound) {
			return nil, starts, err
		}
		if first == nil {
			first = err
		}
		if ev.Output == OutputPath {
			break
		}
	}
	if first == nil {
		first = &toolingrc.Error{File: ".", Msg: "no directory to start the search for " + toolingrc.FileName, Err: toolingrc.ErrNotFound}
	}
	return nil, starts, first
}

// usable says a found configuration's warnings and returns what keeps it
// from being used: a setup error, a value that does not check, a typo in
// a gate's name.
func (d *Dispatcher) usable(cfg *toolingrc.Config) error {
	for _, w := range cfg.Warnings {
		fmt.Fprintln(d.Stderr, "magehook: "+w)
	}
	if d.SetupErr != nil {
		return d.SetupErr
	}
	if err := cfg.Validate(); err != nil {
		return err
	}
	return cfg.GateTypo()
}

// errOwnMagehook: the checkout of a user-scope call runs magehook of its
// own, which answers this event (UserScope).
var errOwnMagehook = errors.New("the checkout runs magehook of its own")

// userDiscover is discover for a user-scope binary. The checkout is the
// payload's cwd's (else CLAUDE_PROJECT_DIR's, else the working
// directory's). Where that checkout (or a linked worktree's main
// checkout) wires magehook of its own into this harness, the call is its
// binary's: errOwnMagehook. Otherwise the policy is the user's .toolingrc
// (UserScope.Home's), added to the configuration the checkout's own
// chain reads, if any: the user's gates hold in every repository, and a
// repository's own .toolingrc can add to them. A user without a
// .toolingrc closes the gates: the entries are installed, so they must
// hold.
func (d *Dispatcher) userDiscover(p *payload.Payload) (*toolingrc.Config, []string, error) {
	start := ""
	if p != nil {
		start = p.CWD
	}
	if start == "" {
		start = d.Getenv("CLAUDE_PROJECT_DIR")
	}
	if start == "" {
		wd, err := d.Getwd()
		if err != nil {
			return nil, nil, &toolingrc.Error{File: ".", Msg: "the payload names no cwd and the working directory is unknown (" + err.Error() + ")"}
		}
		start = wd
	}
	starts := []string{start}
	if d.User.RunsOwn != nil {
		for _, dir := range checkouts(start) {
			if d.User.RunsOwn(dir, HarnessName(d.Harness)) {
				return nil, starts, errOwnMagehook
			}
		}
	}
	if d.User.Home == "" || !filepath.IsAbs(d.User.Home) {
		return nil, starts, &toolingrc.Error{File: "$HOME/" + toolingrc.FileName, Msg: "the user scope (magehook init -user) reads its policy from the home directory, and HOME is unset or not absolute; set HOME, or remove the user scope with magehook uninstall -user"}
	}
	user, err := toolingrc.Discover(d.User.Home)
	if err == nil && user.Root() != filepath.Clean(d.User.Home) {
		err = toolingrc.ErrNotFound
	}
	if err != nil {
		if errors.Is(err, toolingrc.ErrNotFound) {
			// Not ErrNotFound for the caller: installed entries without
			// their policy close the gates rather than go quiet.
			err = &toolingrc.Error{File: filepath.Join(d.User.Home, toolingrc.FileName), Msg: "does not exist, and the user scope (magehook init -user) takes its policy from it; run magehook init -user again to write it, or remove the user scope with magehook uninstall -user"}
		}
		return nil, starts, err
	}
	cfg, cerr := toolingrc.Discover(start)
	switch {
	case cerr == nil:
		cfg.Join(user)
	case errors.Is(cerr, toolingrc.ErrNotFound):
		cfg = user
	default:
		return nil, starts, cerr
	}
	return cfg, starts, d.usable(cfg)
}

// installedAt reports whether the checkout of any start directory (its
// git top, and the main checkout of a linked worktree) holds installed
// entries.
func (d *Dispatcher) installedAt(starts []string) bool {
	if d.Installed == nil {
		return false
	}
	for _, s := range starts {
		for _, dir := range checkouts(s) {
			if d.Installed(dir) {
				return true
			}
		}
	}
	return false
}

// checkouts are the directories whose installed entries may run for a
// start directory: the top of its git checkout and, for a linked
// worktree, the main checkout; the start itself outside git.
func checkouts(start string) []string {
	repo, err := gitrepo.Find(start)
	if err != nil {
		return []string{start}
	}
	out := []string{repo.Root}
	if i := strings.LastIndex(filepath.ToSlash(repo.GitDir), "/.git/worktrees/"); i >= 0 {
		out = append(out, filepath.FromSlash(filepath.ToSlash(repo.GitDir)[:i]))
	}
	return out
}

// firstWarning reports whether this session has not yet been shown this
// configuration problem at UserPromptSubmit, and records that it now has,
// in one small file in the checkout's default state directory.
func (d *Dispatcher) firstWarning(starts []string, cerr error, session, problem string) bool {
	// The checkout of the session's start; else the broken file's home.
	dir := ""
	var terr *toolingrc.Error
	if len(starts) > 0 {
		if repo, err := gitrepo.Find(starts[0]); err == nil {
			dir = repo.Root
		}
	}
	if dir == "" && errors.As(cerr, &terr) && filepath.Base(terr.File) == toolingrc.FileName {
		dir = filepath.Dir(terr.File)
	}
	if dir == "" {
		return true
	}
	state, err := confined.Dir(dir, ".magehook") // never through a link out
	if err != nil {
		return true
	}
	marker := filepath.Join(state, "config-warning")
	want := session + "\n" + problem + "\n"
	if old, err := regfile.ReadFile(marker, 64<<10); err == nil && string(old) == want {
		return false
	}
	if os.MkdirAll(filepath.Dir(marker), 0o755) == nil {
		atomicfile.WriteFile(marker, []byte(want), 0o644) // best effort: warning twice beats never
	}
	return true
}

// enabled resolves hook.enable to handlers; an unknown name is an error,
// since a typo there would silently turn a gate off.
func (d *Dispatcher) enabled(cfg *toolingrc.Config) ([]Handler, error) {
	if !d.SetChecked {
		if err := ValidateSet(d.Handlers, d.Builtin); err != nil {
			return nil, err
		}
	}
	out, err := Enabled(cfg, d.Handlers)
	if d.early && errors.Is(err, ErrUnknownHandler) {
		return nil, errStepAside
	}
	return out, err
}

// ErrUnknownHandler is wrapped by the error for a hook.enable name no
// handler has.
var ErrUnknownHandler = errors.New("no handler has this name")

// Enabled resolves a checkout's hook.enable names to handlers, in their
// order, and adds the implied handlers (Handler.Implied) when
// one of them is a gatekeeper. An unknown name is an error naming the
// file and line (wrapping ErrUnknownHandler): a typo there would silently
// turn a gate off. Install, the doctor and dispatch all resolve with it.
func Enabled(cfg *toolingrc.Config, handlers []Handler) ([]Handler, error) {
	v, err := cfg.Get(toolingrc.KeyHookEnable)
	if err != nil {
		return nil, err
	}
	var out []Handler
	gated := false
	for i, name := range v.Values {
		h, ok := find(handlers, name)
		if !ok {
			return nil, unknownHandler(v.Origins[i], name, handlers)
		}
		out = append(out, h)
		gated = gated || h.Policy == Gatekeeper
	}
	if gated {
		for _, h := range handlers {
			if _, named := find(out, h.Name); h.Implied && !named {
				out = append(out, h)
			}
		}
	}
	return out, nil
}

// UnknownHandlers are the errors of every hook.enable name no handler
// has, each as Enabled words the first (the doctor lists them all).
func UnknownHandlers(cfg *toolingrc.Config, handlers []Handler) []error {
	v, err := cfg.Get(toolingrc.KeyHookEnable)
	if err != nil {
		return []error{err}
	}
	var out []error
	for i, name := range v.Values {
		if _, ok := find(handlers, name); !ok {
			out = append(out, unknownHandler(v.Origins[i], name, handlers))
		}
	}
	return out
}

// unknownHandler is the error for a hook.enable name no handler has: the
// file and line, and the name it most likely means.
func unknownHandler(o toolingrc.Origin, name string, handlers []Handler) error {
	var names []string
	for _, h := range handlers {
		names = append(names, h.Name)
	}
	hint := "check the spelling with go tool mage hook:list, or rebuild with go tool mage hook:build if it is new"
	if near := toolingrc.Nearest(names, name); near != "" {
		hint = fmt.Sprintf("did you mean %s? (go tool mage hook:list lists them; a new handler of your own needs go tool mage hook:build)", near)
	}
	if o.File != "" {
		hint = buildinfo.InCheckout(filepath.Dir(o.File), hint)
	}
	return &toolingrc.Error{File: o.File, Line: o.Line, Key: toolingrc.KeyHookEnable, Err: ErrUnknownHandler,
		Msg: fmt.Sprintf("no handler is named %q in this binary; %s", name, hint)}
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
func (d *Dispatcher) run(ctx context.Context, h Handler, ev Event, p *payload.Payload, cfg *toolingrc.Config, b *budget.Budget, merged *Result, failed []string, reachOnly bool) (r Result, err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("panic: %v\n%s", v, debug.Stack())
		}
	}()
	return h.Run(&Call{Context: ctx, Event: ev, Payload: p, Config: cfg, Getenv: d.Getenv, Now: d.Now, Stderr: d.Stderr,
		Budget: b, Merged: merged, FailedGates: append([]string(nil), failed...), ReachOnly: reachOnly, Harness: HarnessName(d.Harness), UserScope: d.User != nil, agent: d.Harness, memo: d.memo})
}

// badPayload answers a payload that could not be decoded: a gatekeeper
// enabled on the event fails closed, and so does a tool-gating event whose
// configuration cannot be read either; everything else proceeds.
func (d *Dispatcher) badPayload(ev Event, cfg *toolingrc.Config, enabled []Handler, starts []string, cerr, perr error) int {
	fmt.Fprintf(d.Stderr, "magehook: %s: %v\n", ev.Name, perr)
	if ev.Output == OutputPath {
		return ExitFail
	}
	if cerr != nil {
		if ev.Gating() && (!errors.Is(cerr, toolingrc.ErrNotFound) || d.installedAt(starts)) {
			return d.failClosed(ev, "", fmt.Sprintf("magehook: %s blocked: the payload could not be read, and neither could the configuration: %s", ev.Name, configMessage(cerr)))
		}
		return ExitOK
	}
	d.health(cfg, ev, nil, "", 0, perr)
	var gates []string
	for _, h := range enabled {
		if h.Subscribes(ev.Name) && h.Policy == Gatekeeper {
			gates = append(gates, h.Name)
		}
	}
	if len(gates) == 0 {
		return ExitOK
	}
	return d.failClosed(ev, "", fmt.Sprintf("magehook: %s blocked: the payload could not be read, and gate %s fails closed", ev.Name, strings.Join(gates, ", ")))
}

// answersOnly reports a harness whose client reads no exit code (Cline):
// its blocks must be answers.
func answersOnly(h Protocol) bool {
	a, ok := h.(interface{ BlocksOnlyByAnswer() bool })
	return ok && a.BlocksOnlyByAnswer()
}

// failClosed blocks the event after a gate could not decide; tool is the
// call's tool when the payload was read ("" when it was not).
func (d *Dispatcher) failClosed(ev Event, tool, reason string) int {
	return d.write(d.closed(ev, tool, reason))
}

// closed is the answer that blocks the event with reason.
func (d *Dispatcher) closed(ev Event, tool, reason string) Answer {
	if ev.Block == BlockBehavior || answersOnly(d.Harness) {
		// PermissionRequest does not honour exit 2, nor does a client that
		// reads no exit code: deny through the answer.
		r := Deny(reason)
		r.Tool = tool
		return d.Harness.Render(ev, r)
	}
	return Answer{Stderr: []string{reason}, Code: ExitBlock}
}

// toolOf is the payload's tool, "" without a payload.
func toolOf(p *payload.Payload) string {
	if p == nil {
		return ""
	}
	return p.ToolName
}

func (d *Dispatcher) write(a Answer) int {
	if !d.claim() {
		select {} // the watchdog has answered and is ending the process
	}
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
	state, err := StateDir(cfg)
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
	}{Time: d.Now().UTC().Format(time.RFC3339Nano), Event: ev.Name, Handler: handler, Error: redact.Head(failure.Error(), 2000)}
	if policy != 0 {
		rec.Policy = policy.String()
	}
	if p != nil {
		rec.Session = p.SessionID
	}
	jsonlog.Log{Path: filepath.Join(state, "health.jsonl"), Root: state, MaxBytes: 1 << 20, Keep: 3}.Append(rec)
	d.exportHealth(cfg, ev, p, handler, policy, rec.Error)
}

// maxLine bounds a diagnostic line that quotes an error: an error that
// quotes its input (a path of 100 kB) must not fill the model's context.
const maxLine = 2000

// clip cuts s to maxLine bytes, on a character boundary, marking the cut.
func clip(s string) string {
	if len(s) <= maxLine {
		return s
	}
	end := maxLine
	for end > 0 && s[end]&0xC0 == 0x80 {
		end--
	}
	return s[:end] + "... (cut)"
}

func oneLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// within reports whether path is dir or below it (both made absolute).
func within(path, dir string) bool {
	ap, err1 := filepath.Abs(path)
	ad, err2 := filepath.Abs(dir)
	if err1 != nil || err2 != nil {
		return false
	}
	rel, err := filepath.Rel(ad, ap)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}
