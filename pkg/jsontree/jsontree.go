// Package jsontree reads a JSON document into a tree that keeps what
// encoding/json into map[string]any would lose — the order of keys, and
// numbers exactly as written — and writes it back. The settings writer,
// reconcile and the doctor all read configuration files through it.
//
// Parse refuses what it could not write back faithfully (invalid UTF-8, a
// repeated key, a lone UTF-16 surrogate escape), and bounds what it reads:
// at most MaxBytes bytes and MaxDepth levels of nesting, so a hostile file
// costs a one-line refusal, never minutes of work or a stack dump. Every
// refusal is a *ParseError whose message names the place (line and column)
// and says what to do.
//
// Encode writes two-space indented JSON. Values nested deeper than
// IndentDepth levels are written on one line, so the output stays within a
// constant factor of the input however deep the input nests.
package jsontree

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"unicode/utf8"
)

// Limits on what Parse reads.
const (
	// MaxBytes is the largest document Parse reads.
	MaxBytes = 8 << 20
	// MaxDepth is the deepest nesting of objects and arrays Parse reads.
	MaxDepth = 512
	// IndentDepth is the deepest level Encode indents; deeper values are
	// written compactly on one line.
	IndentDepth = 16
)

// Object is a JSON object with its members in file order. A tree's values
// are *Object, []any, string, json.Number, bool and nil.
type Object struct {
	Members []Member
}

// Member is one key of an object.
type Member struct {
	Key   string
	Value any
}

// Get returns the value of key.
func (o *Object) Get(key string) (any, bool) {
	for _, m := range o.Members {
		if m.Key == key {
			return m.Value, true
		}
	}
	return nil, false
}

// Set replaces the value of key in place, or appends the key.
func (o *Object) Set(key string, v any) {
	for i := range o.Members {
		if o.Members[i].Key == key {
			o.Members[i].Value = v
			return
		}
	}
	o.Members = append(o.Members, Member{Key: key, Value: v})
}

// Delete removes key.
func (o *Object) Delete(key string) {
	for i, m := range o.Members {
		if m.Key == key {
			o.Members = append(o.Members[:i:i], o.Members[i+1:]...)
			return
		}
	}
}

// ParseError is a document that cannot be read faithfully. Its message is
// a clause meant to follow the file's name ("x.json: it ...").
type ParseError struct {
	Msg string
}

func (e *ParseError) Error() string { return e.Msg }

// Parse reads a JSON document into a tree. Empty input (or only
// whitespace) is an empty object.
func Parse(data []byte) (any, error) {
	if len(data) > MaxBytes {
		return nil, &ParseError{Msg: fmt.Sprintf("it is %d bytes, more than the %d magehook reads; a settings file that large is not one magehook should rewrite: shrink it", len(data), MaxBytes)}
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return &Object{}, nil
	}
	if bytes.HasPrefix(data, []byte("\xef\xbb\xbf")) {
		return nil, &ParseError{Msg: "it starts with a UTF-8 byte order mark, which JSON does not allow; remove it"}
	}
	if !utf8.Valid(data) {
		off := 0
		for off < len(data) {
			r, n := utf8.DecodeRune(data[off:])
			if r == utf8.RuneError && n <= 1 {
				break
			}
			off += n
		}
		return nil, &ParseError{Msg: fmt.Sprintf("it is not valid UTF-8 (%s); save it as UTF-8", Position(data, off))}
	}
	if off := bytes.IndexByte(data, 0); off >= 0 {
		// No JSON holds a raw NUL, in a string or out of one; a file
		// padded with NULs is what a crash during someone's write leaves.
		return nil, &ParseError{Msg: fmt.Sprintf("it has a NUL byte at %s, which JSON does not allow (what an interrupted write leaves); remove it, or restore the file from a backup", Position(data, off))}
	}
	p := parser{data: data, dec: json.NewDecoder(bytes.NewReader(data))}
	p.dec.UseNumber()
	v, err := p.value(0)
	if err != nil {
		return nil, err
	}
	if _, err := p.dec.Token(); err != io.EOF {
		return nil, &ParseError{Msg: fmt.Sprintf("it holds more than one JSON value (the second starts near %s); keep one top-level object", Position(data, int(p.dec.InputOffset())))}
	}
	if err := checkSurrogates(data); err != nil {
		return nil, err
	}
	return v, nil
}

