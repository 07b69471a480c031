package auditlog_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/magehook/magehook/hooks/auditlog"
	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/hooktest"
	"github.com/magehook/magehook/pkg/payload"
)

var denier = hook.Handler{Name: "denier", Purpose: "p", Events: []string{"PreToolUse"}, Matcher: "Bash", Policy: hook.Gatekeeper,
	Run: func(*hook.Call) (hook.Result, error) { return hook.Deny("no"), nil }}
var broken = hook.Handler{Name: "broken", Purpose: "p", Events: []string{"PreToolUse"}, Matcher: "Write", Policy: hook.Gatekeeper,
	Run: func(*hook.Call) (hook.Result, error) { panic("x") }}

func records(t *testing.T, root string) []auditlog.Record {
	t.Helper()
	f, err := os.Open(filepath.Join(root, ".magehook", "audit", "abc123.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []auditlog.Record
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var r auditlog.Record
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("a line that is not JSON: %q", sc.Text())
		}
		out = append(out, r)
	}
	return out
}

func TestAuditLog(t *testing.T) {
	root := hooktest.Checkout(t, "hook.enable denier", "hook.enable broken", "hook.enable auditlog")
	hs := []hook.Handler{denier, broken, auditlog.Handler}
	secret := "ghp_" + strings.Repeat("x1", 20)
	runs := []struct {
		event, fixture string
		over           map[string]any
	}{
		{"PreToolUse", "PreToolUse/bash", map[string]any{"tool_input.command": "GITHUB_TOKEN=" + secret + " git push"}},
		{"PreToolUse", "PreToolUse/edit", nil},
		{"PreToolUse", "PreToolUse/write", nil},
		{"PostToolUse", "PostToolUse/bash-success", nil},
		{"PostToolUse", "PostToolUse/bash-failure", nil},
		{"PostToolUseFailure", "PostToolUseFailure/bash", nil},
		{"PreToolUse", "PreToolUse/bash", map[string]any{"tool_input.command": strings.Repeat("y", 5000)}},
	}
	for _, r := range runs {
		if r.over == nil {
			r.over = map[string]any{}
		}
		r.over["session_id"] = "abc123" // one session, one file
		out := hooktest.Run(t, hs, root, r.event, r.fixture, r.over)
		if strings.Contains(out.Stdout, "auditlog") {
			t.Errorf("the audit log wrote to stdout: %q", out.Stdout)
		}
	}
	recs := records(t, root)
	if len(recs) != len(runs) {
		t.Fatalf("%d records, want %d", len(recs), len(runs))
	}
	want := []struct {
		tool, decision string
		success        *bool
	}{
		{"Bash", "deny", nil}, {"Edit", "none", nil}, {"Write", "blocked", nil},
	}
	for i, w := range want {
		if recs[i].Tool != w.tool || recs[i].Decision != w.decision || recs[i].Success != nil {
			t.Errorf("record %d: %+v, want %+v", i, recs[i], w)
		}
	}
	if strings.Contains(recs[0].Target, secret) || !strings.Contains(recs[0].Target, "git push") {
		t.Errorf("target %q: the secret must go, the command stay", recs[0].Target)
	}
	if recs[1].Target != "/tmp/tmpw6sk2trg/src/math_utils.py" {
		t.Errorf("an Edit's target is its file: %q", recs[1].Target)
	}
	if s := recs[3].Success; s == nil || !*s {
		t.Errorf("a response object is a success: %+v", recs[3])
	}
	if s := recs[4].Success; s == nil || *s {
		t.Errorf("an Error: string is a failure: %+v", recs[4])
	}
	if s := recs[5].Success; s == nil || *s || !strings.Contains(recs[5].Error, "Exit code 2") {
		t.Errorf("PostToolUseFailure: %+v", recs[5])
	}
	if n := len(recs[6].Target); n > auditlog.MaxTarget+40 || !strings.Contains(recs[6].Target, "bytes cut") {
		t.Errorf("a long command is cut: %d bytes", n)
	}
}

func TestChangedFilesAndSuccessPerHarness(t *testing.T) {
	root := hooktest.Checkout(t, "hook.enable auditlog")
	hs := []hook.Handler{auditlog.Handler}
	hooktest.Run(t, hs, root, "PostToolUse", "PostToolUse/bash-editdiff", map[string]any{"session_id": "s1"})
	hooktest.Run(t, hs, root, "PostToolUseFailure", "PostToolUseFailure/bash", map[string]any{"session_id": "s1"})
	hooktest.Run(t, hs, root, "PostToolUse", "PostToolUse/bash-failure", map[string]any{"session_id": "s1"})
	recs := readAudit(t, root, "s1")
	if len(recs) != 3 {
		t.Fatalf("%d lines", len(recs))
	}
	e := recs[0]
	if e.Success == nil || !*e.Success || len(e.ChangedFiles) != 2 || !strings.HasSuffix(e.ChangedFiles[0], "/consumer/README.md") ||
		!strings.HasSuffix(e.ChangedFiles[1], "/consumer/notes.txt") || e.MoreFiles != 0 {
		t.Errorf("bashEditDiff: %+v", e)
	}
	if f := recs[1]; f.Success == nil || *f.Success || f.ExitCode == nil || *f.ExitCode != 2 {
		t.Errorf("PostToolUseFailure: %+v", f)
	}
	if f := recs[2]; f.Success == nil || *f.Success || f.ExitCode == nil || *f.ExitCode != 1 {
		t.Errorf("an Error: Exit code string: %+v", f)
	}
}

