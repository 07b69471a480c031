// Package doctor checks that what runs is what is declared: the
// .toolingrc, the tools, the hook binary, every hook entry in every
// Claude Code settings file of the checkout, and each other harness's
// configuration (its entries, the switches that turn its hooks off, and
// for Codex whether the user has trusted them).
//
// Each check is a line: ok, problem or skip, a name and a detail. A
// problem fails the run (exit 1), so CI can gate on `go tool mage doctor`.
// A settings scope whose file is absent is skipped, not a problem: a
// user-scope file is machine state, and CI has none.
package doctor

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/magehook/magehook/pkg/lazy"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/magehook/magehook/pkg/buildinfo"
	"github.com/magehook/magehook/pkg/gitx"
	"github.com/magehook/magehook/pkg/harness"
	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/jsontree"
	"github.com/magehook/magehook/pkg/settings"
	"github.com/magehook/magehook/pkg/toolingrc"
)

// Status is a check's verdict.
type Status string

// The three verdicts.
const (
	OK      Status = "ok"
	Problem Status = "problem"
	Skip    Status = "skip"
)

// Line is one check's result.
type Line struct {
	Status Status `json:"status"`
	Check  string `json:"check"`
	Detail string `json:"detail"`
	// File is the file the check is about, when there is one.
	File string `json:"file,omitempty"`
	// cause groups problems one fix mends (the report folds them).
	cause string
}

// Report is a doctor run.
type Report struct {
	// Root is the checkout root, when a .toolingrc was found.
	Root  string
	Lines []Line
	// Binary is the source hash the hook binary was stamped with, and
	// Stale whether it differs from the working tree's (nil: not
	// checked), when the binary freshness check ran.
	Binary string
	Stale  *bool
}

// Problems counts the problem lines.
func (r Report) Problems() int {
	n := 0
	for _, l := range r.Lines {
		if l.Status == Problem {
			n++
		}
	}
	return n
}

// Options are the doctor's world.
type Options struct {
	// Start is where .toolingrc discovery starts.
	Start    string
	Handlers []hook.Handler
	// Home is the user's home directory (user scope, ~ in commands).
	Home string
	// Getenv expands $VARS in commands; nil means os.Getenv.
	Getenv func(string) string
	// LookPath finds a command on PATH; nil means exec.LookPath.
	LookPath func(string) (string, error)
	// SkipStale skips the binary's staleness check (it runs go list).
	SkipStale bool
	// ManagedSettings is Claude Code's managed settings file; "" means
	// the system's (DefaultManagedSettings).
	ManagedSettings string
	// Fix settles what the doctor can settle safely: a library clone in
	// the stopped rebase of two opens (CLI-DOCTOR-2).
	Fix bool
	// FixLog receives the messages of git during a fix; nil discards.
	FixLog io.Writer
	// SkipStartup skips the measure of the binary's start-up cost (it
	// runs the binary and a floor program StartupRounds times each).
	SkipStartup bool
	// Progress receives a line before a step that takes seconds (the
	// first build of the floor program); nil discards.
	Progress io.Writer
}

type doctor struct {
	Options
	r   Report
	cfg *toolingrc.Config
}

func (d *doctor) add(s Status, check, file, format string, args ...any) {
	detail := fmt.Sprintf(format, args...)
	if d.cfg != nil {
		// The fixes named as they are typed in this checkout.
		detail = buildinfo.InCheckout(d.cfg.Root(), detail)
	}
	d.r.Lines = append(d.r.Lines, Line{Status: s, Check: check, File: file, Detail: detail})
}

