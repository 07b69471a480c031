package hook

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// List prints one line per handler: name, events, matcher, policy, whether
// the checkout enables it, and its purpose.
func List(w io.Writer, handlers []Handler, enabled map[string]bool) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tEVENTS\tMATCHER\tPOLICY\tENABLED\tPURPOSE")
	for _, h := range handlers {
		matcher := h.Matcher
		if matcher == "" {
			matcher = "*"
		}
		on := "no"
		if enabled == nil {
			on = "?"
		} else if enabled[h.Name] {
			on = "yes"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", h.Name, eventList(h.Events), matcher, h.Policy, on, h.Purpose)
	}
	return tw.Flush()
}

// eventList names a handler's events; one that answers (nearly) every
// event is written "every event" or "every event but X", not 30 names.
func eventList(names []string) string {
	all := Events()
	if len(names) < len(all)-2 {
		return strings.Join(names, ",")
	}
	var missing []string
	for _, ev := range all {
		found := false
		for _, n := range names {
			found = found || n == ev.Name
		}
		if !found {
			missing = append(missing, ev.Name)
		}
	}
	if len(missing) == 0 {
		return "every event"
	}
	return "every event but " + strings.Join(missing, ",")
}
