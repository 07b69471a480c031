//go:build !unix

package main

import "errors"

func mapCopy(src, dst string) error { return errors.New("no memory-mapped copy on this system") }
