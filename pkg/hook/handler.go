package hook

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/magehook/magehook/pkg/budget"
	"github.com/magehook/magehook/pkg/buildinfo"
	"github.com/magehook/magehook/pkg/confined"
	"github.com/magehook/magehook/pkg/gitrepo"
	"github.com/magehook/magehook/pkg/payload"
	"github.com/magehook/magehook/pkg/realpath"
	"github.com/magehook/magehook/pkg/toolingrc"
)

// Policy is what the dispatcher does when a handler fails (returns an
// error or panics).
type Policy int

const (
	// Observer handlers (logging, context) fail open: the failure is
	// logged and the event proceeds as if the handler had said nothing.
	Observer Policy = iota + 1
	// Gatekeeper handlers (those that can deny or block) fail closed: the
	// event is blocked, because a gate that allows when its logic crashed
	// is a bypass (seed 003).
	Gatekeeper
)

func (p Policy) String() string {
	switch p {
	case Observer:
		return "observer"
	case Gatekeeper:
		return "gatekeeper"
	}
	return "unset"
}

// Handler is one hook: a plain value naming what it subscribes to and how
// it fails, and a function that answers. A checkout runs the handlers its
// .toolingrc enables with hook.enable lines.
type Handler struct {
	// Name is what hook.enable names; letters, digits, '.', '-', '_'.
	Name string
	// Purpose is one line for hook:list.
	Purpose string
	// Events are the wire names of the events the handler answers.
	Events []string
	// Matcher filters the events that take one, with Claude Code's rules
	// (see Match); empty matches everything.
	Matcher string
	// Policy is the failure policy; it must be set.
	Policy Policy
	// Timeout is the seconds the handler's slowest answer may take (0: the
	// default). Entries do not follow it: each event's entry timeout is
	// fixed by the event (pkg/settings.EntryTimeout), and install refuses
	// a handler that asks for more than the longest of its events allows.
	Timeout int
	// Late handlers run after the others and see their merged answer in
	// Call.Merged (an audit log records the decision that was made).
	Late bool
	// Implied handlers need no hook.enable line: they run wherever some
	// enabled handler is a gatekeeper. It is for the gate that guards the
	// gates' own configuration, which must not depend on a line the
	// agent could remove.
	Implied bool
	// Passes are tools (Claude Code's names) the matcher covers that the
	// handler never denies, because they change nothing it guards: Read,
	// Grep and Glob for a gate on writes that watches every tool. Install
	// passes them to the installed command, so that with the binary
	// missing (a machine without Go) a call of one no gatekeeper can deny
	// goes on, with a message, instead of being blocked. A test of the
	// handler keeps the declaration true.
	Passes []string
	// Reach handlers are gates that judge what a call does in another
	// repository by that repository's own policy (branchguard: a git -C
	// into a checkout whose .toolingrc enables it): on a tool-gating
	// event they run also where the caller's configuration does not
	// enable them, with Call.ReachOnly set, and then judge only the
	// repositories whose own policy enables them.
	Reach bool
	// Run answers one event. It must not write to stdout.
	Run func(*Call) (Result, error)
	// Verify, when set, checks the handler's configuration in a checkout
	// (rules and their examples, say) and returns one line per problem;
	// hook:verify and the doctor run it for the enabled handlers.
	Verify func(*toolingrc.Config) []string
}

// Call is everything a handler may read about the event it answers.
type Call struct {
	Context context.Context
	Event   Event
	Payload *payload.Payload
	Config  *toolingrc.Config
	// Getenv reads the hook's environment.
	Getenv func(string) string
	// Now is the clock.
	Now func() time.Time
	// Stderr takes diagnostics.
	Stderr io.Writer
	// Budget is what a tool-gating decision may spend (nil on other
	// events): an analysis checks Budget.Check at its loop points and
	// Budget.CheckSize before it takes on its input, and returns the
	// error it gets, which fails the gate closed.
	Budget *budget.Budget
	// Merged is, for a Late handler, what the other handlers answered
	// together; FailedGates names the gatekeepers among them that failed
	// (the event is blocked for them).
	Merged      *Result
	FailedGates []string
	// ReachOnly: the handler is a Reach gate the caller's configuration
	// does not enable; only other repositories' policies count.
	ReachOnly bool
	// Harness names the agent whose payload this is ("claude", "codex",
	// ...), for what its payloads mean differently (whether a
	// tool_response string is a failure, say).
	Harness string
	// UserScope: a user-scope binary answers (magehook init -user; see
	// UserScope), in a repository that may not use magehook at all.
	UserScope bool

	// agent is the harness value behind Harness (nil: Claude Code), for
	// the words the model is given (WorktreeAdvice).
	agent Protocol
	// memo is what the handlers of this dispatch found (Repo, StateDir).
	memo *memo
}

