package hook

import (
	"bytes"
	"context"
	"errors"
	"os"
	"runtime"
	"strings"

	"github.com/magehook/magehook/pkg/safetext"
)

// Pending is a payload read by Early that Resume answers instead of
// reading stdin again: its bytes, or the error reading them.
type Pending struct {
	data []byte
	err  error
}

// stepAside is Dispatch's code for "Early cannot answer": the checkout
// enables a handler the dispatcher was not given.
const stepAside = -1

var errStepAside = errors.New("a handler this checkout enables is not registered yet")

// LookupTarget returns the event a hook: target answers; name is the part
// after "hook:", matched without regard to case, as Mage matches targets.
func LookupTarget(name string) (Event, bool) {
	for i := range events {
		if strings.EqualFold(events[i].Target, name) {
			return events[i], true
		}
	}
	return Event{}, false
}

// Early answers one event from a process's init, before package main has
// registered the repository's own handlers: handlers are the catalogue
// alone (set.Handlers). When the checkout enables a name they lack, it stops before
// any handler runs, writes nothing and returns answered false with the
// payload it read, for Resume (or EarlyAgain) to answer once every handler
// is there. It starts no goroutine and sets up no timer or signal. Like
// Main, it returns the exit code.
func Early(event, harness string, set Set, args []string) (code int, pending *Pending, answered bool) {
	// A hook call allocates little, and a memory-profile sample (taken at
	// random, about once per 512 KiB) unwinds the stack: no profile here.
	runtime.MemProfileRate = 0
	growStack(0)
	return early(event, harness, set, args, nil)
}

// EarlyAgain is Early for a payload an earlier Early read and could not
// answer, with more handlers in set: the repository's own, registered
// while package main initialises (before Mage's main would run).
func EarlyAgain(event, harness string, set Set, args []string, pending *Pending) (code int, again *Pending, answered bool) {
	return early(event, harness, set, args, pending)
}

func early(event, harness string, set Set, args []string, pending *Pending) (int, *Pending, bool) {
	d, code, ok := prepare(event, harness, set, args)
	if !ok {
		return code, nil, true
	}
	// Diagnostics wait until the answer is known: a dispatch that steps
	// aside must leave nothing behind for the second one to repeat.
	var stderr bytes.Buffer
	d.Stderr, d.early, d.read = &stderr, true, pending
	code = d.Dispatch(context.Background(), event)
	if code == stepAside {
		return 0, d.read, false
	}
	if stderr.Len() > 0 {
		safetext.Writer(os.Stderr).Write(stderr.Bytes())
	}
	return code, nil, true
}

// Resume is Main for a payload Early read and could not answer; a nil
// pending reads stdin.
func Resume(ctx context.Context, event, harness string, set Set, args []string, pending *Pending) int {
	d, code, ok := prepare(event, harness, set, args)
	if !ok {
		return code
	}
	d.read = pending
	return d.Dispatch(ctx, event)
}

// growStack grows the goroutine's stack once, while it is shallow, to the
// size a dispatch needs. Grown on demand instead, it is copied three or
// four times from deep inside the shell parser, each copy walking every
// frame: about a tenth of a hook call's instructions (callgrind).
//
//go:noinline
func growStack(i int) byte {
	var frame [24 << 10]byte
	frame[i] = 1
	return frame[len(frame)/2]
}
