package payload

import (
	"encoding/binary"
	"fmt"
	"math/bits"
)

// maxDepth is the deepest nesting accepted, as in encoding/json.
const maxDepth = 10000

// scanner validates JSON text in one pass and hands back the raw members
// of an object without copying them. It exists because encoding/json
// scans a document twice (validation, then decoding) with a slow state
// machine, and a hook binary pays for every byte on every tool call;
// FuzzScan checks it agrees with encoding/json.
type scanner struct {
	data  []byte
	pos   int
	depth int
}

type syntaxError struct {
	msg string
	off int
}

func (e *syntaxError) Error() string { return fmt.Sprintf("%s at byte %d", e.msg, e.off) }

func (s *scanner) fail(msg string) error { return &syntaxError{msg, s.pos} }

func (s *scanner) ws() {
	for s.pos < len(s.data) {
		switch s.data[s.pos] {
		case ' ', '\t', '\n', '\r':
			s.pos++
		default:
			return
		}
	}
}

// splitObject validates data, which must be exactly one JSON object with
// optional surrounding whitespace, and calls fn for each member in order.
func splitObject(data []byte, fn func(key, raw []byte)) error {
	s := scanner{data: data}
	s.ws()
	if s.pos >= len(data) || data[s.pos] != '{' {
		return s.fail("not an object")
	}
	if err := s.object(fn); err != nil {
		return err
	}
	s.ws()
	if s.pos != len(data) {
		return s.fail("invalid character after the top-level value")
	}
	return nil
}

// validValue reports whether data is exactly one JSON value.
func validValue(data []byte) error {
	s := scanner{data: data}
	s.ws()
	if err := s.value(); err != nil {
		return err
	}
	s.ws()
	if s.pos != len(data) {
		return s.fail("invalid character after the top-level value")
	}
	return nil
}

func (s *scanner) value() error {
	if s.pos >= len(s.data) {
		return s.fail("unexpected end of JSON input")
	}
	switch c := s.data[s.pos]; {
	case c == '{':
		return s.object(nil)
	case c == '[':
		return s.array()
	case c == '"':
		return s.str()
	case c == 't':
		return s.literal("true")
	case c == 'f':
		return s.literal("false")
	case c == 'n':
		return s.literal("null")
	case c == '-' || c >= '0' && c <= '9':
		return s.number()
	default:
		return s.fail(fmt.Sprintf("invalid character %q looking for the beginning of a value", c))
	}
}

func (s *scanner) object(fn func(key, raw []byte)) error {
	s.depth++
	if s.depth > maxDepth {
		return s.fail("exceeded max depth")
	}
	s.pos++ // {
	s.ws()
	if s.pos < len(s.data) && s.data[s.pos] == '}' {
		s.pos++
		s.depth--
		return nil
	}
	for {
		s.ws()
		if s.pos >= len(s.data) || s.data[s.pos] != '"' {
			return s.fail("looking for the beginning of an object key")
		}
		keyStart := s.pos
		if err := s.str(); err != nil {
			return err
		}
		key := s.data[keyStart:s.pos]
		s.ws()
		if s.pos >= len(s.data) || s.data[s.pos] != ':' {
			return s.fail("expected ':' after an object key")
		}
		s.pos++
		s.ws()
		valStart := s.pos
		if err := s.value(); err != nil {
			return err
		}
		if fn != nil {
			fn(key, s.data[valStart:s.pos])
		}
		s.ws()
		if s.pos >= len(s.data) {
			return s.fail("unexpected end of JSON input")
		}
		switch s.data[s.pos] {
		case ',':
			s.pos++
		case '}':
			s.pos++
			s.depth--
			return nil
		default:
			return s.fail("expected ',' or '}' after an object value")
		}
	}
}

func (s *scanner) array() error {
	s.depth++
	if s.depth > maxDepth {
		return s.fail("exceeded max depth")
	}
	s.pos++ // [
	s.ws()
	if s.pos < len(s.data) && s.data[s.pos] == ']' {
		s.pos++
		s.depth--
		return nil
	}
	for {
		s.ws()
		if err := s.value(); err != nil {
			return err
		}
		s.ws()
		if s.pos >= len(s.data) {
			return s.fail("unexpected end of JSON input")
		}
		switch s.data[s.pos] {
		case ',':
			s.pos++
		case ']':
			s.pos++
			s.depth--
			return nil
		default:
			return s.fail("expected ',' or ']' after an array element")
		}
	}
}

