// Package docgen writes the documentation's tables that the code
// declares: the README's catalogue at a glance, from the handlers'
// declarations (hooks.All), docs/configuration.md's key table, from the
// keys' (toolingrc.Keys, Doc, Default), and docs/programs.md's tables of
// the programs and cmdlets the command model knows, from their specs
// (gitcmd.ProgramTable, gitcmd.CmdletTable). Each table sits between two
// marks in its file,
//
//	<!-- begin generated NAME -->
//	<!-- end generated NAME -->
//
// and `go tool mage docs` rewrites what is between them; the package's
// test fails when a file holds anything else there.
package docgen

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/magehook/magehook/hooks"
	"github.com/magehook/magehook/internal/live"
	"github.com/magehook/magehook/pkg/gitcmd"
	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/toolingrc"
)

// Region is one generated table: the file it lives in (slash-separated,
// relative to the repository's root), its name in the marks, and its text.
type Region struct {
	File, Name, Text string
}

// Regions returns every generated table.
func Regions() []Region {
	return []Region{
		{"README.md", "catalogue", Catalogue(hooks.All())},
		{"docs/configuration.md", "keys", Keys()},
		{"docs/harnesses.md", "harnesses", harnesses()},
		{"docs/programs.md", "programs", gitcmd.ProgramTable()},
		{"docs/programs.md", "cmdlets", gitcmd.CmdletTable()},
	}
}

// harnesses is the harness table (live.HarnessTable), or the error that
// kept it from being made, which the drift test then shows.
func harnesses() string {
	text, err := live.HarnessTable()
	if err != nil {
		return "harness table: " + err.Error() + "\n"
	}
	return text
}

// Catalogue is the table of handlers: name, the events with the tools
// they match, the failure policy and the purpose.
func Catalogue(handlers []hook.Handler) string {
	var b strings.Builder
	b.WriteString("| Handler | Events | Policy | Purpose |\n|---|---|---|---|\n")
	for _, h := range handlers {
		policy := h.Policy.String()
		if h.Implied {
			policy += ", implied (needs no hook.enable)"
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", h.Name, events(h), policy, cell(h.Purpose))
	}
	return b.String()
}

// events names a handler's events, "every event but X" for one that
// answers nearly all, and the tools (or other values) its matcher takes.
func events(h hook.Handler) string {
	var all []string
	for _, e := range hook.Events() {
		all = append(all, e.Name)
	}
	var missing []string
	for _, name := range all {
		if !slices.Contains(h.Events, name) {
			missing = append(missing, name)
		}
	}
	text := strings.Join(h.Events, ", ")
	if len(h.Events) > len(all)/2 && len(missing) <= 3 {
		text = "every event"
		if len(missing) > 0 {
			text += " but " + strings.Join(missing, ", ")
		}
	}
	if h.Matcher != "" {
		text += " (" + strings.ReplaceAll(h.Matcher, "|", ", ") + ")"
	}
	return text
}

// Keys is the .toolingrc key table: key, default, meaning.
func Keys() string {
	var b strings.Builder
	b.WriteString("| Key | Default | Meaning |\n|---|---|---|\n")
	for _, key := range toolingrc.Keys() {
		meaning, def, _ := toolingrc.Doc(key)
		if def == "" {
			values, _ := toolingrc.Default(key)
			def = "(none)"
			if len(values) > 0 {
				def = "`" + strings.Join(values, "`, `") + "`"
			}
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s |\n", key, def, cell(meaning))
	}
	return b.String()
}

// cell escapes a table cell's pipes.
func cell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }

func marks(name string) (begin, end string) {
	return "<!-- begin generated " + name + " -->\n", "<!-- end generated " + name + " -->"
}

// Splice puts text between the region's marks in data. It fails when the
// marks are missing or out of order.
func Splice(data []byte, name, text string) ([]byte, error) {
	begin, end := marks(name)
	i := bytes.Index(data, []byte(begin))
	j := bytes.Index(data, []byte(end))
	if i < 0 || j < i+len(begin) {
		return nil, fmt.Errorf("no %q ... %q marks", strings.TrimSpace(begin), end)
	}
	out := append([]byte{}, data[:i+len(begin)]...)
	out = append(out, text...)
	return append(out, data[j:]...), nil
}

// Stale lists the regions whose files under root differ from the code.
func Stale(root string) ([]string, error) {
	var stale []string
	for _, r := range Regions() {
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(r.File)))
		if err != nil {
			return nil, err
		}
		want, err := Splice(data, r.Name, r.Text)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", r.File, err)
		}
		if !bytes.Equal(data, want) {
			stale = append(stale, r.File+" ("+r.Name+")")
		}
	}
	return stale, nil
}

// Write rewrites every region under root, leaving a file whose region is
// already right untouched, and returns the files it changed.
func Write(root string) ([]string, error) {
	var changed []string
	for _, r := range Regions() {
		path := filepath.Join(root, filepath.FromSlash(r.File))
		data, err := os.ReadFile(path)
		if err != nil {
			return changed, err
		}
		want, err := Splice(data, r.Name, r.Text)
		if err != nil {
			return changed, fmt.Errorf("%s: %v", r.File, err)
		}
		if bytes.Equal(data, want) {
			continue
		}
		if err := os.WriteFile(path, want, 0o644); err != nil {
			return changed, err
		}
		changed = append(changed, r.File)
	}
	return changed, nil
}