// memo keeps what every handler of one dispatch would otherwise find for
// itself: each lookup reads or resolves a handful of files.
type memo struct {
	repos    map[string]found
	configs  map[string]foundConfig
	real     map[string]resolved // realpath.Resolve of a directory
	state    confined.Base
	stateErr error
	stateSet bool
}

func newMemo() *memo {
	return &memo{repos: map[string]found{}, configs: map[string]foundConfig{}, real: map[string]resolved{}}
}

type resolved struct {
	real string
	err  error
}

// resolve is realpath.Resolve(dir), once per dispatch: the checkout a
// gate looks up and the state directory's home are most often the same
// directory, walked from the root once.
func (c *Call) resolve(dir string) (string, error) {
	if c.memo == nil {
		return realpath.Resolve(dir)
	}
	if r, ok := c.memo.real[dir]; ok {
		return r.real, r.err
	}
	real, err := realpath.Resolve(dir)
	c.memo.real[dir] = resolved{real, err}
	return real, err
}

type foundConfig struct {
	cfg *toolingrc.Config
	err error
}

// ConfigAt is the configuration discovered from dir (toolingrc.Discover),
// found once per dispatch: the policy of another repository a call
// reaches (its main checkout's .toolingrc decides there).
func (c *Call) ConfigAt(dir string) (*toolingrc.Config, error) {
	if c.memo == nil {
		return toolingrc.Discover(dir)
	}
	if f, ok := c.memo.configs[dir]; ok {
		return f.cfg, f.err
	}
	cfg, err := toolingrc.Discover(dir)
	c.memo.configs[dir] = foundConfig{cfg, err}
	return cfg, err
}

// Repo is gitrepo.Find(dir), found once per dispatch: the handlers of one
// hook call ask about the same checkout. A Call made outside a dispatch
// finds every time.
func (c *Call) Repo(dir string) (gitrepo.Repo, error) {
	if c.memo == nil {
		return gitrepo.Find(dir)
	}
	if f, ok := c.memo.repos[dir]; ok {
		return f.repo, f.err
	}
	var r gitrepo.Repo
	real, err := c.resolve(dir)
	if err == nil {
		r, err = gitrepo.FindResolved(real)
	}
	c.memo.repos[dir] = found{r, err}
	return r, err
}

type found struct {
	repo gitrepo.Repo
	err  error
}

// WorktreeAdvice is how the model in the session should move its work to
// a worktree of its own, in the words of the harness in use.
func (c *Call) WorktreeAdvice() string {
	h := c.agent
	if h == nil {
		h = ClaudeCode
	}
	create := c.WorktreeCreate()
	if cmd := h.WorktreeCommand(); cmd != "" {
		return "make the change in a worktree (" + cmd + ", or " + create + ") on its own branch"
	}
	return "make the change in a worktree on its own branch: run " + create + " and work in " + WorktreeDirOf(create)
}

// GitWorktreeAdd makes a worktree on a new branch with git alone: the way
// a user-scope binary names, in a repository whose build may not hold
// magehook's targets (go tool mage worktree:create is not there).
const GitWorktreeAdd = "git worktree add -b <name> ../<name>"

// WorktreeCreate is the command that makes a worktree of the call's
// checkout on a new branch of its own: magehook's worktree:create as
// typed in the checkout, or GitWorktreeAdd for a user-scope binary.
func (c *Call) WorktreeCreate() string {
	if c.UserScope {
		return GitWorktreeAdd
	}
	return c.Typed() + " worktree:create <name>"
}

// WorktreeDirOf names the directory create makes, as advice says it:
// the one worktree:create prints, or GitWorktreeAdd's operand.
func WorktreeDirOf(create string) string {
	if create == GitWorktreeAdd {
		return "../<name>"
	}
	return "the directory it prints"
}

// Typed is how a person (or the model) runs magehook's targets in the
// call's checkout: go tool mage where the repository's own module holds
// the magefiles, the hook binary by its path relative to the checkout
// ("bin/magehook") where the hook build is a module of its own
// (magefiles/go.mod), which go tool mage at the top does not reach.
func (c *Call) Typed() string {
	if c.Config == nil || len(c.Config.Files) == 0 {
		return "go tool mage"
	}
	bin, err := c.Config.Get(toolingrc.KeyHookBinary)
	if err != nil {
		return "go tool mage"
	}
	return buildinfo.Typed(c.Config.Root(), bin.Abs())
}

