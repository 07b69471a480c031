package modelserver

import (
	"encoding/json"
	"net/http"
)

// responses is the OpenAI Responses API, streamed.
type responses struct{}

type responsesRequest struct {
	Model  string            `json:"model"`
	Stream *bool             `json:"stream"`
	Input  json.RawMessage   `json:"input"`
	Tools  []json.RawMessage `json:"tools"`
}

func (responses) parse(body []byte) (conversation, error) {
	var r responsesRequest
	if err := json.Unmarshal(body, &r); err != nil {
		return conversation{}, err
	}
	c := conversation{stream: r.Stream == nil || *r.Stream, tools: map[string]string{}}
	for _, raw := range r.Tools {
		var t struct {
			Type     string `json:"type"`
			Name     string `json:"name"`
			Function struct {
				Name string `json:"name"`
			} `json:"function"`
		}
		json.Unmarshal(raw, &t)
		name := t.Name
		if name == "" {
			name = t.Function.Name
		}
		if name == "" {
			name = t.Type // built-in tools such as local_shell
		}
		kind := "function"
		if t.Type == "custom" {
			kind = "custom"
		}
		c.tools[name] = kind
	}
	var text string
	if json.Unmarshal(r.Input, &text) == nil {
		c.first = text
		return c, nil
	}
	var items []struct {
		Type    string          `json:"type"`
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	}
	if err := json.Unmarshal(r.Input, &items); err != nil {
		return conversation{}, err
	}
	// A model turn is a run of items the model produced: assistant
	// messages, reasoning and tool calls.
	inTurn := false
	for _, it := range items {
		model := it.Role == "assistant" || it.Type == "reasoning" || it.Type == "function_call" || it.Type == "custom_tool_call" || it.Type == "local_shell_call"
		if model && !inTurn {
			c.turns++
		}
		inTurn = model
		if !model && it.Role == "user" && c.turns == 0 {
			c.first += blockText(it.Content)
		}
	}
	return c, nil
}

func (responses) items(c conversation, st Step, n int) []map[string]any {
	var out []map[string]any
	if st.Text != "" {
		out = append(out, map[string]any{"type": "message", "id": callID("msg_", n, 0), "role": "assistant", "status": "completed",
			"content": []map[string]any{{"type": "output_text", "text": st.Text, "annotations": []any{}}}})
	}
	for i, call := range st.Calls {
		if c.tools[call.Name] == "custom" {
			out = append(out, map[string]any{"type": "custom_tool_call", "id": callID("ctc_", n, i), "call_id": callID("call_", n, i),
				"name": call.Name, "input": call.arguments(true), "status": "completed"})
			continue
		}
		out = append(out, map[string]any{"type": "function_call", "id": callID("fc_", n, i), "call_id": callID("call_", n, i),
			"name": call.Name, "arguments": call.arguments(false), "status": "completed"})
	}
	return out
}

func (r responses) reply(w http.ResponseWriter, c conversation, st Step, n int, side bool) {
	items := r.items(c, st, n)
	id := callID("resp_", n, 0)
	usage := map[string]any{"input_tokens": 10, "output_tokens": 5, "total_tokens": 15,
		"input_tokens_details": map[string]any{"cached_tokens": 0}, "output_tokens_details": map[string]any{"reasoning_tokens": 0}}
	done := map[string]any{"id": id, "object": "response", "created_at": 1735689600, "status": "completed", "model": "scripted",
		"output": items, "usage": usage}
	if !c.stream {
		writeJSON(w, http.StatusOK, done)
		return
	}
	e := newSSE(w)
	seq := 0
	ev := func(name string, v map[string]any) {
		v["type"] = name
		v["sequence_number"] = seq
		seq++
		e.event(name, v)
	}
	ev("response.created", map[string]any{"response": map[string]any{"id": id, "object": "response", "created_at": 1735689600, "status": "in_progress", "model": "scripted", "output": []any{}}})
	for i, it := range items {
		ev("response.output_item.added", map[string]any{"output_index": i, "item": it})
		if it["type"] == "message" {
			ev("response.output_text.delta", map[string]any{"output_index": i, "item_id": it["id"], "content_index": 0, "delta": st.Text})
		}
		ev("response.output_item.done", map[string]any{"output_index": i, "item": it})
	}
	ev("response.completed", map[string]any{"response": done})
}

func (responses) fail(w http.ResponseWriter, status int, message string) {
	writeJSON(w, status, map[string]any{"error": map[string]any{"message": message, "type": "invalid_request_error", "code": nil}})
}
