package harness_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/magehook/magehook/pkg/harness"
	"github.com/magehook/magehook/pkg/hook"
)

// schema is the subset of JSON Schema draft-07 Codex's answer schemas use.
type schema struct {
	Type                 string             `json:"type"`
	Properties           map[string]*schema `json:"properties"`
	AdditionalProperties *bool              `json:"additionalProperties"`
	Required             []string           `json:"required"`
	Enum                 []any              `json:"enum"`
	Const                any                `json:"const"`
	AllOf                []*schema          `json:"allOf"`
	Ref                  string             `json:"$ref"`
	Definitions          map[string]*schema `json:"definitions"`
}

func (s *schema) validate(root *schema, v any, at string) error {
	if s.Ref != "" {
		def := root.Definitions[strings.TrimPrefix(s.Ref, "#/definitions/")]
		if def == nil {
			return fmt.Errorf("%s: unknown $ref %s", at, s.Ref)
		}
		return def.validate(root, v, at)
	}
	for _, sub := range s.AllOf {
		if err := sub.validate(root, v, at); err != nil {
			return err
		}
	}
	switch s.Type {
	case "object":
		obj, ok := v.(map[string]any)
		if !ok {
			return fmt.Errorf("%s: %v is not an object", at, v)
		}
		for _, r := range s.Required {
			if _, ok := obj[r]; !ok {
				return fmt.Errorf("%s: %s is required", at, r)
			}
		}
		for k, x := range obj {
			p, ok := s.Properties[k]
			if !ok {
				if s.AdditionalProperties != nil && !*s.AdditionalProperties {
					return fmt.Errorf("%s: %s is not allowed", at, k)
				}
				continue
			}
			if x == nil {
				continue // the schemas give null defaults
			}
			if err := p.validate(root, x, at+"."+k); err != nil {
				return err
			}
		}
	case "string":
		if _, ok := v.(string); !ok {
			return fmt.Errorf("%s: %v is not a string", at, v)
		}
	case "boolean":
		if _, ok := v.(bool); !ok {
			return fmt.Errorf("%s: %v is not a boolean", at, v)
		}
	}
	if s.Const != nil && v != s.Const {
		return fmt.Errorf("%s: %v is not %v", at, v, s.Const)
	}
	if s.Enum != nil {
		found := false
		for _, e := range s.Enum {
			found = found || e == v
		}
		if !found {
			return fmt.Errorf("%s: %v is not one of %v", at, v, s.Enum)
		}
	}
	return nil
}

// codexRules are the checks Codex 0.169.0 applies after its schemas (the
// rule messages in its binary; see testdata/codex-0.169.0/README.md).
func codexRules(event string, a map[string]any) error {
	spec, _ := a["hookSpecificOutput"].(map[string]any)
	str := func(m map[string]any, k string) string { s, _ := m[k].(string); return s }
	if c, ok := a["continue"]; ok && c == false && (event == "PreToolUse" || event == "PermissionRequest") {
		return fmt.Errorf("unsupported continue:false")
	}
	if _, ok := a["stopReason"]; ok && (event == "PreToolUse" || event == "PermissionRequest") {
		return fmt.Errorf("unsupported stopReason")
	}
	if _, ok := a["suppressOutput"]; ok && (event == "PreToolUse" || event == "PermissionRequest" || event == "PostToolUse") {
		return fmt.Errorf("unsupported suppressOutput")
	}
	if _, ok := a["reason"]; ok && a["decision"] == nil {
		return fmt.Errorf("reason without decision")
	}
	if a["decision"] == "block" && str(a, "reason") == "" {
		return fmt.Errorf("decision:block without a non-empty reason")
	}
	switch event {
	case "PreToolUse":
		if a["decision"] == "approve" {
			return fmt.Errorf("unsupported decision:approve")
		}
		pd := str(spec, "permissionDecision")
		_, rewrite := spec["updatedInput"]
		switch {
		case pd == "ask":
			return fmt.Errorf("unsupported permissionDecision:ask")
		case pd == "allow" && !rewrite:
			return fmt.Errorf("unsupported permissionDecision:allow")
		case rewrite && pd != "allow":
			return fmt.Errorf("updatedInput without permissionDecision:allow")
		case pd == "" && spec["permissionDecisionReason"] != nil:
			return fmt.Errorf("permissionDecisionReason without permissionDecision")
		case pd == "deny" && str(spec, "permissionDecisionReason") == "":
			return fmt.Errorf("permissionDecision:deny without a non-empty permissionDecisionReason")
		}
	case "PermissionRequest":
		dec, _ := spec["decision"].(map[string]any)
		for _, k := range []string{"updatedInput", "updatedPermissions"} {
			if _, ok := dec[k]; ok {
				return fmt.Errorf("unsupported %s", k)
			}
		}
		if dec["interrupt"] == true {
			return fmt.Errorf("unsupported interrupt:true")
		}
	case "PostToolUse":
		if _, ok := spec["updatedMCPToolOutput"]; ok {
			return fmt.Errorf("unsupported updatedMCPToolOutput")
		}
	}
	return nil
}

