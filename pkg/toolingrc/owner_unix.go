//go:build unix

package toolingrc

import (
	"os"
	"syscall"
)

// untrusted says why a file is not the user's alone ("" when it is):
// owned by another user than the one running (or root), or writable by
// its group or by anyone.
func untrusted(path string) string {
	info, err := os.Stat(path)
	if err != nil {
		return "cannot be examined (" + err.Error() + ")"
	}
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		if uid := uint32(os.Getuid()); st.Uid != uid && st.Uid != 0 {
			return "belongs to another user"
		}
	}
	if info.Mode().Perm()&0o022 != 0 {
		return "others can write it"
	}
	return ""
}
