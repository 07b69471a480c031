//go:build !unix

package ship

import "github.com/magehook/magehook/pkg/spool"

func claim(dir string, wait bool) (func(), bool, error) { return spool.Claim(dir) }
