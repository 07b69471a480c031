package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/bitfield/script"

	"github.com/magehook/magehook/pkg/buildinfo"
	"github.com/magehook/magehook/pkg/harness"
	"github.com/magehook/magehook/pkg/settings"
)

// Module is magehook's module path; MageVersion is the Mage release its
// go.mod pins (a test keeps the two in step).
const (
	Module      = "github.com/magehook/magehook"
	MageModule  = "github.com/magefile/mage"
	MageVersion = "v1.17.2"
	pluginPath  = Module + "/magefiles/targets"
	writtenMark = "// Written by magehook init."
)

// defaultHandlers are enabled when the user names none and no terminal
// is there to ask.
var defaultHandlers = []string{"sessionclock", "branchguard", "auditlog"}

type options struct {
	Enable    []string
	Replace   string
	Harness   string
	DryRun    bool
	NoInstall bool
	// User: magehook init -user / uninstall -user (user.go).
	User bool
	// harnessSet: -harness was given (the user scope otherwise wires
	// every agent the user has).
	harnessSet bool
	Stdin      io.Reader
	Stdout     io.Writer
	Stderr     io.Writer

	// replaceDir is Replace made absolute against the directory init
	// was started in.
	replaceDir string
	// ticker paces the "still running" lines of a silent go command
	// (realTicker; tests inject theirs).
	ticker func() (<-chan time.Time, func())
	// terminal reports whether stdin is a terminal to ask on
	// (stdinTerminal).
	terminal func(io.Reader) bool
}

// step is one change init makes: a line saying what, the text of the file
// it writes (shown by -dryrun), and the work.
type step struct {
	what string
	text string
	do   func() error
}

// note is something init leaves to the user: a line to add to a file of
// theirs. A blocking note (the plugin's import missing) stops init before
// it changes anything; the others are repeated after the install, where
// they are still on the screen.
type note struct {
	text     string
	blocking bool
}

