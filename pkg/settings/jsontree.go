package settings

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

// A settings file is read into a tree of these values, which keeps what
// encoding/json into map[string]any would lose: the order of keys, and
// numbers exactly as written (json.Number, so 1.0 stays 1.0 and a large
// integer is not rounded through float64).
//
//	*Object, []any, string, json.Number, bool, nil
type Object struct {
	Members []Member
}

// Member is one key of an object, in file order.
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
	o.Members = append(o.Members, Member{key, v})
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

// ParseError is a settings file that cannot be read faithfully.
type ParseError struct {
	Msg string
}

func (e *ParseError) Error() string { return e.Msg }

// Parse reads a JSON document into a tree. It refuses what it could not
// write back unchanged: invalid UTF-8 and an object with a repeated key.
// Empty input (or only whitespace) is an empty object.
func Parse(data []byte) (any, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return &Object{}, nil
	}
	if !utf8.Valid(data) {
		return nil, &ParseError{"it is not valid UTF-8"}
	}
	if bytes.HasPrefix(data, []byte("\xef\xbb\xbf")) {
		return nil, &ParseError{"it starts with a UTF-8 byte order mark, which JSON does not allow; remove it"}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := parseValue(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, &ParseError{fmt.Sprintf("it holds more than one JSON value (at byte %d)", dec.InputOffset())}
	}
	return v, nil
}

func parseValue(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, syntaxError(dec, err)
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			obj := &Object{}
			seen := map[string]bool{}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, syntaxError(dec, err)
				}
				key := kt.(string)
				if seen[key] {
					return nil, &ParseError{fmt.Sprintf("the key %q appears twice in one object (near byte %d)", key, dec.InputOffset())}
				}
				seen[key] = true
				v, err := parseValue(dec)
				if err != nil {
					return nil, err
				}
				obj.Members = append(obj.Members, Member{key, v})
			}
			if _, err := dec.Token(); err != nil {
				return nil, syntaxError(dec, err)
			}
			return obj, nil
		case '[':
			arr := []any{}
			for dec.More() {
				v, err := parseValue(dec)
				if err != nil {
					return nil, err
				}
				arr = append(arr, v)
			}
			if _, err := dec.Token(); err != nil {
				return nil, syntaxError(dec, err)
			}
			return arr, nil
		}
		return nil, &ParseError{fmt.Sprintf("unexpected %q at byte %d", t, dec.InputOffset())}
	default:
		return t, nil // string, json.Number, bool, nil
	}
}

func syntaxError(dec *json.Decoder, err error) error {
	if errors.Is(err, io.EOF) {
		return &ParseError{"it ends in the middle of a JSON value"}
	}
	return &ParseError{fmt.Sprintf("it is not valid JSON: %v (near byte %d)", err, dec.InputOffset())}
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
		b.WriteString("{\n")
		for i, m := range members {
			indent(b, depth+1)
			encodeString(b, m.Key)
			b.WriteString(": ")
			encode(b, m.Value, sortKeys, depth+1)
			if i < len(members)-1 {
				b.WriteByte(',')
			}
			b.WriteByte('\n')
		}
		indent(b, depth)
		b.WriteByte('}')
	case []any:
		if len(t) == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteString("[\n")
		for i, e := range t {
			indent(b, depth+1)
			encode(b, e, sortKeys, depth+1)
			if i < len(t)-1 {
				b.WriteByte(',')
			}
			b.WriteByte('\n')
		}
		indent(b, depth)
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
		panic(fmt.Sprintf("settings: cannot encode %T", v))
	}
}

func indent(b *bytes.Buffer, depth int) {
	for i := 0; i < depth; i++ {
		b.WriteString("  ")
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

// typeName names a tree value's JSON type for messages.
func typeName(v any) string {
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
