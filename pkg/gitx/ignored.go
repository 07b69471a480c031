package gitx

import (
	"path/filepath"
	"strings"
)

// Ignored reports whether git ignores path in the checkout at root: an
// untracked path a .gitignore, .git/info/exclude or core.excludesFile
// names (a directory's path with dir set). A tracked file is never
// ignored, whatever the patterns say: a change to it is a change git sees.
// It asks git (one process), so gates call it only on the way to a
// denial; an error (no git, not a checkout) is not ignored.
func Ignored(root, path string, dir bool) bool {
	if dir && !strings.HasSuffix(path, string(filepath.Separator)) {
		path += string(filepath.Separator)
	}
	// Output to nothing (no pipe to copy: no goroutine on a gate's path).
	cmd := Command("-C", root, "check-ignore", "-q", "--", path)
	return cmd.Run() == nil
}
