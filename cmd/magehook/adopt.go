package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/bitfield/script"

	"github.com/magehook/magehook/hooks"
	"github.com/magehook/magehook/pkg/harness"
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

// MinGo is the go line of magehook's go.mod: the least a consumer's go.mod
// may say (a test keeps the two in step).
const MinGo = "1.26.0"

// olderGo reports whether Go version a ("1.21", "1.22.3") is older than b,
// comparing the numeric parts (a release candidate counts as its release).
func olderGo(a, b string) bool {
	pa, pb := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < max(len(pa), len(pb)); i++ {
		var x, y int
		if i < len(pa) {
			x = leadingInt(pa[i])
		}
		if i < len(pb) {
			y = leadingInt(pb[i])
		}
		if x != y {
			return x < y
		}
	}
	return false
}

func leadingInt(s string) int {
	n := 0
	for _, r := range s {
		if r < '0' || r > '9' {
			break
		}
		n = n*10 + int(r-'0')
	}
	return n
}

// defaultHandlers are enabled when the user names none and no terminal
// is there to ask.
var defaultHandlers = []string{"sessionclock", "branchguard", "auditlog"}

type options struct {
	Enable    []string
	Replace   string
	Harness   string
	DryRun    bool
	NoInstall bool
	Stdin     io.Reader
	Stdout    io.Writer
	Stderr    io.Writer

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
	if err := moduleAtRoot(root); err != nil {
		return err
	}
	if err := os.Chdir(root); err != nil {
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
			return fmt.Errorf("%s: %w", s.what, err)
		}
	}
	install := "go tool mage hook:install -harness=" + o.Harness
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
	fmt.Fprintln(o.Stderr, "magehook init: go tool mage -version (compiles Mage itself, once: up to a minute on a fresh machine)")
	if err := runGo(o, true, "tool", "mage", "-version"); err != nil {
		return fmt.Errorf("go tool mage -version: %w", err)
	}
	fmt.Fprintln(o.Stderr, "magehook init: "+install+" (compiles the magefiles, then builds bin/magehook: tens of seconds the first time)")
	if err := goCommand(o, "tool", "mage", "hook:install", "-harness="+o.Harness); err != nil {
		return fmt.Errorf("go tool mage hook:install: %w", err)
	}
	if len(steps) == 0 {
		fmt.Fprintln(o.Stderr, "magehook init: done; nothing changed but what hook:install says above.")
	} else {
		files := "go.mod, go.sum, magefiles/, .toolingrc, .gitignore"
		if regular(filepath.Join(root, "vendor", "modules.txt")) {
			files += ", vendor/"
		}
		fmt.Fprintln(o.Stderr, "magehook init: done. Commit "+files+" and "+h+". A teammate's clone needs no step: its first hook builds bin/magehook ("+teammateInstall(o.Harness)+" does it up front).")
	}
	if dir, ok := localReplace(root); ok {
		fmt.Fprintln(o.Stderr, "magehook init: until magehook is published, go.mod's replace points at "+dir+": every clone (a teammate's, CI) needs magehook there, or points the replace at its own copy with go mod edit -replace="+Module+"=<dir> (README: Using it in another repository).")
	}
	printNotes(o, notes)
	return nil
}

