package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strings"

	"github.com/bitfield/script"

	"github.com/magehook/magehook/hooks"
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
	Stdin     io.Reader
	Stdout    io.Writer
	Stderr    io.Writer
}

// step is one change init makes: a line saying what, and the work.
type step struct {
	what string
	do   func() error
}

// adopt plans every step, prints the plan under -dryrun, and otherwise
// runs it in order, stopping at the first failure.
func adopt(o options) error {
	root, err := script.Exec("git rev-parse --show-toplevel").WithStderr(io.Discard).String()
	if err != nil {
		return errors.New("not inside a git repository: run git init first (magehook wires a git checkout)")
	}
	root = strings.TrimSpace(root)
	if err := os.Chdir(root); err != nil {
		return err
	}
	steps, notes, err := plan(root, o)
	if err != nil {
		return err
	}
	blocked := false
	for _, n := range notes {
		fmt.Fprintln(o.Stderr, n)
		blocked = blocked || strings.Contains(n, "//mage:import")
	}
	if len(steps) == 0 {
		fmt.Fprintln(o.Stderr, "magehook init: "+root+" is already set up")
	}
	for _, s := range steps {
		if o.DryRun {
			fmt.Fprintln(o.Stdout, "would "+s.what)
			continue
		}
		fmt.Fprintln(o.Stderr, "magehook init: "+s.what)
		if err := s.do(); err != nil {
			return fmt.Errorf("%s: %w", s.what, err)
		}
	}
	if blocked {
		return errors.New("the magefile does not import the plugin: add the import shown above, then run magehook init again")
	}
	if o.DryRun || o.NoInstall {
		return nil
	}
	fmt.Fprintln(o.Stderr, "magehook init: go tool mage hook:install -harness="+o.Harness+" (builds bin/magehook; the first build takes a while)")
	if err := goCommand(o, "tool", "mage", "hook:install", "-harness="+o.Harness); err != nil {
		return fmt.Errorf("go tool mage hook:install: %w", err)
	}
	fmt.Fprintln(o.Stderr, "magehook init: done. Commit go.mod, go.sum, magefiles/, .toolingrc, .gitignore and the settings file; teammates run go tool mage hook:install after cloning.")
	return nil
}