// Run runs every check.
func Run(ctx context.Context, opt Options) Report {
	d := &doctor{Options: opt}
	if d.Getenv == nil {
		d.Getenv = os.Getenv
	}
	if d.LookPath == nil {
		d.LookPath = exec.LookPath
	}
	if d.Home == "" {
		d.Home, _ = os.UserHomeDir()
	}
	d.checkToolingrc()
	d.checkTools()
	if d.cfg == nil {
		return d.folded()
	}
	d.checkBinary(ctx)
	if v, err := d.cfg.Get(toolingrc.KeyHookBinary); err == nil {
		if st, err := os.Stat(v.Abs()); err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0 {
			d.checkStartup(ctx, v.Abs())
		}
	}
	d.checkSettings()
	d.checkLibrary(ctx)
	d.checkIgnored(ctx)
	d.exportDrift()
	return d.folded()
}

func (d *doctor) checkToolingrc() {
	cfg, err := toolingrc.Discover(d.Start)
	if err != nil {
		d.add(Problem, "toolingrc", "", "%v", err)
		return
	}
	file := filepath.Join(cfg.Root(), toolingrc.FileName)
	if err := cfg.Validate(); err != nil {
		d.add(Problem, "toolingrc", file, "%v", err)
		return
	}
	for _, u := range cfg.Unknowns() {
		d.add(Problem, "toolingrc", u.File, "%s", u)
	}
	v, _ := cfg.Get(toolingrc.KeyHookEnable)
	// Every unknown name, each worded as dispatch and install word it.
	if unknown := hook.UnknownHandlers(cfg, d.Handlers); len(unknown) > 0 {
		for _, err := range unknown {
			d.add(Problem, "toolingrc", file, "%v", err)
		}
		return
	}
	d.cfg = cfg
	d.r.Root = cfg.Root()
	d.add(OK, "toolingrc", file, "%s (%d handlers enabled)", file, len(v.Values))
	if w, err := cfg.Get(toolingrc.KeyHookWarn); err == nil {
		for _, name := range w.Values {
			d.add(OK, "warn-only "+name, file, "%s is in warn-only mode (hook.warn): its denials are warnings, nothing is blocked", name)
		}
	}
	// The whole set, as install, list and dispatch check it: a repository's
	// own handler named like a catalogue one is found even where it is
	// not enabled.
	if err := hook.ValidateSet(d.Handlers, nil); err != nil {
		d.add(Problem, "handlers", "", "%v", err)
	}
	for _, name := range v.Values {
		for _, h := range d.Handlers {
			if h.Name == name {
				if err := h.Validate(); err != nil {
					d.add(Problem, "handler "+name, "", "%v", err)
				}
				if h.Verify != nil {
					problems := h.Verify(cfg)
					for _, p := range problems {
						d.add(Problem, "handler "+name, file, "%s; run go tool mage hook:verify", p)
					}
					if len(problems) == 0 {
						d.add(OK, "handler "+name, file, "its rules pass their examples")
					}
				}
			}
		}
	}
}

func (d *doctor) checkTools() {
	for _, tool := range []string{"git", "go"} {
		if p, err := d.LookPath(tool); err != nil {
			d.add(Problem, tool, "", "%s is not on PATH", tool)
		} else {
			d.add(OK, tool, "", "%s", p)
		}
	}
}

// checkHookGit checks the git the hook binary runs (resolved when it was
// built, never the hook's PATH: pkg/gitx): recorded, still there, and not
// replaceable by other users.
func (d *doctor) checkHookGit(bin string) {
	p, err := gitx.BuiltWith(bin)
	switch {
	case err != nil:
		d.add(Problem, "hook git", bin, "cannot read %s: %v", bin, err)
	case p == "":
		// Built otherwise: it runs the first git of the system's own
		// directories, which must not be replaceable either.
		fallback := gitx.Path()
		if err := gitx.Check(fallback); err != nil {
			d.add(Problem, "hook git", bin, "%s records no git (not built by hook:build), and the system's git, %s, %v; run go tool mage hook:build", bin, fallback, err)
			return
		}
		d.add(Skip, "hook git", bin, "%s records no git (not built by hook:build); it runs the system's %s", bin, fallback)
	default:
		if err := gitx.Check(p); err != nil {
			d.add(Problem, "hook git", bin, "the git the hook binary runs, %s, %v; run go tool mage hook:build with the git you mean first on PATH", p, err)
			return
		}
		d.add(OK, "hook git", bin, "the hook binary runs %s (resolved at its build, not from PATH)", p)
	}
}