// teammateInstall is the install a teammate runs up front: the same
// harness as this one (hook:install alone wires Claude Code).
func teammateInstall(name string) string {
	if name == "claude" {
		return "go tool mage hook:install"
	}
	return "go tool mage hook:install -harness=" + name
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
func moduleAtRoot(root string) error {
	if _, err := exec.LookPath("go"); err != nil {
		return errors.New("go is not installed (or not on PATH): install Go " + MinGo + ", then run init again")
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

// localReplace is the directory go.mod's replace of magehook names, when
// it names one.
func localReplace(root string) (string, bool) {
	out, err := script.Exec("go mod edit -json").WithStderr(io.Discard).String()
	if err != nil {
		return "", false
	}
	var mod modInfo
	if json.Unmarshal([]byte(out), &mod) != nil {
		return "", false
	}
	r, ok := mod.replacement(Module)
	if !ok || r.Version != "" {
		return "", false
	}
	return r.Path, true
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

// modInfo is what go mod edit -json prints, as far as init reads it.
type modInfo struct {
	Module  struct{ Path string }
	Go      string
	Require []struct{ Path, Version string }
	Replace []struct {
		Old struct{ Path string }
		New struct{ Path, Version string }
	}
	Tool []struct{ Path string }
}

func (m modInfo) requires(path string) bool {
	for _, r := range m.Require {
		if r.Path == path {
			return true
		}
	}
	return false
}

func (m modInfo) hasTool(path string) bool {
	for _, t := range m.Tool {
		if t.Path == path {
			return true
		}
	}
	return false
}

// replacement is what go.mod replaces path with: a directory (Version
// "") or another module.
func (m modInfo) replacement(path string) (struct{ Path, Version string }, bool) {
	for _, r := range m.Replace {
		if r.Old.Path == path {
			return r.New, true
		}
	}
	return struct{ Path, Version string }{}, false
}

func plan(root string, o options) (steps []step, notes []note, err error) {
	var mod modInfo
	if _, err := os.Stat(filepath.Join(root, "go.mod")); errors.Is(err, os.ErrNotExist) {
		name := modulePath(filepath.Base(root))
		steps = append(steps, step{what: "go mod init " + name, do: func() error { return goCommand(o, "mod", "init", name) }})
	} else {
		out, err := script.Exec("go mod edit -json").WithStderr(o.Stderr).String()
		if err != nil {
			return nil, nil, fmt.Errorf("read go.mod: %w (fix go.mod, then run init again)", err)
		}
		if err := json.Unmarshal([]byte(out), &mod); err != nil {
			return nil, nil, fmt.Errorf("read go.mod: %w", err)
		}
	}
	if mod.Module.Path == Module {
		return nil, nil, errors.New("this is magehook's own repository: init adopts magehook in another one")
	}
	// The go command would raise an older go line on its own (go get,
	// go mod tidy) without a word; raising it is a step the user sees.
	if mod.Go != "" && olderGo(mod.Go, MinGo) {
		old := mod.Go
		steps = append(steps, step{what: "go mod edit -go=" + MinGo + " (go.mod said go " + old + "; magehook needs Go " + MinGo + ")", do: func() error {
			return goCommand(o, "mod", "edit", "-go="+MinGo)
		}})
	}
	if !mod.hasTool(MageModule) {
		steps = append(steps, step{what: "go get -tool " + MageModule + "@" + MageVersion, do: func() error {
			return goCommand(o, "get", "-tool", MageModule+"@"+MageVersion)
		}})
	}
	rep, replaced := mod.replacement(Module)
	switch {
	case o.Replace != "":
		dir := o.replaceDir
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err != nil {
			return nil, nil, fmt.Errorf("-replace=%s: no go.mod there; name a checkout of %s", o.Replace, Module)
		}
		var edits, what []string
		if !mod.requires(Module) {
			edits = append(edits, "-require="+Module+"@"+zeroVersion)
			what = append(what, "-require "+Module+"@"+zeroVersion)
		}
		if !replaced || rep.Version != "" || !sameFile(resolve(root, rep.Path), dir) {
			edits = append(edits, "-replace="+Module+"="+dir)
			w := "-replace " + Module + "=" + dir
			if replaced {
				w += " (it pointed at " + rep.Path + ")"
			}
			what = append(what, w+" (a directory replace: every clone needs magehook at that path, or its own -replace)")
		}
		if len(edits) > 0 {
			steps = append(steps, step{what: "go mod edit " + strings.Join(what, " "), do: func() error {
				return goCommand(o, append([]string{"mod", "edit"}, edits...)...)
			}})
		}
	case replaced && rep.Version == "":
		if _, err := os.Stat(filepath.Join(resolve(root, rep.Path), "go.mod")); err != nil {
			return nil, nil, fmt.Errorf("go.mod replaces %s with %s, which holds no checkout of it here: clone magehook there, or point the replace at your copy (go mod edit -replace=%s=<dir>, or magehook init -replace=<dir>)", Module, rep.Path, Module)
		}
		if !mod.requires(Module) {
			steps = append(steps, step{what: "go mod edit -require " + Module + "@" + zeroVersion + " (go.mod replaces it with " + rep.Path + ")", do: func() error {
				return goCommand(o, "mod", "edit", "-require="+Module+"@"+zeroVersion)
			}})
		}
	case !mod.requires(Module):
		v := ownVersion()
		if v == "" {
			return nil, nil, fmt.Errorf("this init was not run as go run %s/cmd/magehook@<version>, so it cannot tell which version to require: pass -replace=<a checkout of magehook>", Module)
		}
		steps = append(steps, step{what: "go get " + Module + "@" + v, do: func() error { return goCommand(o, "get", Module+"@"+v) }})
	}

	s, n, err := magefileStep(root, o)
	if err != nil {
		return nil, nil, err
	}
	steps, notes = append(steps, s...), append(notes, n...)
	for _, n := range n {
		if n.blocking {
			return steps, notes, nil // nothing will run: ask nothing
		}
	}

	s, n, err = toolingrcStep(root, o)
	if err != nil {
		return nil, nil, err
	}
	steps, notes = append(steps, s...), append(notes, n...)

	// A vendored repository builds from vendor/: magehook, Mage and the
	// ensure command the first hook runs (go run, so a tool line) must be
	// vendored, or every go command stops at "inconsistent vendoring".
	vendored := regular(filepath.Join(root, "vendor", "modules.txt"))
	if vendored && !mod.hasTool(harness.EnsurePackage) {
		steps = append(steps, step{what: "go mod edit -tool=" + harness.EnsurePackage + " (a vendored repository: the first hook runs it with go run)", do: func() error {
			return goCommand(o, "mod", "edit", "-tool="+harness.EnsurePackage)
		}})
	}
	if len(steps) > 0 {
		steps = append(steps, step{what: "go mod tidy", do: func() error { return goCommand(o, "mod", "tidy") }})
	}
	if vendored && (len(steps) > 0 || !vendors(filepath.Join(root, "vendor", "modules.txt"), Module)) {
		steps = append(steps, step{what: "go mod vendor (the repository vendors its dependencies)", do: func() error { return goCommand(o, "mod", "vendor") }})
	}
	return steps, notes, nil
}

func regular(path string) bool {
	info, err := os.Stat(path)
	return err == nil && info.Mode().IsRegular()
}

// vendors reports whether vendor/modules.txt lists module.
func vendors(modulesTxt, module string) bool {
	data, err := os.ReadFile(modulesTxt)
	if err != nil {
		return false
	}
	for _, line := range strings.Split(string(data), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "#" && f[1] == module {
			return true
		}
	}
	return false
}

// zeroVersion is the version a requirement satisfied by a directory
// replace names.
const zeroVersion = "v0.0.0-00010101000000-000000000000"

// resolve makes a go.mod replace path absolute: a relative one is relative
// to the module's directory.
func resolve(root, path string) string {
	if filepath.IsAbs(path) {
		return path
	}
	return filepath.Join(root, path)
}

// ownVersion is the version go run module@version built this program at,
// or "" for a development build.
func ownVersion() string {
	info, ok := debug.ReadBuildInfo()
	if !ok || info.Main.Path != Module || info.Main.Version == "" || info.Main.Version == "(devel)" {
		return ""
	}
	return info.Main.Version
}

// modulePath makes a module path out of a directory name.
func modulePath(base string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(base) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '-', r == '_', r == '.':
			b.WriteRune(r)
		default:
			b.WriteByte('-')
		}
	}
	if b.Len() == 0 {
		return "hooks"
	}
	return b.String()
}

const magefileText = `//go:build mage

` + writtenMark + ` It is yours now: add targets and handlers.

// This repository's build, and its coding agents' hook runner: the import
// gives it magehook's targets. The hook:<event> targets (one per agent
// event) are what the agents run; the others are for you to run (go tool
// mage -h <target> tells more; start with hook:replay and doctor). Add
// handlers to targets.Local in an init function and enable them by name
// in .toolingrc.
package main

import (
	"context"

	//mage:import
	"github.com/magehook/magehook/magefiles/targets"
)

// Bootstrap prepares a new worktree: worktree:create (and Claude Code's
// WorktreeCreate) runs it inside every worktree it makes. It builds the
// worktree's own hook binary.
func Bootstrap(ctx context.Context) error {
	return targets.Hook{}.Build(ctx)
}
`

// magefileStep writes magefiles/magefile.go when the repository has no
// magefile, and leaves the user's own one alone: one that lacks the
// plugin's import gets a blocking note with the lines to add.
func magefileStep(root string, o options) ([]step, []note, error) {
	dir := filepath.Join(root, "magefiles")
	entries, err := os.ReadDir(dir)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, nil, err
	}
	var goFiles []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".go") && e.Type().IsRegular() {
			goFiles = append(goFiles, filepath.Join(dir, e.Name()))
		}
	}
	if len(goFiles) == 0 {
		own := filepath.Join(root, "magefile.go")
		if _, err := os.Stat(own); err == nil {
			// Mage would read it, but the hook binary is built from
			// magefiles/ (and a magefiles/ directory hides the root's
			// magefile from Mage): writing one would lose its targets.
			return nil, []note{{text: own + " is a magefile of your own, but magehook builds its hook binary from magefiles/: move it there (mkdir magefiles && git mv magefile.go magefiles/) and make sure it imports the plugin:" + importLines, blocking: true}}, nil
		}
		path := filepath.Join(dir, "magefile.go")
		return []step{{what: "write " + rel(root, path) + " (the plugin's import and a Bootstrap target)", text: magefileText, do: func() error {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return err
			}
			return writeNew(path, magefileText)
		}}}, nil, nil
	}
	for _, f := range goFiles {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, nil, err
		}
		if strings.Contains(string(data), `"`+pluginPath+`"`) {
			return nil, nil, nil
		}
	}
	return nil, []note{{text: "magefiles/ is your own and does not import the plugin; add to one of its files:" + importLines, blocking: true}}, nil
}

