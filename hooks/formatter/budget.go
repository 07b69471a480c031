package formatter

import (
	"context"
	"time"
)

// deadline is formatter.budget running: a context that ends when it is
// spent. It is made only when a file is about to be formatted (a timer is
// no part of an ordinary call's path).
type deadline struct {
	ctx  context.Context
	stop context.CancelFunc
}

func startBudget(parent context.Context, budget time.Duration) *deadline {
	if parent == nil {
		parent = context.Background()
	}
	ctx, cancel := context.WithTimeout(parent, budget)
	return &deadline{ctx: ctx, stop: cancel}
}
