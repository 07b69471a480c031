//go:build linux

package worktree

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"time"
)

// stopOrphans stops the processes of a bootstrap that a killed create
// left running in the worktree at path (WT-SAFETY-2), and returns how
// many it found. A bootstrap's processes carry MAGEHOOK_BOOTSTRAP=<path>
// in their environment, which nothing else sets, so no other process of
// the user (a shell or a session in the worktree) is touched.
func stopOrphans(path string) int {
	want := []byte("\x00" + bootstrapEnv + "=" + path + "\x00")
	find := func() []int {
		entries, _ := os.ReadDir("/proc")
		var pids []int
		for _, e := range entries {
			pid, err := strconv.Atoi(e.Name())
			if err != nil || pid == os.Getpid() {
				continue
			}
			env, err := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
			if err == nil && bytes.Contains(append(append([]byte{0}, env...), 0), want) {
				pids = append(pids, pid)
			}
		}
		return pids
	}
	pids := find()
	for _, pid := range pids {
		syscall.Kill(pid, syscall.SIGTERM)
	}
	for i := 0; i < 30 && len(find()) > 0; i++ {
		time.Sleep(100 * time.Millisecond)
	}
	for _, pid := range find() {
		syscall.Kill(pid, syscall.SIGKILL)
	}
	return len(pids)
}
