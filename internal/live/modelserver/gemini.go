package modelserver

import (
	"encoding/json"
	"net/http"
)

// gemini is the Gemini API's generateContent, streamed (alt=sse) or not.
type gemini struct{ stream bool }

type geminiRequest struct {
	Contents []struct {
		Role  string `json:"role"`
		Parts []struct {
			Text string `json:"text"`
		} `json:"parts"`
	} `json:"contents"`
	Tools []struct {
		FunctionDeclarations []struct {
			Name string `json:"name"`
		} `json:"functionDeclarations"`
	} `json:"tools"`
	GenerationConfig struct {
		ResponseMimeType string `json:"responseMimeType"`
	} `json:"generationConfig"`
}

func (g gemini) parse(body []byte) (conversation, error) {
	var r geminiRequest
	if err := json.Unmarshal(body, &r); err != nil {
		return conversation{}, err
	}
	c := conversation{stream: g.stream, tools: map[string]string{}}
	for _, t := range r.Tools {
		for _, f := range t.FunctionDeclarations {
			c.tools[f.Name] = "function"
		}
	}
	c.json = r.GenerationConfig.ResponseMimeType == "application/json"
	for _, m := range r.Contents {
		if m.Role == "model" {
			c.turns++
		}
		if m.Role == "user" && c.turns == 0 {
			for _, p := range m.Parts {
				c.first += p.Text + "\n"
			}
		}
	}
	return c, nil
}

func (g gemini) reply(w http.ResponseWriter, c conversation, st Step, n int, side bool) {
	var parts []map[string]any
	text := st.Text
	if side && c.json {
		// Gemini CLI's side requests that want JSON: the next-speaker check
		// hands the turn back to the user, the model router gets the lowest
		// complexity. Each reads its own fields and ignores the others'.
		text = `{"reasoning":"scripted","next_speaker":"user","complexity_reasoning":"scripted","complexity_score":1}`
	}
	if text != "" {
		parts = append(parts, map[string]any{"text": text})
	}
	for _, call := range st.Calls {
		parts = append(parts, map[string]any{"functionCall": map[string]any{"name": call.Name, "args": call.object()}})
	}
	v := map[string]any{
		"candidates":    []map[string]any{{"content": map[string]any{"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}},
		"usageMetadata": map[string]any{"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15},
		"modelVersion":  "scripted",
	}
	if !g.stream {
		writeJSON(w, http.StatusOK, v)
		return
	}
	newSSE(w).event("", v)
}

func (gemini) fail(w http.ResponseWriter, status int, message string) {
	writeJSON(w, status, map[string]any{"error": map[string]any{"code": status, "message": message, "status": "INVALID_ARGUMENT"}})
}
