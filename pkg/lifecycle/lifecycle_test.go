package lifecycle_test

import (
	"testing"

	"github.com/magehook/magehook/pkg/lifecycle"
)

// HOOK-WORKTREE-2: the hint splits the path at its last base segment;
// without the segment, or with nothing after it, there is no command.
func TestSplitWorktreePath(t *testing.T) {
	for _, c := range []struct {
		path, base, root, name string
		ok                     bool
	}{
		{"/r/.claude/worktrees/team/wt-1", ".claude/worktrees", "/r", "team/wt-1", true},
		{"/r/trees/wt-2", "trees", "/r", "wt-2", true},
		{"/r/.claude/worktrees/a/.claude/worktrees/b", ".claude/worktrees", "/r/.claude/worktrees/a", "b", true},
		{"/r/plain", ".claude/worktrees", "", "", false},
		{"/r/.claude/worktrees/", ".claude/worktrees", "", "", false},
	} {
		root, name, ok := lifecycle.SplitWorktreePath(c.path, c.base)
		if root != c.root || name != c.name || ok != c.ok {
			t.Errorf("SplitWorktreePath(%q, %q) = %q, %q, %v", c.path, c.base, root, name, ok)
		}
	}
}
