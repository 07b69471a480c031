package payload_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/magehook/magehook/pkg/hooktest"
	"github.com/magehook/magehook/pkg/payload"
)

func TestEveryFixtureDecodes(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(hooktest.Dir, "*", "*.json"))
	if err != nil || len(files) < 31 {
		t.Fatalf("want a fixture per event, found %d (%v)", len(files), err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		p, err := payload.Parse(data)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		if want := filepath.Base(filepath.Dir(f)); p.HookEventName != want {
			t.Errorf("%s: hook_event_name %q, want %q", f, p.HookEventName, want)
		}
		if p.SessionID == "" || p.CWD == "" {
			t.Errorf("%s: the common fields did not decode", f)
		}
	}
}

func TestDecodeKeepsUnknownFields(t *testing.T) {
	p := hooktest.Payload(t, "PreToolUse/bash", map[string]any{"brand_new_field": map[string]any{"x": 1}})
	if got := string(p.Field("brand_new_field")); got != `{"x":1}` {
		t.Errorf("Field(brand_new_field) = %s", got)
	}
	if p.ToolName != "Bash" {
		t.Errorf("known fields must still decode, tool_name = %q", p.ToolName)
	}
}

func TestDecodeRefusals(t *testing.T) {
	tests := []struct {
		name string
		in   string
		cap  int64
		want error
		text string
	}{
		{"empty", "", 0, payload.ErrEmpty, ""},
		{"only whitespace", " \n\t", 0, payload.ErrEmpty, ""},
		{"not JSON", "hello", 0, payload.ErrNotJSON, ""},
		{"an array", "[]", 0, payload.ErrNotObject, ""},
		{"a string", `"x"`, 0, payload.ErrNotObject, ""},
		{"truncated", `{"session_id":"a"`, 0, payload.ErrNotJSON, ""},
		{"one byte over the cap", `{"a":1}`, 6, payload.ErrTooLarge, ""},
		{"a wrong type", `{"stop_hook_active":"yes"}`, 0, nil, "payload field stop_hook_active is a JSON string, not a boolean"},
		{"a NUL byte", "{\"a\":\x00}", 0, payload.ErrNotJSON, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := payload.Decode(strings.NewReader(tt.in), tt.cap)
			if err == nil {
				t.Fatal("decoded")
			}
			if tt.want != nil && !errors.Is(err, tt.want) {
				t.Errorf("error %v, want %v", err, tt.want)
			}
			if tt.text != "" && err.Error() != tt.text {
				t.Errorf("error %q, want %q", err, tt.text)
			}
		})
	}
	if _, err := payload.Decode(strings.NewReader(`{"a":1}`), 7); err != nil {
		t.Errorf("a payload exactly at the cap: %v", err)
	}
}

func TestDecodeOddButValidInput(t *testing.T) {
	p, err := payload.Parse([]byte("{\"cwd\":\"/tmp/\xff\xfe\",\"prompt\":\"tab\\there \\u00e9\",\"tool_name\":null}"))
	if err != nil {
		t.Fatal(err)
	}
	if p.CWD != "/tmp/\ufffd\ufffd" {
		t.Errorf("invalid UTF-8 should become U+FFFD as encoding/json does, got %q", p.CWD)
	}
	if p.Prompt != "tab\there é" {
		t.Errorf("escapes: got %q", p.Prompt)
	}
	big := bytes.Repeat([]byte("a"), 5<<20)
	in := hooktest.Fixture(t, "PostToolUse/bash-success", map[string]any{"tool_response.stdout": string(big)})
	p, err = payload.Decode(bytes.NewReader(in), 0)
	if err != nil || len(p.ToolResponse) < 5<<20 {
		t.Fatalf("a 5 MB payload: %v", err)
	}
}

// TestAssignMatchesStructTags keeps the hand-written field assignment in
// step with the struct's documented JSON names.
func TestAssignMatchesStructTags(t *testing.T) {
	typ := reflect.TypeOf(payload.Payload{})
	obj := map[string]any{}
	for i := 0; i < typ.NumField(); i++ {
		f := typ.Field(i)
		tag := strings.Split(f.Tag.Get("json"), ",")[0]
		if tag == "" || tag == "-" {
			continue
		}
		switch f.Type.Kind() {
		case reflect.String:
			obj[tag] = "v-" + tag
		case reflect.Bool:
			obj[tag] = true
		default:
			obj[tag] = map[string]any{"k": tag}
		}
	}
	data, _ := json.Marshal(obj)
	p, err := payload.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	v := reflect.ValueOf(*p)
	for i := 0; i < typ.NumField(); i++ {
		f := typ.Field(i)
		tag := strings.Split(f.Tag.Get("json"), ",")[0]
		if tag == "" || tag == "-" {
			continue
		}
		if v.Field(i).IsZero() {
			t.Errorf("field %s (json %q) is not assigned by Parse", f.Name, tag)
		}
	}
}

