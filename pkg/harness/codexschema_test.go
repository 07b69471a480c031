package harness_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
)

// The answer schemas Codex 0.169.0 checks a command hook's stdout against
// are read from the pinned binary itself, at test time, rather than kept
// as copies in the repository: the live suite's client cache holds it
// (go tool mage live:install). See testdata/codex-0.169.0/README.md.
var (
	schemasOnce sync.Once
	schemas     map[string][]byte
	schemasErr  error
)

// codexSchemas returns the schemas by title ("pre-tool-use.command.output"),
// skipping the test when the pinned binary is not installed.
func codexSchemas(t *testing.T) map[string][]byte {
	t.Helper()
	schemasOnce.Do(func() { schemas, schemasErr = extractSchemas(codexBinary()) })
	if schemasErr != nil {
		t.Skipf("the answer schemas come from the pinned Codex binary, which is not installed (%v); run go tool mage live:install", schemasErr)
	}
	return schemas
}

// codexBinary is the native binary of the pinned @openai/codex in the
// live suite's client cache.
func codexBinary() string {
	dir := os.Getenv("MAGEHOOK_CLIENTS")
	if dir == "" {
		home, _ := os.UserHomeDir()
		dir = filepath.Join(home, ".cache", "magehook", "clients")
	}
	return filepath.Join(dir, "@openai", "codex@0.169.0", "node_modules", "@openai", "codex-linux-x64",
		"vendor", "x86_64-unknown-linux-musl", "bin", "codex")
}

// extractSchemas finds every draft-07 JSON schema embedded in the binary
// and keeps those whose title ends in ".command.output": what a command
// hook writes (the payload schemas are what Codex sends).
func extractSchemas(path string) (map[string][]byte, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	out := map[string][]byte{}
	marker := []byte(`"$schema": "http://json-schema.org/draft-07/schema#"`)
	for i := 0; ; {
		j := bytes.Index(data[i:], marker)
		if j < 0 {
			break
		}
		start := bytes.LastIndexByte(data[:i+j], '{')
		i += j + len(marker)
		var doc json.RawMessage
		if start < 0 || json.NewDecoder(bytes.NewReader(data[start:])).Decode(&doc) != nil {
			continue
		}
		var head struct{ Title string }
		json.Unmarshal(doc, &head)
		if strings.HasSuffix(head.Title, ".command.output") {
			out[head.Title] = doc
		}
	}
	if len(out) == 0 {
		return nil, os.ErrNotExist
	}
	return out, nil
}

// TestCodexSchemasAreTheOnesMagehookWasCheckedAgainst: the pinned binary
// holds one answer schema per event a command hook answers; a client
// whose set differs is not the one this dialect was verified with.
func TestCodexSchemasAreTheOnesMagehookWasCheckedAgainst(t *testing.T) {
	var got []string
	for title := range codexSchemas(t) {
		got = append(got, title)
	}
	sort.Strings(got)
	want := []string{"interrupt", "permission-request", "post-compact", "post-tool-use", "pre-compact", "pre-tool-use",
		"session-start", "stop", "subagent-start", "subagent-stop", "user-prompt-submit"}
	for i := range want {
		want[i] += ".command.output"
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("schemas in the binary:\n%v\nwant\n%v", got, want)
	}
}
