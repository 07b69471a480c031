package hook

import (
	"bytes"
	"encoding/json"
	"sort"
	"strings"
	"testing"
)

// specificByEvent is the reference's list (§3.6, §4) of hookSpecificOutput
// fields per event, written out independently of the event table so the
// two check each other.
var specificByEvent = map[string][]string{
	"SessionStart":        {"additionalContext", "sessionTitle", "watchPaths", "initialUserMessage", "reloadSkills"},
	"Setup":               {"additionalContext"},
	"UserPromptSubmit":    {"additionalContext", "sessionTitle", "suppressOriginalPrompt"},
	"UserPromptExpansion": {"additionalContext"},
	"PreToolUse":          {"permissionDecision", "permissionDecisionReason", "updatedInput", "additionalContext"},
	"PermissionRequest":   {"decision"},
	"PermissionDenied":    {"retry"},
	"PostToolUse":         {"additionalContext", "updatedToolOutput"},
	"PostToolUseFailure":  {"additionalContext"},
	"PostToolBatch":       {"additionalContext"},
	"MessageDisplay":      {"displayContent"},
	"SubagentStart":       {"additionalContext"},
	"SubagentStop":        {"additionalContext"},
	"Stop":                {"additionalContext"},
	"CwdChanged":          {"watchPaths"},
	"Elicitation":         {"action", "content"},
	"ElicitationResult":   {"action", "content"},
	"FileChanged":         {"watchPaths"},
	// Claude Code 2.1.328, checked by the live suite (internal/live).
	"PostModelSwitch": {"additionalContext"},
}

// topDecisionEvents take a top-level decision "block" (§3.4).
var topDecisionEvents = map[string]bool{
	"UserPromptSubmit": true, "UserPromptExpansion": true, "PostToolUse": true, "PostToolUseFailure": true,
	"PostToolBatch": true, "Stop": true, "SubagentStop": true, "ConfigChange": true, "PreCompact": true, "TaskCreated": true,
	"PreModelSwitch": true, // Claude Code 2.1.328, checked by the live suite
}

// everyField sets every field a handler can set.
var everyField = []Result{
	Deny("no"),
	Allow("fine"),
	Ask("sure?"),
	Defer(),
	Context("fact"),
	{UpdatedInput: json.RawMessage(`{"command":"ls"}`), Decision: DecisionAllow},
	{UpdatedInput: json.RawMessage(`{"command":"ls"}`)},
	{UpdatedToolOutput: json.RawMessage(`{"stdout":""}`)},
	{SystemMessage: "heads up"},
	{Halt: true, HaltReason: "stop now"},
	{SessionTitle: "t"},
	{WatchPaths: []string{"/a"}},
	{Retry: true},
	{DisplayContent: "shown"},
	{Path: "/wt"},
	{Decision: DecisionDeny, Interrupt: true, Reason: "stop"},
	{Decision: DecisionAllow, UpdatedPermissions: json.RawMessage(`[{"type":"setMode","mode":"acceptEdits","destination":"session"}]`)},
	{InitialUserMessage: "hi", ReloadSkills: true},
	{SuppressOriginalPrompt: true, Decision: DecisionDeny, Reason: "no"},
	{Action: "decline", Content: json.RawMessage(`{"a":1}`)},
	{TerminalSequence: "\u001b]9;done\u0007"},
	Merge(Deny("a"), Context("b"), Result{SystemMessage: "c", Halt: true, SessionTitle: "d", WatchPaths: []string{"/e"}, Retry: true, DisplayContent: "f"}),
}

func TestRenderGivesEveryEventOnlyItsOwnShape(t *testing.T) {
	for _, ev := range Events() {
		for i, r := range everyField {
			for _, d := range []Dialect{Claude} {
				a := Render(ev, r, d)
				checkAnswer(t, ev, d, a, i)
			}
		}
	}
}