func (d *doctor) checkBinary(ctx context.Context) {
	v, err := d.cfg.Get(toolingrc.KeyHookBinary)
	if err != nil {
		d.add(Problem, "binary", "", "%v", err)
		return
	}
	bin := v.Abs()
	info, err := os.Stat(bin)
	switch {
	case err != nil:
		d.addCause(bin+" does not exist", Problem, "binary", bin, "%s does not exist; run go tool mage hook:build", bin)
		return
	case info.IsDir() || info.Mode().Perm()&0o111 == 0:
		d.add(Problem, "binary", bin, "%s is not an executable file", bin)
		return
	}
	d.checkHookGit(bin)
	root := d.cfg.Root()
	if d.SkipStale || !buildinfo.HasMagefiles(root) {
		d.add(OK, "binary", bin, "%s exists and is executable", bin)
		d.add(Skip, "binary fresh", bin, "no magefiles in %s to compare with", root)
		return
	}
	d.add(OK, "binary", bin, "%s exists and is executable", bin)
	built, err := buildinfo.BinarySource(bin)
	if err != nil {
		d.add(Problem, "binary fresh", bin, "%v", err)
		return
	}
	want, err := buildinfo.SourceHash(ctx, root)
	if err != nil {
		d.add(Problem, "binary fresh", bin, "%v", err)
		return
	}
	stale := built != want
	d.r.Binary, d.r.Stale = built, &stale
	switch built {
	case want:
		d.add(OK, "binary fresh", bin, "built from the current sources (%s)", want)
	case "":
		d.add(Problem, "binary fresh", bin, "%s carries no source stamp; run go tool mage hook:build", bin)
	default:
		d.add(Problem, "binary fresh", bin, "stale: built from sources %s, the working tree is %s; run go tool mage hook:build", built, want)
	}
}

type scopeFile struct {
	scope settings.Scope
	path  string
	hooks *jsontree.Object
}

func (d *doctor) checkSettings() {
	root := d.cfg.Root()
	var files []scopeFile
	for _, s := range settings.Scopes {
		path := s.Path(root, d.Home)
		data, exists, err := settings.ReadFile(path)
		if err != nil {
			d.add(Problem, "settings "+string(s), path, "%s: %v", path, err)
			continue
		}
		if !exists {
			d.add(Skip, "settings "+string(s), path, "%s is absent", path)
			continue
		}
		top, hooks, err := settings.Load(data)
		if err != nil {
			d.add(Problem, "settings "+string(s), path, "%s: %v", path, err)
			continue
		}
		d.add(OK, "settings "+string(s), path, "%s parses", path)
		if v, _ := top.Get("disableAllHooks"); v == true {
			d.add(Problem, "settings "+string(s), path, "%s sets disableAllHooks: no hook runs, the gates included", path)
		}
		files = append(files, scopeFile{s, path, hooks})
	}
	wired := d.checkHarnesses()
	claude := false
	for _, f := range files {
		claude = claude || d.holdsOurs(f)
	}
	if !claude && len(wired) > 0 {
		// A checkout may wire only other agents: Claude Code's entries are
		// then not expected.
		d.add(Skip, "hooks claude", "", "no Claude Code settings file holds magehook entries; this checkout wires %s", strings.Join(wired, ", "))
	} else {
		d.checkEntries(files)
	}
	for _, f := range files {
		d.checkFile(f)
	}
	d.checkManaged()
}

