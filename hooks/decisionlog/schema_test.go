package decisionlog_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/magehook/magehook/hooks/decisionlog"
	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/hooktest"
)

// The decision log's schema is a file of the repository
// (schemas/decision-log.schema.json): these tests validate the committed
// sample and what the handler writes against it, with a validator of the
// keywords the schema uses, so neither can drift from the other.

func loadSchema(t *testing.T) map[string]any {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "schemas", "decision-log.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	var s map[string]any
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatalf("the schema is not JSON: %v", err)
	}
	return s
}

func lines(t *testing.T, path string) []any {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []any
	for i, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		dec := json.NewDecoder(bytes.NewReader([]byte(l)))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			t.Fatalf("%s:%d: %v", path, i+1, err)
		}
		out = append(out, v)
	}
	return out
}

func TestTheCommittedSampleMatchesTheSchema(t *testing.T) {
	schema := loadSchema(t)
	sample := lines(t, filepath.Join("..", "..", "testdata", "decisions", "sample.jsonl"))
	for i, v := range sample {
		if err := validate(schema, v, "$"); err != nil {
			t.Errorf("sample line %d: %v", i+1, err)
		}
	}
	if schema["properties"].(map[string]any)["schema"].(map[string]any)["const"] != decisionlog.Schema {
		t.Errorf("the schema's version is not %s", decisionlog.Schema)
	}
}

func TestWhatTheHandlerWritesMatchesTheSchema(t *testing.T) {
	root := hooktest.Checkout(t, "hook.enable decisionlog")
	hs := []hook.Handler{decisionlog.Handler}
	hooktest.Run(t, hs, root, "PostToolUse", "PostToolUse/askuserquestion", nil)
	hooktest.Run(t, hs, root, "PostToolUse", "PostToolUse/askuserquestion", map[string]any{"tool_input.questions": []any{}, "tool_use_id": nil})
	schema := loadSchema(t)
	for i, v := range lines(t, filepath.Join(root, ".magehook", "decisions.jsonl")) {
		if err := validate(schema, v, "$"); err != nil {
			t.Errorf("line %d: %v", i+1, err)
		}
	}
}

func TestTheValidatorRefusesWhatTheSchemaForbids(t *testing.T) {
	schema := loadSchema(t)
	for _, bad := range []string{
		`{"schema":"magehook-decision/2","time":"2026-11-30T09:15:00Z","session":"s","questions":[],"answers":{}}`,
		`{"schema":"magehook-decision/1","time":"yesterday","session":"s","questions":[],"answers":{}}`,
		`{"schema":"magehook-decision/1","time":"2026-11-30T09:15:00Z","session":"s","questions":[{"header":"x"}],"answers":{}}`,
		`{"schema":"magehook-decision/1","time":"2026-11-30T09:15:00Z","session":"s","questions":[],"answers":{"q":1}}`,
		`{"schema":"magehook-decision/1","time":"2026-11-30T09:15:00Z","session":"s","questions":[],"answers":{},"extra":true}`,
		`{"schema":"magehook-decision/1","time":"2026-11-30T09:15:00Z","questions":[],"answers":{}}`,
	} {
		var v any
		json.Unmarshal([]byte(bad), &v)
		if validate(schema, v, "$") == nil {
			t.Errorf("accepted %s", bad)
		}
	}
}

// validate checks v against the JSON Schema keywords the decision log's
// schema uses: type, const, pattern, minLength, required, properties,
// additionalProperties, items, minItems.
func validate(s map[string]any, v any, at string) error {
	if c, ok := s["const"]; ok && fmt.Sprint(c) != fmt.Sprint(v) {
		return fmt.Errorf("%s: %v is not %v", at, v, c)
	}
	if typ, ok := s["type"].(string); ok {
		if got := jsonType(v); got != typ {
			return fmt.Errorf("%s: a %s, want a %s", at, got, typ)
		}
	}
	switch x := v.(type) {
	case string:
		if p, ok := s["pattern"].(string); ok && !regexp.MustCompile(p).MatchString(x) {
			return fmt.Errorf("%s: %q does not match %s", at, x, p)
		}
		if n, ok := s["minLength"].(float64); ok && len(x) < int(n) {
			return fmt.Errorf("%s: shorter than %v", at, n)
		}
	case []any:
		if n, ok := s["minItems"].(float64); ok && len(x) < int(n) {
			return fmt.Errorf("%s: fewer than %v items", at, n)
		}
		if items, ok := s["items"].(map[string]any); ok {
			for i, e := range x {
				if err := validate(items, e, fmt.Sprintf("%s[%d]", at, i)); err != nil {
					return err
				}
			}
		}
	case map[string]any:
		if req, ok := s["required"].([]any); ok {
			for _, r := range req {
				if _, ok := x[r.(string)]; !ok {
					return fmt.Errorf("%s: %s is missing", at, r)
				}
			}
		}
		props, _ := s["properties"].(map[string]any)
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if ps, ok := props[k].(map[string]any); ok {
				if err := validate(ps, x[k], at+"."+k); err != nil {
					return err
				}
				continue
			}
			switch ap := s["additionalProperties"].(type) {
			case bool:
				if !ap {
					return fmt.Errorf("%s: %s is not allowed", at, k)
				}
			case map[string]any:
				if err := validate(ap, x[k], at+"."+k); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func jsonType(v any) string {
	switch v.(type) {
	case string:
		return "string"
	case bool:
		return "boolean"
	case nil:
		return "null"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return "number"
}
