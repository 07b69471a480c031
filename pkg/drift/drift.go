// Package drift compares, for one checkout, the hooks its configuration
// declares with the hooks each settings scope wires, in the terms of the
// seed's hook_drift record (seed 002): "-" a hook declared and not wired
// (it never runs), "+" a hook wired and declared nowhere, "~" an
// intentional local hook (declared under _hooks_local in a machine's own
// settings file).
//
// What is declared: magehook's entries, as hook:install writes them for
// the checkout's .toolingrc (settings.Entries for Claude Code, EntriesFor
// for each other harness), and in a machine's own settings files (local
// and user scope) the hooks under _hooks_local. A foreign hook in the
// project scope is declared by the repository that commits the file. The
// SessionStart builtin and the doctor both export a Report (kind drift)
// when otel.export is on; go tool mage fleet reads them back.
package drift

import (
	"encoding/hex"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/magehook/magehook/pkg/harness"
	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/jsontree"
	"github.com/magehook/magehook/pkg/settings"
	"github.com/magehook/magehook/pkg/spool"
	"github.com/magehook/magehook/pkg/toolingrc"
)

// Scope is one settings file's drift.
type Scope struct {
	// Name is project, local or user (Claude Code's scopes) or another
	// harness's name.
	Name string
	File string
	// Present is whether the file exists.
	Present bool
	// Missing, Extra and Local are the hooks declared and not wired (-),
	// wired and not declared (+), and intentional local ones (~), each
	// "<event>[<matcher>] <hook>" where hook is magehook for an entry of
	// ours and the command's program name otherwise.
	Missing, Extra, Local []string
	// Problem is why the file could not be compared (it does not parse).
	Problem string
}

// Report is one checkout's drift.
type Report struct {
	Root string
	// Handlers are the enabled handlers; ConfigHash hashes the .toolingrc
	// files that configure them.
	Handlers   []string
	ConfigHash string
	Scopes     []Scope
}

// Drifted reports whether any scope has a hook missing or undeclared, or
// could not be read.
func (r Report) Drifted() bool {
	for _, s := range r.Scopes {
		if len(s.Missing) > 0 || len(s.Extra) > 0 || s.Problem != "" {
			return true
		}
	}
	return false
}

// Check computes a checkout's drift; home is the user's home directory.
func Check(cfg *toolingrc.Config, handlers []hook.Handler, home string) (Report, error) {
	r := Report{Root: cfg.Root(), ConfigHash: configHash(cfg)}
	enabled, err := hook.Enabled(cfg, handlers)
	if err != nil {
		return r, err
	}
	for _, h := range enabled {
		r.Handlers = append(r.Handlers, h.Name)
	}
	claude, _ := harness.Lookup("claude")
	type wiredScope struct {
		scope settings.Scope
		ours  []settings.Placed
	}
	var found []wiredScope
	for _, s := range settings.Scopes {
		sc := Scope{Name: string(s), File: s.Path(r.Root, home)}
		data, exists, err := settings.ReadFile(sc.File)
		sc.Present = exists
		if err != nil {
			sc.Problem = err.Error()
		}
		if !exists || err != nil {
			r.Scopes = append(r.Scopes, sc)
			continue
		}
		own := settings.Installer{Config: cfg, Scope: s, Home: home}.Owner()
		ours, err := settings.OwnedEntries(data, claude, own)
		top, hooks, lerr := settings.Load(data)
		if err != nil || lerr != nil {
			sc.Problem = fmt.Sprint(firstErr(err, lerr))
			r.Scopes = append(r.Scopes, sc)
			continue
		}
		want, err := settings.Entries(cfg, handlers, s)
		if err != nil {
			return r, err
		}
		for _, g := range ours {
			if !hasEntry(want, g.Entry) {
				sc.Extra = append(sc.Extra, term(g.Event, g.Matcher, "magehook"))
			}
		}
		if s != settings.Project {
			local := localHooks(top)
			wired := map[string]bool{}
			for _, f := range foreign(hooks, own) {
				wired[f] = true
				if !local[f] {
					sc.Extra = append(sc.Extra, f)
				}
			}
			for f := range local {
				if wired[f] {
					sc.Local = append(sc.Local, f)
				} else {
					sc.Missing = append(sc.Missing, f) // declared local, never runs
				}
			}
		}
		if len(ours) > 0 {
			found = append(found, wiredScope{s, ours})
		}
		r.Scopes = append(r.Scopes, sc)
	}
	// Declared entries are wired when any Claude Code scope holds them (a
	// checkout installs into one); missing ones are charged to the scope
	// that holds the rest, or to the project scope.
	at := settings.Project
	if len(found) > 0 {
		at = found[0].scope
	}
	want, err := settings.Entries(cfg, handlers, at)
	if err != nil {
		return r, err
	}
	for _, w := range want {
		wired := false
		for _, f := range found {
			fw, _ := settings.Entries(cfg, handlers, f.scope)
			for _, g := range f.ours {
				wired = wired || (g.Event == w.Event && hasEntry(fw, g.Entry) && g.Matcher == w.Matcher)
			}
		}
		if !wired {
			for i := range r.Scopes {
				if r.Scopes[i].Name == string(at) {
					r.Scopes[i].Missing = append(r.Scopes[i].Missing, term(w.Event, w.Matcher, "magehook"))
				}
			}
		}
	}
	r.Scopes = append(r.Scopes, harnessScopes(cfg, handlers)...)
	for i := range r.Scopes {
		sort.Strings(r.Scopes[i].Missing)
		sort.Strings(r.Scopes[i].Extra)
		sort.Strings(r.Scopes[i].Local)
	}
	return r, nil
}

