package decisionlog_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/magehook/magehook/hooks/decisionlog"
	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/hooktest"
)

func TestDecisionLog(t *testing.T) {
	root := hooktest.Checkout(t, "hook.enable decisionlog")
	hs := []hook.Handler{decisionlog.Handler}
	out := hooktest.Run(t, hs, root, "PostToolUse", "PostToolUse/askuserquestion", nil)
	if out.Code != 0 || out.Stdout != "" {
		t.Fatalf("%+v", out)
	}
	hooktest.Run(t, hs, root, "PostToolUse", "PostToolUse/bash-success", nil) // not matched
	data, err := os.ReadFile(filepath.Join(root, ".magehook", "decisions.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) != 1 {
		t.Fatalf("want one decision, got:\n%s", data)
	}
	var rec decisionlog.Record
	if err := json.Unmarshal([]byte(lines[0]), &rec); err != nil {
		t.Fatal(err)
	}
	if rec.Schema != decisionlog.Schema || rec.Session != "abc123" || len(rec.Questions) != 1 ||
		rec.Questions[0].Header != "Database" || strings.Join(rec.Questions[0].Options, ",") != "PostgreSQL,SQLite" ||
		rec.Answers["Which database should the service use?"] != "PostgreSQL" {
		t.Errorf("record %+v", rec)
	}
}
