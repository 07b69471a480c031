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