// harnessScopes compares each other harness's file, where the checkout
// has one, with what hook:install -harness writes.
func harnessScopes(cfg *toolingrc.Config, handlers []hook.Handler) []Scope {
	var out []Scope
	for _, h := range harness.All() {
		if h.IsClaude() || h.Layout == harness.Plugin {
			continue
		}
		sc := Scope{Name: h.Name, File: filepath.Join(cfg.Root(), settings.HarnessFile(h))}
		data, exists, err := settings.ReadFile(sc.File)
		if !exists && err == nil {
			continue // the checkout does not wire this harness
		}
		sc.Present = exists
		in := settings.Installer{Config: cfg, Harness: h}
		var got []settings.Placed
		if err == nil {
			got, err = settings.OwnedEntries(data, h, in.Owner())
		}
		want, werr := settings.EntriesFor(cfg, handlers, h)
		if err = firstErr(err, werr); err != nil {
			sc.Problem = err.Error()
			out = append(out, sc)
			continue
		}
		if len(got) == 0 {
			continue // present for the harness's own sake, not wired by magehook
		}
		for _, w := range want {
			if !hasEntry(plain(got), w) {
				sc.Missing = append(sc.Missing, term(w.Native, w.Matcher, "magehook"))
			}
		}
		for _, g := range got {
			if !hasEntry(want, g.Entry) {
				sc.Extra = append(sc.Extra, term(g.Native, g.Matcher, "magehook"))
			}
		}
		out = append(out, sc)
	}
	return out
}

func plain(ps []settings.Placed) []settings.Entry {
	out := make([]settings.Entry, len(ps))
	for i, p := range ps {
		out[i] = p.Entry
	}
	return out
}

func hasEntry(list []settings.Entry, e settings.Entry) bool {
	for _, w := range list {
		if w.Native == e.Native && w.Matcher == e.Matcher && w.Command == e.Command && w.Timeout == e.Timeout {
			return true
		}
	}
	return false
}

func firstErr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

func term(event, matcher, name string) string {
	if matcher != "" {
		event += "[" + matcher + "]"
	}
	return event + " " + name
}

// foreign lists the command hooks of a hooks object that are not ours.
func foreign(hooks *jsontree.Object, own settings.Owner) []string {
	var out []string
	eachHook(hooks, func(event, matcher string, h *jsontree.Object) {
		if !own.Owns(h) {
			out = append(out, term(event, matcher, hookName(h)))
		}
	})
	return out
}

// localHooks are the hooks declared under _hooks_local.
func localHooks(top *jsontree.Object) map[string]bool {
	out := map[string]bool{}
	if top == nil {
		return out
	}
	v, _ := top.Get(settings.LocalKey)
	lo, _ := v.(*jsontree.Object)
	eachHook(lo, func(event, matcher string, h *jsontree.Object) {
		out[term(event, matcher, hookName(h))] = true
	})
	return out
}

