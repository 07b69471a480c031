//go:build mage

// Command trivialmage is the floor compiled as a Mage binary: one target,
// hook:preToolUse, that reads stdin and decodes the JSON, nothing else.
// Set against the floor, it is what Mage's generated main costs a hook
// call (flag parsing, the target's goroutine, the SIGINT watcher).
package main

import (
	"encoding/json"
	"io"
	"os"

	"github.com/magefile/mage/mg"
)

// Hook holds the one target.
type Hook mg.Namespace

// PreToolUse reads stdin to EOF and decodes it, as the floor does.
func (Hook) PreToolUse() {
	data, err := io.ReadAll(os.Stdin)
	if err != nil {
		os.Exit(1)
	}
	var v map[string]any
	if json.Unmarshal(data, &v) != nil {
		os.Exit(1)
	}
}