// modInfo is what go mod edit -json prints, as far as init reads it.
type modInfo struct {
	Module  struct{ Path string }
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

func (m modInfo) replaced(path string) bool {
	for _, r := range m.Replace {
		if r.Old.Path == path {
			return true
		}
	}
	return false
}

func plan(root string, o options) (steps []step, notes []string, err error) {
	var mod modInfo
	if _, err := os.Stat(filepath.Join(root, "go.mod")); errors.Is(err, os.ErrNotExist) {
		name := modulePath(filepath.Base(root))
		steps = append(steps, step{"go mod init " + name, func() error { return goCommand(o, "mod", "init", name) }})
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
	if !mod.hasTool(MageModule) {
		steps = append(steps, step{"go get -tool " + MageModule + "@" + MageVersion, func() error {
			return goCommand(o, "get", "-tool", MageModule+"@"+MageVersion)
		}})
	}
	switch {
	case o.Replace != "":
		dir, err := filepath.Abs(o.Replace)
		if err != nil {
			return nil, nil, err
		}
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err != nil {
			return nil, nil, fmt.Errorf("-replace=%s: no go.mod there; name a checkout of %s", o.Replace, Module)
		}
		if !mod.replaced(Module) {
			steps = append(steps, step{"go mod edit -replace " + Module + "=" + dir + " (do not commit a directory replace: teammates' builds break)", func() error {
				return goCommand(o, "mod", "edit", "-require="+Module+"@v0.0.0-00010101000000-000000000000", "-replace="+Module+"="+dir)
			}})
		}
	case !mod.requires(Module):
		v := ownVersion()
		if v == "" {
			return nil, nil, fmt.Errorf("this init was not run as go run %s/cmd/magehook@<version>, so it cannot tell which version to require: pass -replace=<a checkout of magehook>", Module)
		}
		steps = append(steps, step{"go get " + Module + "@" + v, func() error { return goCommand(o, "get", Module+"@"+v) }})
	}

	s, n, err := magefileStep(root, o)
	if err != nil {
		return nil, nil, err
	}
	steps, notes = append(steps, s...), append(notes, n...)

	s, n, err = toolingrcStep(root, o)
	if err != nil {
		return nil, nil, err
	}
	steps, notes = append(steps, s...), append(notes, n...)

	if len(steps) > 0 {
		steps = append(steps, step{"go mod tidy", func() error { return goCommand(o, "mod", "tidy") }})
	}
	return steps, notes, nil
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
// event) are what the agents run; the others are yours (go tool mage -h
// <target> tells more). Add handlers to targets.Local in an init function
// and enable them by name in .toolingrc.
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
// magefile, and leaves the user's own one alone.
func magefileStep(root string, o options) ([]step, []string, error) {
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
		if _, err := os.Stat(filepath.Join(root, "magefile.go")); err == nil {
			return nil, []string{"magehook init: " + filepath.Join(root, "magefile.go") + " is a magefile of your own; add the plugin to it:\n\n\t//mage:import\n\t\"" + pluginPath + "\"\n"}, nil
		}
		path := filepath.Join(dir, "magefile.go")
		return []step{{"write " + rel(root, path) + " (the plugin's import and a Bootstrap target)", func() error {
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
	return nil, []string{"magehook init: magefiles/ is your own and does not import the plugin; add to one of its files:\n\n\t//mage:import\n\t\"" + pluginPath + "\"\n"}, nil
}

// toolingrcStep writes .toolingrc when there is none. An existing one is
// the user's: init appends hook.enable lines to it only when the user named
// handlers with -enable or said yes at the prompt.
func toolingrcStep(root string, o options) ([]step, []string, error) {
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
		return []step{{"write .toolingrc enabling " + strings.Join(missing, ", "), func() error { return writeNew(path, text) }}}, nil, nil
	}
	if len(o.Enable) == 0 && !asked {
		return nil, []string{"magehook init: .toolingrc is your own; add the handlers you want:\n\n" + lines.String()}, nil
	}
	return []step{{"append to .toolingrc: enable " + strings.Join(missing, ", "), func() error {
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

// askHandlers asks on a terminal which handlers to enable; without one it
// returns the defaults.
func askHandlers(o options) (names []string, asked bool, err error) {
	f, ok := o.Stdin.(*os.File)
	if !ok || !isTerminal(f) {
		return defaultHandlers, false, nil
	}
	fmt.Fprintln(o.Stderr, "The catalogue:")
	for _, h := range hooks.All() {
		fmt.Fprintf(o.Stderr, "  %-14s %s\n", h.Name, h.Purpose)
	}
	fmt.Fprintf(o.Stderr, "Handlers to enable, comma-separated [%s]: ", strings.Join(defaultHandlers, ","))
	line, err := bufio.NewReader(f).ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, false, err
	}
	line = strings.TrimSpace(line)
	if line == "" {
		return defaultHandlers, true, nil
	}
	for _, n := range strings.Split(line, ",") {
		if n = strings.TrimSpace(n); n != "" {
			names = append(names, n)
		}
	}
	return names, true, nil
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
			return fmt.Errorf("-enable: no handler %q in the catalogue (%s); a handler of your own magefile is enabled by adding hook.enable %s to .toolingrc", n, strings.Join(known, ", "), n)
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

// goCommand runs the go command, its output on stderr.
func goCommand(o options, args ...string) error {
	_, err := script.NewPipe().WithStdout(o.Stderr).WithStderr(o.Stderr).ExecCommand("go", args...).Stdout()
	return err
}

func rel(root, path string) string {
	if r, err := filepath.Rel(root, path); err == nil {
		return r
	}
	return path
}
