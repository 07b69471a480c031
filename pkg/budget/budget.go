// Package budget is what one gate decision may spend: a deadline and a size
// limit on the text an analysis takes on. A gate that runs out of either
// fails closed: an answer that comes after the harness's timeout is no
// answer, and every harness lets a tool call run when its hook times out.
//
// The deadline is a plain value, checked cooperatively: the analysis calls
// Check at its loop points (each statement, each expansion, each directory
// walked) and returns the error it gets. Nothing here starts a timer, a
// goroutine or a context with a deadline, so a budget costs a clock read
// per check and nothing on a decision that never reaches one.
package budget

import (
	"errors"
	"fmt"
	"time"
)

// Defaults for a tool-gating decision. The entries magehook installs give a
// tool event 30 s at least; the decision gives up well before that, so the
// block it answers reaches the harness in time.
const (
	// DefaultDeadline is the time a gate decision may take from the start
	// of the dispatch (a millisecond or so after the process starts).
	DefaultDeadline = 10 * time.Second
	// DefaultMaxInput is the largest command, in bytes, an analysis takes
	// on (1 MiB). A longer one is not parsed: its syntax tree would cost
	// memory many times its size.
	DefaultMaxInput = 1 << 20
)

// ErrExceeded is wrapped by every error a Budget returns.
var ErrExceeded = errors.New("over the gate's budget")

// Budget is the time and size one decision may use. The zero value, and a
// nil *Budget, have no limits.
type Budget struct {
	// Deadline is the moment the decision must be made by; zero means none.
	Deadline time.Time
	// Now is the clock; nil means time.Now. Tests inject the moment here.
	Now func() time.Time
	// MaxInput is the largest input, in bytes, an analysis takes on; 0
	// means no limit.
	MaxInput int
}

// New returns a budget with the default limits, counted from start.
func New(start time.Time, now func() time.Time) *Budget {
	return &Budget{Deadline: start.Add(DefaultDeadline), Now: now, MaxInput: DefaultMaxInput}
}

// Until returns the deadline on the wall clock, zero for none (a nil
// budget included): for an analysis that takes its deadline as a plain
// time and compares it with time.Now (gitcmd.Options). With an injected
// clock it is now plus what that clock says is left, so that a test's
// fixed moment does not read as a deadline long past.
func (b *Budget) Until() time.Time {
	if b == nil || b.Deadline.IsZero() {
		return time.Time{}
	}
	if b.Now == nil {
		return b.Deadline
	}
	return time.Now().Add(b.Deadline.Sub(b.Now()))
}

// Limit returns MaxInput, 0 for none (a nil budget included).
func (b *Budget) Limit() int {
	if b == nil {
		return 0
	}
	return b.MaxInput
}

// Check returns an error wrapping ErrExceeded once the deadline has passed.
func (b *Budget) Check() error {
	if b == nil || b.Deadline.IsZero() {
		return nil
	}
	now := time.Now
	if b.Now != nil {
		now = b.Now
	}
	if now().After(b.Deadline) {
		return fmt.Errorf("%w: the decision ran past its deadline", ErrExceeded)
	}
	return nil
}

// CheckSize returns an error wrapping ErrExceeded when an input of n bytes
// (what names it, e.g. "the command") is larger than MaxInput.
func (b *Budget) CheckSize(what string, n int) error {
	if b == nil || b.MaxInput <= 0 || n <= b.MaxInput {
		return nil
	}
	return fmt.Errorf("%w: %s is %d bytes, over the %d bytes a gate analyses", ErrExceeded, what, n, b.MaxInput)
}
