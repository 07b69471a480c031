package budget

import (
	"errors"
	"testing"
	"time"
)

func TestCheck(t *testing.T) {
	start := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	now := start
	b := New(start, func() time.Time { return now })
	if err := b.Check(); err != nil {
		t.Fatalf("at the start: %v", err)
	}
	now = start.Add(DefaultDeadline)
	if err := b.Check(); err != nil {
		t.Fatalf("at the deadline itself: %v", err)
	}
	now = now.Add(time.Nanosecond)
	if err := b.Check(); !errors.Is(err, ErrExceeded) {
		t.Fatalf("past the deadline: %v, want ErrExceeded", err)
	}
}

func TestNoLimits(t *testing.T) {
	var nilBudget *Budget
	for name, b := range map[string]*Budget{"nil": nilBudget, "zero": {}} {
		if err := b.Check(); err != nil {
			t.Errorf("%s budget: Check: %v", name, err)
		}
		if err := b.CheckSize("x", 1<<40); err != nil {
			t.Errorf("%s budget: CheckSize: %v", name, err)
		}
	}
}

func TestCheckSize(t *testing.T) {
	b := &Budget{MaxInput: 10}
	if err := b.CheckSize("the command", 10); err != nil {
		t.Fatal(err)
	}
	err := b.CheckSize("the command", 11)
	if !errors.Is(err, ErrExceeded) || err.Error() != "over the gate's budget: the command is 11 bytes, over the 10 bytes a gate analyses" {
		t.Fatalf("got %v", err)
	}
}

// TestUntilIsOnTheWallClock: a budget on an injected clock (a test's fixed
// moment, days ago) hands an analysis that compares with time.Now the
// time it has left, not a deadline long past; one already spent stays past.
func TestUntilIsOnTheWallClock(t *testing.T) {
	fixed := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
	b := New(fixed, func() time.Time { return fixed })
	if left := time.Until(b.Until()); left < DefaultDeadline/2 || left > DefaultDeadline {
		t.Errorf("a fresh budget on a fixed clock leaves %v on the wall clock, want about %v", left, DefaultDeadline)
	}
	spent := &Budget{Deadline: fixed, Now: func() time.Time { return fixed.Add(time.Second) }}
	if !b.Until().After(time.Now()) || !spent.Until().Before(time.Now()) {
		t.Errorf("Until %v (fresh), %v (spent), now %v", b.Until(), spent.Until(), time.Now())
	}
	if !(&Budget{}).Until().IsZero() {
		t.Error("a budget without a deadline has one")
	}
}