// holdsOurs reports whether a settings file holds an entry of ours.
func (d *doctor) holdsOurs(f scopeFile) bool {
	if f.hooks == nil {
		return false
	}
	own := d.owner(f)
	for _, m := range f.hooks.Members {
		if len(ours(f.hooks, m.Key, own)) > 0 {
			return true
		}
	}
	return false
}

func (d *doctor) owner(f scopeFile) settings.Owner {
	return settings.Installer{Config: d.cfg, Scope: f.scope, Home: d.Home}.Owner()
}

// DefaultManagedSettings is where Linux keeps Claude Code's managed
// settings.
const DefaultManagedSettings = "/etc/claude-code/managed-settings.json"

// checkManaged reports managed settings that switch project hooks off.
func (d *doctor) checkManaged() {
	managed := d.Options.ManagedSettings
	if managed == "" {
		managed = DefaultManagedSettings
	}
	data, exists, err := settings.ReadFile(managed)
	if err != nil || !exists {
		return // often unreadable to the user; nothing to say then
	}
	top, _, err := settings.Load(data)
	if err != nil {
		d.add(Problem, "managed settings", managed, "%s: %v", managed, err)
		return
	}
	for _, key := range []string{"allowManagedHooksOnly", "disableAllHooks"} {
		if v, _ := top.Get(key); v == true {
			d.add(Problem, "managed settings", managed, "%s sets %s: the checkout's hooks do not run", managed, key)
		}
	}
}

// checkScripts compares the scripts of a harness with the Scripts layout
// with those hook:install -harness writes; it reports whether the checkout
// holds scripts of ours.
func (d *doctor) checkScripts(h *harness.Harness, check, dir string) bool {
	want, err := settings.EntriesFor(d.cfg, d.Handlers, h)
	if err != nil {
		d.add(Problem, check, dir, "%v", err)
		return false
	}
	root := d.cfg.Root()
	problems, ours, err := settings.ScriptsDrift(h, want, func(rel string) ([]byte, bool, error) {
		return settings.ReadFile(filepath.Join(root, rel))
	})
	switch {
	case err != nil:
		d.add(Problem, check, dir, "%s: %v", dir, err)
	case ours == 0 && allAbsent(problems):
		d.add(Skip, check, dir, "%s holds no hook of magehook's", dir)
	case len(problems) > 0:
		d.add(Problem, check, dir, "%s differs from hook install -harness=%s: %s; run go tool mage hook:install -harness=%s", dir, h.Name, strings.Join(problems, "; "), h.Name)
	default:
		d.add(OK, check, dir, "%d scripts installed", len(want))
	}
	return ours > 0
}

// allAbsent reports whether every problem is a missing script (nothing of
// the harness is wired here, rather than wired wrong).
func allAbsent(problems []string) bool {
	for _, p := range problems {
		if !strings.HasSuffix(p, " absent") {
			return false
		}
	}
	return true
}

