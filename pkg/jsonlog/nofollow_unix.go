//go:build unix

package jsonlog

import "syscall"

// noFollow refuses a symbolic link as the file opened, closing the moment
// between the confined check and the open.
const noFollow = syscall.O_NOFOLLOW
