//go:build !unix

package jsonlog

// lock is a no-op where flock is unavailable: appends stay whole lines,
// but a rotation may race with a writer.
func lock(string) (func(), error) { return func() {}, nil }