// checkHarnesses compares each other harness's configuration, when the
// checkout has one, with what hook:install -harness writes, and reports
// the harness's own switches that keep the hooks from running. It returns
// the harnesses that hold entries of ours.
func (d *doctor) checkHarnesses() []string {
	root := d.cfg.Root()
	var wired []string
	for _, h := range harness.All() {
		if h.IsClaude() {
			continue
		}
		path := filepath.Join(root, settings.HarnessFile(h))
		check := "harness " + h.Name
		if h.Layout == harness.Scripts {
			if d.checkScripts(h, check, path) {
				wired = append(wired, h.Name)
			}
			continue
		}
		data, exists, err := settings.ReadFile(path)
		if err != nil {
			d.add(Problem, check, path, "%s: %v", path, err)
			continue
		}
		if !exists {
			d.add(Skip, check, path, "%s is absent", path)
			continue
		}
		if h.Layout == harness.Plugin {
			spec, err := settings.PluginSpecFor(d.cfg, d.Handlers, h)
			if err != nil {
				d.add(Problem, check, path, "%v", err)
				continue
			}
			if drift := settings.PluginDrift(data, h, spec); drift != "" {
				d.add(Problem, check, path, "%s: %s; run go tool mage hook:install -harness=%s", path, drift, h.Name)
			} else {
				wired = append(wired, h.Name)
				d.add(OK, check, path, "%s is the plugin install writes", path)
			}
			continue
		}
		want, err := settings.EntriesFor(d.cfg, d.Handlers, h)
		if err != nil {
			d.add(Problem, check, path, "%v", err)
			continue
		}
		in := settings.Installer{Config: d.cfg, Harness: h}
		got, err := settings.OwnedEntries(data, h, in.Owner())
		if err != nil {
			d.add(Problem, check, path, "%s: %v", path, err)
			continue
		}
		if len(got) > 0 {
			wired = append(wired, h.Name)
		}
		var problems []string
		for _, w := range want {
			found := false
			for _, g := range got {
				if g.Native == w.Native && g.Command == w.Command && g.Matcher == w.Matcher && g.Timeout == w.Timeout {
					found = true
				}
			}
			if !found {
				problems = append(problems, w.Native+" absent or different")
			}
		}
		for _, g := range got {
			declared := false
			for _, w := range want {
				declared = declared || (g.Native == w.Native && g.Command == w.Command)
			}
			if !declared {
				problems = append(problems, g.Native+" installed but not declared")
			}
		}
		if len(problems) > 0 {
			d.add(Problem, check, path, "%s differs from hook install -harness=%s: %s; run go tool mage hook:install -harness=%s", path, h.Name, strings.Join(problems, "; "), h.Name)
		} else {
			d.add(OK, check, path, "%d entries installed", len(want))
		}
		d.checkSwitches(h, path, data)
		d.checkOverrides(h, path, want)
		if h.ReviewedByPosition && len(got) > 0 {
			d.checkCodexTrust(path, got)
		}
	}
	return wired
}

// checkSwitches reports the settings of a harness's file that stop every
// hook from running (its OffSwitches).
func (d *doctor) checkSwitches(h *harness.Harness, path string, data []byte) {
	tree, err := settings.Parse(data)
	if err != nil {
		return
	}
	for _, sw := range h.OffSwitches {
		v := any(tree)
		for _, k := range strings.Split(sw.Path, ".") {
			o, _ := v.(*jsontree.Object)
			if o == nil {
				v = nil
				break
			}
			v, _ = o.Get(k)
		}
		if v != nil && v == sw.Value {
			d.add(Problem, "harness "+h.Name, path, "%s sets %s to %v: %s runs no hook, the gates included", path, sw.Path, sw.Value, h.Client)
		}
	}
}

// checkOverrides reports the events of magehook's entries that the
// harness's Overrides file replaces, and the off switches set in it.
func (d *doctor) checkOverrides(h *harness.Harness, path string, want []settings.Entry) {
	if h.Overrides == "" {
		return
	}
	over := filepath.Join(d.cfg.Root(), filepath.FromSlash(h.Overrides))
	data, exists, err := settings.ReadFile(over)
	if err != nil {
		d.add(Problem, "harness "+h.Name, over, "%s: %v", over, err)
		return
	}
	if !exists {
		return
	}
	tree, err := settings.Parse(data)
	if err != nil {
		d.add(Problem, "harness "+h.Name, over, "%s: %v", over, err)
		return
	}
	top, _ := tree.(*jsontree.Object)
	if top == nil {
		return
	}
	for _, w := range want {
		if _, ok := top.Get(w.Native); ok {
			d.add(Problem, "harness "+h.Name, over, "%s holds %s, which replaces magehook's %s entry in %s: %s runs that one instead; move its hooks into %s and delete the key",
				over, w.Native, w.Native, path, h.Client, path)
		}
	}
	for _, sw := range h.OffSwitches {
		key, ok := strings.CutPrefix(sw.Path, "hooks.")
		if !ok {
			continue
		}
		if v, _ := top.Get(key); v != nil && v == sw.Value {
			d.add(Problem, "harness "+h.Name, over, "%s sets %s to %v: %s runs no hook, the gates included", over, key, sw.Value, h.Client)
		}
	}
}