// StateDir returns the absolute state directory (state.dir) with its
// symbolic links resolved, and an error when they lead out of the
// directory of the .toolingrc that sets it (a repository must not point
// magehook's logs elsewhere). Write below it with package confined or
// jsonlog (Root: the state directory), which follow no link out of it.
func (c *Call) StateDir() (string, error) {
	b, err := c.stateBase()
	return b.Path, err
}

// StateSubdir is the directory name (a relative path) below StateDir,
// refused like StateDir when its links lead out of the state directory:
// confined.Dir(StateDir, name), with the state directory resolved once
// per dispatch.
func (c *Call) StateSubdir(name string) (string, error) {
	b, err := c.stateBase()
	if err != nil {
		return "", err
	}
	d, err := b.Dir(name)
	return d.Path, err
}

func (c *Call) stateBase() (confined.Base, error) {
	if c.memo == nil {
		return stateBase(c.Config, realpath.Resolve)
	}
	if !c.memo.stateSet {
		c.memo.state, c.memo.stateErr = stateBase(c.Config, c.resolve)
		c.memo.stateSet = true
	}
	return c.memo.state, c.memo.stateErr
}

// StateDir is Call.StateDir for a configuration.
func StateDir(cfg *toolingrc.Config) (string, error) {
	b, err := stateBase(cfg, realpath.Resolve)
	return b.Path, err
}

// stateBase resolves the checkout (state.dir's home) once and the state
// directory from there.
func stateBase(cfg *toolingrc.Config, resolve func(string) (string, error)) (confined.Base, error) {
	v, err := cfg.Get(toolingrc.KeyStateDir)
	if err != nil {
		return confined.Base{}, err
	}
	real, err := resolve(v.Home)
	if err == nil {
		var b confined.Base
		if b, err = confined.Resolved(v.Home, real).Dir(v.Abs()); err == nil {
			return b, nil
		}
	}
	return confined.Base{}, fmt.Errorf("%s: %w", toolingrc.KeyStateDir, err)
}

// Validate checks a handler's declaration: a name, known events, a matcher
// that compiles, a policy and a Run function.
func (h Handler) Validate() error {
	switch {
	case !toolingrc.IsToken(h.Name):
		return fmt.Errorf("handler %q: the name must be letters, digits, '.', '-' and '_'", h.Name)
	case h.Purpose == "":
		return fmt.Errorf("handler %s: no purpose", h.Name)
	case len(h.Events) == 0:
		return fmt.Errorf("handler %s: no events", h.Name)
	case h.Policy != Observer && h.Policy != Gatekeeper:
		return fmt.Errorf("handler %s: no failure policy", h.Name)
	case h.Run == nil:
		return fmt.Errorf("handler %s: no Run function", h.Name)
	}
	for _, name := range h.Events {
		if _, ok := Lookup(name); !ok {
			return fmt.Errorf("handler %s: unknown event %q", h.Name, name)
		}
	}
	if h.Matcher == "" || h.Matcher == "*" || isExactList(h.Matcher) {
		return nil // nothing to compile: the check runs on every call
	}
	if _, err := compileMatcher(h.Matcher); err != nil {
		return fmt.Errorf("handler %s: %w", h.Name, err)
	}
	return nil
}

// ValidateSet checks a binary's whole handler set once: each handler's
// declaration (Validate), and names unique across the catalogue, the
// repository's own handlers and the builtin ones, so that no handler is
// silently shadowed. The error names the handler and what to fix; install,
// list and dispatch refuse a set that fails it.
func ValidateSet(handlers, builtin []Handler) error {
	set := append(append([]Handler(nil), handlers...), builtin...)
	for i, h := range set {
		if err := h.Validate(); err != nil {
			return fmt.Errorf("%w; fix its declaration and rebuild with go tool mage hook:build", err)
		}
		for j := range i {
			if set[j].Name != h.Name {
				continue
			}
			if i >= len(handlers) {
				return fmt.Errorf("handler %s has the name of a builtin handler; rename it and rebuild with go tool mage hook:build", h.Name)
			}
			return fmt.Errorf("handler %s is declared twice (a repository's own handler named like a catalogue one, or two of its own), and one would shadow the other; rename one and rebuild with go tool mage hook:build", h.Name)
		}
	}
	return nil
}

// Subscribes reports whether the handler answers the event.
func (h Handler) Subscribes(event string) bool {
	for _, e := range h.Events {
		if e == event {
			return true
		}
	}
	return false
}

