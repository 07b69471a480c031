package lazy

import (
	"sync"
	"testing"
)

var counted = Value[int]{New: func() int { calls++; return 42 }}

var calls int

func TestGetCallsNewOnce(t *testing.T) {
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if got := counted.Get(); got != 42 {
				t.Errorf("Get() = %d, want 42", got)
			}
		}()
	}
	wg.Wait()
	if calls != 1 {
		t.Errorf("New ran %d times, want 1", calls)
	}
}