// checkEntries compares, event by event, what install would write with
// what the settings hold.
func (d *doctor) checkEntries(files []scopeFile) {
	declared := map[string]bool{}
	expected := map[settings.Scope]map[string]settings.Entry{}
	for _, s := range settings.Scopes {
		entries, err := settings.Entries(d.cfg, d.Handlers, s)
		if err != nil {
			d.add(Problem, "entries", "", "%v", err)
			return
		}
		expected[s] = map[string]settings.Entry{}
		for _, e := range entries {
			expected[s][e.Event] = e
			declared[e.Event] = true
		}
	}
	events := make([]string, 0, len(declared))
	for e := range declared {
		events = append(events, e)
	}
	sort.Strings(events)
	for _, event := range events {
		var installedIn, differs []string
		var file string
		for _, f := range files {
			want := expected[f.scope][event]
			for _, got := range ours(f.hooks, event, d.owner(f)) {
				if got == want {
					installedIn = append(installedIn, string(f.scope))
				} else {
					differs = append(differs, fmt.Sprintf("%s has %s, install writes %s", f.scope, describe(got), describe(want)))
					file = f.path
				}
			}
		}
		check := "hook " + event
		switch {
		case len(differs) > 0:
			d.add(Problem, check, file, "differs from hook install: %s; run go tool mage hook:install", strings.Join(differs, "; "))
		case len(installedIn) > 0:
			d.add(OK, check, "", "installed (%s)", strings.Join(installedIn, ", "))
		default:
			d.add(Problem, check, "", "absent; run go tool mage hook:install")
		}
	}
	for _, f := range files {
		if f.hooks == nil {
			continue
		}
		for _, m := range f.hooks.Members {
			if !declared[m.Key] && len(ours(f.hooks, m.Key, d.owner(f))) > 0 {
				d.add(Problem, "hook "+m.Key, f.path, "installed in %s, but no enabled handler answers it; run go tool mage hook:install", f.scope)
			}
		}
	}
}

// ours returns magehook's entries of one event in a settings hooks object.
func ours(hooks *jsontree.Object, event string, own settings.Owner) []settings.Entry {
	if hooks == nil {
		return nil
	}
	list, _ := hooks.Get(event)
	groups, _ := list.([]any)
	var out []settings.Entry
	for _, g := range groups {
		group := g.(*jsontree.Object)
		matcher, _ := group.Get("matcher")
		m, _ := matcher.(string)
		hs, _ := group.Get("hooks")
		items, _ := hs.([]any)
		for _, h := range items {
			obj, ok := h.(*jsontree.Object)
			if !ok || !own.Owns(obj) {
				continue
			}
			e := settings.Entry{Event: event, Native: event, Matcher: m}
			cmd, _ := obj.Get("command")
			e.Command, _ = cmd.(string)
			if t, ok := obj.Get("timeout"); ok {
				if n, ok := t.(json.Number); ok {
					if v, err := n.Int64(); err == nil {
						e.Timeout = int(v)
					} else {
						e.Timeout = -1
					}
				}
			}
			for _, mem := range obj.Members {
				switch mem.Key {
				case "type", "command", "timeout":
				default:
					e.Command += " (with " + mem.Key + ")"
				}
			}
			out = append(out, e)
		}
	}
	return out
}

func describe(e settings.Entry) string {
	s := fmt.Sprintf("command %q, timeout %d", e.Command, e.Timeout)
	if e.Matcher != "" {
		s = fmt.Sprintf("matcher %q, ", e.Matcher) + s
	}
	return s
}

