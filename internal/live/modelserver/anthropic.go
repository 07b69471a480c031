package modelserver

import (
	"encoding/json"
	"net/http"
)

// anthropic is the Messages API.
type anthropic struct{}

type anthropicRequest struct {
	Model    string `json:"model"`
	Stream   bool   `json:"stream"`
	Messages []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"messages"`
	Tools []struct {
		Name string `json:"name"`
		Type string `json:"type"`
	} `json:"tools"`
}

// blockText is the text of a content that is a string or a list of blocks.
func blockText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var blocks []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	json.Unmarshal(raw, &blocks)
	var out string
	for _, b := range blocks {
		out += b.Text + "\n"
	}
	return out
}

func (anthropic) parse(body []byte) (conversation, error) {
	var r anthropicRequest
	if err := json.Unmarshal(body, &r); err != nil {
		return conversation{}, err
	}
	c := conversation{stream: r.Stream, tools: map[string]string{}}
	for _, t := range r.Tools {
		c.tools[t.Name] = "function"
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

func (anthropic) content(st Step, n int) ([]map[string]any, string) {
	var blocks []map[string]any
	if st.Text != "" {
		blocks = append(blocks, map[string]any{"type": "text", "text": st.Text})
	}
	for i, call := range st.Calls {
		blocks = append(blocks, map[string]any{"type": "tool_use", "id": callID("toolu_", n, i), "name": call.Name, "input": call.object()})
	}
	stop := "end_turn"
	if len(st.Calls) > 0 {
		stop = "tool_use"
	}
	return blocks, stop
}

func (a anthropic) reply(w http.ResponseWriter, c conversation, st Step, n int, side bool) {
	blocks, stop := a.content(st, n)
	usage := map[string]any{"input_tokens": 10, "output_tokens": 5, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}
	id := callID("msg_", n, 0)
	if !c.stream {
		writeJSON(w, http.StatusOK, map[string]any{"id": id, "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
			"content": blocks, "stop_reason": stop, "stop_sequence": nil, "usage": usage})
		return
	}
	e := newSSE(w)
	e.event("message_start", map[string]any{"type": "message_start", "message": map[string]any{"id": id, "type": "message", "role": "assistant",
		"model": "claude-sonnet-4-5", "content": []any{}, "stop_reason": nil, "stop_sequence": nil, "usage": usage}})
	for i, b := range blocks {
		switch b["type"] {
		case "text":
			e.event("content_block_start", map[string]any{"type": "content_block_start", "index": i, "content_block": map[string]any{"type": "text", "text": ""}})
			e.event("content_block_delta", map[string]any{"type": "content_block_delta", "index": i, "delta": map[string]any{"type": "text_delta", "text": b["text"]}})
		case "tool_use":
			input, _ := json.Marshal(b["input"])
			e.event("content_block_start", map[string]any{"type": "content_block_start", "index": i,
				"content_block": map[string]any{"type": "tool_use", "id": b["id"], "name": b["name"], "input": map[string]any{}}})
			e.event("content_block_delta", map[string]any{"type": "content_block_delta", "index": i, "delta": map[string]any{"type": "input_json_delta", "partial_json": string(input)}})
		}
		e.event("content_block_stop", map[string]any{"type": "content_block_stop", "index": i})
	}
	e.event("message_delta", map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": stop, "stop_sequence": nil}, "usage": map[string]any{"output_tokens": 5}})
	e.event("message_stop", map[string]any{"type": "message_stop"})
}

func (anthropic) fail(w http.ResponseWriter, status int, message string) {
	kind := "invalid_request_error"
	switch {
	case status == http.StatusTooManyRequests:
		kind = "rate_limit_error"
	case status >= 500:
		kind = "api_error"
	}
	writeJSON(w, status, map[string]any{"type": "error", "error": map[string]any{"type": kind, "message": message}})
}
