package branchguard

import (
	"fmt"
	"strings"

	"github.com/magehook/magehook/pkg/gitrepo"
	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/pwsh"
)

// powershell returns why a PowerShell command would change a protected
// branch: each git commit and push it runs, judged in its directory like
// Bash's. What the reader cannot see into (a command that does not parse,
// Invoke-Expression, a computed command, a nested shell) fails closed on a
// protected branch, and elsewhere when it mentions git at all.
func powershell(c *hook.Call, protected map[string]bool) ([]string, error) {
	command, ok := c.Payload.InputString("command")
	if !ok {
		return nil, fmt.Errorf("a PowerShell payload without tool_input.command")
	}
	a, err := pwsh.Analyze(command, c.Payload.CWD)
	var blind []string
	if err != nil {
		blind = []string{err.Error()}
	} else {
		blind = a.Opaque
	}
	var reasons []string
	if len(blind) > 0 {
		branch, root := "", ""
		if repo, err := gitrepo.Find(c.Payload.CWD); err == nil {
			branch, root = repo.Branch, repo.Root
		}
		switch {
		case protected[branch]:
			reasons = append(reasons, fmt.Sprintf("branchguard cannot see what this PowerShell command runs (%s) on the protected branch %s of %s", strings.Join(blind, "; "), branch, root))
		case strings.Contains(strings.ToLower(command), "git"):
			reasons = append(reasons, fmt.Sprintf("branchguard cannot see which repository the git in this PowerShell command acts on (%s); run git directly, with git -C <dir>", strings.Join(blind, "; ")))
		}
	}
	for _, g := range a.Git {
		if g.DirUnknown {
			reasons = append(reasons, fmt.Sprintf("git %s runs in a directory the command computes at run time, so branchguard cannot tell its branch; name the repository with git -C <dir>", g.Op))
			continue
		}
		repo, err := gitrepo.Find(g.Dir)
		if err == gitrepo.ErrNotRepo {
			continue
		}
		if err != nil {
			return nil, err
		}
		if protected[repo.Branch] {
			reasons = append(reasons, fmt.Sprintf("git %s would run on the protected branch %s of %s", g.Op, repo.Branch, repo.Root))
		}
	}
	return reasons, nil
}
