package gitcmd

import (
	"errors"
	"fmt"

	"github.com/magehook/magehook/pkg/budget"
)

// shapeError is ErrBudget for a text the pre-scan refuses before the
// parser sees it (budget.CheckShell): nesting, substitutions or a
// pipeline past the limits, whose parse and walk would cost seconds,
// hundreds of megabytes or the goroutine's stack.
func shapeError(what, src string) error {
	err := budget.CheckShell(what, src)
	if err == nil {
		return nil
	}
	var s *budget.Shape
	if errors.As(err, &s) {
		return fmt.Errorf("%w (%s %s)", ErrBudget, s.What, s.Detail)
	}
	return fmt.Errorf("%w (%v)", ErrBudget, err)
}
