package payload

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// Bash is the tool_input of Bash (and PowerShell).
type Bash struct {
	Command         string  `json:"command"`
	Description     string  `json:"description"`
	Timeout         float64 `json:"timeout"`
	RunInBackground bool    `json:"run_in_background"`
}

// Edit is the tool_input of Edit.
type Edit struct {
	FilePath   string `json:"file_path"`
	OldString  string `json:"old_string"`
	NewString  string `json:"new_string"`
	ReplaceAll bool   `json:"replace_all"`
}

// MultiEdit is the tool_input of MultiEdit.
type MultiEdit struct {
	FilePath string `json:"file_path"`
	Edits    []struct {
		OldString  string `json:"old_string"`
		NewString  string `json:"new_string"`
		ReplaceAll bool   `json:"replace_all"`
	} `json:"edits"`
}

// Write is the tool_input of Write.
type Write struct {
	FilePath string `json:"file_path"`
	Content  string `json:"content"`
}

// NotebookEdit is the tool_input of NotebookEdit.
type NotebookEdit struct {
	NotebookPath string `json:"notebook_path"`
	CellID       string `json:"cell_id"`
	NewSource    string `json:"new_source"`
	CellType     string `json:"cell_type"`
	EditMode     string `json:"edit_mode"`
}

// Read is the tool_input of Read.
type Read struct {
	FilePath string  `json:"file_path"`
	Offset   float64 `json:"offset"`
	Limit    float64 `json:"limit"`
}

// Glob is the tool_input of Glob.
type Glob struct {
	Pattern string `json:"pattern"`
	Path    string `json:"path"`
}

// Grep is the tool_input of Grep.
type Grep struct {
	Pattern         string `json:"pattern"`
	Path            string `json:"path"`
	Glob            string `json:"glob"`
	OutputMode      string `json:"output_mode"`
	CaseInsensitive bool   `json:"-i"`
	Multiline       bool   `json:"multiline"`
}

// WebFetch is the tool_input of WebFetch.
type WebFetch struct {
	URL    string `json:"url"`
	Prompt string `json:"prompt"`
}

// Agent is the tool_input of Agent, called Task before Claude Code 2.1.
type Agent struct {
	Prompt       string `json:"prompt"`
	Description  string `json:"description"`
	SubagentType string `json:"subagent_type"`
	Model        string `json:"model"`
}

// Input decodes the payload's tool_input into T, one of the types above or
// any struct of the caller's. A missing tool_input is an error.
func Input[T any](p *Payload) (T, error) {
	var v T
	if len(p.ToolInput) == 0 || string(p.ToolInput) == "null" {
		return v, fmt.Errorf("payload has no tool_input")
	}
	if err := json.Unmarshal(p.ToolInput, &v); err != nil {
		return v, fmt.Errorf("tool_input of %s: %w", p.ToolName, err)
	}
	return v, nil
}

// IsTool reports whether the payload's tool is one of names. Agent and
// Task name the same tool.
func (p *Payload) IsTool(names ...string) bool {
	for _, n := range names {
		if SameTool(n, p.ToolName) {
			return true
		}
	}
	return false
}

// SameTool reports whether two tool names name one tool: equal, or Agent
// and its old name Task.
func SameTool(a, b string) bool {
	return a == b || isAgent(a) && isAgent(b)
}

func isAgent(name string) bool { return name == "Agent" || name == "Task" }

// EditedPath returns the file a file-writing tool (Edit, MultiEdit, Write,
// NotebookEdit) is about to change (file_path, notebook_path, or path as
// Copilot's tools name it), and false for every other tool.
func (p *Payload) EditedPath() (string, bool) {
	var field string
	switch p.ToolName {
	case "Edit", "MultiEdit", "Write":
		field = "file_path"
	case "NotebookEdit":
		field = "notebook_path"
	default:
		return "", false
	}
	path, ok := p.InputString(field)
	if !ok || path == "" {
		// Copilot's create and edit tools (mapped onto Write and Edit)
		// name the file "path".
		path, ok = p.InputString("path")
	}
	return path, ok && path != ""
}

