//go:build unix

package toolingrc

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// untrusted says why a .toolingrc above the repository is not the user's
// alone ("" when it is). The file, and every directory from its own up to
// the filesystem root, must belong to the user (euid) or to root, and
// nobody else may be able to write them: a directory others can write
// lets them rename the file away and put theirs in its place, unless its
// sticky bit keeps them to their own entries (/tmp). A file reached
// through symbolic links is judged where it lives and where it is named,
// both chains.
func untrusted(path string, euid int) string {
	if why := dirChain(filepath.Dir(path), euid); why != "" {
		return why
	}
	resolved, err := filepath.EvalSymlinks(path)
	if err != nil {
		return "cannot be examined (" + err.Error() + ")"
	}
	if resolved != path {
		if why := dirChain(filepath.Dir(resolved), euid); why != "" {
			return why + " (where the symbolic link " + path + " leads)"
		}
	}
	info, err := os.Lstat(resolved)
	if err != nil {
		return "cannot be examined (" + err.Error() + ")"
	}
	if why := owned(info, euid); why != "" {
		return why
	}
	if info.Mode().Perm()&0o022 != 0 {
		return fmt.Sprintf("others can write it (mode %04o)", info.Mode().Perm())
	}
	return ""
}

// dirChain checks dir and each directory above it. A symbolic link on the
// way is not judged by its own mode (links have none): its parent,
// checked next, decides who can replace it, and EvalSymlinks'
// chain covers where it leads.
func dirChain(dir string, euid int) string {
	for d := filepath.Clean(dir); ; {
		info, err := os.Lstat(d)
		if err != nil {
			return "its directory " + d + " cannot be examined (" + err.Error() + ")"
		}
		if info.Mode()&os.ModeSymlink == 0 {
			if why := owned(info, euid); why != "" {
				return "its directory " + d + " " + why
			}
			if info.Mode().Perm()&0o022 != 0 && info.Mode()&os.ModeSticky == 0 {
				return fmt.Sprintf("its directory %s can be written by others (mode %04o, no sticky bit)", d, info.Mode().Perm())
			}
		}
		parent := filepath.Dir(d)
		if parent == d {
			return ""
		}
		d = parent
	}
}

// owned is "" when the file belongs to euid or to root.
func owned(info os.FileInfo, euid int) string {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return "" // no owner to read
	}
	if int(st.Uid) != euid && st.Uid != 0 {
		return fmt.Sprintf("belongs to another user (uid %d, not %d or root)", st.Uid, euid)
	}
	return ""
}

func geteuid() int { return os.Geteuid() }
