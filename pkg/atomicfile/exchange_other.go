//go:build !linux || !(amd64 || arm64)

package atomicfile

// Exchange is unavailable here: callers fall back to a rename.
func Exchange(a, b string) error { return ErrNoExchange }
