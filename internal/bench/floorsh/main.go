// Command floorsh is the floor plus the shell parser every magehook binary
// links (mvdan.cc/sh/v3/syntax, whose init compiles regular expressions):
// it shows what that dependency alone costs at start-up.
package main

import (
	"encoding/json"
	"io"
	"os"

	_ "mvdan.cc/sh/v3/syntax"
)

func main() {
	data, err := io.ReadAll(os.Stdin)
	if err != nil {
		os.Exit(1)
	}
	var v map[string]any
	if json.Unmarshal(data, &v) != nil {
		os.Exit(1)
	}
}
