package configguard

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/pwsh"
	"github.com/magehook/magehook/pkg/realpath"
)

// powershell judges a PowerShell command: the files its cmdlets and
// redirections write (a directory as the tree it holds), the native
// commands it runs (git, python -c, tar, ... read as the shell analysis
// reads them), and a command that names a guarded file in a part pkg/pwsh
// cannot see into. It returns the reasons found so far and the plain
// paths left for the caller to judge.
func (g *guard) powershell(c *hook.Call, command, dir string) ([]string, []string, error) {
	p := c.Payload
	a, err := pwsh.Analyze(command, dir, c.Getenv)
	blind := a.Opaque
	if err != nil {
		blind = []string{err.Error()}
	}
	var reasons, paths []string
	into := map[string]string{} // a copy's destination directory: what lands in it
	for _, cp := range a.Copies {
		if isDir(cp.Dest) {
			into[cp.Dest] = filepath.Join(cp.Dest, filepath.Base(cp.Src))
		}
	}
	writes := a.Writes
	for _, aw := range a.Alt {
		if _, err := os.Stat(aw.If); err != nil {
			writes = append(writes, aw.Path) // the Set-Location failed
		}
	}
	for _, w := range writes {
		if landed, ok := into[w]; ok {
			// Copy-Item x dir: dir/x, and what is below it when x is a
			// directory.
			what, err := g.under(landed)
			if err != nil {
				return nil, nil, err
			}
			if what != "" {
				reasons = append(reasons, fmt.Sprintf("%s would change %s, %s", p.ToolName, landed, what))
			}
			continue
		}
		switch {
		case strings.ContainsAny(w, "$("):
			// A path computed at run time: judged as the blind parts.
			blind = append(blind, "a path computed at run time: "+w)
		case isDir(w):
			// Move-Item, Rename-Item, Remove-Item -Recurse, Copy-Item
			// into it: the tree as a whole.
			what, err := g.under(w)
			if err != nil {
				return nil, nil, err
			}
			if what != "" {
				reasons = append(reasons, fmt.Sprintf("%s would change %s, %s", p.ToolName, w, what))
			}
		default:
			paths = append(paths, w)
		}
	}
	for _, t := range a.Trees {
		what, err := g.tree(t)
		if err != nil {
			return nil, nil, err
		}
		if what != "" {
			reasons = append(reasons, fmt.Sprintf("%s would change %s, %s", p.ToolName, t.Path, what))
		}
	}
	// A writing cmdlet fed paths this reader cannot follow may reach any
	// file, the guarded ones included (a relative path from here, an
	// absolute one anywhere): it is denied whatever the command names.
	for _, u := range a.Unknown {
		reasons = append(reasons, fmt.Sprintf("%s: %s, so configguard cannot tell whether it changes a file that configures magehook's gates; name the files in the command", p.ToolName, u))
	}
	// The native commands it runs (git, python -c, tar, cp, ...) are
	// judged as a shell would run them; text that is not shell syntax
	// adds nothing.
	if more, err := g.shell(c, command, dir); err == nil {
		reasons = append(reasons, more...)
	}
	if len(blind) > 0 && g.mentioned(command) {
		reasons = append(reasons, fmt.Sprintf("PowerShell names a file that configures magehook's gates in a part configguard cannot see into (%s)", strings.Join(blind, "; ")))
	}
	return reasons, paths, nil
}

// tree judges what a listing cmdlet hands a writing one (pwsh.Tree): the
// matches of its path, or the entries in each that is a directory, whose
// names pass its filters; an entry that is a guarded file, or (for a
// writer that changes what is below) holds one, is guarded.
func (g *guard) tree(t pwsh.Tree) (string, error) {
	bases := []string{t.Path}
	if hasMeta(t.Path) {
		var complete bool
		if bases, complete = glob(t.Path, 10000); !complete {
			return g.under(globBase(t.Path))
		}
	}
	named := func(name string) bool {
		for _, n := range t.Names {
			if !matchName(n, name) {
				return false
			}
		}
		return true
	}
	for _, b := range bases {
		if !t.Children || !isDir(b) {
			if !named(filepath.Base(b)) {
				continue
			}
			what, err := g.guarded("", b)
			if what == "" && err == nil && t.Subtree {
				what, err = g.under(b)
			}
			if what != "" || err != nil {
				return what, err
			}
			continue
		}
		top, err := realpath.Resolve(b)
		if err != nil {
			return "", fmt.Errorf("cannot resolve %s: %w", b, err)
		}
		for _, f := range g.existing() {
			for _, dir := range []string{top, filepath.Clean(b)} {
				if !within(f, dir) || foldPath(f) == foldPath(dir) {
					continue
				}
				rel := split(strings.TrimPrefix(foldPath(f), foldPath(dir)))
				last := 0
				if t.Recurse {
					last = len(rel) - 1
				}
				for k := 0; k <= last && k < len(rel); k++ {
					if named(rel[k]) && (k == len(rel)-1 || t.Subtree) {
						return "which holds " + f + ", " + g.what(f), nil
					}
				}
			}
		}
	}
	return "", nil
}
