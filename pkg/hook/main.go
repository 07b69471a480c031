package hook

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/magehook/magehook/pkg/payload"
	"github.com/magehook/magehook/pkg/safetext"
)

// CapEnv names the environment variable that sets the payload size limit
// in bytes (default 64 MiB).
const CapEnv = payload.CapEnv

// Set is what a hook binary answers with: the handlers hook.enable picks
// from, the builtin ones that run in every checkout, and how to tell a
// checkout with installed entries (see Dispatcher).
type Set struct {
	Handlers  []Handler
	Builtin   []Handler
	Installed func(dir string) bool
	// Harnesses resolves a -harness= name (pkg/harness.Hook); nil knows
	// Claude Code alone.
	Harnesses func(name string) (Protocol, bool)
	// Checked: the set was validated (ValidateSet) when the binary was
	// built (hook:build runs hook:check on every binary it makes), so a
	// call does not validate it again.
	Checked bool
	// User, when set, makes the binary a user-scope one (see UserScope).
	User *UserScope
}

// UserScope is what a user-scope binary (magehook init -user) needs: it
// runs from the user's harness files in every project of the user, so its
// policy is the user's own .toolingrc (Home's), added to a checkout's own
// configuration where there is one, and it stands aside — answers nothing
// — in a checkout that runs magehook of its own for the harness (RunsOwn),
// whose binary answers with that checkout's policy.
type UserScope struct {
	// Home is the directory of the user's .toolingrc.
	Home string
	// RunsOwn reports whether a checkout directory wires magehook of its
	// own into the harness named (settings.RunsOwn).
	RunsOwn func(dir, harness string) bool
}

func (s Set) harness(name string) (Protocol, bool) {
	if name == "" || name == ClaudeCode.HarnessName() {
		return ClaudeCode, true // every Claude Code hook run: no tables
	}
	if s.Harnesses == nil {
		return nil, false
	}
	return s.Harnesses(name)
}

// Main answers one event in the running process: it refuses arguments
// after the target (exit 2), then dispatches the process's stdin to the
// builtin and enabled handlers and returns the exit code. args is os.Args.
// A bad MAGEHOOK_PAYLOAD_CAP is a configuration error, which closes the
// gates like a bad .toolingrc.
func Main(ctx context.Context, event, harness string, set Set, args []string) int {
	return Resume(ctx, event, harness, set, args, nil)
}

// prepare checks the arguments and the environment and makes the
// dispatcher for one event; false with the exit code when they are wrong.
func prepare(event, harness string, set Set, args []string) (*Dispatcher, int, bool) {
	ev, ok := Lookup(event)
	if !ok {
		fmt.Fprintf(os.Stderr, "magehook: unknown event %q\n", event)
		return nil, ExitBlock, false
	}
	h, ok := set.harness(harness)
	if !ok {
		fmt.Fprintf(os.Stderr, "magehook: unknown harness %q; use one that go tool mage hook:install -harness= names\n", harness)
		return nil, ExitBlock, false
	}
	if extra := ExtraArgs(args, "hook:"+ev.Target); len(extra) > 0 {
		fmt.Fprintf(os.Stderr, "magehook: hook:%s takes no arguments, got %q; the payload comes on stdin\n", ev.Target, strings.Join(extra, " "))
		return nil, ExitBlock, false
	}
	d := &Dispatcher{Handlers: set.Handlers, Builtin: set.Builtin, Installed: set.Installed, Harness: h, SetChecked: set.Checked, User: set.User,
		Stdin: os.Stdin, Stdout: os.Stdout, Stderr: safetext.Writer(os.Stderr), Alarm: processAlarm()}
	if v := os.Getenv(CapEnv); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n <= 0 {
			d.SetupErr = fmt.Errorf("%s=%q is not a positive number of bytes; set a number such as %d, or unset it", CapEnv, v, payload.DefaultCap)
		} else {
			d.Cap = n
		}
	}
	return d, 0, true
}

// ExtraArgs returns the command-line arguments after target in a compiled
// Mage binary's argv, but for the -name=value options Mage has already
// parsed for the target: Mage would run them as further targets once the
// event target exits, which it never does. Mage's own flags before the
// target are skipped (-t takes a value).
func ExtraArgs(args []string, target string) []string {
	for i := 1; i < len(args); i++ {
		a := args[i]
		if a == "-t" || a == "--t" {
			i++
			continue
		}
		if strings.HasPrefix(a, "-") {
			continue
		}
		if strings.EqualFold(a, target) {
			rest := args[i+1:]
			for len(rest) > 0 && strings.HasPrefix(rest[0], "-") && strings.Contains(rest[0], "=") {
				rest = rest[1:]
			}
			return rest
		}
	}
	return nil
}