func eachHook(hooks *jsontree.Object, f func(event, matcher string, h *jsontree.Object)) {
	if hooks == nil {
		return
	}
	for _, m := range hooks.Members {
		groups, _ := m.Value.([]any)
		for _, g := range groups {
			group, _ := g.(*jsontree.Object)
			if group == nil {
				continue
			}
			mv, _ := group.Get("matcher")
			matcher, _ := mv.(string)
			hv, _ := group.Get("hooks")
			list, _ := hv.([]any)
			for _, x := range list {
				if h, ok := x.(*jsontree.Object); ok {
					f(m.Key, matcher, h)
				}
			}
		}
	}
}

// hookName is a hook's name in a drift term: the program a command hook
// runs (its first word's base name, past an interpreter), else its type.
func hookName(h *jsontree.Object) string {
	cv, _ := h.Get("command")
	cmd, _ := cv.(string)
	words := settings.ShellWords(cmd)
	for len(words) > 0 && strings.Contains(words[0], "=") && !strings.Contains(words[0], "/") {
		words = words[1:]
	}
	if len(words) == 0 {
		tv, _ := h.Get("type")
		t, _ := tv.(string)
		return "(" + t + ")"
	}
	name := filepath.Base(words[0])
	switch name {
	case "sh", "bash", "zsh", "node", "python", "python3", "deno", "bun":
		if len(words) > 1 {
			name = filepath.Base(words[1])
		}
	}
	return name
}

// configHash hashes the .toolingrc files of the chain (FNV-128a, as the
// binary's source stamp: a change detector).
func configHash(cfg *toolingrc.Config) string {
	h := fnv.New128a()
	for _, f := range cfg.Files {
		data, _ := os.ReadFile(f.Path)
		fmt.Fprintf(h, "%s\x00%d\x00", filepath.Base(f.Path), len(data))
		h.Write(data)
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// Facts are what a drift record adds to a Report beyond the settings: a
// stale binary and untrusted entries, known to the doctor (nil Stale: not
// checked, as at session start).
type Facts struct {
	Stale     *bool
	Untrusted []string
	// Source is the run that made the record: session-start or doctor.
	Source string
}

// Records are the drift records of a report, one per settings scope (a
// scope whose file is absent included: an absent file that should wire
// magehook is drift too).
func (r Report) Records(f Facts) []spool.Record {
	var out []spool.Record
	for _, s := range r.Scopes {
		drifted := len(s.Missing) > 0 || len(s.Extra) > 0 || s.Problem != "" || len(f.Untrusted) > 0 || (f.Stale != nil && *f.Stale)
		sev := spool.Info
		if drifted {
			sev = spool.Warn
		}
		var terms []string
		for _, m := range s.Missing {
			terms = append(terms, "-"+m)
		}
		for _, m := range s.Extra {
			terms = append(terms, "+"+m)
		}
		for _, m := range s.Local {
			terms = append(terms, "~"+m)
		}
		body := "hook_drift " + s.Name + ": converged"
		if len(terms) > 0 {
			body = "hook_drift " + s.Name + ": " + strings.Join(terms, " ")
		}
		attrs := []spool.Attr{
			spool.String("magehook.drift.source", f.Source),
			spool.String("magehook.settings.scope", s.Name),
			spool.String("magehook.settings.file", s.File),
			spool.Bool("magehook.settings.present", s.Present),
			spool.Strings("magehook.drift.missing", s.Missing),
			spool.Strings("magehook.drift.undeclared", s.Extra),
			spool.Strings("magehook.drift.local", s.Local),
			spool.Strings("magehook.handlers", r.Handlers),
			spool.String("magehook.config.hash", r.ConfigHash),
			spool.Bool("magehook.drifted", drifted),
		}
		if s.Problem != "" {
			attrs = append(attrs, spool.String("magehook.drift.problem", s.Problem))
		}
		if f.Stale != nil {
			attrs = append(attrs, spool.Bool("magehook.binary.stale", *f.Stale))
		}
		if f.Untrusted != nil {
			attrs = append(attrs, spool.Strings("magehook.drift.untrusted", f.Untrusted))
		}
		out = append(out, spool.Record{Kind: spool.KindDrift, Severity: sev, Body: body, Attrs: attrs})
	}
	return out
}
