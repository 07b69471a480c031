package settings

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/magehook/magehook/pkg/confined"
	"github.com/magehook/magehook/pkg/harness"
	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/toolingrc"
)

// Installer writes or removes a checkout's entries in one scope's file, or
// in another harness's configuration.
type Installer struct {
	Config   *toolingrc.Config
	Handlers []hook.Handler
	Scope    Scope
	// Harness is the agent to configure; nil is Claude Code. The other
	// harnesses have one, project, file each.
	Harness *harness.Harness
	// Home is the user's home directory, for the user scope; empty means
	// os.UserHomeDir.
	Home   string
	DryRun bool
	// Keep is how many backups to keep (default 10).
	Keep int
	// Dir, when set, makes the install a user-scope one (magehook init
	// -user): the file is the harness's UserFile under Home, every command
	// runs the hook binary of Dir (an absolute directory, which also keeps
	// the backups), and Config is the user's own configuration, whose
	// hook.enable picks the entries. Scope is then not read.
	Dir string
}

func (in Installer) harness() *harness.Harness {
	if in.Harness == nil {
		return claudeHarness()
	}
	return in.Harness
}

// Path is the settings file the installer edits.
func (in Installer) Path() string {
	if in.Dir != "" {
		return filepath.Join(in.home(), filepath.FromSlash(in.harness().UserFile))
	}
	if h := in.harness(); !h.IsClaude() {
		return filepath.Join(in.Config.Root(), HarnessFile(h))
	}
	return in.Scope.Path(in.Config.Root(), in.home())
}

func (in Installer) home() string {
	if in.Home != "" {
		return in.Home
	}
	return home()
}

// Install writes the entries (see Entries and EntriesFor) into the file.
func (in Installer) Install() (Outcome, error) {
	h := in.harness()
	if h.Layout == harness.Plugin {
		spec, err := PluginSpecFor(in.Config, in.Handlers, h)
		if err != nil {
			return Outcome{}, err
		}
		return in.rewrite(func(old []byte) ([]byte, error) { return EditPlugin(old, h, spec, true) })
	}
	if h.Layout == harness.Scripts {
		entries, err := EntriesFor(in.Config, in.Handlers, h)
		if err != nil {
			return Outcome{}, err
		}
		return in.scripts(entries)
	}
	var entries []Entry
	var err error
	if in.Dir != "" {
		entries, err = UserEntries(in.Config, in.Handlers, h, in.Dir)
	} else if h.IsClaude() {
		entries, err = Entries(in.Config, in.Handlers, in.Scope)
	} else {
		entries, err = EntriesFor(in.Config, in.Handlers, h)
	}
	if err != nil {
		return Outcome{}, err
	}
	if in.Dir != "" {
		h = userHarness(h)
	}
	return in.rewrite(func(old []byte) ([]byte, error) { return Edit(old, h, in.owner(old), entries) })
}

// userHarness is h without the settings that are a project's choice (the
// worktree ones): a user-scope install sets only what its entries need.
func userHarness(h *harness.Harness) *harness.Harness {
	u := *h
	u.Settings = nil
	for _, s := range h.Settings {
		if !strings.HasPrefix(s.Path, "worktree.") {
			u.Settings = append(u.Settings, s)
		}
	}
	return &u
}

// Uninstall removes magehook's entries from the file. A file that does not
// exist is left absent.
func (in Installer) Uninstall() (Outcome, error) {
	h := in.harness()
	if h.Layout == harness.Scripts {
		return in.scripts(nil)
	}
	return in.rewrite(func(old []byte) ([]byte, error) {
		switch {
		case old == nil:
			return nil, nil
		case h.Layout == harness.Plugin:
			return EditPlugin(old, h, harness.PluginSpec{}, false)
		}
		return Edit(old, h, in.owner(old), nil)
	})
}

// Owner is who owns the entries of the installer's file: the configured
// binary and those the file and its backups show (OwnerFor).
func (in Installer) Owner() Owner {
	data, _ := os.ReadFile(in.Path())
	return in.owner(data)
}

func (in Installer) owner(current []byte) Owner {
	docs := [][]byte{current}
	if in.Dir != "" {
		docs = append(docs, readBackups(filepath.Join(in.Dir, "backups"), BackupPrefix(in.backupName(), in.Path()))...)
		return ownerAt(in.Config, in.Dir, docs...)
	}
	if state, err := hook.StateDir(in.Config); err == nil {
		docs = append(docs, readBackups(filepath.Join(state, "backups"), BackupPrefix(in.backupName(), in.Path()))...)
	}
	return OwnerFor(in.Config, docs...)
}

