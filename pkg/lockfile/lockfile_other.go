//go:build !unix

package lockfile

// TryLock is a no-op where flock is unavailable; the branch creation
// still serialises parallel creates.
func TryLock(string) (func(), bool, error) { return func() {}, false, nil }