type parser struct {
	data []byte
	dec  *json.Decoder
}

func (p *parser) value(depth int) (any, error) {
	tok, err := p.dec.Token()
	if err != nil {
		return nil, p.syntaxError(err)
	}
	delim, ok := tok.(json.Delim)
	if !ok {
		return tok, nil // string, json.Number, bool, nil
	}
	if depth >= MaxDepth {
		return nil, &ParseError{Msg: fmt.Sprintf("it nests objects and arrays more than %d levels deep (%s); magehook reads no deeper: flatten that value", MaxDepth, Position(p.data, int(p.dec.InputOffset())))}
	}
	switch delim {
	case '{':
		obj := &Object{}
		seen := map[string]bool{}
		for p.dec.More() {
			kt, err := p.dec.Token()
			if err != nil {
				return nil, p.syntaxError(err)
			}
			key, ok := kt.(string)
			if !ok {
				return nil, p.syntaxError(fmt.Errorf("%v is not an object key", kt))
			}
			if seen[key] {
				return nil, &ParseError{Msg: fmt.Sprintf("the key %q appears twice in one object (the second at %s); JSON readers disagree on which one counts: keep one", key, Position(p.data, int(p.dec.InputOffset())))}
			}
			seen[key] = true
			v, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			obj.Members = append(obj.Members, Member{Key: key, Value: v})
		}
		if _, err := p.dec.Token(); err != nil {
			return nil, p.syntaxError(err)
		}
		return obj, nil
	case '[':
		arr := []any{}
		for p.dec.More() {
			v, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			arr = append(arr, v)
		}
		if _, err := p.dec.Token(); err != nil {
			return nil, p.syntaxError(err)
		}
		return arr, nil
	}
	return nil, &ParseError{Msg: fmt.Sprintf("it has an unexpected %q (%s)", delim, Position(p.data, int(p.dec.InputOffset())))}
}

// syntaxError turns a decoder error into a message that names the place
// and, for the mistakes people make in hand-edited JSON (comments,
// trailing commas), says so.
func (p *parser) syntaxError(err error) error {
	// The streaming decoder's offsets are approximate; a whole-document
	// check names the offending byte exactly.
	bad := int(p.dec.InputOffset())
	var se *json.SyntaxError
	if errors.As(json.Unmarshal(p.data, new(json.RawMessage)), &se) {
		if se.Error() == "unexpected end of JSON input" {
			return truncated
		}
		err, bad = se, int(se.Offset)-1
	} else if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return truncated
	}
	bad = min(max(bad, 0), len(p.data)-1)
	c := p.data[bad]
	switch {
	case c == '/' && bad+1 < len(p.data) && (p.data[bad+1] == '/' || p.data[bad+1] == '*'):
		return &ParseError{Msg: fmt.Sprintf("it has a comment at %s, which JSON does not allow; remove it", Position(p.data, bad))}
	case c == '}' || c == ']':
		prev := bad - 1
		for prev >= 0 && isSpace(p.data[prev]) {
			prev--
		}
		if prev >= 0 && p.data[prev] == ',' {
			return &ParseError{Msg: fmt.Sprintf("it has a trailing comma at %s, which JSON does not allow; remove it", Position(p.data, prev))}
		}
	}
	return &ParseError{Msg: fmt.Sprintf("it is not valid JSON: %v (%s); fix it by hand: magehook changes nothing in a file it cannot read", err, Position(p.data, bad))}
}

var truncated = &ParseError{Msg: "it ends in the middle of a JSON value; complete it or restore it from a backup"}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// Position names the place of a byte offset in data as "line L, column C"
// (both from 1; the column counts characters).
func Position(data []byte, off int) string {
	off = min(max(off, 0), len(data))
	line := 1 + bytes.Count(data[:off], []byte("\n"))
	start := bytes.LastIndexByte(data[:off], '\n') + 1
	return fmt.Sprintf("line %d, column %d", line, utf8.RuneCount(data[start:off])+1)
}

