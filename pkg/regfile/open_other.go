//go:build !unix

package regfile

import "os"

func open(path string) (*os.File, error) { return os.Open(path) }
