// Command floor is the benchmark's floor: the least a Go hook can do, read
// stdin to EOF and decode the JSON, with nothing else.
package main

import (
	"encoding/json"
	"io"
	"os"
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
