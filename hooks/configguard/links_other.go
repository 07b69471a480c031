//go:build !unix

package configguard

import "os"

// manyLinks reports a file that may have more than one name: without a
// link count, every file may.
func manyLinks(os.FileInfo) bool { return true }
