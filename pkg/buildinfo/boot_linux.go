package buildinfo

import (
	"bytes"
	"os"
	"strconv"
	"time"
)

// bootTime is when the machine booted (btime of /proc/stat), or zero.
func bootTime() time.Time {
	data, err := os.ReadFile("/proc/stat")
	if err != nil {
		return time.Time{}
	}
	for line := range bytes.Lines(data) {
		if v, ok := bytes.CutPrefix(line, []byte("btime ")); ok {
			if s, err := strconv.ParseInt(string(bytes.TrimSpace(v)), 10, 64); err == nil {
				return time.Unix(s, 0)
			}
		}
	}
	return time.Time{}
}
