// Package safetext makes text from configuration, paths and payloads safe
// to show on a terminal. A value an agent can write (a .toolingrc value, a
// directory name, a payload's field) may hold control sequences: ESC
// starts CSI and OSC sequences that clear the screen, set the window's
// title or write the clipboard (OSC 52), a carriage return rewrites the
// line, and the bidirectional overrides reorder what is read. Every such
// character is shown escaped (\x1b, \r, \u202e); newlines and tabs stay.
//
// It is the one escaping function of every human-facing line: the hook's
// stderr (what Claude Code shows the model with exit 2), and the output of
// doctor, hook:list, hook:install and the other operator targets.
package safetext

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// unsafe reports whether r must be escaped.
func unsafe(r rune) bool {
	switch {
	case r == '\n' || r == '\t':
		return false
	case r < 0x20 || r == 0x7f: // C0 controls, DEL
		return true
	case r >= 0x80 && r <= 0x9f: // C1 controls (CSI is U+009B)
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x200e || r == 0x200f, r == 0x061c:
		return true // bidirectional controls
	}
	return false
}

func escape(b *strings.Builder, r rune) {
	if r < 0x80 {
		fmt.Fprintf(b, `\x%02x`, r)
	} else {
		fmt.Fprintf(b, `\u%04x`, r)
	}
}

// String returns s with every unsafe character escaped; s itself when it
// has none (no allocation). Bytes that are not UTF-8 are escaped as \xNN.
func String(s string) string {
	i := 0
	for i < len(s) {
		c := s[i]
		if c >= 0x20 && c < 0x7f || c == '\n' || c == '\t' {
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n <= 1 || unsafe(r) {
			break
		}
		i += n
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	b.WriteString(s[:i])
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n <= 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case unsafe(r):
			escape(&b, r)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// Writer returns a writer that escapes what it is given (as String) before
// w gets it. A character split across two writes is held until it is
// whole; Write reports len(p) written when w took the escaped text.
func Writer(w io.Writer) io.Writer {
	if sw, ok := w.(*writer); ok {
		return sw
	}
	return &writer{w: w}
}

type writer struct {
	w    io.Writer
	tail []byte // the start of a character the last Write ended in
}

func (sw *writer) Write(p []byte) (int, error) {
	data := p
	if len(sw.tail) > 0 {
		data = append(sw.tail, p...)
		sw.tail = nil
	}
	// Hold an incomplete UTF-8 sequence at the end for the next write.
	cut := len(data)
	for k := 1; k <= 3 && k <= len(data); k++ {
		c := data[len(data)-k]
		if c < 0x80 {
			break
		}
		if utf8.RuneStart(c) {
			if !utf8.FullRune(data[len(data)-k:]) {
				cut = len(data) - k
			}
			break
		}
	}
	if cut < len(data) {
		sw.tail = append([]byte(nil), data[cut:]...)
	}
	if _, err := io.WriteString(sw.w, String(string(data[:cut]))); err != nil {
		return 0, err
	}
	return len(p), nil
}
