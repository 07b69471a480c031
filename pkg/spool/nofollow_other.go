//go:build !unix

package spool

const noFollow = 0