// importLines is the plugin's import as a magefile writes it.
const importLines = "\n\n\t//mage:import\n\t\"" + pluginPath + "\"\n"

// toolingrcStep writes .toolingrc when there is none. An existing one is
// the user's: init appends hook.enable lines to it only when the user named
// handlers with -enable or said yes at the prompt.
func toolingrcStep(root string, o options) ([]step, []note, error) {
	path := filepath.Join(root, ".toolingrc")
	data, err := os.ReadFile(path)
	exists := err == nil
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	if exists && strings.Contains(string(data), "hook.enable") && len(o.Enable) == 0 {
		return nil, nil, nil
	}
	names := o.Enable
	asked := false
	if len(names) == 0 {
		if names, asked, err = askHandlers(o); err != nil {
			return nil, nil, err
		}
	}
	if err := checkNames(names); err != nil {
		return nil, nil, err
	}
	var missing []string
	for _, n := range names {
		if !enables(string(data), n) {
			missing = append(missing, n)
		}
	}
	if len(missing) == 0 {
		return nil, nil, nil
	}
	var lines strings.Builder
	for _, n := range missing {
		lines.WriteString("hook.enable " + n + "\n")
	}
	if !exists {
		text := "# magehook's configuration (README: Configuration). One key and value per line.\n" + lines.String()
		return []step{{what: "write .toolingrc enabling " + strings.Join(missing, ", "), text: text, do: func() error { return writeNew(path, text) }}}, nil, nil
	}
	if len(o.Enable) == 0 && !asked {
		return nil, []note{{text: ".toolingrc is your own and enables no handler, so no gate is on: add the ones you want (or run init again with -enable=" + strings.Join(missing, ",") + " to append them):\n\n" + lines.String()}}, nil
	}
	return []step{{what: "append to .toolingrc: enable " + strings.Join(missing, ", "), text: lines.String(), do: func() error {
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			return err
		}
		prefix := ""
		if len(data) > 0 && data[len(data)-1] != '\n' {
			prefix = "\n"
		}
		_, err = io.WriteString(f, prefix+lines.String())
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		return err
	}}}, nil, nil
}