func checkAnswer(t *testing.T, ev Event, d Dialect, a Answer, i int) {
	t.Helper()
	name := func() string { return ev.Name + "/" + strings.Repeat("*", i) }
	if a.Code != 0 && a.Code != 1 && a.Code != 2 {
		t.Errorf("%s: exit code %d is not one the contract defines", name(), a.Code)
	}
	if len(a.Stdout) == 0 {
		return
	}
	if a.Code != 0 {
		t.Errorf("%s: stdout %q with exit %d; a non-zero exit must print nothing", name(), a.Stdout, a.Code)
	}
	if ev.Output == OutputNone {
		t.Errorf("%s: printed %q for an event whose output is discarded", name(), a.Stdout)
	}
	if ev.Output == OutputPath {
		if bytes.Count(a.Stdout, []byte("\n")) != 1 || a.Stdout[0] == '{' {
			t.Errorf("%s: stdout %q is not one path line", name(), a.Stdout)
		}
		return
	}
	dec := json.NewDecoder(bytes.NewReader(a.Stdout))
	var obj map[string]json.RawMessage
	if err := dec.Decode(&obj); err != nil {
		t.Fatalf("%s: stdout %q is not a JSON object: %v", name(), a.Stdout, err)
	}
	if dec.More() {
		t.Errorf("%s: stdout holds more than one JSON value: %q", name(), a.Stdout)
	}
	allowedTop := map[string]bool{"continue": true, "stopReason": true, "systemMessage": true, "terminalSequence": true}
	if topDecisionEvents[ev.Name] {
		allowedTop["decision"], allowedTop["reason"] = true, true
	}
	if d == Claude {
		allowedTop["hookSpecificOutput"] = true
	} else {
		for _, f := range specificByEvent[ev.Name] {
			allowedTop[f] = true
		}
		allowedTop["modifiedArgs"], allowedTop["behavior"], allowedTop["message"], allowedTop["interrupt"] = true, true, true, true
		delete(allowedTop, "updatedInput")
	}
	for k := range obj {
		if !allowedTop[k] {
			t.Errorf("%s (dialect %d): top-level field %q is not allowed: %s", name(), d, k, a.Stdout)
		}
	}
	if raw, ok := obj["decision"]; ok && string(raw) != `"block"` {
		t.Errorf("%s: top-level decision %s; the only value is \"block\"", name(), raw)
	}
	if _, ok := obj["decision"]; ok {
		if r := obj["reason"]; len(r) < 3 {
			t.Errorf("%s: a block without a reason: %s", name(), a.Stdout)
		}
	}
	raw, ok := obj["hookSpecificOutput"]
	if !ok {
		return
	}
	var specific map[string]json.RawMessage
	if err := json.Unmarshal(raw, &specific); err != nil {
		t.Fatalf("%s: hookSpecificOutput is not an object: %s", name(), raw)
	}
	if got := string(specific["hookEventName"]); got != `"`+ev.Name+`"` {
		t.Errorf("%s: hookEventName = %s, want %q", name(), got, ev.Name)
	}
	allowed := map[string]bool{"hookEventName": true}
	for _, f := range specificByEvent[ev.Name] {
		allowed[f] = true
	}
	for k := range specific {
		if !allowed[k] {
			t.Errorf("%s: hookSpecificOutput.%s is not defined for %s: %s", name(), k, ev.Name, raw)
		}
	}
	if len(specific) == 1 {
		t.Errorf("%s: hookSpecificOutput holds only hookEventName: %s", name(), raw)
	}
}

func TestEventTableAgreesWithTheReference(t *testing.T) {
	if n := len(Events()); n != 33 {
		t.Errorf("Claude Code 2.1.328 has 33 events; the table has %d", n)
	}
	for _, ev := range Events() {
		var fields []string
		if ev.Context {
			fields = append(fields, "additionalContext")
		}
		for _, f := range ev.Specific {
			if f == wirePermissionDecision || f == wirePermissionDecisionReason || f == wireUpdatedInput {
				continue
			}
			fields = append(fields, f)
		}
		want := append([]string(nil), specificByEvent[ev.Name]...)
		if ev.Name == "PreToolUse" {
			want = []string{"additionalContext"}
		}
		sort.Strings(fields)
		sort.Strings(want)
		if strings.Join(fields, ",") != strings.Join(want, ",") {
			t.Errorf("%s: table fields %v, reference %v", ev.Name, fields, want)
		}
		if got := ev.Block == BlockDecision; got != topDecisionEvents[ev.Name] {
			t.Errorf("%s: top-level decision %v, reference %v", ev.Name, got, topDecisionEvents[ev.Name])
		}
	}
}

