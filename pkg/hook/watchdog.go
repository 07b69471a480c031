package hook

import (
	"fmt"
	"io"
	"os"
	"sync/atomic"

	"github.com/magehook/magehook/pkg/budget"
	"github.com/magehook/magehook/pkg/proc"
	"github.com/magehook/magehook/pkg/safetext"
)

// Alarm is where a tool-gating decision that outruns its budget is
// answered from: the watchdog (budget.Budget.Alarm) writes the event's
// fail-closed answer to Stdout and Stderr and ends the process with
// Exit, whatever the decision is blocked on. The harness's timeout would
// come later, and every harness lets a call run when its hook times out.
// Main, Early and Resume set it to the process's own; a Dispatcher
// without one arms no watchdog.
type Alarm struct {
	Stdout, Stderr io.Writer
	// Exit ends the process; it must not return (a test's may, leaving
	// the dispatch blocked).
	Exit func(code int)
}

// processAlarm answers on the process's standard output and error.
func processAlarm() *Alarm {
	return &Alarm{Stdout: os.Stdout, Stderr: safetext.Writer(os.Stderr), Exit: os.Exit}
}

// Who writes the answer of a dispatch: the first to claim it.
const (
	byDispatch = 1 + iota
	byAlarm
)

// arm starts the watchdog of a tool-gating decision.
func (d *Dispatcher) arm(ev Event, b *budget.Budget) {
	if d.Alarm == nil || b == nil {
		return
	}
	d.disarm = b.Alarm(func() { d.ring(ev) })
}

// ring answers for a decision still running after its deadline.
func (d *Dispatcher) ring(ev Event) {
	if !d.owner.CompareAndSwap(0, byAlarm) {
		return // the dispatch is writing its own answer
	}
	reason := fmt.Sprintf("magehook: %s blocked: the gates did not decide within the decision's budget (%s); "+
		"a gate that cannot decide blocks (something the decision read or ran did not answer: a FIFO, a device or a command that waits)",
		ev.Name, budget.DefaultDeadline)
	a := d.closed(ev, "", reason)
	for _, line := range a.Stderr {
		fmt.Fprintln(d.Alarm.Stderr, line)
	}
	d.Alarm.Stdout.Write(a.Stdout)
	proc.KillRunning()
	d.Alarm.Exit(a.Code)
}

// claim reports whether the dispatch may write its answer: always, but
// after the watchdog has rung, when the process is ending with the
// watchdog's answer.
func (d *Dispatcher) claim() bool {
	return d.owner.CompareAndSwap(0, byDispatch) || d.owner.Load() == byDispatch
}

// settle stops the watchdog at the end of a dispatch; when it has rung,
// the dispatch never returns (its code would race the watchdog's exit).
func (d *Dispatcher) settle() {
	if d.disarm == nil {
		return
	}
	stopped := d.disarm()
	d.disarm = nil
	if !stopped && !d.claim() {
		select {}
	}
}

// owner is who claimed the answer (0, byDispatch, byAlarm).
type owner = atomic.Int32
