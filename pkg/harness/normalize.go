package harness

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
)

// Normalize implements hook.Protocol. A harness without a mapping of its
// own (Claude Code; OpenCode, whose plugin builds the common shape) passes
// the bytes through untouched.
func (h *Harness) Normalize(data []byte, common string) ([]byte, error) {
	if h.normalize == nil {
		return data, nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var in map[string]any
	if err := dec.Decode(&in); err != nil || in == nil {
		return data, nil // the dispatcher reports what is wrong with it
	}
	h.normalize(h, in, common)
	if ti := input(in); ti != nil {
		for _, f := range h.WorkDirFields {
			if _, ok := ti[f]; ok {
				rename(ti, f, "workdir")
				break
			}
		}
	}
	in["hook_event_name"] = common
	return json.Marshal(in)
}

// rename moves m[from] to m[to] unless m already has to.
func rename(m map[string]any, from, to string) {
	v, ok := m[from]
	if !ok {
		return
	}
	delete(m, from)
	if _, has := m[to]; !has {
		m[to] = v
	}
}

// decodeInput turns a tool_input sent as a JSON string into the object it
// holds.
func decodeInput(m map[string]any) {
	if s, ok := m["tool_input"].(string); ok {
		var v any
		dec := json.NewDecoder(strings.NewReader(s))
		dec.UseNumber()
		if dec.Decode(&v) == nil {
			m["tool_input"] = v
		}
	}
}

// input is the payload's tool_input object, nil when it has none.
func input(m map[string]any) map[string]any {
	ti, _ := m["tool_input"].(map[string]any)
	return ti
}

// commonTool maps the payload's tool_name onto Claude Code's.
func (h *Harness) commonTool(m map[string]any) string {
	name, _ := m["tool_name"].(string)
	if name == "" {
		return ""
	}
	c := h.CommonTool(name)
	m["tool_name"] = c
	return c
}

// failed writes a failed tool's result the way Claude Code's success test
// reads a failure: the "Error: ..." string.
func failed(m map[string]any, text string) {
	m["tool_response"] = "Error: " + text
}

// exitCodeAfter reads the number after label ("Exit code: ") at the start
// of a line of s; false when there is none.
func exitCodeAfter(s, label string) (int, bool) {
	for _, line := range strings.Split(s, "\n") {
		line = strings.TrimSpace(line)
		if rest, ok := strings.CutPrefix(line, label); ok {
			n, err := strconv.Atoi(strings.TrimSpace(rest))
			return n, err == nil
		}
	}
	return 0, false
}

// lastExitCode reads the number after the last label in s; false when
// there is none.
func lastExitCode(s, label string) (int, bool) {
	i := strings.LastIndex(s, label)
	if i < 0 {
		return 0, false
	}
	n, digits := 0, 0
	for _, r := range s[i+len(label):] {
		if r < '0' || r > '9' {
			break
		}
		n = n*10 + int(r-'0')
		digits++
	}
	return n, digits > 0
}

func text(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case map[string]any:
		if s, ok := x["message"].(string); ok {
			return s
		}
	}
	b, _ := json.Marshal(v)
	return string(b)
}
