package modelserver

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

func post(t *testing.T, url, body string) string {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}

// sseData returns the data lines of an event stream, decoded.
func sseData(t *testing.T, stream string) []map[string]any {
	t.Helper()
	var out []map[string]any
	sc := bufio.NewScanner(strings.NewReader(stream))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		d, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok || d == "[DONE]" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(d), &m); err != nil {
			t.Fatalf("data line %q: %v", d, err)
		}
		out = append(out, m)
	}
	return out
}

var script = Script{Key: "fix the bug", Steps: []Step{
	{Calls: []Call{Bash("git commit -m x")}},
	{Text: "committed"},
}}

func TestTheTurnCountInTheHistoryPicksTheStep(t *testing.T) {
	s, err := Start(script)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	first := `{"stream":true,"tools":[{"name":"Bash"}],"messages":[{"role":"user","content":"please fix the bug"}]}`
	out := post(t, s.URL+"/v1/messages", first)
	if !strings.Contains(out, `"name":"Bash"`) || !strings.Contains(out, `git commit -m x`) || !strings.Contains(out, `"stop_reason":"tool_use"`) {
		t.Fatalf("step 0 is not the Bash call:\n%s", out)
	}
	// A retry of the same request gets the same answer.
	if again := post(t, s.URL+"/v1/messages", first); again != out {
		t.Fatalf("a retry got another answer:\n%s", again)
	}
	second := `{"tools":[{"name":"Bash"}],"messages":[{"role":"user","content":"please fix the bug"},{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"Bash","input":{}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":"Blocked: main is protected"}]}]}`
	var msg struct {
		Content []struct{ Text string } `json:"content"`
	}
	if err := json.Unmarshal([]byte(post(t, s.URL+"/v1/messages", second)), &msg); err != nil || len(msg.Content) != 1 || msg.Content[0].Text != "committed" {
		t.Fatalf("step 1: %+v %v", msg, err)
	}
	if !s.Reached("Blocked: main is protected") {
		t.Error("Reached misses the tool result")
	}
	if s.Reached("no such text") {
		t.Error("Reached finds text nobody sent")
	}
}

func TestASideRequestGetsTextAndMovesNothing(t *testing.T) {
	s, _ := Start(script)
	defer s.Close()
	post(t, s.URL+"/v1/messages", `{"messages":[{"role":"user","content":"please fix the bug: write a title"}]}`)
	post(t, s.URL+"/v1/messages", `{"tools":[{"name":"Bash"}],"messages":[{"role":"user","content":"another conversation"}]}`)
	for _, r := range s.Requests() {
		if r.Scripted || r.Step != -1 {
			t.Errorf("a side request was scripted: %+v", r)
		}
	}
}

func TestAStepCanFailTheRequest(t *testing.T) {
	s, _ := Start(Script{Steps: []Step{{Status: 400, Text: "prompt is too long"}}})
	defer s.Close()
	resp, err := http.Post(s.URL+"/v1/messages", "application/json", strings.NewReader(`{"tools":[{"name":"Bash"}],"messages":[{"role":"user","content":"x"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 400 || !strings.Contains(string(b), "prompt is too long") {
		t.Fatalf("%d %s", resp.StatusCode, b)
	}
}

func TestEveryProtocolSpeaksTheScript(t *testing.T) {
	s, _ := Start(Script{Steps: []Step{{Calls: []Call{{Name: "run", Input: map[string]any{"command": "ls"}}, {Name: "apply_patch", Input: "*** Begin Patch"}}}}})
	defer s.Close()
	t.Run("responses", func(t *testing.T) {
		events := sseData(t, post(t, s.URL+"/v1/responses", `{"tools":[{"type":"function","name":"run"},{"type":"custom","name":"apply_patch"}],"input":[{"type":"message","role":"user","content":[{"type":"input_text","text":"go"}]}]}`))
		last := events[len(events)-1]
		if last["type"] != "response.completed" {
			t.Fatalf("last event %v", last["type"])
		}
		out := last["response"].(map[string]any)["output"].([]any)
		if len(out) != 2 || out[0].(map[string]any)["type"] != "function_call" || out[1].(map[string]any)["type"] != "custom_tool_call" || out[1].(map[string]any)["input"] != "*** Begin Patch" {
			t.Fatalf("output %v", out)
		}
	})
	t.Run("chat", func(t *testing.T) {
		events := sseData(t, post(t, s.URL+"/v1/chat/completions", `{"stream":true,"tools":[{"type":"function","function":{"name":"run"}}],"messages":[{"role":"user","content":"go"}]}`))
		calls := events[0]["choices"].([]any)[0].(map[string]any)["delta"].(map[string]any)["tool_calls"].([]any)
		if len(calls) != 2 || calls[0].(map[string]any)["function"].(map[string]any)["arguments"] != `{"command":"ls"}` {
			t.Fatalf("calls %v", calls)
		}
	})
	t.Run("gemini", func(t *testing.T) {
		events := sseData(t, post(t, s.URL+"/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse", `{"tools":[{"functionDeclarations":[{"name":"run"}]}],"contents":[{"role":"user","parts":[{"text":"go"}]}]}`))
		parts := events[0]["candidates"].([]any)[0].(map[string]any)["content"].(map[string]any)["parts"].([]any)
		if fc := parts[0].(map[string]any)["functionCall"].(map[string]any); fc["name"] != "run" {
			t.Fatalf("parts %v", parts)
		}
	})
}
