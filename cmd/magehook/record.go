package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	"github.com/bitfield/script"

	"github.com/magehook/magehook/pkg/harness"
)

// The record of an init: what each file init (and the install it runs)
// may write held before, and what it held when init finished. uninstall
// puts back what nobody changed since and says what it leaves. It lives in
// the repository's git directory, never in the working tree: a trial and
// its undo leave the tree byte for byte as it was.
type record struct {
	// Files maps a path relative to the root to its state.
	Files map[string]fileState `json:"files"`
	// Dirs are the directories that did not exist before init.
	Dirs []string `json:"dirs"`
}

type fileState struct {
	// Before is the file's bytes before init; nil when it did not exist.
	Before *[]byte `json:"before"`
	// After is what init left; nil when it left no file.
	After *[]byte `json:"after"`
}

// recorded are the paths init and its install may write, relative to the
// root, and the directories they may make.
func recorded() (files, dirs []string) {
	files = []string{"go.mod", "go.sum", "magefiles/go.mod", "magefiles/go.sum", "magefiles/go.work", "magefiles/magefile.go",
		".toolingrc", ".gitignore", "bin/magehook"}
	dirs = []string{"magefiles", "bin", ".magehook"}
	for _, h := range harness.All() {
		files = append(files, filepath.ToSlash(h.File))
		for d := filepath.Dir(h.File); d != "."; d = filepath.Dir(d) {
			dirs = append(dirs, filepath.ToSlash(d))
		}
	}
	return files, dirs
}

// recordPath is where a checkout's record lives: its git directory.
func recordPath(root string) (string, error) {
	out, err := script.Exec("git -C " + shellArg(root) + " rev-parse --absolute-git-dir").WithStderr(io.Discard).String()
	if err != nil {
		return "", errors.New("not inside a git repository")
	}
	return filepath.Join(strings.TrimSpace(out), "magehook", "init.json"), nil
}

func shellArg(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

func readState(path string) *[]byte {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	return &data
}

// snapshot is the record's before half, read before init changes
// anything. A record left by an earlier init keeps its before: the undo
// goes back to the tree before the first init.
func snapshot(root string) (*record, error) {
	path, err := recordPath(root)
	if err != nil {
		return nil, err
	}
	if data, err := os.ReadFile(path); err == nil {
		var r record
		if err := json.Unmarshal(data, &r); err != nil {
			return nil, fmt.Errorf("%s: %v (remove it to start a new record)", path, err)
		}
		return &r, nil
	}
	files, dirs := recorded()
	r := &record{Files: map[string]fileState{}}
	for _, f := range files {
		r.Files[f] = fileState{Before: readState(filepath.Join(root, filepath.FromSlash(f)))}
	}
	for _, d := range dirs {
		if _, err := os.Lstat(filepath.Join(root, filepath.FromSlash(d))); errors.Is(err, os.ErrNotExist) {
			r.Dirs = append(r.Dirs, d)
		}
	}
	sort.Strings(r.Dirs)
	return r, nil
}

// save writes the record's after half: the tree as init left it.
func (r *record) save(root string) error {
	for f, s := range r.Files {
		s.After = readState(filepath.Join(root, filepath.FromSlash(f)))
		r.Files[f] = s
	}
	path, err := recordPath(root)
	if err != nil {
		return err
	}
	data, err := json.Marshal(r)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}

func same(a, b *[]byte) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return bytes.Equal(*a, *b)
}

