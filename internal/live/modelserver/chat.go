package modelserver

import (
	"encoding/json"
	"net/http"
)

// chat is the OpenAI Chat Completions API.
type chat struct{}

type chatRequest struct {
	Model    string `json:"model"`
	Stream   bool   `json:"stream"`
	Messages []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"messages"`
	Tools []struct {
		Function struct {
			Name string `json:"name"`
		} `json:"function"`
	} `json:"tools"`
}

func (chat) parse(body []byte) (conversation, error) {
	var r chatRequest
	if err := json.Unmarshal(body, &r); err != nil {
		return conversation{}, err
	}
	c := conversation{stream: r.Stream, tools: map[string]string{}}
	for _, t := range r.Tools {
		c.tools[t.Function.Name] = "function"
	}
	for _, m := range r.Messages {
		if m.Role == "assistant" {
			c.turns++
		}
		if m.Role == "user" && c.turns == 0 {
			c.first += blockText(m.Content)
		}
	}
	return c, nil
}

func (chat) reply(w http.ResponseWriter, c conversation, st Step, n int, side bool) {
	var calls []map[string]any
	for i, call := range st.Calls {
		calls = append(calls, map[string]any{"index": i, "id": callID("call_", n, i), "type": "function",
			"function": map[string]any{"name": call.Name, "arguments": call.arguments(false)}})
	}
	finish := "stop"
	if len(calls) > 0 {
		finish = "tool_calls"
	}
	var content any
	if st.Text != "" {
		content = st.Text
	}
	id := callID("chatcmpl-", n, 0)
	usage := map[string]any{"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
	if !c.stream {
		msg := map[string]any{"role": "assistant", "content": content}
		if len(calls) > 0 {
			msg["tool_calls"] = calls
		}
		writeJSON(w, http.StatusOK, map[string]any{"id": id, "object": "chat.completion", "created": 1735689600, "model": "scripted",
			"choices": []map[string]any{{"index": 0, "message": msg, "finish_reason": finish}}, "usage": usage})
		return
	}
	e := newSSE(w)
	chunk := func(delta map[string]any, finish any, usage any) {
		v := map[string]any{"id": id, "object": "chat.completion.chunk", "created": 1735689600, "model": "scripted",
			"choices": []map[string]any{{"index": 0, "delta": delta, "finish_reason": finish}}}
		if usage != nil {
			v["usage"] = usage
		}
		e.event("", v)
	}
	first := map[string]any{"role": "assistant", "content": content}
	if len(calls) > 0 {
		first["tool_calls"] = calls
	}
	chunk(first, nil, nil)
	chunk(map[string]any{}, finish, usage)
	e.raw("data: [DONE]\n\n")
}

func (chat) fail(w http.ResponseWriter, status int, message string) {
	writeJSON(w, status, map[string]any{"error": map[string]any{"message": message, "type": "invalid_request_error", "code": nil}})
}
