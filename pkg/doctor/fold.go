package doctor

import (
	"fmt"
	"strings"
)

// addCause adds a line that shares its cause with others: a missing
// binary makes every entry that runs it a problem, and one fix mends them
// all, so the report prints it once.
func (d *doctor) addCause(cause string, s Status, check, file, format string, args ...any) {
	d.add(s, check, file, format, args...)
	d.r.Lines[len(d.r.Lines)-1].cause = cause
}

// folded is the report with the problems of one cause folded into the
// first of them, which names the checks it stands for.
func (d *doctor) folded() Report {
	first := map[string]int{}
	var more map[int][]string
	lines := d.r.Lines[:0:0]
	for _, l := range d.r.Lines {
		if l.Status != Problem || l.cause == "" {
			lines = append(lines, l)
			continue
		}
		i, seen := first[l.cause]
		if !seen {
			first[l.cause] = len(lines)
			lines = append(lines, l)
			continue
		}
		if more == nil {
			more = map[int][]string{}
		}
		more[i] = append(more[i], l.Detail[:max(strings.Index(l.Detail, ": "), 0)])
	}
	for i, names := range more {
		lines[i].Detail += fmt.Sprintf(" (the same cause breaks: %s)", strings.Join(names, ", "))
	}
	d.r.Lines = lines
	return d.r
}
