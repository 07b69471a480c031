package targets

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/worktree"
)

// A hook:<word> target whose word names no event would reach Mage's
// "Unknown target specified", which names no event. It is answered here
// instead, as the usage error it is (HOOK-EVENTS-1): the word, every
// event's target, exit 2. Whether the word is another hook: target
// (hook:install, hook:check, ...) is this binary's own answer, its -l,
// asked only on this path, so a target added to Hook needs no list here.
func init() {
	if code, ok := notAnEvent(os.Args, os.Getenv, os.Stderr, ownTargets); ok {
		exitEarly(code)
	}
	args, code, done := frontDoor(os.Args, os.Getenv, selfRaw, os.Stdout, os.Stderr)
	if done {
		exitEarly(code)
	}
	os.Args = args
}

// ownTargets is this binary's list of targets (Mage's -l), run without
// Mage's variables; false when it cannot be read.
func ownTargets() (string, bool) { return selfRaw("-l") }

// notAnEvent reports a hook:<word> first target, after Mage's own
// options, that names no event and that targets (the output of -l) does
// not list, and returns the usage exit code; false when Mage must run the
// command line (listing targets, a bad option, another target, a list it
// could not read).
func notAnEvent(args []string, getenv func(string) string, stderr io.Writer, targets func() (string, bool)) (int, bool) {
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
	list, ok := targets()
	if !ok || worktree.ListsTarget(list, target) {
		return 0, false
	}
	hint := "-l lists the other hook: targets"
	if near := nearestTarget(listedTargets(list), target); near != "" {
		hint = "did you mean " + near + "? -l lists the other hook: targets"
	}
	events := hook.Events()
	names := make([]string, len(events))
	for i, ev := range events {
		names[i] = ev.Target
	}
	fmt.Fprintf(stderr, "magehook: %s: %q is not an event; the events are %s (%s)\n",
		target, word, strings.Join(names, ", "), hint)
	return hook.ExitBlock, true
}