// scripts writes one script per native event that has an entry and
// removes magehook's script of every other (the Scripts layout). Every
// script is checked before any is written: a refused one leaves all of
// them as they were. The outcome is the directory's: changed when any
// script changed, the diffs one after the other.
func (in Installer) scripts(entries []Entry) (Outcome, error) {
	h := in.harness()
	want := map[string]string{}
	for _, e := range entries {
		want[e.Native] = Script(h, e)
	}
	var events []string
	for _, n := range h.Events() {
		events = append(events, n.Native)
	}
	run := func(native string, dry bool) (Outcome, error) {
		one := in
		one.DryRun = dry || in.DryRun
		return one.rewriteAt(filepath.Join(in.Config.Root(), ScriptPath(h, native)), h.Name+"-"+native,
			func(old []byte) ([]byte, error) { return editScript(h, old, want[native]) })
	}
	for _, n := range events {
		if _, err := run(n, true); err != nil {
			return Outcome{}, err
		}
	}
	all := Outcome{Target: in.Path()}
	var diffs []string
	for _, n := range events {
		out, err := run(n, false)
		if err != nil {
			return all, err
		}
		if out.Changed {
			all.Changed = true
			diffs = append(diffs, out.Diff)
			if out.Backup != "" {
				all.Backup = out.Backup
			}
		}
	}
	all.Diff = strings.Join(diffs, "")
	return all, nil
}

func (in Installer) rewrite(edit func([]byte) ([]byte, error)) (Outcome, error) {
	return in.rewriteAt(in.Path(), in.backupName(), edit)
}

func (in Installer) rewriteAt(path, backupName string, edit func([]byte) ([]byte, error)) (Outcome, error) {
	h := in.harness()
	if in.Dir != "" {
		if h.UserFile == "" {
			return Outcome{}, fmt.Errorf("%s: magehook knows no user-level file of %s; wire it per repository (magehook init -harness=%s)", h.Name, h.Client, h.Name)
		}
		if !filepath.IsAbs(in.home()) {
			return Outcome{}, fmt.Errorf("the user scope edits files under $HOME, but HOME is unset or not an absolute path; set HOME to your home directory and run again")
		}
	}
	state := in.Dir
	if state == "" {
		var err error
		if state, err = hook.StateDir(in.Config); err != nil {
			return Outcome{}, err
		}
	}
	backups, err := confined.Dir(state, "backups")
	if err != nil {
		return Outcome{}, err
	}
	if h.IsClaude() && in.Scope == User && !filepath.IsAbs(path) {
		// Without a home the user file's path is relative, and would land
		// in the project: the committed .claude/settings.json.
		return Outcome{}, fmt.Errorf("-scope=user edits $HOME/.claude/settings.json, but HOME is unset or not an absolute path; set HOME to your home directory and run again")
	}
	var normalize func([]byte) []byte
	if h.Layout != harness.Plugin && h.Layout != harness.Scripts {
		normalize = sortedJSON
	}
	within := in.Config.Root()
	if in.Dir != "" {
		within = in.home()
	} else if h.IsClaude() && in.Scope == User {
		within = filepath.Dir(filepath.Dir(path)) // $HOME of $HOME/.claude/settings.json
	}
	return Rewrite{
		Path:         path,
		Within:       within,
		Edit:         edit,
		Normalize:    normalize,
		NotJSON:      h.Layout == harness.Plugin || h.Layout == harness.Scripts,
		BackupDir:    backups,
		BackupPrefix: BackupPrefix(backupName, path),
		Keep:         in.Keep,
		DryRun:       in.DryRun,
	}.Run()
}

func (in Installer) backupName() string {
	if in.Dir != "" {
		return "user-" + in.harness().Name
	}
	if h := in.harness(); !h.IsClaude() {
		return h.Name
	}
	return string(in.Scope)
}

// sortedJSON is a JSON document as install writes it (keys sorted,
// two-space indent), or the bytes unchanged when they do not parse.
func sortedJSON(data []byte) []byte {
	tree, err := Parse(data)
	if err != nil {
		return data
	}
	return Encode(tree, true)
}
