//go:build unix

package confined

import "syscall"

// nonBlock keeps opening a FIFO from waiting for a reader.
const nonBlock = syscall.O_NONBLOCK
