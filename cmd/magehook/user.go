package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	"github.com/magehook/magehook/hooks"
	"github.com/magehook/magehook/pkg/buildinfo"
	"github.com/magehook/magehook/pkg/harness"
	"github.com/magehook/magehook/pkg/settings"
	"github.com/magehook/magehook/pkg/toolingrc"
)

// The user scope (magehook init -user) is a trial that protects one
// person in every repository without changing any of them:
//
//   - its hook module and binary live in the user's cache
//     (${XDG_CACHE_HOME:-$HOME/.cache}/magehook/user: magefiles/ and
//     bin/magehook, built as a repository's are), with the backups of the
//     files it edits and the record of what it changed;
//   - its entries go into each agent's user-level file (harness.UserFile:
//     ~/.claude/settings.json, ~/.codex/hooks.json, ...), every command
//     running that binary as a user-scope one (harness.UserEnv);
//   - its policy is the user's ~/.toolingrc, written when there is none.
//
// At run time (pkg/hook's UserScope) the user's policy is added to a
// repository's own .toolingrc, if it has one, and the binary stands aside
// in a checkout that wires magehook of its own for the same agent: the
// project's binary answers there, with the project's policy.
// uninstall -user puts back every file nobody changed since, takes only
// its own entries out of one that changed, removes the cache directory and
// the directories init -user made, and names what it leaves.

// userRecordName is the record's file in the user scope's directory.
const userRecordName = "init-user.json"

// userPaths are the home directory and the user scope's directory.
func userPaths() (home, dir string, err error) {
	home = os.Getenv("HOME")
	if home == "" || !filepath.IsAbs(home) {
		return "", "", errors.New("the user scope lives under $HOME, and HOME is unset or not an absolute path: set HOME to your home directory and run again")
	}
	cache := os.Getenv("XDG_CACHE_HOME")
	if cache == "" || !filepath.IsAbs(cache) {
		cache = filepath.Join(home, ".cache")
	}
	return filepath.Clean(home), filepath.Join(cache, "magehook", "user"), nil
}

// userHarnesses picks the agents to wire: the one -harness names, every
// one with a user-level file for -harness=all, and otherwise Claude Code
// and each agent whose user directory exists (the user has that agent).
// skipped says, one line each, which were left out and why.
func userHarnesses(o options, home string) (wire []*harness.Harness, skipped []string, err error) {
	for _, h := range harness.All() {
		switch {
		case o.harnessSet && o.Harness != "all" && o.Harness != h.Name:
			continue
		case h.UserFile == "":
			skipped = append(skipped, h.Client+": magehook knows no user-level file of it; wire it per repository (magehook init -harness="+h.Name+")")
		case o.harnessSet || h.IsClaude():
			wire = append(wire, h)
		default:
			if info, err := os.Stat(filepath.Join(home, filepath.Dir(filepath.FromSlash(h.UserFile)))); err == nil && info.IsDir() {
				wire = append(wire, h)
			} else {
				skipped = append(skipped, h.Client+": ~/"+filepath.Dir(h.UserFile)+" does not exist (not installed for this user); -harness="+h.Name+" wires it anyway")
			}
		}
	}
	if o.harnessSet && o.Harness != "all" && len(wire) == 0 {
		return nil, nil, fmt.Errorf("-harness=%s: %s", o.Harness, strings.Join(skipped, "; "))
	}
	return wire, skipped, nil
}

// userFiles are the files init -user may write, absolute: every agent's
// user-level file and ~/.toolingrc.
func userFiles(home string) map[string]*harness.Harness {
	out := map[string]*harness.Harness{filepath.Join(home, toolingrc.FileName): nil}
	for _, h := range harness.All() {
		if h.UserFile != "" {
			out[filepath.Join(home, filepath.FromSlash(h.UserFile))] = h
		}
	}
	return out
}

// missingDirs lists path and its parents up to the first that exists,
// deepest first: the directories a write of path would make.
func missingDirs(path string) []string {
	var out []string
	for d := path; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(d); err == nil || filepath.Dir(d) == d {
			return out
		}
		out = append(out, d)
	}
}

// userSnapshot is the record's before half: the user files' bytes and the
// directories that do not exist yet (the user files' own, the cache
// directory's, the default state directory). A record of an earlier
// init -user keeps its before.
func userSnapshot(home, dir string) (*record, error) {
	path := filepath.Join(dir, userRecordName)
	if data, err := os.ReadFile(path); err == nil {
		var r record
		if err := json.Unmarshal(data, &r); err != nil {
			return nil, fmt.Errorf("%s: %v (remove it to start a new record)", path, err)
		}
		return &r, nil
	}
	r := &record{Files: map[string]fileState{}}
	seen := map[string]bool{}
	addDirs := func(p string) {
		for _, d := range missingDirs(p) {
			if !seen[d] {
				seen[d] = true
				r.Dirs = append(r.Dirs, d)
			}
		}
	}
	for f := range userFiles(home) {
		r.Files[f] = fileState{Before: readState(f)}
		addDirs(filepath.Dir(f))
	}
	addDirs(dir)
	addDirs(filepath.Join(home, ".magehook")) // the user policy's state.dir (default)
	sort.Strings(r.Dirs)
	return r, nil
}

