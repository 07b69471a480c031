//go:build unix

package configguard

import (
	"os"
	"syscall"
)

// manyLinks reports a file with more than one name (hard links).
func manyLinks(info os.FileInfo) bool {
	st, ok := info.Sys().(*syscall.Stat_t)
	return !ok || st.Nlink > 1
}
