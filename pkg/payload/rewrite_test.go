package payload

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

func decodeAny(t *testing.T, data []byte) any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("%v: %q", err, data)
	}
	return v
}

// upper is what MapStrings(data, strings.ToUpper) must give, on the tree.
func upper(v any) any {
	switch x := v.(type) {
	case string:
		return strings.ToUpper(x)
	case []any:
		for i := range x {
			x[i] = upper(x[i])
		}
	case map[string]any:
		for k, e := range x {
			x[k] = upper(e)
		}
	}
	return v
}

var rewriteSeeds = []string{
	`{}`, `[]`, `""`, `1`, `null`, ` {"a" : [ 1 , "x" , {"b":"\u00e9\n\"q\""} ] , "c":true} `,
	`{"a":"\ud83d\ude00 \ud800 \udc00x \ud800\u0041"}`, "{\"a\":\"\xff\xfe ok\"}", `{"k":"a","k":"b"}`,
	`{"esc":"\\ \/ \b \f \r \t \u001f \u2028 \u2029 <&>"}`, `[1e5,-0.5E-3,0,12345678901234567890]`,
}

func FuzzMapStrings(f *testing.F) {
	for _, s := range rewriteSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if !json.Valid(data) {
			return
		}
		same, err := MapStrings(data, func(s string) string { return s })
		if err != nil || !json.Valid(same) {
			t.Fatalf("MapStrings(%q) = %q, %v", data, same, err)
		}
		if got, want := decodeAny(t, same), decodeAny(t, data); !reflect.DeepEqual(got, want) {
			t.Fatalf("identity: %#v, want %#v from %q", got, want, data)
		}
		var want bytes.Buffer
		json.Indent(&want, same, "", "  ")
		if got, _ := MapStringsIndent(data, func(s string) string { return s }, "  "); string(got) != want.String() {
			t.Fatalf("indented %q:\n%s\njson.Indent:\n%s", data, got, want.String())
		}
		up, _ := MapStrings(data, strings.ToUpper)
		if got, want := decodeAny(t, up), upper(decodeAny(t, data)); !reflect.DeepEqual(got, want) {
			t.Fatalf("ToUpper: %#v, want %#v from %q", got, want, data)
		}
	})
}

func FuzzUnquote(f *testing.F) {
	for _, s := range []string{``, `a`, `\n`, `\u00e9`, `\ud83d\ude00`, `\ud800`, `\udc00\ud800`, "\xff", `\"`, `\u12`, "é", `\ud800\u0041`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		raw := append(append([]byte{'"'}, body...), '"')
		var want string
		wantErr := json.Unmarshal(raw, &want)
		got, err := unquote(raw)
		if (err != nil) != (wantErr != nil) || err == nil && got != want {
			t.Fatalf("unquote(%q) = %q, %v; encoding/json %q, %v", raw, got, err, want, wantErr)
		}
		if err == nil && decodedLen(body) != len(got) {
			t.Fatalf("decodedLen(%q) = %d, unquote gives %d bytes", body, decodedLen(body), len(got))
		}
		var enc bytes.Buffer
		e := json.NewEncoder(&enc)
		e.SetEscapeHTML(false)
		e.Encode(string(body))
		if got, want := string(AppendString(nil, string(body))), strings.TrimSuffix(enc.String(), "\n"); got != want {
			t.Fatalf("AppendString(%q) = %s, encoding/json %s", body, got, want)
		}
	})
}

// FuzzSucceededAsEncodingJSON: reading interrupted in one pass decides as
// json.Unmarshal into a struct field did.
func FuzzSucceededAsEncodingJSON(f *testing.F) {
	for _, s := range []string{`{"stdout":"ok","interrupted":false}`, `{"interrupted":true}`, `{"Interrupted":true}`,
		`{"interrupted":false,"INTERRUPTED":true}`, `{"interrupted":"true"}`, `{"interrupted": true }`, `{"x":1`, `{}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, resp []byte) {
		if len(bytes.TrimSpace(resp)) == 0 || bytes.TrimSpace(resp)[0] != '{' || string(bytes.TrimSpace(resp)) == "null" {
			return
		}
		var v struct {
			Interrupted json.RawMessage `json:"interrupted"`
		}
		want := json.Unmarshal(bytes.TrimSpace(resp), &v) == nil && strings.TrimSpace(string(v.Interrupted)) != "true"
		p := &Payload{HookEventName: "PostToolUse", ToolResponse: resp}
		if got := p.Succeeded(); got != want {
			t.Fatalf("Succeeded() = %v on %q, encoding/json says %v", got, resp, want)
		}
	})
}

func TestHasKey(t *testing.T) {
	for _, c := range []struct {
		data string
		want bool
	}{
		{`{"tool_input":{"answers":{"q":"a"}}}`, true},
		{`{"tool_input":{"\u0061nswers":{}}}`, true},
		{`[{"x":[{"answers" : 1}]}]`, true},
		{`{"tool_input":{"command":"answers"}}`, false},
		{`{"a":"\"answers\":"}`, false},
		{`["answers"]`, false},
		{`{"answers"`, false},
	} {
		if got := HasKey([]byte(c.data), "answers"); got != c.want {
			t.Errorf("HasKey(%s) = %v, want %v", c.data, got, c.want)
		}
	}
}

func TestInputStringFollowsToolInput(t *testing.T) {
	p := &Payload{ToolInput: []byte(`{"command":"ls","command":"pwd","n":1}`)}
	if got, ok := p.InputString("command"); got != "pwd" || !ok {
		t.Errorf("the last command member: %q %v", got, ok)
	}
	if _, ok := p.InputString("n"); ok {
		t.Error("a number is no string")
	}
	p.ToolInput = []byte(`{"command":"git status"}`)
	if got, _ := p.InputString("command"); got != "git status" {
		t.Errorf("after tool_input changed: %q", got)
	}
	p.ToolInput = nil
	if _, ok := p.InputString("command"); ok {
		t.Error("no tool_input, no command")
	}
}

// MapStringsHead hands each string's head (at least limit bytes of what
// the whole decodes to) and its decoded length, as MapStringsIndent's
// whole strings have them, escapes and characters across the cut included.
func TestMapStringsHeadAgrees(t *testing.T) {
	const limit = 10
	keep := func(s string, total int) string {
		return s[:min(limit, len(s))] + "|" + strconv.Itoa(total)
	}
	long := func(unit string) string { return strings.Repeat(unit, 40) }
	var doc bytes.Buffer
	doc.WriteString(`{"short":"abc","list":[`)
	for i, body := range []string{
		long("x"), long(`\n`), long(`\u00e9`), long(`\ud83d\ude00`), long("é"), long("\\"), long(`\"`),
		strings.Repeat("y", 70) + `\ud83d\ude00` + long("z"), strings.Repeat("y", 71) + "é" + long("z"),
		long(`\ud800`), long("\xff"), long(`ab\t`),
	} {
		if i > 0 {
			doc.WriteByte(',')
		}
		doc.WriteString(`"` + body + `"`)
	}
	doc.WriteString(`]}`)
	want, err := MapStringsIndent(doc.Bytes(), func(s string) string { return keep(s, len(s)) }, "  ")
	if err != nil {
		t.Fatal(err)
	}
	got, err := MapStringsHead(doc.Bytes(), limit, keep, "  ")
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Fatalf("MapStringsHead\n%s\nMapStringsIndent\n%s", got, want)
	}
}