// enables reports whether a .toolingrc text already enables name.
func enables(text, name string) bool {
	for _, line := range strings.Split(text, "\n") {
		if f := strings.Fields(line); len(f) == 2 && f[0] == "hook.enable" && f[1] == name {
			return true
		}
	}
	return false
}

// askHandlers asks on a terminal which handlers to enable, again (up to
// three times) when an answer names one the catalogue does not have;
// without a terminal it returns the defaults.
func askHandlers(o options) (names []string, asked bool, err error) {
	if !o.terminal(o.Stdin) {
		return defaultHandlers, false, nil
	}
	fmt.Fprintln(o.Stderr, "The catalogue:")
	for _, h := range hooks.All() {
		fmt.Fprintf(o.Stderr, "  %-14s %s\n", h.Name, h.Purpose)
	}
	in := bufio.NewReader(o.Stdin)
	for try := 1; ; try++ {
		fmt.Fprintf(o.Stderr, "Handlers to enable, comma-separated [%s]: ", strings.Join(defaultHandlers, ","))
		line, err := in.ReadString('\n')
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, false, err
		}
		names = nil
		for _, n := range strings.Split(line, ",") {
			if n = strings.TrimSpace(n); n != "" {
				names = append(names, n)
			}
		}
		if len(names) == 0 {
			return defaultHandlers, true, nil
		}
		cerr := checkNames(names)
		if cerr == nil || try == 3 || errors.Is(err, io.EOF) {
			return names, true, cerr
		}
		fmt.Fprintln(o.Stderr, "magehook init:", cerr)
	}
}