func readAudit(t *testing.T, root, session string) []auditlog.Record {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, ".magehook", "audit", session+".jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var out []auditlog.Record
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var r auditlog.Record
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	return out
}

func TestOtherHarnessesFailuresAreFailures(t *testing.T) {
	root := hooktest.Checkout(t, "hook.enable auditlog")
	hs := []hook.Handler{auditlog.Handler}
	for _, c := range []struct{ harness, fixture, event string }{
		{"copilot", "copilot/PostToolUse-bash-failed", "PostToolUse"},
		{"gemini", "gemini/AfterTool-shell-failed", "PostToolUse"},
	} {
		out := hooktest.RunHarness(t, hs, c.harness, c.event, hooktest.HarnessFixture(t, c.fixture, map[string]any{"cwd": root, "session_id": "h-" + c.harness}))
		if out.Code != 0 {
			t.Fatalf("%s: %+v", c.harness, out)
		}
		recs := readAudit(t, root, "h-"+c.harness)
		if len(recs) != 1 || recs[0].Success == nil || *recs[0].Success {
			t.Errorf("%s: %+v", c.harness, recs)
		}
	}
}

func TestTargetKeepsOnlyWhatTheLogNeeds(t *testing.T) {
	tests := []struct {
		name, tool, input, want string
	}{
		{"a Copilot command in toolArgs", "bash", `"{\"command\":\"git push origin main\",\"description\":\"Push\"}"`, "git push origin main"},
		{"a Copilot file creation", "create", `"{\"path\":\"src/a.go\",\"file_text\":\"package a // secret body\"}"`, "src/a.go"},
		{"an MCP tool with a file", "mcp__fs__write", `{"filePath":"/w/x.txt","content":"body"}`, "/w/x.txt"},
		{"an unknown tool with no path", "mcp__db__query", `{"sql":"SELECT 1","content":"body"}`, ""},
		{"AskUserQuestion keeps headers, not answers", "AskUserQuestion",
			`{"questions":[{"header":"Deploy","question":"Where?","options":[{"label":"prod"}]}],"answers":{"Where?":"my password is hunter2"}}`, "Deploy"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := &payload.Payload{ToolName: tt.tool, ToolInput: json.RawMessage(tt.input)}
			if got := auditlog.Target(p); got != tt.want {
				t.Errorf("Target = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestCopilotRecordsKeepOnlyTheTarget runs Copilot's own payloads through
// the harness mapping: the record's target is the command or the path,
// never the whole input (a file creation's input holds the file).
func TestCopilotRecordsKeepOnlyTheTarget(t *testing.T) {
	root := hooktest.Checkout(t, "hook.enable auditlog")
	for fixture, input := range map[string]map[string]any{
		"copilot/PreToolUse-bash":   {"command": "git push origin main", "description": "push"},
		"copilot/PreToolUse-create": {"path": "src/a.go", "file_text": "package a // the whole file"},
	} {
		stdin := hooktest.HarnessFixture(t, fixture, map[string]any{"cwd": root, "session_id": "abc123", "tool_input": input})
		hooktest.RunHarness(t, []hook.Handler{auditlog.Handler}, "copilot", "PreToolUse", stdin)
	}
	recs := records(t, root)
	targets := map[string]bool{}
	for _, r := range recs {
		targets[r.Target] = true
	}
	if len(recs) != 2 || !targets["git push origin main"] || !targets["src/a.go"] {
		t.Fatalf("records %+v", recs)
	}
}

// The record writes itself as encoding/json would, field for field (apart
// from encoding/json's HTML escapes, which a log does not need).
func TestRecordAppendJSONMatchesEncodingJSON(t *testing.T) {
	yes, code := true, 3
	for _, r := range []auditlog.Record{
		{Time: "t", Session: "s", Event: "PreToolUse", Tool: "Bash"},
		{Time: "t", Session: "s\"q\\", Event: "PostToolUse", Tool: "Bash", ToolUseID: "toolu_1", Target: "go test ./... 2>&1 | tail\n\t\x01\u2028 \xff <&>", Decision: "deny",
			Success: &yes, ExitCode: &code, Error: "exit status 3", ChangedFiles: []string{"a.go", "b c.go"}, MoreFiles: 7},
		{Time: "t", Success: new(bool), ExitCode: new(int)},
	} {
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(r); err != nil {
			t.Fatal(err)
		}
		if got := string(r.AppendJSON(nil)) + "\n"; got != want.String() {
			t.Errorf("AppendJSON\n got %s\nwant %s", got, want.String())
		}
	}
}
