package targets

import (
	"context"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/magehook/magehook/pkg/harness"
	"github.com/magehook/magehook/pkg/hook"
)

// A hook:<event> call is answered here, in the plugin's init, before
// Mage's generated main runs. That main would parse its flags, start the
// target in a goroutine, watch for SIGINT with os/signal and wait on
// channels: on a call that lasts a millisecond, the threads this starts
// cost about a tenth of it (docs/performance.md). The binary stays the
// compiled Mage binary: every other command line (-l, -h, -v, -t, other
// targets, several targets, wrong arguments) and every MAGEFILE_ variable
// that changes what Mage does leave the call to Mage, unchanged.
//
// Package main's init has not run yet, so a repository's own handlers
// (Local) are not registered: when the checkout enables a name the
// catalogue lacks, the dispatch stops before any handler runs and the
// payload it read waits in pending. Register, called from a package-level
// variable of the magefile, answers it as soon as those handlers are
// there, still before Mage's main; a handler appended to Local in an init
// function is answered by the target Mage runs.
func init() {
	if code, ok := early(os.Args, os.Getenv); ok {
		exitEarly(code)
	}
}

// exitEarly ends the process with an early answer's code, before Mage's
// main runs, sealed for the installed command that asked (harness.Seal).
func exitEarly(code int) { os.Exit(harness.Seal(code, os.Getenv, os.Getppid())) }

// pending is the payload an early dispatch read and could not answer,
// with the event and harness of the call.
var (
	pending        *hook.Pending
	pendingEvent   string
	pendingHarness string
)

// Register adds a repository's own handlers to Local. Called to initialise
// a package-level variable of the magefile, it runs before the magefile's
// init functions and before Mage's main, and a hook call that was waiting
// for these handlers is answered there and then, as a catalogue handler's
// is, without Mage's hand-off (docs/performance.md):
//
//	var _ = targets.Register(gates.NoTerraform)
//
// It returns Local.
func Register(handlers ...hook.Handler) []hook.Handler {
	Local = append(Local, handlers...)
	if pending == nil {
		return Local
	}
	code, p, answered := hook.EarlyAgain(pendingEvent, pendingHarness, hookSet(true), os.Args, pending)
	if answered {
		exitEarly(code)
	}
	pending = p // still a name this binary lacks: Mage's target answers
	return Local
}

// early answers a hook:<event> command line from init; false when Mage
// must run it.
func early(args []string, getenv func(string) string) (int, bool) {
	ev, harness, ok := earlyCall(args, getenv)
	if !ok {
		return 0, false
	}
	code, p, answered := hook.Early(ev.Name, harness, hookSet(false), args)
	if !answered {
		pending, pendingEvent, pendingHarness = p, ev.Name, harness
		return 0, false
	}
	return code, true
}

// earlyCall reports whether args are exactly one hook:<event> target and
// its -harness= options, for an event answered early, with no Mage
// variable set that would make Mage do something else.
func earlyCall(args []string, getenv func(string) string) (hook.Event, string, bool) {
	if len(args) < 2 || len(args[1]) < len("hook:") || !strings.EqualFold(args[1][:len("hook:")], "hook:") {
		return hook.Event{}, "", false
	}
	ev, ok := hook.LookupTarget(args[1][len("hook:"):])
	if !ok || ev.Lifecycle {
		// The session and worktree events create worktrees and clone
		// libraries: they keep Mage's cancellation on SIGINT, and its
		// 5 s window for the cleanup (pkg/worktree/create.go).
		return hook.Event{}, "", false
	}
	harness := ""
	for _, a := range args[2:] {
		name, value, ok := strings.Cut(a, "=")
		if !ok || !strings.EqualFold(name, "-harness") {
			return hook.Event{}, "", false
		}
		harness = value
	}
	for _, v := range []string{"MAGEFILE_VERBOSE", "MAGEFILE_LIST", "MAGEFILE_HELP"} {
		if s := getenv(v); s != "" {
			if b, err := strconv.ParseBool(s); err != nil || b {
				return hook.Event{}, "", false
			}
		}
	}
	if s := getenv("MAGEFILE_TIMEOUT"); s != "" {
		if d, err := time.ParseDuration(s); err != nil || d != 0 {
			return hook.Event{}, "", false
		}
	}
	return ev, harness, true
}

// resume answers the event Mage runs, with the payload early read.
func resume(ctx context.Context, event string, harness *string) int {
	p := pending
	pending = nil
	return hook.Resume(ctx, event, deref(harness), hookSet(true), os.Args, p)
}
