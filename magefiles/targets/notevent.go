package targets

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/magehook/magehook/pkg/hook"
)

// hookCommands are the hook: targets that answer no event, lower-cased;
// TestHookCommandsAreTheNamespace keeps them in step with Hook's methods.
var hookCommands = []string{"apply", "build", "explain", "install", "last", "list", "plan", "replay", "uninstall", "verify", "version"}

// A hook:<word> target whose word is neither an event nor one of
// hookCommands would reach Mage's "Unknown target specified", which names
// no event. It is answered here instead, as the usage error it is
// (HOOK-EVENTS-1): the word, every event's target, exit 2.
func init() {
	if code, ok := notAnEvent(os.Args, os.Getenv, os.Stderr); ok {
		exitEarly(code)
	}
}

// notAnEvent reports a hook:<word> first target, after Mage's own
// options, that names no hook: target, and returns the usage exit code;
// false when Mage must run the command line (listing targets, a bad
// option, another target).
func notAnEvent(args []string, getenv func(string) string, stderr io.Writer) (int, bool) {
	if b, err := strconv.ParseBool(getenv("MAGEFILE_LIST")); err == nil && b {
		return 0, false
	}
	target := ""
	for i := 1; i < len(args) && target == ""; i++ {
		a := args[i]
		if a == "--" {
			if i+1 < len(args) {
				target = args[i+1]
			}
			break
		}
		if len(a) < 2 || a[0] != '-' {
			target = a
			break
		}
		name, _, valued := strings.Cut(strings.TrimPrefix(a[1:], "-"), "=")
		switch name {
		case "l":
			return 0, false
		case "v", "h":
		case "t":
			if !valued {
				i++ // the duration follows
			}
		default:
			return 0, false // Mage reports the option
		}
	}
	if len(target) < len("hook:") || !strings.EqualFold(target[:len("hook:")], "hook:") {
		return 0, false
	}
	word := target[len("hook:"):]
	if _, ok := hook.LookupTarget(word); ok {
		return 0, false
	}
	for _, c := range hookCommands {
		if strings.EqualFold(c, word) {
			return 0, false
		}
	}
	events := hook.Events()
	names := make([]string, len(events))
	for i, ev := range events {
		names[i] = ev.Target
	}
	fmt.Fprintf(stderr, "magehook: %s: %q is not an event; the events are %s (-l lists the other hook: targets)\n",
		target, word, strings.Join(names, ", "))
	return hook.ExitBlock, true
}
