package configguard_test

import (
	"path/filepath"
	"testing"

	"github.com/magehook/magehook/pkg/hooktest"
)

// BenchmarkOrdinaryCalls: the gates on the calls an agent makes all day,
// allowed (branchguard and configguard, a feature branch).
func BenchmarkOrdinaryCalls(b *testing.B) {
	t := &testing.T{}
	root := checkout(t)
	for _, bc := range []struct {
		name, tool string
		input      map[string]any
	}{
		{"git status", "Bash", map[string]any{"command": "git status"}},
		{"go test pipeline", "Bash", map[string]any{"command": "go test ./... 2>&1 | tail -n 40 && git status --short"}},
		{"a redirection", "Bash", map[string]any{"command": "echo x > out.txt"}},
		{"Edit", "Edit", map[string]any{"file_path": filepath.Join(root, "README.md"), "old_string": "a", "new_string": "b"}},
		{"PowerShell", "PowerShell", map[string]any{"command": "Get-ChildItem | Select-Object Name; Set-Content notes.txt x"}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				out := hooktest.Run(b, handlers, root, "PreToolUse", "PreToolUse/edit", map[string]any{"tool_name": bc.tool, "tool_input": bc.input})
				if out.Stdout != "" {
					b.Fatal(out.Stdout)
				}
			}
		})
	}
}
