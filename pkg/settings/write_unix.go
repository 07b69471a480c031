//go:build unix

package settings

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

const oNoFollow = syscall.O_NOFOLLOW

// hardLinks is how many names the file has.
func hardLinks(info fs.FileInfo) uint64 {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}

// keepOwner gives f the owner and group of the file it replaces. Only
// root can give a file away; anyone else's new file is theirs already,
// and a group they are not in is left as the system chose.
func keepOwner(f *os.File, info fs.FileInfo) error {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return nil
	}
	err := f.Chown(int(st.Uid), int(st.Gid))
	if err != nil && os.Geteuid() != 0 && errors.Is(err, fs.ErrPermission) {
		return nil
	}
	return err
}

// foreign refuses a file that belongs to another user, or that this user
// may not write: replacing it (a rename in a directory the user can
// write) would make it this user's, and its owner would lose it (a
// group-shared checkout, a root-owned 0644 file). Root may replace any
// file, and keeps its owner, group and mode (keepOwner, prepare).
func foreign(path, abs string, info fs.FileInfo) error {
	st, ok := info.Sys().(*syscall.Stat_t)
	euid := os.Geteuid()
	if !ok || euid == 0 {
		return nil
	}
	if int(st.Uid) != euid {
		return fmt.Errorf("%s belongs to user %d, not to you (user %d): magehook does not replace another user's file, which would become yours; ask its owner to install, or install into a scope of your own (-scope=local)", path, st.Uid, euid)
	}
	if err := syscall.Access(abs, 2 /* W_OK */); err != nil {
		return fmt.Errorf("%s is not writable by you (%v); make it writable if magehook should change it", path, err)
	}
	return nil
}

// alive reports whether a process with this id exists.
func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// syncDir makes a rename in dir durable.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}