func TestRenderExamples(t *testing.T) {
	tests := []struct {
		name    string
		event   string
		result  Result
		dialect Dialect
		stdout  string
		code    int
		stderr  string
	}{
		{"a PreToolUse deny nests the decision with the event name", "PreToolUse", Deny("protected branch"), Claude,
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"protected branch"}}`, 0, ""},
		{"an allow with updated input", "PreToolUse", Result{Decision: DecisionAllow, UpdatedInput: json.RawMessage(`{"command":"ls -la"}`)}, Claude,
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"ls -la"}}}`, 0, ""},
		{"defer carries no reason", "PreToolUse", Result{Decision: DecisionDefer, Reason: "later"}, Claude,
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"defer"}}`, 0, ""},
		{"a permission request deny uses decision.behavior", "PermissionRequest", Deny("not rm"), Claude,
			`{"hookSpecificOutput":{"decision":{"behavior":"deny","message":"not rm"},"hookEventName":"PermissionRequest"}}`, 0, ""},
		{"a permission request ask leaves the prompt to the user", "PermissionRequest", Ask("hm"), Claude, ``, 0, ""},
		{"a stop block is top-level", "Stop", Deny("tests fail"), Claude, `{"decision":"block","reason":"tests fail"}`, 0, ""},
		{"a block without a reason gets one", "Stop", Deny(""), Claude, `{"decision":"block","reason":"blocked by a magehook Stop handler"}`, 0, ""},
		{"session start context", "SessionStart", Context("Today is Monday."), Claude,
			`{"hookSpecificOutput":{"additionalContext":"Today is Monday.","hookEventName":"SessionStart"}}`, 0, ""},
		{"teammate idle blocks by exit code", "TeammateIdle", Deny("keep going"), Claude, ``, 2, "keep going\n"},
		{"a worktree path is one line", "WorktreeCreate", Result{Path: "/r/.claude/worktrees/x"}, Claude, "/r/.claude/worktrees/x", 0, ""},
		{"no worktree path fails the creation", "WorktreeCreate", Result{}, Claude, ``, 1, "magehook: WorktreeCreate: no handler produced a worktree path\n"},
		{"session end prints nothing", "SessionEnd", Context("x"), Claude, ``, 0, ""},
		{"notification cannot block", "Notification", Deny("x"), Claude, ``, 0, "magehook: Notification: this event cannot be blocked; the deny was dropped\n"},
		{"context where none is accepted is dropped with a warning", "PermissionDenied", Context("x"), Claude, ``, 0,
			"magehook: PermissionDenied: this event takes no additionalContext; it was dropped\n"},
		{"halt is universal", "UserPromptSubmit", Result{Halt: true, HaltReason: "quota"}, Claude, `{"continue":false,"stopReason":"quota"}`, 0, ""},
		{"a permission request deny may interrupt", "PermissionRequest", Result{Decision: DecisionDeny, Reason: "no", Interrupt: true}, Claude,
			`{"hookSpecificOutput":{"decision":{"behavior":"deny","interrupt":true,"message":"no"},"hookEventName":"PermissionRequest"}}`, 0, ""},
		{"an elicitation answer", "Elicitation", Result{Action: "accept", Content: json.RawMessage(`{"repo":"x"}`)}, Claude,
			`{"hookSpecificOutput":{"action":"accept","content":{"repo":"x"},"hookEventName":"Elicitation"}}`, 0, ""},
		{"nothing to say prints nothing", "PreToolUse", Result{}, Claude, ``, 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := Render(MustLookup(tt.event), tt.result, tt.dialect)
			got := strings.TrimSuffix(string(a.Stdout), "\n")
			if got != tt.stdout {
				t.Errorf("stdout\n got %s\nwant %s", got, tt.stdout)
			}
			if a.Code != tt.code {
				t.Errorf("exit %d, want %d", a.Code, tt.code)
			}
			var stderr string
			for _, l := range a.Stderr {
				stderr += l + "\n"
			}
			if stderr != tt.stderr {
				t.Errorf("stderr %q, want %q", stderr, tt.stderr)
			}
		})
	}
}

func TestMergeFollowsClaudeCodePrecedence(t *testing.T) {
	tests := []struct {
		name string
		in   []Result
		want Decision
		why  string
	}{
		{"deny beats everything", []Result{Allow("a"), Deny("d"), Ask("q"), Defer()}, DecisionDeny, "d"},
		{"defer beats ask", []Result{Ask("q"), Defer(), Allow("a")}, DecisionDefer, ""},
		{"ask beats allow", []Result{Allow("a"), Ask("q")}, DecisionAsk, "q"},
		{"two denies keep both reasons in order", []Result{Deny("one"), Allow("a"), Deny("two")}, DecisionDeny, "one\ntwo"},
		{"no decision stays none", []Result{Context("c")}, NoDecision, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := Merge(tt.in...)
			if m.Decision != tt.want || m.Reason != tt.why {
				t.Errorf("Merge = %v %q, want %v %q", m.Decision, m.Reason, tt.want, tt.why)
			}
		})
	}
	m := Merge(Context("first"), Context("second"), Result{UpdatedInput: json.RawMessage(`1`)}, Result{UpdatedInput: json.RawMessage(`2`)})
	if m.Context != "first\n\nsecond" {
		t.Errorf("contexts joined as %q", m.Context)
	}
	if string(m.UpdatedInput) != "2" {
		t.Errorf("the last updated input should win, got %s", m.UpdatedInput)
	}
}