// adopt plans every step, prints the plan under -dryrun, and otherwise
// runs it in order, stopping at the first failure.
func adopt(o options) error {
	if _, err := exec.LookPath("git"); err != nil {
		return errors.New("git is not installed (or not on PATH): magehook wires a git checkout; install git, then run init again")
	}
	h, _ := harnessFiles(o.Harness)
	root, err := script.Exec("git rev-parse --show-toplevel").WithStderr(io.Discard).String()
	if err != nil {
		return errors.New("not inside a git repository: run git init first (magehook wires a git checkout)")
	}
	root = strings.TrimSpace(root)
	// -replace is relative to where the user typed it, not to the root.
	if o.Replace != "" {
		if o.replaceDir, err = filepath.Abs(o.Replace); err != nil {
			return err
		}
	}
	if err := moduleAtRoot(root, hookModule(root)); err != nil {
		return err
	}
	if err := os.Chdir(root); err != nil {
		return err
	}
	if err := readableSettings(root, o.Harness); err != nil {
		return err
	}
	steps, notes, err := plan(root, o)
	if err != nil {
		return err
	}
	blocked := false
	for _, n := range notes {
		fmt.Fprintln(o.Stderr, "magehook init: "+n.text)
		blocked = blocked || n.blocking
	}
	if blocked {
		return errors.New("the magefile is not ready for the plugin: make the change shown above, then run magehook init again (nothing was changed)")
	}
	if len(steps) == 0 {
		fmt.Fprintln(o.Stderr, "magehook init: "+root+" is already set up: nothing to change")
	}
	if !o.DryRun {
		// What every file held before, for magehook uninstall; what init
		// left, recorded however init ends (a failed step leaves changes
		// the undo must know).
		rec, err := snapshot(root)
		if err != nil {
			return err
		}
		defer func() {
			if err := rec.save(root); err != nil {
				fmt.Fprintln(o.Stderr, "magehook init: warning: cannot record what init changed (magehook uninstall needs it):", err)
			}
		}()
	}
	for _, s := range steps {
		if o.DryRun {
			fmt.Fprintln(o.Stdout, "would "+s.what)
			if s.text != "" {
				fmt.Fprint(o.Stdout, indent(s.text))
			}
			continue
		}
		fmt.Fprintln(o.Stderr, "magehook init: "+s.what)
		if err := s.do(); err != nil {
			return fmt.Errorf("%s: %w%s", s.what, err, halfway)
		}
	}
	hookMod := hookModule(root)
	mageCmd := "go tool mage"
	if hookMod {
		mageCmd = "go -C magefiles tool mage -w .."
	}
	install := mageCmd + " hook:install -harness=" + o.Harness
	switch {
	case o.DryRun:
		if !o.NoInstall {
			fmt.Fprintln(o.Stdout, "would run "+install+" (build bin/magehook, write "+h+", add the ignore lines to .gitignore)")
		}
		return nil
	case o.NoInstall:
		fmt.Fprintln(o.Stderr, "magehook init: next: "+install+" builds bin/magehook and writes "+h)
		printNotes(o, notes)
		return nil
	}
	// go tool mage compiles Mage itself on its first run, silently: say
	// so as a step of its own rather than inside the install's silence.
	fmt.Fprintln(o.Stderr, "magehook init: "+mageCmd+" -version (compiles Mage itself, once: up to a minute on a fresh machine)")
	if err := runGo(o, true, mageArgs(root, "-version")...); err != nil {
		return fmt.Errorf("%s -version: %w%s", mageCmd, err, halfway)
	}
	fmt.Fprintln(o.Stderr, "magehook init: "+install+" (compiles the magefiles, then builds bin/magehook: tens of seconds the first time)")
	if err := goCommand(o, mageArgs(root, "hook:install", "-harness="+o.Harness)...); err != nil {
		return fmt.Errorf("%s hook:install: %w%s", mageCmd, err, halfway)
	}
	if len(steps) == 0 {
		fmt.Fprintln(o.Stderr, "magehook init: done; nothing changed but what hook:install says above.")
	} else {
		files := "go.mod, go.sum, magefiles/, .toolingrc, .gitignore"
		if hookMod {
			files = "magefiles/ (its go.mod and go.sum too), .toolingrc, .gitignore"
		} else if regular(filepath.Join(root, "vendor", "modules.txt")) {
			files += ", vendor/"
		}
		fmt.Fprintln(o.Stderr, "magehook init: done. Commit "+files+" and "+h+". A teammate's clone needs no step: its first hook builds bin/magehook ("+teammateInstall(mageCmd, o.Harness)+" does it up front).")
		if hookMod && regular(filepath.Join(root, "magefiles", "go.work")) && script.Exec("git check-ignore -q magefiles/go.work").Wait() == nil {
			fmt.Fprintln(o.Stderr, "magehook init: your .gitignore ignores go.work files, and a clone needs magefiles/go.work: commit it with git add -f magefiles/go.work")
		}
	}
	if hookMod {
		fmt.Fprintln(o.Stderr, "magehook init: the hook build is a module of its own, magefiles/go.mod: the repository's own build is as it was. Run magehook's targets as bin/magehook <target> (bin/magehook -l lists them), or before the binary is built as "+mageCmd+" <target>.")
	}
	if dir, ok := localReplace(root); ok {
		file, edit := "go.mod", "go mod edit"
		if hookMod {
			file, edit = "magefiles/go.mod", "go -C magefiles mod edit"
		}
		fmt.Fprintln(o.Stderr, "magehook init: until magehook is published, "+file+"'s replace points at "+dir+": every clone (a teammate's, CI) needs magehook there, or points the replace at its own copy with "+edit+" -replace="+Module+"=<dir> (docs/adopting.md).")
	}
	printNotes(o, notes)
	return nil
}

// readableSettings refuses, before init changes anything (and under
// -dryrun too), a settings file that is not JSON, which hook:install
// would refuse to edit: one with a comment or a trailing comma, say
// (its shape is the install's to check). Found only by the install,
// it would stop init halfway.
func readableSettings(root, name string) error {
	hs := harness.All()
	if name != "all" {
		h, ok := harness.Lookup(name)
		if !ok {
			return nil // the install names an unknown harness itself
		}
		hs = []*harness.Harness{h}
	}
	for _, h := range hs {
		if h.Layout == harness.Plugin || h.Layout == harness.Scripts {
			continue // written whole by magehook, or a directory of its own scripts
		}
		path := filepath.Join(root, filepath.FromSlash(h.File))
		data, exists, err := settings.ReadFile(path)
		if err != nil {
			return fmt.Errorf("%s: %w; nothing was changed: run init again once it is fixed", h.File, err)
		}
		if !exists {
			continue
		}
		if _, err := settings.Parse(data); err != nil {
			return fmt.Errorf("%s, where init writes the hook entries: %w; nothing was changed: run init again once it is fixed", h.File, err)
		}
	}
	return nil
}

