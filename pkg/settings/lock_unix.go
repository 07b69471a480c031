//go:build unix

package settings

import (
	"encoding/hex"
	"hash/fnv"
	"os"
	"path/filepath"
	"syscall"
)

// lock serialises magehook's own writers of one settings file with an
// advisory lock on a file in the temporary directory (never next to the
// settings). Other tools do not take it; the re-read before the rename
// protects against them.
func lock(target string) (func(), error) {
	h := fnv.New64a()
	h.Write([]byte(target))
	name := filepath.Join(os.TempDir(), "magehook-settings-"+hex.EncodeToString(h.Sum(nil))+".lock")
	f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return func() {}, nil // no lock is no worse than another tool writing
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return func() {}, nil
	}
	return func() {
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}
