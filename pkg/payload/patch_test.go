package payload_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/magehook/magehook/pkg/payload"
)

const patch = `*** Begin Patch
*** Update File: src/app.ts
*** Move to: src/main.ts
@@
-const x = 1
+const x = 2
*** Add File: docs/new.md
+hello
  *** Delete File: .toolingrc
*** Update File: src/app.ts
*** End Patch
`

func TestPatchFiles(t *testing.T) {
	got := strings.Join(payload.PatchFiles(patch), ",")
	if want := "src/app.ts,src/main.ts,docs/new.md,.toolingrc"; got != want {
		t.Errorf("PatchFiles = %s, want %s", got, want)
	}
	if got := payload.PatchFiles("*** Update File: \n+x\n"); len(got) != 0 {
		t.Errorf("a header without a name: %q", got)
	}
}

func TestEditedPaths(t *testing.T) {
	tests := []struct {
		name, tool string
		input      map[string]any
		want       string
	}{
		{"an Edit's file", "Edit", map[string]any{"file_path": "/r/a.go"}, "/r/a.go"},
		{"a NotebookEdit's notebook", "NotebookEdit", map[string]any{"notebook_path": "/r/n.ipynb"}, "/r/n.ipynb"},
		{"every file of a mapped apply_patch, moves included", "Edit", map[string]any{"file_path": "src/app.ts", "command": patch}, "src/app.ts,src/main.ts,docs/new.md,.toolingrc"},
		{"apply_patch under its own name", "apply_patch", map[string]any{"input": patch}, "src/app.ts,src/main.ts,docs/new.md,.toolingrc"},
		{"a patch through Bash", "Bash", map[string]any{"command": "apply_patch <<'EOF'\n" + patch + "EOF\n"}, "src/app.ts,src/main.ts,docs/new.md,.toolingrc"},
		{"a patch through PowerShell", "PowerShell", map[string]any{"command": "apply_patch @'\n" + patch + "'@"}, "src/app.ts,src/main.ts,docs/new.md,.toolingrc"},
		{"a plain Bash command changes no file here", "Bash", map[string]any{"command": "echo '*** Update File: x'"}, ""},
		{"a Read changes nothing", "Read", map[string]any{"file_path": "/r/a.go"}, ""},
		{"Copilot's create names the file path", "Write", map[string]any{"path": "/r/new.go", "file_text": "x"}, "/r/new.go"},
		{"OpenCode's patch tool", "Edit", map[string]any{"patchText": patch}, "src/app.ts,src/main.ts,docs/new.md,.toolingrc"},
	}
	for _, tt := range tests {
		input, _ := json.Marshal(tt.input)
		p := &payload.Payload{ToolName: tt.tool, ToolInput: input}
		if got := strings.Join(p.EditedPaths(), ","); got != tt.want {
			t.Errorf("%s: EditedPaths = %q, want %q", tt.name, got, tt.want)
		}
	}
}
