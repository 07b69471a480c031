package payload

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

func FuzzScan(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "payloads", "*", "*.json"))
	for _, file := range files {
		data, _ := os.ReadFile(file)
		f.Add(data)
	}
	for _, s := range []string{`{}`, `[]`, `{"a":1e5,"b":-0.5E-3}`, `{"a":"\u00e9\n"}`, `{"a":01}`, `{"a":1.}`, `{"a":"\x01"}`,
		`{"a":[1,2,]}`, `{"a" 1}`, `{"a":tru}`, "{\"a\":\"\xff\"}", ` {"a":{"b":[{}]}} `, `{"a":1}x`, `"\ud800"`, `null`, ` null `} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		ours := validValue(data) == nil
		if theirs := json.Valid(data); ours != theirs {
			t.Fatalf("validValue %v, json.Valid %v on %q", ours, theirs, data)
		}
		// Only an object has members: encoding/json also decodes null
		// into a map (a nil one), which splitObject rightly refuses.
		var want map[string]json.RawMessage
		if json.Unmarshal(data, &want) != nil || want == nil {
			return
		}
		got := map[string]json.RawMessage{}
		err := splitObject(data, func(key, raw []byte) {
			var k string
			if err := json.Unmarshal(key, &k); err != nil {
				t.Fatalf("key %q: %v", key, err)
			}
			got[k] = raw
		})
		if err != nil {
			t.Fatalf("splitObject: %v on %q", err, data)
		}
		if len(got) != len(want) {
			t.Fatalf("%d members, encoding/json found %d in %q", len(got), len(want), data)
		}
		for k, v := range want {
			if !bytes.Equal(bytes.TrimSpace(got[k]), bytes.TrimSpace(v)) {
				t.Fatalf("member %q: %q, encoding/json %q", k, got[k], v)
			}
		}
	})
}

func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "payloads", "*", "*.json"))
	for _, file := range files {
		data, _ := os.ReadFile(file)
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := Parse(data)
		if err != nil {
			return
		}
		// Whatever decodes keeps its raw form and answers the success test.
		if !bytes.Equal(p.Raw, bytes.TrimSpace(data)) {
			t.Fatal("Raw is not the input")
		}
		p.Succeeded()
		p.EditedPath()
	})
}

// TestStringEveryOffset puts each byte that ends or breaks a run of
// ordinary string bytes, and its neighbours, at every offset of strings
// longer than the eight bytes scanned at a time, and agrees with
// encoding/json on each.
func TestStringEveryOffset(t *testing.T) {
	probes := []byte{'"', '\\', 0x00, 0x01, 0x1f, 0x20, 0x21, '"' - 1, '"' + 1, '\\' - 1, '\\' + 1, 0x7f, 0x80, 0xa2, 0xdc, 0xff}
	for n := 1; n <= 20; n++ {
		for at := 0; at < n; at++ {
			for _, c := range probes {
				body := bytes.Repeat([]byte("a"), n)
				body[at] = c
				for _, data := range [][]byte{
					[]byte(`{"k":"` + string(body) + `"}`),
					[]byte(`{"k":"` + string(body) + `n"}`),
					[]byte(`{"` + string(body) + `":1}`),
				} {
					if ours, theirs := validValue(data) == nil, json.Valid(data); ours != theirs {
						t.Errorf("validValue %v, json.Valid %v on %q", ours, theirs, data)
					}
				}
			}
		}
	}
}
