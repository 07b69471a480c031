//go:build !linux

package proc

import (
	"errors"
	"os/exec"
	"strconv"
	"strings"
)

// Listening reports whether a TCP socket on this machine listens on port,
// asking lsof (there is no /proc/net here); without lsof it is an error.
func Listening(port int) (bool, error) {
	if _, err := exec.LookPath("lsof"); err != nil {
		return false, errors.New("lsof is not installed, so the port cannot be checked")
	}
	out, err := Output("", nil, "lsof", "-nP", "-iTCP:"+strconv.Itoa(port), "-sTCP:LISTEN")
	if err != nil && len(out) == 0 {
		return false, nil // lsof exits 1 when nothing matches
	}
	return strings.Contains(string(out), "LISTEN"), nil
}

// StartTime is unknown (0) without /proc.
func StartTime(pid int) uint64 { return 0 }
