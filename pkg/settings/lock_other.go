//go:build !unix

package settings

// lock is a no-op where flock is unavailable; the re-read before the
// rename still protects every write.
func lock(string) (func(), error) { return func() {}, nil }
