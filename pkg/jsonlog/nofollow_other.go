//go:build !unix

package jsonlog

const noFollow = 0
