package configguard

import (
	"fmt"
	"strings"

	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/pwsh"
)

// powershell judges a PowerShell command: the files its cmdlets and
// redirections write (a directory as the tree it holds), the native
// commands it runs (git, python -c, tar, ... read as the shell analysis
// reads them), and a command that names a guarded file in a part pkg/pwsh
// cannot see into. It returns the reasons found so far and the plain
// paths left for the caller to judge.
func (g *guard) powershell(c *hook.Call, command, dir string) ([]string, []string, error) {
	p := c.Payload
	a, err := pwsh.Analyze(command, dir)
	blind := a.Opaque
	if err != nil {
		blind = []string{err.Error()}
	}
	var reasons, paths []string
	for _, w := range a.Writes {
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