func TestSucceeded(t *testing.T) {
	tests := []struct {
		name      string
		fixture   string
		overrides map[string]any
		want      bool
	}{
		{"a Bash response object is a success", "PostToolUse/bash-success", nil, true},
		{"a background Bash response is a success", "PostToolUse/bash-background", nil, true},
		{"a Write response object is a success", "PostToolUse/write-success", nil, true},
		{"an Edit response object is a success", "PostToolUse/edit-success", nil, true},
		{"an interrupted call is a failure", "PostToolUse/bash-interrupted", nil, false},
		{"an Error: Exit code string is a failure", "PostToolUse/bash-failure", nil, false},
		{"a refused Write (a string) is a failure", "PostToolUse/write-failure", nil, false},
		{"an Edit error string is a failure", "PostToolUse/edit-failure", nil, false},
		{"no response at all is a failure", "PostToolUse/bash-success", map[string]any{"tool_response": nil}, false},
		{"PostToolUseFailure always fails", "PostToolUseFailure/bash", nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := hooktest.Payload(t, tt.fixture, tt.overrides).Succeeded(); got != tt.want {
				t.Errorf("Succeeded() = %v, want %v", got, tt.want)
			}
		})
	}
	for fixture, want := range map[string]bool{"PostToolUse/bash-success": true, "PostToolUse/bash-failure": false} {
		p, err := payload.Parse(hooktest.Legacy(t, fixture))
		if err != nil {
			t.Fatal(err)
		}
		if got := p.Succeeded(); got != want {
			t.Errorf("the legacy shape of %s: Succeeded() = %v, want %v", fixture, got, want)
		}
	}
	// A response that is present decides, whatever a legacy field says.
	mixed := hooktest.Payload(t, "PostToolUse/bash-failure", nil)
	mixed.ToolOutput = hooktest.Payload(t, "PostToolUse/bash-success", nil).ToolResponse
	if mixed.Succeeded() {
		t.Error("the legacy fallback overrode a failed tool_response")
	}
}

func TestTypedToolInput(t *testing.T) {
	bash, err := payload.Input[payload.Bash](hooktest.Payload(t, "PreToolUse/bash", nil))
	if err != nil || !strings.HasPrefix(bash.Command, "chmod +x ") || bash.Description == "" {
		t.Errorf("Bash input %+v, %v", bash, err)
	}
	if cmd, ok := hooktest.Payload(t, "PreToolUse/bash", nil).InputString("command"); !ok || cmd != bash.Command {
		t.Errorf("InputString(command) = %q, %v", cmd, ok)
	}
	me, err := payload.Input[payload.MultiEdit](hooktest.Payload(t, "PreToolUse/multiedit", nil))
	if err != nil || len(me.Edits) == 0 || me.Edits[0].OldString == "" || !strings.HasSuffix(me.FilePath, ".md") {
		t.Errorf("MultiEdit input %+v, %v", me, err)
	}
	grep, err := payload.Input[payload.Grep](hooktest.Payload(t, "PreToolUse/grep", nil))
	if err != nil || !grep.CaseInsensitive || grep.Glob != "*.go" {
		t.Errorf("Grep input %+v, %v", grep, err)
	}
	agent, err := payload.Input[payload.Agent](hooktest.Payload(t, "PreToolUse/agent", nil))
	if err != nil || agent.SubagentType != "Explore" {
		t.Errorf("Agent input %+v, %v", agent, err)
	}
	if _, err := payload.Input[payload.Bash](hooktest.Payload(t, "SessionStart/startup", nil)); err == nil {
		t.Error("a payload without tool_input should be an error")
	}
	paths := map[string]string{
		"PreToolUse/edit":         "/tmp/tmpw6sk2trg/src/math_utils.py",
		"PreToolUse/write":        "/tmp/tmp74wiyiny/hello.sh",
		"PreToolUse/multiedit":    me.FilePath,
		"PreToolUse/notebookedit": "/home/user/my-project/analysis.ipynb",
		"PreToolUse/bash":         "",
		"PreToolUse/read":         "",
	}
	for fixture, want := range paths {
		got, ok := hooktest.Payload(t, fixture, nil).EditedPath()
		if got != want || ok != (want != "") {
			t.Errorf("%s: EditedPath() = %q, %v; want %q", fixture, got, ok, want)
		}
	}
	if !hooktest.Payload(t, "PreToolUse/agent", map[string]any{"tool_name": "Task"}).IsTool("Agent") {
		t.Error("Task is the old name of Agent")
	}
}

func BenchmarkParse(b *testing.B) {
	data := hooktest.Fixture(b, "PreToolUse/bash", nil)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := payload.Parse(data); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParse5MB(b *testing.B) {
	data := hooktest.Fixture(b, "PostToolUse/bash-success", map[string]any{"tool_response.stdout": strings.Repeat("ok  \texample.com/x\t0.01s\n", 5<<20/26)})
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := payload.Parse(data); err != nil {
			b.Fatal(err)
		}
	}
}

// A payload larger than the first read comes whole from a pipe (a hook's
// stdin), and one over the cap is refused, on every platform's path.
func TestReadAllFromAPipe(t *testing.T) {
	for _, size := range []int{10, 64 << 10, 64<<10 + 1, 3<<20 + 17} {
		want := bytes.Repeat([]byte("0123456789abcdef"), size/16+1)[:size]
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		go func() {
			w.Write(want)
			w.Close()
		}()
		got, err := payload.ReadAll(r, 4<<20)
		r.Close()
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("size %d: read %d bytes, %v", size, len(got), err)
		}
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		w.Write(make([]byte, 200<<10))
		w.Close()
	}()
	defer r.Close()
	if _, err := payload.ReadAll(r, 100<<10); !errors.Is(err, payload.ErrTooLarge) {
		t.Fatalf("over the cap: %v", err)
	}
}