// checkFile checks every group and handler of one settings file, ours or
// not: known event names, matchers that compile, an explicit SessionEnd
// timeout, and commands that resolve to an executable.
func (d *doctor) checkFile(f scopeFile) {
	if f.hooks == nil {
		return
	}
	root := d.cfg.Root()
	own := d.owner(f)
	for _, m := range f.hooks.Members {
		where := fmt.Sprintf("%s %s", f.scope, m.Key)
		if _, known := hook.Lookup(m.Key); !known {
			d.add(Problem, "event "+m.Key, f.path, "%s: %q is not a hook event; event names are PascalCase, e.g. PreToolUse", f.path, m.Key)
		}
		for i, g := range m.Value.([]any) {
			group := g.(*jsontree.Object)
			if mv, ok := group.Get("matcher"); ok {
				ms, isStr := mv.(string)
				if !isStr {
					d.add(Problem, "matcher "+m.Key, f.path, "%s[%d]: the matcher is %v, not a string", where, i, mv)
				} else if _, err := hook.Match(ms, ""); err != nil {
					d.add(Problem, "matcher "+m.Key, f.path, "%s[%d]: %v", where, i, err)
				}
			}
			hs, _ := group.Get("hooks")
			items, _ := hs.([]any)
			for j, h := range items {
				obj, ok := h.(*jsontree.Object)
				if !ok {
					d.add(Problem, "command "+m.Key, f.path, "%s[%d].hooks[%d] is not an object", where, i, j)
					continue
				}
				if t, _ := obj.Get("type"); t != "command" {
					continue
				}
				if m.Key == "SessionEnd" {
					if _, ok := obj.Get("timeout"); !ok {
						d.add(Problem, "timeout SessionEnd", f.path, "%s[%d].hooks[%d] has no timeout, so it shares SessionEnd's 1.5 s budget; set \"timeout\"", where, i, j)
					}
				}
				d.checkCommand(f.path, where, obj, root, own)
			}
		}
	}
}

// isInterpreter reports commands whose first argument is the script they run.
func isInterpreter(name string) bool {
	switch name {
	case "sh", "bash", "zsh", "dash", "node", "python", "python3", "ruby", "perl", "deno", "bun", "tsx", "ts-node", "php":
		return true
	}
	return false
}

func isBuiltin(name string) bool {
	switch name {
	case "echo", "true", "false", "exit", "test", "[", "printf", "cd", ":", "exec", "command", "env":
		return true
	}
	return false
}

// varRef is compiled on first use: the doctor is linked into the hook
// binary, and a package-level regexp would be compiled on every hook start.
var varRef = lazy.Value[*regexp.Regexp]{New: func() *regexp.Regexp {
	return regexp.MustCompile(`\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?`)
}}

