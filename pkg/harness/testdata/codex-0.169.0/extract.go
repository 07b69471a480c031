//go:build ignore

// Extract writes the hook answer schemas embedded in a Codex binary into
// the current directory, one <title>.json each:
//
//	go run extract.go <path to the codex binary>
//
// The binary is the native one the npm package installs, e.g.
// node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex.
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

func main() {
	data, err := os.ReadFile(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	marker := []byte(`"$schema": "http://json-schema.org/draft-07/schema#"`)
	for i := 0; ; {
		j := bytes.Index(data[i:], marker)
		if j < 0 {
			return
		}
		start := bytes.LastIndexByte(data[:i+j], '{')
		i += j + len(marker)
		var doc json.RawMessage
		if err := json.NewDecoder(bytes.NewReader(data[start:])).Decode(&doc); err != nil {
			continue
		}
		var head struct{ Title string }
		json.Unmarshal(doc, &head)
		if !strings.HasSuffix(head.Title, ".command.output") {
			continue // the payload schemas are not what a hook writes
		}
		var pretty bytes.Buffer
		json.Indent(&pretty, doc, "", "  ")
		pretty.WriteByte('\n')
		os.WriteFile(head.Title+".json", pretty.Bytes(), 0o644)
		fmt.Println(head.Title)
	}
}