// checkSurrogates refuses a \u escape of half a UTF-16 surrogate pair:
// encoding/json reads it as U+FFFD, so writing the tree back would change
// the string. data is valid JSON.
func checkSurrogates(data []byte) error {
	in := false
	for i := 0; i < len(data); i++ {
		c := data[i]
		if !in {
			in = c == '"'
			continue
		}
		switch c {
		case '"':
			in = false
		case '\\':
			i++
			if data[i] != 'u' {
				continue
			}
			r := hex4(data[i+1 : i+5])
			switch {
			case r >= 0xD800 && r <= 0xDBFF:
				if i+10 < len(data) && data[i+5] == '\\' && data[i+6] == 'u' {
					if lo := hex4(data[i+7 : i+11]); lo >= 0xDC00 && lo <= 0xDFFF {
						i += 10
						continue
					}
				}
				fallthrough
			case r >= 0xDC00 && r <= 0xDFFF:
				return &ParseError{Msg: fmt.Sprintf("it has a lone UTF-16 surrogate %s at %s, which no JSON reader can keep as written; replace it with the character it was meant to be", data[i-1:i+5], Position(data, i-1))}
			}
			i += 4
		}
	}
	return nil
}

func hex4(b []byte) rune {
	n, err := strconv.ParseUint(string(b), 16, 32)
	if err != nil {
		return -1
	}
	return rune(n)
}

// Encode writes a tree as JSON with a two-space indent and a final
// newline. With sortKeys the keys of every object are sorted; otherwise
// they keep their order. Strings are escaped only where JSON requires it,
// so non-ASCII text is written as is.
func Encode(v any, sortKeys bool) []byte {
	var b bytes.Buffer
	encode(&b, v, sortKeys, 0)
	b.WriteByte('\n')
	return b.Bytes()
}

func encode(b *bytes.Buffer, v any, sortKeys bool, depth int) {
	compact := depth >= IndentDepth
	newline := func(d int) {
		if compact {
			return
		}
		b.WriteByte('\n')
		for i := 0; i < d; i++ {
			b.WriteString("  ")
		}
	}
	switch t := v.(type) {
	case *Object:
		if len(t.Members) == 0 {
			b.WriteString("{}")
			return
		}
		members := t.Members
		if sortKeys {
			members = append([]Member(nil), members...)
			sort.SliceStable(members, func(i, j int) bool { return members[i].Key < members[j].Key })
		}
		b.WriteByte('{')
		for i, m := range members {
			if i > 0 {
				b.WriteByte(',')
			}
			newline(depth + 1)
			encodeString(b, m.Key)
			if compact {
				b.WriteByte(':')
			} else {
				b.WriteString(": ")
			}
			encode(b, m.Value, sortKeys, depth+1)
		}
		newline(depth)
		b.WriteByte('}')
	case []any:
		if len(t) == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteByte('[')
		for i, e := range t {
			if i > 0 {
				b.WriteByte(',')
			}
			newline(depth + 1)
			encode(b, e, sortKeys, depth+1)
		}
		newline(depth)
		b.WriteByte(']')
	case string:
		encodeString(b, t)
	case json.Number:
		b.WriteString(string(t))
	case bool:
		b.WriteString(strconv.FormatBool(t))
	case nil:
		b.WriteString("null")
	case int:
		b.WriteString(strconv.Itoa(t))
	default:
		panic(fmt.Sprintf("jsontree: cannot encode %T", v))
	}
}

func encodeString(b *bytes.Buffer, s string) {
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"':
			b.WriteString(`\"`)
		case c == '\\':
			b.WriteString(`\\`)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\r':
			b.WriteString(`\r`)
		case c == '\t':
			b.WriteString(`\t`)
		case c < 0x20:
			fmt.Fprintf(b, `\u%04x`, c)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
}

// TypeName names a tree value's JSON type for messages.
func TypeName(v any) string {
	switch v.(type) {
	case *Object:
		return "an object"
	case []any:
		return "an array"
	case string:
		return "a string"
	case json.Number, int:
		return "a number"
	case bool:
		return "a boolean"
	case nil:
		return "null"
	}
	return fmt.Sprintf("%T", v)
}
