// Package magehook holds what magehook's module ships beside its packages:
// the payload fixtures of testdata/payloads, embedded so that pkg/hooktest
// finds them wherever the module is built from (the module cache, a vendor
// directory, a -trimpath build). No hook binary links this package.
package magehook

import "embed"

// Payloads holds testdata/payloads: one directory per event, one JSON
// payload per file ("testdata/payloads/PreToolUse/bash.json").
//
//go:embed testdata/payloads
var Payloads embed.FS
