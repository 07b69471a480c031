package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/magehook/magehook/hooks"
)

const magefileText = `//go:build mage

` + writtenMark + ` It is yours now: add targets and handlers.

// This repository's build, and its coding agents' hook runner: the import
// gives it magehook's targets. The hook:<event> targets (one per agent
// event) are what the agents run; the others are for you to run (-h
// <target> tells more; start with hook:replay and doctor). Add
// handlers with var _ = targets.Register(h) and enable them by name in
// .toolingrc.
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
		text := "# magehook's configuration (docs/configuration.md). One key and value per line.\n" + lines.String()
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

// defaults are the handlers enabled when the user names none: for the
// user scope, the gate and the session's clock only (auditlog would write
// its log into every repository with a .toolingrc of its own).
func (o options) defaults() []string {
	if o.User {
		return userDefaultHandlers
	}
	return defaultHandlers
}

var userDefaultHandlers = []string{"sessionclock", "branchguard"}

// askHandlers asks on a terminal which handlers to enable, again (up to
// three times) when an answer names one the catalogue does not have;
// without a terminal it returns the defaults.
func askHandlers(o options) (names []string, asked bool, err error) {
	if !o.terminal(o.Stdin) {
		return o.defaults(), false, nil
	}
	fmt.Fprintln(o.Stderr, "The catalogue:")
	for _, h := range hooks.All() {
		fmt.Fprintf(o.Stderr, "  %-14s %s\n", h.Name, h.Purpose)
	}
	in := bufio.NewReader(o.Stdin)
	for try := 1; ; try++ {
		fmt.Fprintf(o.Stderr, "Handlers to enable, comma-separated [%s]: ", strings.Join(o.defaults(), ","))
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
			return o.defaults(), true, nil
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