// halfway ends the error of a run that stopped after changing the
// checkout: what was done is kept and recorded, and either way on is
// named.
const halfway = "; the changes made so far are kept: run magehook init again once the cause is fixed (it goes on from there), or magehook uninstall to undo them"

// teammateInstall is the install a teammate runs up front: the same
// harness as this one (hook:install alone wires Claude Code).
func teammateInstall(mage, name string) string {
	if h, ok := harness.Lookup(name); ok && h.IsClaude() {
		return mage + " hook:install"
	}
	return mage + " hook:install -harness=" + name
}

// mageArgs is the go command's arguments that run Mage on root's
// magefiles with args, started from root: in the hook module when there
// is one (buildinfo.Mage).
func mageArgs(root string, args ...string) []string {
	dir, goArgs := buildinfo.Mage(root, args...)
	if dir != root {
		return append([]string{"-C", dir}, goArgs...)
	}
	return goArgs
}

// printNotes repeats what is left to the user after the install's output.
func printNotes(o options, notes []note) {
	for _, n := range notes {
		fmt.Fprintln(o.Stderr, "magehook init: still to do: "+n.text)
	}
}

// harnessFiles names the files hook:install writes for -harness.
func harnessFiles(name string) (string, bool) {
	if name == "all" {
		var files []string
		for _, h := range harness.All() {
			files = append(files, h.File)
		}
		return strings.Join(files, ", "), true
	}
	h, ok := harness.Lookup(name)
	if !ok || name == "" {
		return "", false
	}
	return h.File, true
}

// moduleAtRoot refuses a module whose go.mod is below the repository's
// top: the hook binary is built from the top's module (the settings run
// go -C <root>), so adopting there would make a second module, not use
// the one the user is in. With no module at all, init makes one only when
// started at the top.
//
// With a hook module (hookMod) the repository's own module is left alone,
// wherever it is; started below the top of a repository with no go.mod
// at its top, init still asks to be started there.
func moduleAtRoot(root string, hookMod bool) error {
	if _, err := exec.LookPath("go"); err != nil {
		return errors.New("go is not installed (or not on PATH): install Go " + MinGo + ", then run init again")
	}
	if hookMod {
		cwd, err := os.Getwd()
		if err == nil && !sameFile(cwd, root) && !regular(filepath.Join(root, "go.mod")) && !regular(filepath.Join(root, "magefiles", "go.mod")) {
			return fmt.Errorf("init adopts the top of the repository (%s) and makes magefiles/ there: if that is the repository to adopt, run init there (cd %s); if this directory is a project of its own, make it a repository (git init)", root, root)
		}
		return nil
	}
	var stderr strings.Builder
	out, err := script.Exec("go env GOMOD").WithStderr(&stderr).String()
	if err != nil {
		return fmt.Errorf("go env GOMOD: %v: %s", err, strings.TrimSpace(stderr.String()))
	}
	gomod := strings.TrimSpace(out)
	if gomod == "" || gomod == os.DevNull {
		// init would make the top's go.mod. Started below the top, the
		// top may not be what the user thinks (a home directory kept in
		// git holds every project under it): make them start there.
		if cwd, err := os.Getwd(); err == nil && !sameFile(cwd, root) {
			return fmt.Errorf("no go.mod here or at the top of the repository (%s), which init would make one for: if that is the repository to adopt, run init there (cd %s); if this directory is a project of its own, make it a repository (git init)", root, root)
		}
		return nil
	}
	dir := filepath.Dir(gomod)
	if sameFile(dir, root) {
		return nil
	}
	return fmt.Errorf("the module here (%s) is not at the top of the repository (%s): magehook builds its hook binary from a module at the top; run init in %s (it makes a module there when there is none), or, if %s is a project of its own, make it a repository (git init there)", gomod, root, root, dir)
}

func sameFile(a, b string) bool {
	fa, err := os.Stat(a)
	if err != nil {
		return false
	}
	fb, err := os.Stat(b)
	return err == nil && os.SameFile(fa, fb)
}

// indent indents a file's text by a tab for -dryrun, blank lines left
// blank.
func indent(text string) string {
	var b strings.Builder
	for _, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		if line != "" {
			b.WriteString("\t" + line)
		}
		b.WriteString("\n")
	}
	return b.String()
}

func rel(root, path string) string {
	if r, err := filepath.Rel(root, path); err == nil {
		return r
	}
	return path
}