func (s *scanner) str() error {
	d := s.data
	i := s.pos + 1 // past the opening quote
	for {
		// Eight bytes at a time while none is a quote, a backslash or a
		// control character: most of a payload is the inside of strings.
		for i+8 <= len(d) {
			if m := special(binary.LittleEndian.Uint64(d[i:])); m != 0 {
				i += bits.TrailingZeros64(m) / 8
				break
			}
			i += 8
		}
		for i < len(d) && !stops[d[i]] {
			i++ // the last few bytes
		}
		if i >= len(d) {
			s.pos = i
			return s.fail("unexpected end of JSON input")
		}
		switch c := d[i]; {
		case c == '"':
			s.pos = i + 1
			return nil
		case c == '\\':
			if i+1 >= len(d) {
				s.pos = i
				return s.fail("unexpected end of JSON input")
			}
			switch d[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(d) {
					s.pos = i
					return s.fail("unexpected end of JSON input")
				}
				for _, h := range d[i+2 : i+6] {
					if !isHex(h) {
						s.pos = i
						return s.fail("invalid character in \\u escape")
					}
				}
				i += 6
			default:
				s.pos = i
				return s.fail("invalid escape in string")
			}
		default: // c < 0x20
			s.pos = i
			return s.fail("invalid control character in string")
		}
	}
}

// stops are the bytes that end a run of ordinary string bytes.
var stops = [256]bool{'"': true, '\\': true,
	0x00: true, 0x01: true, 0x02: true, 0x03: true, 0x04: true, 0x05: true, 0x06: true, 0x07: true,
	0x08: true, 0x09: true, 0x0a: true, 0x0b: true, 0x0c: true, 0x0d: true, 0x0e: true, 0x0f: true,
	0x10: true, 0x11: true, 0x12: true, 0x13: true, 0x14: true, 0x15: true, 0x16: true, 0x17: true,
	0x18: true, 0x19: true, 0x1a: true, 0x1b: true, 0x1c: true, 0x1d: true, 0x1e: true, 0x1f: true}

// special flags the bytes of x (little-endian) that are a quote, a
// backslash or below 0x20 with their high bit. The lowest flag is exact: a
// borrow only carries into the bytes above a byte that matched.
func special(x uint64) uint64 {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	q, b := x^(ones*'"'), x^(ones*'\\')
	return ((x-ones*0x20)&^x | (q-ones)&^q | (b-ones)&^b) & highs
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func (s *scanner) literal(word string) error {
	if len(s.data)-s.pos < len(word) || string(s.data[s.pos:s.pos+len(word)]) != word {
		return s.fail("invalid literal")
	}
	s.pos += len(word)
	return nil
}

func (s *scanner) digits() int {
	n := 0
	for s.pos < len(s.data) && s.data[s.pos] >= '0' && s.data[s.pos] <= '9' {
		s.pos++
		n++
	}
	return n
}

func (s *scanner) number() error {
	if s.data[s.pos] == '-' {
		s.pos++
	}
	if s.pos >= len(s.data) {
		return s.fail("unexpected end of JSON input")
	}
	if s.data[s.pos] == '0' {
		s.pos++
	} else if s.digits() == 0 {
		return s.fail("invalid number")
	}
	if s.pos < len(s.data) && s.data[s.pos] == '.' {
		s.pos++
		if s.digits() == 0 {
			return s.fail("invalid number: no digit after the decimal point")
		}
	}
	if s.pos < len(s.data) && (s.data[s.pos] == 'e' || s.data[s.pos] == 'E') {
		s.pos++
		if s.pos < len(s.data) && (s.data[s.pos] == '+' || s.data[s.pos] == '-') {
			s.pos++
		}
		if s.digits() == 0 {
			return s.fail("invalid number: no digit in the exponent")
		}
	}
	return nil
}
