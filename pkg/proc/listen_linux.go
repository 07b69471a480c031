package proc

import (
	"bytes"
	"os"
	"strconv"
)

// Listening reports whether a TCP socket on this machine listens on port,
// from /proc/net/tcp and tcp6: no connection is made, and nothing waits.
func Listening(port int) (bool, error) {
	want := []byte(":" + strconv.FormatInt(int64(port)+0x10000, 16)[1:])
	want = bytes.ToUpper(want)
	found := false
	var firstErr error
	for _, f := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		data, err := os.ReadFile(f)
		if err != nil {
			if firstErr == nil && !os.IsNotExist(err) {
				firstErr = err
			}
			continue
		}
		for _, line := range bytes.Split(data, []byte("\n"))[1:] {
			fields := bytes.Fields(line)
			// sl local_address rem_address st ...; st 0A is LISTEN.
			if len(fields) > 3 && bytes.Equal(fields[3], []byte("0A")) && bytes.HasSuffix(fields[1], want) {
				found = true
			}
		}
	}
	return found, firstErr
}

// StartTime returns when a process started, in clock ticks since boot
// (field 22 of /proc/<pid>/stat), to tell a process from a later one that
// reuses its id; 0 when it cannot be read.
func StartTime(pid int) uint64 {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return 0
	}
	fields := bytes.Fields(stat[i+1:])
	// After the command: state is field 3, starttime field 22.
	if len(fields) < 20 {
		return 0
	}
	n, _ := strconv.ParseUint(string(fields[19]), 10, 64)
	return n
}
