//go:build !linux

package buildinfo

import "time"

// bootTime is zero: the page-cache layout refresh is for Linux.
func bootTime() time.Time { return time.Time{} }
