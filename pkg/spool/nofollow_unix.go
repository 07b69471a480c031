//go:build unix

package spool

import "syscall"

// noFollow refuses a symbolic link as the file opened.
const noFollow = syscall.O_NOFOLLOW