func (r *record) saveUser(dir string) error {
	for f, s := range r.Files {
		s.After = readState(f)
		r.Files[f] = s
	}
	data, err := json.Marshal(r)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, userRecordName), data, 0o644)
}

// initUser is magehook init -user.
func initUser(o options) error {
	if _, err := exec.LookPath("go"); err != nil {
		return errors.New("go is not installed (or not on PATH): install Go " + MinGo + ", then run init -user again")
	}
	home, dir, err := userPaths()
	if err != nil {
		return err
	}
	if o.Replace != "" {
		if o.replaceDir, err = filepath.Abs(o.Replace); err != nil {
			return err
		}
	}
	wire, skipped, err := userHarnesses(o, home)
	if err != nil {
		return usageError{err}
	}
	say := func(format string, a ...any) { fmt.Fprintf(o.Stderr, "magehook init: "+format+"\n", a...) }
	policy := filepath.Join(home, toolingrc.FileName)
	if !regular(policy) && len(o.Enable) == 0 && !o.terminal(o.Stdin) {
		o.Enable = userDefaultHandlers
	}
	// What the files held before, and the directories not made yet,
	// recorded however init -user ends (a failed step leaves changes the
	// undo must know).
	var rec *record
	if !o.DryRun {
		if rec, err = userSnapshot(home, dir); err != nil {
			return err
		}
		defer func() {
			if err := rec.saveUser(dir); err != nil {
				say("warning: cannot record what init -user changed (magehook uninstall -user needs it): %v", err)
			}
		}()
		// The hook module is planned in the user scope's directory, as
		// a repository's magefiles/ are; the policy step writes
		// ~/.toolingrc.
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	}
	var steps []step
	var notes []note
	if _, err := os.Stat(dir); err == nil {
		if err := os.Chdir(dir); err != nil {
			return err
		}
		if steps, notes, err = plan(dir, o); err != nil {
			return err
		}
	} else {
		steps = append(steps, step{what: "make " + dir + " (the user scope's hook module and binary)"})
	}
	ps, pn, err := toolingrcStep(home, o)
	if err != nil {
		return err
	}
	for i := range ps {
		ps[i].what = strings.Replace(ps[i].what, ".toolingrc", policy, 1)
	}
	steps, notes = append(steps, ps...), append(notes, pn...)
	for _, n := range notes {
		say("%s", strings.Replace(n.text, ".toolingrc", policy, 1))
	}
	bin := filepath.Join(dir, "bin", "magehook")
	var files []string
	for _, h := range wire {
		files = append(files, filepath.Join(home, filepath.FromSlash(h.UserFile)))
	}
	if o.DryRun {
		for _, s := range steps {
			fmt.Fprintln(o.Stdout, "would "+s.what)
			if s.text != "" {
				fmt.Fprint(o.Stdout, indent(s.text))
			}
		}
		fmt.Fprintln(o.Stdout, "would build "+bin)
		fmt.Fprintln(o.Stdout, "would write the entries into "+strings.Join(files, ", "))
		for _, s := range skipped {
			fmt.Fprintln(o.Stdout, "would leave out "+s)
		}
		return nil
	}
	for _, s := range steps {
		say("%s", s.what)
		if s.do == nil {
			continue
		}
		if err := s.do(); err != nil {
			return fmt.Errorf("%s: %w", s.what, err)
		}
	}
	say("build %s (compiles Mage, the magefiles and magehook: tens of seconds the first time)", bin)
	ticks, stop := o.ticker()
	err = progress(o.Stderr, "the build of "+bin, heartbeat, ticks, func(w io.Writer) error {
		return buildinfo.Build(context.Background(), dir, bin, w)
	})
	stop()
	if err != nil {
		return err
	}
	cfg, err := toolingrc.Discover(home)
	if err == nil && cfg.Root() != home {
		err = fmt.Errorf("%s does not exist", policy)
	}
	if err != nil {
		return fmt.Errorf("the user policy: %w", err)
	}
	for _, h := range wire {
		in := settings.Installer{Config: cfg, Handlers: hooks.All(), Harness: h, Home: home, Dir: dir}
		out, err := in.Install()
		if err != nil {
			return err
		}
		if out.Changed {
			say("wrote %s", out.Target)
			if h.Review != "" {
				say("%s: a new or changed hook runs only after a review: start %s and approve magehook's hooks in /hooks", h.Client, h.Name)
			}
		} else {
			say("%s is up to date", out.Target)
		}
	}
	for _, s := range skipped {
		say("left out %s", s)
	}
	say("done: every session of these agents, in any repository, runs %s with the policy of %s; no repository was changed.", bin, policy)
	say("a repository with a .toolingrc of its own adds its gates to yours; one that wires magehook of its own for the agent answers with its own binary and policy (the user scope stands aside there). magehook uninstall -user undoes this.")
	if enabled, err := cfg.Get(toolingrc.KeyHookEnable); err == nil && contains(enabled.Values, "branchguard") {
		protect, _ := cfg.Get(toolingrc.KeyGuardProtect)
		say("branchguard protects %s in every repository: there the agent's edits and commits are denied, and work happens in a worktree on its own branch (claude --worktree <name>, or the agent's EnterWorktree tool); a session that starts on a protected branch is told so", strings.Join(protect.Values, ", "))
	}
	printNotes(o, notes)
	return nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// usageError is a refusal of the command line (exit 2).
type usageError struct{ error }

// uninstallUser is magehook uninstall -user: every user file init -user
// wrote and nobody changed since goes back to its bytes before; one
// changed since loses only the user scope's entries (those running its
// binary: another checkout's user-scope entries and every foreign one
// stay); ~/.toolingrc changed since is left, and said; the user scope's
// directory goes, and the directories init -user made when they are
// empty.
func uninstallUser(o options) error {
	home, dir, err := userPaths()
	if err != nil {
		return err
	}
	path := filepath.Join(dir, userRecordName)
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("no record of magehook init -user (%s): nothing to undo", path)
	}
	if err != nil {
		return err
	}
	var r record
	if err := json.Unmarshal(data, &r); err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	say := func(format string, a ...any) { fmt.Fprintf(o.Stderr, "magehook uninstall: "+format+"\n", a...) }
	would := func(what string) string {
		if o.DryRun {
			return "would " + what
		}
		return what
	}
	known := userFiles(home)
	names := make([]string, 0, len(r.Files))
	for f := range r.Files {
		names = append(names, f)
	}
	sort.Strings(names)
	var left []string
	for _, f := range names {
		s := r.Files[f]
		now := readState(f)
		h, isHarness := known[f]
		switch {
		case same(now, s.Before):
			continue
		case same(now, s.After):
			say("%s", would("restore "+f+" (as it was before init -user)"))
			if o.DryRun {
				continue
			}
			if s.Before == nil {
				err = os.Remove(f)
			} else {
				err = writeOver(f, *s.Before)
			}
			if err != nil {
				return err
			}
		case isHarness && h != nil && now != nil:
			cfg, err := toolingrc.Discover(home)
			if err == nil && cfg.Root() != home {
				err = errors.New(filepath.Join(home, toolingrc.FileName) + " does not exist")
			}
			if err != nil {
				left = append(left, f+" (changed since init -user, and the user policy does not read ("+err.Error()+"), so the entries running "+dir+" cannot be told apart: remove them by hand)")
				continue
			}
			in := settings.Installer{Config: cfg, Handlers: hooks.All(), Harness: h, Home: home, Dir: dir, DryRun: o.DryRun}
			if _, err := in.Uninstall(); err != nil {
				left = append(left, f+" (changed since init -user, and removing magehook's entries failed: "+err.Error()+")")
				continue
			}
			say("%s", f+" changed since init -user: "+would("remove the user scope's entries only, keeping everything else"))
		default:
			left = append(left, f+" (changed since init -user: yours now)")
		}
	}
	say("%s", would("remove "+dir+" (the user scope's hook module, binary, backups and record)"))
	if !o.DryRun {
		if err := os.RemoveAll(dir); err != nil {
			return err
		}
	}
	dirs := append([]string{}, r.Dirs...)
	sort.Sort(sort.Reverse(sort.StringSlice(dirs)))
	state := filepath.Join(home, ".magehook")
	for _, d := range dirs {
		if _, err := os.Lstat(d); err != nil {
			continue
		}
		if d == state {
			say("%s", would("remove "+d+"/ (the user policy's state directory: the trial's logs)"))
			if !o.DryRun {
				if err := os.RemoveAll(d); err != nil {
					return err
				}
			}
			continue
		}
		if o.DryRun {
			say("would remove %s/ if empty", d)
			continue
		}
		if err := os.Remove(d); err != nil {
			left = append(left, d+"/ (not empty: it holds files init -user did not write)")
			continue
		}
		say("remove %s/", d)
	}
	for _, l := range left {
		say("left %s", l)
	}
	switch {
	case o.DryRun:
	case len(left) == 0:
		say("done: your files are as they were before magehook init -user")
	default:
		say("done, but %d path(s) left as named above", len(left))
	}
	return nil
}
