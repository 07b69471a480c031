//go:build !unix

package confined

const nonBlock = 0
