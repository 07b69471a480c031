package live

import (
	"sort"
	"strings"

	"github.com/magehook/magehook/hooks"
	"github.com/magehook/magehook/pkg/harness"
	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/lifecycle"
)

// HarnessTable is the harness table of docs/harnesses.md (internal/docgen
// writes it there), from the harness values
// (pkg/harness) and the pinned clients (clients.txt): per harness the
// client version the live suite verifies (or "documentation only"), its
// file, what makes it run a project's hooks and what switches them off,
// which of the events magehook's handlers answer it gates (a deny
// blocks), which it only observes (a deny cannot block there), and which
// it does not have at all; then a row per agent CLI examined and not
// wired (harness.UnwiredClients), with why.
func HarnessTable() (string, error) {
	clients, err := Clients()
	if err != nil {
		return "", err
	}
	verified := map[string]string{}
	for _, c := range clients {
		verified[c.Name] = c.Version
	}
	// The events some catalogue or lifecycle handler answers (one that
	// records every event, lastpayload, says nothing about which matter).
	answered := map[string]bool{}
	for _, h := range append(hooks.All(), lifecycle.Handlers()...) {
		if len(h.Events) == len(hook.Events()) {
			continue
		}
		for _, e := range h.Events {
			answered[e] = true
		}
	}
	var common []string
	for e := range answered {
		common = append(common, e)
	}
	sort.Strings(common)
	var b strings.Builder
	b.WriteString("| Harness | Verified live with | File (user scope: init -user) | Trust and off switches | Gated (a deny blocks) | Observed only | Not covered (no such event) |\n")
	b.WriteString("|---|---|---|---|---|---|---|\n")
	for _, h := range harness.All() {
		v := "documentation only (no client runs offline here)"
		if ver, ok := verified[h.Name]; ok {
			v = h.Client + " " + ver
			if h.NotLive != "" {
				v = "not run offline (" + h.Client + " " + ver + " read from its package): " + h.NotLive
			}
		}
		name := "`" + h.Name + "`"
		if h.IsClaude() {
			name += " (default)"
		}
		var gated, observed, missing []string
		for _, e := range common {
			native, ok := h.NativeEvent(e)
			if !ok {
				missing = append(missing, e)
				continue
			}
			label := e
			if native != e {
				label = native + " (" + e + ")"
			}
			ev, _ := hook.Lookup(e)
			if ev.CanBlock() && blocks(h, ev) {
				gated = append(gated, label)
			} else {
				observed = append(observed, label)
			}
		}
		trust := h.Trust
		for _, sw := range h.OffSwitches {
			trust += " Off switch: `" + sw.Path + "`."
		}
		file := "`" + h.File + "` (user: "
		if h.UserFile != "" {
			file += "`~/" + h.UserFile + "`)"
		} else {
			file += "none known)"
		}
		b.WriteString("| " + strings.Join([]string{name, v, file, cell(trust), list(gated), list(observed), list(missing)}, " | ") + " |\n")
	}
	for _, u := range harness.UnwiredClients() {
		b.WriteString("| — (" + u.Client + ") | not wired (" + u.Package + " " + u.Version + " read from its package): " + cell(u.Why) + " | — | — | — | — | — |\n")
	}
	return b.String(), nil
}

// blocks reports whether a deny on the event reaches the harness as a
// block: its answer in the harness's dialect carries one (or exit 2).
func blocks(h *harness.Harness, ev hook.Event) bool {
	a := h.Render(ev, hook.Deny("x"))
	if a.Code == 2 {
		return true
	}
	for _, w := range a.Stderr {
		if strings.Contains(w, "dropped") {
			return false
		}
	}
	return len(a.Stdout) > 0
}

func list(items []string) string {
	if len(items) == 0 {
		return "—"
	}
	return strings.Join(items, ", ")
}

// cell keeps a table cell on one line.
func cell(s string) string { return strings.ReplaceAll(strings.ReplaceAll(s, "\n", " "), "|", "\\|") }
