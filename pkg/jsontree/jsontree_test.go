package jsontree

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func TestRefusalsNameThePlaceAndTheFix(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string // each must appear in the message
	}{
		{"a byte order mark", "\xef\xbb\xbf{}", []string{"byte order mark", "remove it"}},
		{"a line comment", "{\n  // why\n  \"a\": 1\n}", []string{"comment at line 2, column 3", "remove it"}},
		{"a block comment", `{"a": /* x */ 1}`, []string{"comment at line 1, column 7", "remove it"}},
		{"a trailing comma in an object", "{\"a\": 1,\n}", []string{"trailing comma at line 1, column 8", "remove it"}},
		{"a trailing comma in an array", `{"a": [1, 2, ]}`, []string{"trailing comma at line 1, column 12", "remove it"}},
		{"a repeated key", "{\"a\": 1,\n \"a\": 2}", []string{`the key "a" appears twice`, "line 2", "keep one"}},
		{"invalid UTF-8", "{\"a\": \"\xff\"}", []string{"not valid UTF-8", "line 1, column 8", "save it as UTF-8"}},
		{"a lone high surrogate", `{"a": "\ud83d"}`, []string{`lone UTF-16 surrogate \ud83d`, "line 1, column 8", "replace it"}},
		{"a lone low surrogate", `{"a": "x\ude00y"}`, []string{`surrogate \ude00`}},
		{"a high surrogate before a non-surrogate escape", `{"a": "\ud83d\u0041"}`, []string{`surrogate \ud83d`}},
		{"two values", `{"a": 1} {"b": 2}`, []string{"more than one JSON value", "keep one"}},
		{"a truncated file", `{"hooks": {`, []string{"ends in the middle", "backup"}},
		{"a missing colon", `{"a" 1}`, []string{"not valid JSON", "line 1", "fix it by hand"}},
		{"nesting past the bound", strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1), []string{"more than 512 levels deep", "flatten"}},
		{"a million levels", strings.Repeat(`{"a":`, 1_000_000) + "1" + strings.Repeat("}", 1_000_000), []string{"levels deep"}},
		{"a trailing NUL", "{}\x00", []string{"NUL byte at line 1, column 3", "restore the file from a backup"}},
		{"a file padded with NULs", "{\"a\": 1}\n\x00\x00\x00", []string{"NUL byte at line 2, column 1"}},
		{"a raw NUL in a string", "{\"a\": \"x\x00\"}", []string{"NUL byte at line 1, column 9"}},
		{"a file past the size bound", `{"a": "` + strings.Repeat("x", MaxBytes) + `"}`, []string{"more than the", "shrink it"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.in))
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("Parse: %v, want a *ParseError", err)
			}
			msg := err.Error()
			if strings.Contains(msg, "\n") || len(msg) > 300 {
				t.Errorf("not one short line: %q", msg)
			}
			for _, w := range tt.want {
				if !strings.Contains(msg, w) {
					t.Errorf("%q lacks %q", msg, w)
				}
			}
		})
	}
}

func TestWhatIsKept(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"numbers as written", `{"a":1.0,"b":1e3,"c":12345678901234567890123}`, "{\n  \"a\": 1.0,\n  \"b\": 1e3,\n  \"c\": 12345678901234567890123\n}\n"},
		{"key order", `{"b":1,"a":2}`, "{\n  \"b\": 1,\n  \"a\": 2\n}\n"},
		{"a surrogate pair as its character", `{"a":"\ud83d\ude00"}`, "{\n  \"a\": \"😀\"\n}\n"},
		{"escapes JSON needs", `{"a":"q\"b\\n\n\u0001<&>é"}`, "{\n  \"a\": \"q\\\"b\\\\n\\n\\u0001<&>é\"\n}\n"},
		{"numbers no float can hold", `{"a":-0,"b":1e400,"c":-0.0e-400}`, "{\n  \"a\": -0,\n  \"b\": 1e400,\n  \"c\": -0.0e-400\n}\n"},
		{"an escaped NUL stays escaped", `{"a":"x\u0000y"}`, "{\n  \"a\": \"x\\u0000y\"\n}\n"},
		{"keys equal only after normalisation are two keys", "{\"\u00e9\":1,\"e\u0301\":2}", "{\n  \"é\": 1,\n  \"e\u0301\": 2\n}\n"},
		{"empty input", "  \n", "{}\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := Parse([]byte(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			if got := string(Encode(v, false)); got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

// TestOutputStaysLinear feeds the shapes that made indentation blow up
// (each level indents every line below it): the output is bounded by a
// constant factor of the input, and is still the same JSON.
func TestOutputStaysLinear(t *testing.T) {
	deep := strings.Repeat(`{"k":[1,2,`, MaxDepth/2-1) + "0" + strings.Repeat("]}", MaxDepth/2-1)
	wide := "[" + strings.Repeat(`{"a":{"b":{"c":{"d":{"e":{"f":{"g":{"h":{"i":{"j":{"k":{"l":{"m":{"n":{"o":{"p":[1,2,3,4,5,6,7,8,9]}}}}}}}}}}}}}}}},`, 2000) + "0]"
	for name, in := range map[string]string{"deep": deep, "wide below the indent depth": wide} {
		v, err := Parse([]byte(in))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out := Encode(v, true)
		if len(out) > 40*len(in)+64 {
			t.Errorf("%s: %d bytes in, %d out", name, len(in), len(out))
		}
		var a, b any
		json.Unmarshal([]byte(in), &a)
		if err := json.Unmarshal(out, &b); err != nil {
			t.Fatalf("%s: output is not JSON: %v", name, err)
		}
		ja, _ := json.Marshal(a)
		jb, _ := json.Marshal(b)
		if !bytes.Equal(ja, jb) {
			t.Errorf("%s: output is another document", name)
		}
	}
}

// FuzzRoundTrip: whatever Parse accepts, encoding/json accepts too, Encode
// writes back as the same document, and a second round changes no byte.
func FuzzRoundTrip(f *testing.F) {
	for _, s := range []string{`{}`, `{"a":[1,{"b":null}],"c":"\u00e9"}`, `[1e3,-0.0]`, `{"a":"\ud83d\ude00"}`, `"\ud800"`, `{"a":1,}`, `{"a" /**/: 1}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := Parse(data)
		if err != nil {
			return
		}
		if len(bytes.TrimSpace(data)) > 0 && !json.Valid(data) {
			t.Fatalf("Parse accepted what encoding/json refuses: %q", data)
		}
		once := Encode(v, false)
		w, err := Parse(once)
		if err != nil {
			t.Fatalf("Encode wrote what Parse refuses: %v\n%s", err, once)
		}
		if twice := Encode(w, false); !bytes.Equal(once, twice) {
			t.Fatalf("not stable:\n%s\n%s", once, twice)
		}
	})
}