func (d *doctor) checkCommand(file, where string, obj *jsontree.Object, root string, own settings.Owner) {
	cv, _ := obj.Get("command")
	cmd, _ := cv.(string)
	if strings.TrimSpace(cmd) == "" {
		d.add(Problem, "command", file, "%s: a command handler without a command", where)
		return
	}
	if bin, ok := own.Binary(cmd); ok && strings.Contains(cmd, harness.EnsurePackage) {
		// Our command builds a missing binary on first need: the first
		// call then waits for the build, and fails where Go cannot build.
		if _, problem := d.resolve(bin); problem != "" {
			d.addCause(problem, Problem, "command", file, "%s: %s; the first hook call will try to build it (and block tool calls if it cannot); run go tool mage hook:build", where, problem)
			return
		}
		d.add(OK, "command", file, "%s: %s", where, bin)
		return
	}
	words := settings.ShellWords(cmd)
	if args, ok := obj.Get("args"); ok {
		words = []string{cmd}
		if list, ok := args.([]any); ok {
			for _, a := range list {
				if s, ok := a.(string); ok {
					words = append(words, s)
				}
			}
		}
	}
	for len(words) > 0 && strings.Contains(words[0], "=") && !strings.Contains(words[0], "/") {
		words = words[1:] // VAR=value prefixes
	}
	if len(words) == 0 {
		return
	}
	exe, ok := d.expand(words[0], root)
	if !ok {
		d.add(Skip, "command", file, "%s: cannot resolve %q (it uses a variable not set here)", where, words[0])
		return
	}
	if isBuiltin(exe) {
		d.add(OK, "command", file, "%s: %s (shell builtin)", where, exe)
		return
	}
	path, problem := d.resolve(exe)
	if problem != "" {
		d.addCause(problem, Problem, "command", file, "%s: %s: %s; the hook cannot run (a missing hook exits 127, which Claude Code does not treat as blocking, so a gate would be silently off)", where, cmd, problem)
		return
	}
	if isInterpreter(filepath.Base(exe)) && len(words) > 1 && !strings.HasPrefix(words[1], "-") {
		script, ok := d.expand(words[1], root)
		if ok && (strings.Contains(script, "/") || strings.Contains(script, ".")) {
			if _, err := os.Stat(d.abs(script)); err != nil {
				d.add(Problem, "command", file, "%s: %s: the script %s does not exist", where, cmd, script)
				return
			}
		}
	}
	d.add(OK, "command", file, "%s: %s", where, path)
}

func (d *doctor) expand(word, root string) (string, bool) {
	word = settings.ExpandProjectDir(word, root)
	if strings.HasPrefix(word, "~/") {
		word = filepath.Join(d.Home, word[2:])
	}
	ok := true
	re := varRef.Get()
	word = re.ReplaceAllStringFunc(word, func(ref string) string {
		name := re.FindStringSubmatch(ref)[1]
		if name == "HOME" {
			return d.Home
		}
		v := d.Getenv(name)
		if v == "" {
			ok = false
		}
		return v
	})
	return word, ok
}

func (d *doctor) abs(p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(d.cfg.Root(), p)
}

func (d *doctor) resolve(exe string) (string, string) {
	if !strings.Contains(exe, "/") {
		p, err := d.LookPath(exe)
		if err != nil {
			return "", fmt.Sprintf("%s is not on PATH", exe)
		}
		return p, ""
	}
	p := d.abs(exe)
	info, err := os.Stat(p)
	switch {
	case err != nil:
		return "", fmt.Sprintf("%s does not exist", p)
	case info.IsDir():
		return "", fmt.Sprintf("%s is a directory", p)
	case info.Mode().Perm()&0o111 == 0:
		return "", fmt.Sprintf("%s is not executable", p)
	}
	return p, ""
}

// WriteText prints the report one line per check.
func WriteText(w io.Writer, r Report) {
	for _, l := range r.Lines {
		fmt.Fprintf(w, "%s %s: %s\n", l.Status, l.Check, l.Detail)
	}
}

// WriteJSON prints the report as one JSON document.
func WriteJSON(w io.Writer, r Report) error {
	doc := struct {
		Schema   string `json:"schema"`
		OK       bool   `json:"ok"`
		Problems int    `json:"problems"`
		Checks   []Line `json:"checks"`
	}{"magehook-doctor/1", r.Problems() == 0, r.Problems(), r.Lines}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}

// WriteAnnotations prints each problem as a GitHub Actions error
// annotation naming its file, relative to root when inside it.
func WriteAnnotations(w io.Writer, r Report, root string) {
	for _, l := range r.Lines {
		if l.Status != Problem {
			continue
		}
		msg := strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(l.Check + ": " + l.Detail)
		if l.File != "" {
			file := l.File
			if rel, err := filepath.Rel(root, file); err == nil && !strings.HasPrefix(rel, "..") {
				file = rel
			}
			fmt.Fprintf(w, "::error file=%s::%s\n", file, msg)
		} else {
			fmt.Fprintf(w, "::error::%s\n", msg)
		}
	}
}
