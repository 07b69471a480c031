package payload

import (
	"encoding/binary"
	"errors"
	"math/bits"
	"unicode/utf16"
	"unicode/utf8"
)

// MapStrings returns data, one JSON value, with every string value (not
// the object keys) replaced by fn of its text, in one pass and in the
// order of the input: numbers, literals, keys and duplicate members are
// kept as they are, whitespace is dropped. It is how a payload is
// redacted string by string without building a tree of interfaces, which
// costs twenty times more on a large tool output.
func MapStrings(data []byte, fn func(string) string) ([]byte, error) {
	return MapStringsIndent(data, fn, "")
}

// MapStringsIndent is MapStrings with the output indented as json.Indent
// with no prefix would indent it, in the same pass.
func MapStringsIndent(data []byte, fn func(string) string, indent string) ([]byte, error) {
	if err := validValue(data); err != nil {
		return nil, err
	}
	m := mapper{data: data, fn: fn, indent: indent, out: make([]byte, 0, len(data)+len(data)/4)}
	m.value()
	return m.out, nil
}

// MapStringsHead is MapStringsIndent for a mapping that keeps at most the
// first limit bytes of a string: fn gets each string's head, decoded only
// as far as it needs (at least limit bytes of it, the whole when shorter),
// and its decoded length. A tool's 5 MB output is then never decoded
// whole.
func MapStringsHead(data []byte, limit int, fn func(head string, total int) string, indent string) ([]byte, error) {
	if err := validValue(data); err != nil {
		return nil, err
	}
	m := mapper{data: data, head: fn, limit: limit, indent: indent, out: make([]byte, 0, min(len(data), 1<<20))}
	m.value()
	return m.out, nil
}

// mapper walks JSON text that validValue accepted.
type mapper struct {
	data   []byte
	pos    int
	out    []byte
	fn     func(string) string
	indent string
	depth  int
	// head and limit serve MapStringsHead.
	head  func(string, int) string
	limit int
}

// headOf decodes a string token as far as m.limit bytes of it need: a
// JSON escape is at most 6 bytes for one decoded byte, so 6×limit bytes of
// the token (and a surrogate pair more) are enough, cut back to the start
// of a character and of an escape.
func (m *mapper) headOf(tok []byte) (string, int) {
	content := tok[1 : len(tok)-1]
	need := 6*m.limit + 12
	if len(content) <= need {
		s, _ := unquote(tok)
		return s, len(s)
	}
	cut := need
	for cut > 0 && content[cut]&0xC0 == 0x80 {
		cut--
	}
	quoted := make([]byte, 0, cut+2)
	quoted = append(append(append(quoted, '"'), content[:cut]...), '"')
	for tries := 0; tries < 12; tries++ {
		if s, err := unquote(quoted); err == nil {
			return s, decodedLen(content)
		}
		// Inside an escape: one byte back.
		quoted = append(quoted[:len(quoted)-2], '"')
	}
	s, _ := unquote(tok) // not reached for a token validValue accepted
	return s, len(s)
}

// decodedLen is len(unquote) of a string token's content, counted without
// decoding it.
func decodedLen(raw []byte) int {
	n := 0
	for i := 0; i < len(raw); {
		c := raw[i]
		switch {
		case c == '\\' && i+1 < len(raw) && raw[i+1] == 'u':
			r, ok := hex4(raw, i+2)
			if !ok {
				return n
			}
			i += 6
			if utf16.IsSurrogate(r) {
				if r2, ok := hex4(raw, i+2); ok && i+1 < len(raw) && raw[i] == '\\' && raw[i+1] == 'u' {
					if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
						n += utf8.RuneLen(dec)
						i += 6
						continue
					}
				}
				r = utf8.RuneError
			}
			n += utf8.RuneLen(r)
		case c == '\\':
			n++
			i += 2
		case c < utf8.RuneSelf:
			n++
			i++
		default:
			r, size := utf8.DecodeRune(raw[i:])
			if r == utf8.RuneError && size == 1 {
				n += utf8.RuneLen(utf8.RuneError)
			} else {
				n += size
			}
			i += size
		}
	}
	return n
}

// newline starts a line at the current depth, when indenting.
func (m *mapper) newline() {
	if m.indent == "" {
		return
	}
	m.out = append(m.out, '\n')
	for range m.depth {
		m.out = append(m.out, m.indent...)
	}
}

func (m *mapper) ws() {
	for m.pos < len(m.data) {
		switch m.data[m.pos] {
		case ' ', '\t', '\n', '\r':
			m.pos++
		default:
			return
		}
	}
}

func (m *mapper) value() {
	m.ws()
	switch m.data[m.pos] {
	case '{', '[':
		open, end := m.data[m.pos], byte('}')
		if open == '[' {
			end = ']'
		}
		m.out = append(m.out, open)
		m.pos++
		m.depth++
		for first := true; ; first = false {
			m.ws()
			if m.data[m.pos] == end {
				m.depth--
				if !first {
					m.newline()
				}
				m.out = append(m.out, end)
				m.pos++
				return
			}
			if !first {
				m.out = append(m.out, ',')
				m.pos++ // the comma
				m.ws()
			}
			m.newline()
			if open == '{' {
				m.out = append(m.out, m.token()...) // the key, as it is
				m.ws()
				m.out = append(m.out, ':')
				if m.indent != "" {
					m.out = append(m.out, ' ')
				}
				m.pos++
			}
			m.value()
		}
	case '"':
		if m.head != nil {
			head, total := m.headOf(m.token())
			m.out = AppendString(m.out, m.head(head, total))
			return
		}
		s, _ := unquote(m.token())
		m.out = AppendString(m.out, m.fn(s))
	default:
		start := m.pos
		for m.pos < len(m.data) {
			switch m.data[m.pos] {
			case ',', ']', '}', ' ', '\t', '\n', '\r':
				m.out = append(m.out, m.data[start:m.pos]...)
				return
			}
			m.pos++
		}
		m.out = append(m.out, m.data[start:]...)
	}
}

