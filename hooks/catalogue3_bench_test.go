package hooks_test

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/magehook/magehook/hooks"
	"github.com/magehook/magehook/internal/gittest"
	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/hooktest"
)

// catalogue3 are the handlers of issue 26.
var catalogue3 = map[string]bool{"secretguard": true, "noverify": true, "pathguard": true, "promptguard": true, "formatter": true}

// BenchmarkCatalogueIII dispatches tool calls in a checkout with the whole
// catalogue enabled, and with it but the five Catalogue III handlers: the
// difference is what they add to a call (allocations are the steady
// measure on a loaded machine; go test -bench CatalogueIII -benchmem).
func BenchmarkCatalogueIII(b *testing.B) {
	for _, with := range []bool{false, true} {
		var lines []string
		for _, h := range hooks.All() {
			if with || !catalogue3[h.Name] {
				lines = append(lines, "hook.enable "+h.Name)
			}
		}
		repo := gittest.Repo(b, map[string]string{".toolingrc": strings.Join(lines, "\n") + "\n", "go.mod": "module example.com/b\n", "a.go": "package a\n", ".gitignore": ".magehook/\n"})
		name := "without"
		if with {
			name = "with"
		}
		for _, c := range []struct{ fixture, key, value string }{
			{"PreToolUse/bash", "tool_input.command", "go test ./... 2>&1 | tail -n 40 && git status --short"},
			{"PreToolUse/read", "tool_input.file_path", repo + "/a.go"},
			{"PreToolUse/edit", "tool_input.file_path", repo + "/a.go"},
		} {
			data := hooktest.Fixture(b, c.fixture, map[string]any{"cwd": repo, c.key: c.value})
			b.Run(name+"/"+c.fixture, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					d := &hook.Dispatcher{Handlers: hooks.All(), Stdin: bytes.NewReader(data), Stdout: io.Discard, Stderr: io.Discard,
						Getenv: func(string) string { return "" }, Getwd: func() (string, error) { return repo, nil },
						Now: func() time.Time { return hooktest.Clock }}
					d.Dispatch(context.Background(), "PreToolUse")
				}
			})
		}
	}
}