// EditedPaths returns every file a tool call is about to change, as
// written (relative paths are relative to the payload's cwd): the file of
// Edit, MultiEdit, Write and NotebookEdit; every file of an apply_patch
// patch (Codex's and Copilot's apply_patch, which the harness mapping
// turns into an Edit holding the patch in tool_input.command, or the tool
// under its own name); and every file of a patch a shell command runs
// (Bash or PowerShell: apply_patch <<'EOF'). The files a shell command
// changes otherwise are the shell analysis's to find.
func (p *Payload) EditedPaths() []string {
	var out []string
	if path, ok := p.EditedPath(); ok {
		out = append(out, path)
	}
	switch p.ToolName {
	case "Edit", "apply_patch", "Bash", "PowerShell":
		for _, field := range []string{"command", "patch", "input", "patchText"} {
			if text, ok := p.InputString(field); ok && HasPatch(text) {
				for _, f := range PatchFiles(text) {
					if !contains(out, f) {
						out = append(out, f)
					}
				}
			}
		}
	}
	return out
}

// InputString returns a string field of tool_input. It is the cheap way to
// read one field: decoding into a struct makes encoding/json build a
// reflection cache that costs more than a whole hook run's other work.
func (p *Payload) InputString(field string) (string, bool) {
	raw := p.inputMember(field)
	if raw == nil {
		return "", false
	}
	var s string
	if decodeString(raw, &s) != nil {
		return "", false
	}
	return s, true
}

// InputSize returns the size in bytes of a tool_input field as written
// (escapes included, so never less than the decoded string), without
// decoding it: a gate checks a command against its budget before it pays
// for the command.
func (p *Payload) InputSize(field string) int {
	return len(member(p.ToolInput, field))
}

// Succeeded is the PostToolUse success test (seed 002): a tool_response
// object whose interrupted is not true is a success; a tool_response string
// (Bash failures arrive as "Error: Exit code N ...") or any other shape is a
// failure. Only when tool_response is absent is the legacy tool_output
// consulted, and only its exit_code 0 counts. Anything unrecognised is a
// failure, never a default success. A PostToolUseFailure payload always fails.
func (p *Payload) Succeeded() bool {
	if p.HookEventName == "PostToolUseFailure" {
		return false
	}
	resp := bytes.TrimSpace(p.ToolResponse)
	if len(resp) > 0 && string(resp) != "null" {
		if resp[0] != '{' {
			return false
		}
		if c := &p.succeeded; len(c.resp) == len(resp) && &c.resp[0] == &resp[0] {
			return c.ok
		}
		// The one member, as encoding/json would pick it for a struct
		// field (the last whose name folds to it), in one pass over what
		// may be megabytes of output.
		var interrupted []byte
		err := splitObject(resp, func(key, raw []byte) {
			var k string
			if decodeString(key, &k) == nil && strings.EqualFold(k, "interrupted") {
				interrupted = raw
			}
		})
		ok := err == nil && strings.TrimSpace(string(interrupted)) != "true"
		p.succeeded.resp, p.succeeded.ok = resp, ok
		return ok
	}
	var legacy struct {
		ExitCode *json.Number `json:"exit_code"`
	}
	if json.Unmarshal(p.ToolOutput, &legacy) != nil || legacy.ExitCode == nil {
		return false
	}
	code, err := legacy.ExitCode.Int64()
	return err == nil && code == 0
}

// inputMember is member(p.ToolInput, field), with tool_input split once
// for the tool_input it was split from: the gates ask for a field or two
// each, a dozen times a call.
func (p *Payload) inputMember(field string) []byte {
	c := &p.input
	if !c.split || len(c.of) != len(p.ToolInput) || len(c.of) > 0 && &c.of[0] != &p.ToolInput[0] {
		c.members = c.members[:0]
		splitObject(p.ToolInput, func(key, raw []byte) {
			var k string
			if decodeString(key, &k) == nil {
				c.members = append(c.members, rawMember{k, raw})
			}
		})
		c.of, c.split = p.ToolInput, true
	}
	var found []byte
	for _, m := range c.members {
		if m.key == field {
			found = m.raw // the last of that name, as encoding/json
		}
	}
	return found
}

type rawMember struct {
	key string
	raw []byte
}
