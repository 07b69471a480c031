package tail

import (
	"fmt"
	"testing"
)

func TestTailKeepsTheLastBytesAndLastLinesTheLastLines(t *testing.T) {
	tl := &Tail{Max: 8}
	fmt.Fprint(tl, "line one\n")
	fmt.Fprint(tl, "two\nthree\n")
	if got := tl.String(); got != "o\nthree\n" {
		t.Errorf("Tail = %q", got)
	}
	if got := LastLines("a\nb\nc\n\n", 2); got != "b\nc" {
		t.Errorf("LastLines = %q", got)
	}
	if got := LastLines("only", 5); got != "only" {
		t.Errorf("LastLines = %q", got)
	}
}
