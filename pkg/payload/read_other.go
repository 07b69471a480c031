//go:build !linux

package payload

import "os"

// readMapped is Linux's; elsewhere a large payload is read in chunks.
func readMapped(*os.File, []byte, int64) ([]byte, bool, error) { return nil, false, nil }