// token returns the string starting at pos, quotes included, and moves
// past it.
func (m *mapper) token() []byte {
	s := scanner{data: m.data, pos: m.pos}
	s.str()
	start := m.pos
	m.pos = s.pos
	return m.data[start:m.pos]
}

// HasKey reports whether a member of any object in data, one JSON value,
// is named name (escapes decoded), in one pass.
func HasKey(data []byte, name string) bool {
	if validValue(data) != nil {
		return false
	}
	for i := 0; i < len(data); i++ {
		if data[i] != '"' {
			continue
		}
		s := scanner{data: data, pos: i}
		s.str()
		j := s.pos
		for j < len(data) && (data[j] == ' ' || data[j] == '\t' || data[j] == '\n' || data[j] == '\r') {
			j++
		}
		if j < len(data) && data[j] == ':' {
			if k, err := unquote(data[i:s.pos]); err == nil && k == name {
				return true
			}
		}
		i = s.pos - 1
	}
	return false
}

var errNotString = errors.New("not a JSON string")

// unquote decodes a JSON string token as encoding/json does: invalid
// UTF-8 and lone surrogates become U+FFFD.
func unquote(raw []byte) (string, error) {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return "", errNotString
	}
	raw = raw[1 : len(raw)-1]
	plain := true
	for _, c := range raw {
		if c == '\\' || c == '"' || c < 0x20 || c >= utf8.RuneSelf {
			plain = false
			break
		}
	}
	if plain {
		return string(raw), nil
	}
	out := make([]byte, 0, len(raw))
	for i := 0; i < len(raw); {
		// Runs of plain ASCII eight bytes at a time.
		start := i
		for i+8 <= len(raw) {
			x := binary.LittleEndian.Uint64(raw[i:])
			if m := special(x) | x&0x8080808080808080; m != 0 {
				i += bits.TrailingZeros64(m) / 8
				break
			}
			i += 8
		}
		out = append(out, raw[start:i]...)
		if i >= len(raw) {
			break
		}
		c := raw[i]
		switch {
		case c == '\\':
			if i+1 >= len(raw) {
				return "", errNotString
			}
			switch raw[i+1] {
			case '"', '\\', '/':
				out = append(out, raw[i+1])
			case 'b':
				out = append(out, '\b')
			case 'f':
				out = append(out, '\f')
			case 'n':
				out = append(out, '\n')
			case 'r':
				out = append(out, '\r')
			case 't':
				out = append(out, '\t')
			case 'u':
				r, ok := hex4(raw, i+2)
				if !ok {
					return "", errNotString
				}
				i += 6
				if utf16.IsSurrogate(r) {
					if r2, ok := hex4(raw, i+2); ok && i+1 < len(raw) && raw[i] == '\\' && raw[i+1] == 'u' {
						if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
							out = utf8.AppendRune(out, dec)
							i += 6
							continue
						}
					}
					r = utf8.RuneError
				}
				out = utf8.AppendRune(out, r)
				continue
			default:
				return "", errNotString
			}
			i += 2
		case c == '"' || c < 0x20:
			return "", errNotString
		case c < utf8.RuneSelf:
			out = append(out, c)
			i++
		default:
			r, size := utf8.DecodeRune(raw[i:])
			if r == utf8.RuneError && size == 1 {
				out = utf8.AppendRune(out, utf8.RuneError)
			} else {
				out = append(out, raw[i:i+size]...)
			}
			i += size
		}
	}
	return string(out), nil
}

func hex4(raw []byte, at int) (rune, bool) {
	if at+4 > len(raw) {
		return 0, false
	}
	var r rune
	for _, c := range raw[at : at+4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			c = c - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

// AppendString appends s as a JSON string the way encoding/json writes one
// without HTML escaping: control characters escaped, invalid UTF-8 as
// U+FFFD, U+2028 and U+2029 escaped.
func AppendString(out []byte, s string) []byte {
	const hex = "0123456789abcdef"
	out = append(out, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			out = append(out, s[start:i]...)
			switch c {
			case '"', '\\':
				out = append(out, '\\', c)
			case '\b':
				out = append(out, '\\', 'b')
			case '\f':
				out = append(out, '\\', 'f')
			case '\n':
				out = append(out, '\\', 'n')
			case '\r':
				out = append(out, '\\', 'r')
			case '\t':
				out = append(out, '\\', 't')
			default:
				out = append(out, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			out = append(out, s[start:i]...)
			out = append(out, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			out = append(out, s[start:i]...)
			out = append(out, '\\', 'u', '2', '0', '2', hex[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	out = append(out, s[start:]...)
	return append(out, '"')
}