// stdinTerminal reports whether r is a terminal init can ask on.
func stdinTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	return ok && isTerminal(f)
}

// checkNames refuses names the catalogue does not have.
func checkNames(names []string) error {
	var known []string
	for _, h := range hooks.All() {
		known = append(known, h.Name)
	}
	sort.Strings(known)
	for _, n := range names {
		if i := sort.SearchStrings(known, n); i == len(known) || known[i] != n {
			return fmt.Errorf("no handler %q in the catalogue (%s); a handler of your own magefile is enabled by adding hook.enable %s to .toolingrc", n, strings.Join(known, ", "), n)
		}
	}
	return nil
}

// writeNew creates path with text, refusing to replace anything.
func writeNew(path, text string) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	_, err = io.WriteString(f, text)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// goCommand runs the go command, its output on stderr, saying every few
// seconds that it still runs: the go command is silent while it compiles,
// and a first compile on a fresh machine takes up to a minute.
func goCommand(o options, args ...string) error {
	return runGo(o, false, args...)
}

// runGo runs the go command as goCommand does; quiet discards its stdout.
func runGo(o options, quiet bool, args ...string) error {
	ticks, stop := o.ticker()
	defer stop()
	return progress(o.Stderr, "go "+strings.Join(args, " "), heartbeat, ticks, func(w io.Writer) error {
		out := w
		if quiet {
			out = io.Discard
		}
		_, err := script.NewPipe().WithStdout(out).WithStderr(w).ExecCommand("go", args...).Stdout()
		return err
	})
}

// heartbeat is how often a silent step says it still runs.
const heartbeat = 5 * time.Second

func realTicker() (<-chan time.Time, func()) {
	t := time.NewTicker(heartbeat)
	return t.C, t.Stop
}

// progress runs fn, writing "still running" to w at every tick (each tick
// counted as one interval) until fn returns. fn's own output goes to w
// through the same lock.
func progress(w io.Writer, what string, interval time.Duration, ticks <-chan time.Time, fn func(io.Writer) error) error {
	lw := &lockedWriter{w: w}
	done := make(chan error, 1)
	go func() { done <- fn(lw) }()
	for n := 1; ; n++ {
		select {
		case err := <-done:
			return err
		case <-ticks:
			fmt.Fprintf(lw, "magehook init: %s still running (%s)\n", what, time.Duration(n)*interval)
		}
	}
}

type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func rel(root, path string) string {
	if r, err := filepath.Rel(root, path); err == nil {
		return r
	}
	return path
}