// Match applies a settings matcher to a value with Claude Code's rules:
// "", "*" and an omitted matcher match everything; a matcher of only
// letters, digits, '_', '-', spaces, ',' and '|' is a list of exact names;
// anything else is an unanchored regular expression. Agent and Task are
// one tool. A matcher that does not compile is an error.
func Match(matcher, value string) (bool, error) {
	// The common cases, on every call of every handler, without building
	// a matcher: everything, and a list of exact names.
	if matcher == "" || matcher == "*" {
		return true, nil
	}
	if isExactList(matcher) {
		return inExactList(matcher, value), nil
	}
	if ok, literal := literalAlternation(matcher, value); literal {
		return ok, nil
	}
	m, err := compileMatcher(matcher)
	if err != nil {
		return false, err
	}
	return m(value), nil
}

// Compiles reports whether Match compiles matcher as a regular
// expression (once for each dispatch that reaches the handler): not for
// "", "*", a list of exact names or an alternation of names, each
// perhaps followed by ".*", which Match answers without building
// anything.
func Compiles(matcher string) bool {
	if matcher == "" || matcher == "*" || isExactList(matcher) {
		return false
	}
	_, literal := literalAlternation(matcher, "")
	return !literal
}

func compileMatcher(matcher string) (func(string) bool, error) {
	if matcher == "" || matcher == "*" {
		return func(string) bool { return true }, nil
	}
	if names, ok := ExactNames(matcher); ok {
		return func(v string) bool {
			for _, n := range names {
				if payload.SameTool(n, v) {
					return true
				}
			}
			return false
		}, nil
	}
	re, err := regexp.Compile(matcher)
	if err != nil {
		return nil, fmt.Errorf("matcher %q is not a valid regular expression: %v", matcher, err)
	}
	return re.MatchString, nil
}

// ExactNames returns the names of a matcher that is a list of exact names
// (only letters, digits, '_', '-', spaces, ',' and '|'), and false for a
// regular expression.
func ExactNames(matcher string) ([]string, bool) {
	if !isExactList(matcher) {
		return nil, false
	}
	var names []string
	for _, n := range strings.FieldsFunc(matcher, func(r rune) bool { return r == '|' || r == ',' }) {
		if n = strings.TrimSpace(n); n != "" {
			names = append(names, n)
		}
	}
	return names, true
}

// inExactList reports whether value is one of an exact list's names, as
// ExactNames splits it, without allocating.
func inExactList(matcher, value string) bool {
	for matcher != "" {
		i := strings.IndexAny(matcher, "|,")
		name := matcher
		if i >= 0 {
			name, matcher = matcher[:i], matcher[i+1:]
		} else {
			matcher = ""
		}
		if name = strings.TrimSpace(name); name != "" && payload.SameTool(name, value) {
			return true
		}
	}
	return false
}

// literalAlternation matches, without compiling it, a regular expression
// that is an alternation of literal names each optionally followed by ".*"
// ("Read|Grep|mcp__.*"): unanchored, as the compiled expression would,
// a value matches when it holds one of the names. literal is false for any
// other expression.
func literalAlternation(m, value string) (ok, literal bool) {
	for rest := m; ; {
		part := rest
		i := strings.IndexByte(rest, '|')
		if i >= 0 {
			part, rest = rest[:i], rest[i+1:]
		}
		name := strings.TrimSuffix(part, ".*")
		if name == "" {
			return false, false
		}
		for j := 0; j < len(name); j++ {
			if c := name[j]; !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
				return false, false
			}
		}
		ok = ok || strings.Contains(value, name)
		if i < 0 {
			return ok, true
		}
	}
}

func isExactList(m string) bool {
	for i := 0; i < len(m); i++ {
		c := m[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
			c == '_' || c == '-' || c == ' ' || c == ',' || c == '|') {
			return false
		}
	}
	return true
}

// matchValue is the payload value an event's matcher is tested against.
func matchValue(ev Event, p *payload.Payload) string {
	switch ev.MatcherField {
	case "tool_name":
		return p.ToolName
	case "source":
		return p.Source
	case "trigger":
		return p.Trigger
	case "reason":
		return p.Reason
	case "notification_type":
		return p.NotificationType
	case "agent_type":
		return p.AgentType
	case "error":
		return p.Error
	case "load_reason":
		return p.LoadReason
	case "file_path":
		return filepath.Base(p.FilePath)
	case "command_name":
		return p.CommandName
	case "mcp_server_name":
		return p.MCPServerName
	}
	return ""
}
