package budget

import "time"

// AlarmGrace is how long after the deadline an alarm rings: the
// cooperative checks (Check) answer first, naming the gate, whenever the
// analysis is still reaching them; the alarm is for a decision stuck where
// no check runs (a system call that blocks, a child process that waits).
const AlarmGrace = time.Second

// Alarm arranges for ring to be called once the deadline has passed by
// AlarmGrace (AlarmGrace from now for a deadline already past), unless
// stop is called first. stop reports whether it was in time: false means
// ring has started or is about to, in a goroutine of its own. A budget
// with no deadline arms nothing, and its stop always reports true.
//
// It is one runtime timer: arming it starts no goroutine and no thread
// (TestDispatchStartsNoGoroutine), and ringing is the only time one is
// started.
func (b *Budget) Alarm(ring func()) (stop func() bool) {
	if b == nil || b.Deadline.IsZero() {
		return func() bool { return true }
	}
	now := time.Now
	if b.Now != nil {
		now = b.Now
	}
	wait := b.Deadline.Sub(now())
	if wait < 0 {
		wait = 0
	}
	return time.AfterFunc(wait+AlarmGrace, ring).Stop
}