// everyIntention is a result for each intention a handler can express,
// alone and in the combinations that trip Codex.
func everyIntention() []hook.Result {
	input := json.RawMessage(`{"command":"ls"}`)
	return []hook.Result{
		{},
		hook.Deny("no"),
		hook.Deny(""),
		hook.Allow("fine"),
		{Decision: hook.DecisionAllow},
		{Decision: hook.DecisionAllow, UpdatedInput: input},
		{Decision: hook.DecisionAllow, Reason: "r", UpdatedInput: input, UpdatedPermissions: json.RawMessage(`[]`)},
		{UpdatedInput: input},
		hook.Ask("sure?"),
		{Decision: hook.DecisionAsk, UpdatedInput: input},
		{Decision: hook.DecisionDefer, Reason: "later"},
		hook.Context("ctx"),
		{Text: "plain"},
		{Text: "plain", Context: "ctx"},
		{Decision: hook.DecisionDeny, Reason: "no", Context: "ctx"},
		{Decision: hook.DecisionDeny, Reason: "no", Interrupt: true},
		{Halt: true, HaltReason: "stop"},
		{Halt: true},
		{Decision: hook.DecisionDeny, Reason: "no", Halt: true, HaltReason: "stop", Context: "ctx", SystemMessage: "m"},
		{SystemMessage: "shown"},
		{UpdatedToolOutput: json.RawMessage(`"x"`)},
		{SessionTitle: "t", WatchPaths: []string{"a"}, Retry: true, DisplayContent: "d", InitialUserMessage: "i",
			ReloadSkills: true, SuppressOriginalPrompt: true, Action: "accept", Content: json.RawMessage(`{}`), TerminalSequence: "\a"},
	}
}

// TestCodexAnswersPassItsSchemas renders every intention for every event
// magehook installs for Codex and checks the answer against the schemas
// extracted from the pinned 0.169.0 binary and the rules it applies after
// them: an answer Codex rejects marks the hook failed and runs the tool.
func TestCodexAnswersPassItsSchemas(t *testing.T) {
	codex, _ := harness.Lookup("codex")
	checked := 0
	for _, n := range codex.Events() {
		ev := hook.MustLookup(n.Common)
		file := snakeDash(n.Native) + ".command.output"
		data, ok := codexSchemas(t)[file]
		if !ok {
			// SessionEnd: Codex reads no answer; magehook must write none.
			for i, r := range everyIntention() {
				if a := codex.Render(ev, r); len(a.Stdout) > 0 || a.Code != 0 {
					t.Errorf("%s/%d: Codex reads no answer here, got exit %d %s", n.Native, i, a.Code, a.Stdout)
				}
			}
			continue
		}
		var s schema
		if err := json.Unmarshal(data, &s); err != nil {
			t.Fatal(err)
		}
		for i, r := range everyIntention() {
			a := codex.Render(ev, r)
			if a.Code == 2 && strings.TrimSpace(strings.Join(a.Stderr, "")) == "" {
				t.Errorf("%s/%d: exit 2 without a reason on stderr", n.Native, i)
			}
			if a.Code != 0 && a.Code != 2 {
				t.Errorf("%s/%d: exit %d", n.Native, i, a.Code)
			}
			if len(a.Stdout) == 0 {
				continue
			}
			var doc any
			if err := json.Unmarshal(a.Stdout, &doc); err != nil {
				t.Errorf("%s/%d: not JSON: %s", n.Native, i, a.Stdout)
				continue
			}
			if err := s.validate(&s, doc, n.Native); err != nil {
				t.Errorf("%s/%d: the schema rejects %s: %v", n.Native, i, a.Stdout, err)
			} else if err := codexRules(n.Native, doc.(map[string]any)); err != nil {
				t.Errorf("%s/%d: Codex rejects %s: %v", n.Native, i, a.Stdout, err)
			}
			checked++
		}
	}
	if checked < 50 {
		t.Errorf("only %d answers checked", checked)
	}
}

// TestTheSchemaCheckCanFail: the validator and the rules reject the
// shapes Codex rejected live.
func TestTheSchemaCheckCanFail(t *testing.T) {
	for _, c := range []struct{ event, answer string }{
		{"PreToolUse", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}`},
		{"Stop", `{"hookSpecificOutput":{"hookEventName":"Stop","additionalContext":"x"}}`},
		{"Stop", `{"decision":"block","reason":"r","hookSpecificOutput":{"hookEventName":"Stop","additionalContext":"x"}}`},
		{"PreCompact", `{"decision":"block"}`},
		{"PreToolUse", `{"continue":false}`},
		{"PermissionRequest", `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow","updatedInput":{}}}}`},
	} {
		data := codexSchemas(t)[snakeDash(c.event)+".command.output"]
		var s schema
		json.Unmarshal(data, &s)
		var doc any
		json.Unmarshal([]byte(c.answer), &doc)
		if s.validate(&s, doc, c.event) == nil && codexRules(c.event, doc.(map[string]any)) == nil {
			t.Errorf("%s %s passed the check", c.event, c.answer)
		}
	}
}

// snakeDash is the schema file name of an event: PreToolUse is
// pre-tool-use.
func snakeDash(event string) string {
	var b strings.Builder
	for i, r := range event {
		if r >= 'A' && r <= 'Z' {
			if i > 0 {
				b.WriteByte('-')
			}
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}