// uninstall undoes init in the repository around the current directory:
// each file init wrote or changed goes back to what it was when nobody
// changed it since; a .gitignore changed since loses only the lines init
// added; a harness file changed since keeps everything but magehook's
// entries (hook:uninstall); anything else changed since is left, and said.
// The directories init made go when they are empty, the state directory
// (the trial's logs) with everything in it.
func uninstall(o options) error {
	root, err := script.Exec("git rev-parse --show-toplevel").WithStderr(io.Discard).String()
	if err != nil {
		return errors.New("not inside a git repository: uninstall undoes magehook init in the repository it ran in")
	}
	root = strings.TrimSpace(root)
	path, err := recordPath(root)
	if err != nil {
		return err
	}
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("no record of magehook init in %s (%s): nothing to undo; go tool mage hook:uninstall removes installed entries by hand", root, path)
	}
	if err != nil {
		return err
	}
	var r record
	if err := json.Unmarshal(data, &r); err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	say := func(format string, a ...any) { fmt.Fprintf(o.Stderr, "magehook uninstall: "+format+"\n", a...) }
	var left []string
	names := make([]string, 0, len(r.Files))
	for f := range r.Files {
		names = append(names, f)
	}
	sort.Strings(names)
	bin := filepath.Join(root, "bin", "magehook")
	handled := map[string]bool{}
	// Harness files changed since init keep their own content: the
	// binary's hook:uninstall takes magehook's entries out, first, while
	// the binary is there.
	for _, h := range harness.All() {
		f := filepath.ToSlash(h.File)
		s, ok := r.Files[f]
		now := readState(filepath.Join(root, filepath.FromSlash(f)))
		if !ok || same(now, s.After) || same(now, s.Before) || now == nil {
			continue
		}
		if o.DryRun {
			say("would run bin/magehook hook:uninstall -harness=%s (%s changed since init: only magehook's entries go)", h.Name, f)
			continue
		}
		cmd := exec.Command(bin, "hook:uninstall", "-harness="+h.Name)
		cmd.Dir, cmd.Stdout, cmd.Stderr = root, o.Stderr, o.Stderr
		if err := cmd.Run(); err != nil {
			left = append(left, f+" (changed since init, and hook:uninstall failed: "+err.Error()+")")
			continue
		}
		handled[f] = true
		say("%s changed since init: removed magehook's entries only", f)
	}
	for _, f := range names {
		s := r.Files[f]
		full := filepath.Join(root, filepath.FromSlash(f))
		now := readState(full)
		switch {
		case handled[f]:
			continue
		case same(now, s.Before):
			continue // as it was (init did not touch it, or it is back)
		case f == "bin/magehook" && s.Before == nil:
			// The build's output, whatever build made it.
			if !o.DryRun {
				if err := os.Remove(full); err != nil {
					return err
				}
			}
			say("remove %s (the hook binary)", f)
		case same(now, s.After):
			if o.DryRun {
				say("would restore %s", f)
				continue
			}
			if s.Before == nil {
				if err := os.Remove(full); err != nil {
					return err
				}
				say("remove %s (init wrote it)", f)
				continue
			}
			if err := writeOver(full, *s.Before); err != nil {
				return err
			}
			say("restore %s (as it was before init)", f)
		case f == ".gitignore" && now != nil && s.After != nil:
			text := withoutAddedLines(string(*now), s.Before, string(*s.After))
			if o.DryRun {
				say("would remove the lines init added from .gitignore")
				continue
			}
			if err := writeOver(full, []byte(text)); err != nil {
				return err
			}
			say(".gitignore changed since init: removed the lines init added, kept the rest")
		default:
			left = append(left, f+" (changed since init: yours now)")
		}
	}
	// Directories init made, deepest first: the state directory holds
	// only what the trial logged; the others go when empty.
	dirs := append([]string{}, r.Dirs...)
	sort.Sort(sort.Reverse(sort.StringSlice(dirs)))
	for _, d := range dirs {
		full := filepath.Join(root, filepath.FromSlash(d))
		if _, err := os.Lstat(full); err != nil {
			continue
		}
		if o.DryRun {
			say("would remove %s/ if empty", d)
			continue
		}
		if d == ".magehook" {
			if err := os.RemoveAll(full); err != nil {
				return err
			}
			say("remove %s/ (the state directory: the trial's logs and backups)", d)
			continue
		}
		if err := os.Remove(full); err != nil {
			left = append(left, d+"/ (not empty: it holds files init did not write)")
			continue
		}
		say("remove %s/", d)
	}
	for _, l := range left {
		say("left %s", l)
	}
	if o.DryRun {
		return nil
	}
	if err := os.Remove(path); err != nil {
		return err
	}
	os.Remove(filepath.Dir(path)) // the git directory's magehook/, when nothing else is in it
	if len(left) == 0 {
		say("done: the repository is as it was before magehook init")
	} else {
		say("done, but %d path(s) left as named above", len(left))
	}
	return nil
}

// withoutAddedLines removes from now the lines after has and before did
// not: the lines init added to a file someone changed since.
func withoutAddedLines(now string, before *[]byte, after string) string {
	had := map[string]bool{}
	if before != nil {
		for _, l := range strings.Split(string(*before), "\n") {
			had[l] = true
		}
	}
	added := map[string]bool{}
	for _, l := range strings.Split(after, "\n") {
		if !had[l] && l != "" {
			added[l] = true
		}
	}
	var out []string
	for _, l := range strings.SplitAfter(now, "\n") {
		if !added[strings.TrimSuffix(l, "\n")] {
			out = append(out, l)
		}
	}
	return strings.Join(out, "")
}

// writeOver replaces path's bytes, keeping its mode.
func writeOver(path string, data []byte) error {
	mode := os.FileMode(0o644)
	if info, err := os.Stat(path); err == nil {
		mode = info.Mode().Perm()
	}
	return os.WriteFile(path, data, mode)
}
