package spool

import (
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync/atomic"
	"time"
)

// ShipperName is the shipper's file name, beside the hook binary
// (go tool mage otel:build puts it there).
const ShipperName = "magehook-ship"

// ShipLog is the file a detached shipper writes its messages to.
const ShipLog = "ship.log"

// Kick starts the shipper on the spool, detached, when the spool has work
// and no shipper holds ship.lock. It never waits for the shipper and never
// fails a hook: it reports whether it started one. A shipper binary that is
// missing starts nothing (the doctor says so).
func (s Spool) Kick(shipper string, env []string) bool {
	if !s.HasWork() || Running(s.Dir) {
		return false
	}
	if info, err := os.Stat(shipper); err != nil || info.IsDir() || info.Mode()&0o111 == 0 {
		return false
	}
	logf, err := os.OpenFile(filepath.Join(s.Dir, ShipLog), os.O_WRONLY|os.O_CREATE|os.O_APPEND|noFollow, 0o600)
	if err != nil {
		return false
	}
	defer logf.Close()
	if info, err := logf.Stat(); err == nil && info.Size() > 1<<20 {
		logf.Truncate(0) // the log of a detached helper: the latest messages are the ones that matter
	}
	cmd := exec.Command(shipper, "-spool", s.Dir)
	cmd.Env = env
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = detached()
	if err := cmd.Start(); err != nil {
		return false
	}
	cmd.Process.Release()
	return true
}

// idCount tells apart the IDs one process makes in the same nanosecond.
var idCount atomic.Uint64

// NewID is a record ID: the moment, the process, a count and 32 random
// bits, in base 36 (unique on a machine by construction, and across a
// fleet but by a chance of one in four billion for records of the same
// nanosecond and process id).
func NewID(now time.Time) string {
	b := strconv.AppendInt(nil, now.UnixNano(), 36)
	b = append(b, '-')
	b = strconv.AppendUint(b, uint64(rand.Uint32()), 36)
	b = append(b, '-')
	b = strconv.AppendInt(b, int64(os.Getpid()), 36)
	b = append(b, '-')
	b = strconv.AppendUint(b, idCount.Add(1), 36)
	return string(b)
}
