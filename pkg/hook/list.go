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
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", h.Name, strings.Join(h.Events, ","), matcher, h.Policy, on, h.Purpose)
	}
	return tw.Flush()
}
