package toolingrc

import (
	"bytes"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// A .toolingrc that is not UTF-8 text, or whose keys only look like
// magehook's, must not read as a file without keys: the gates it
// declares would be off without a word (and a re-install would take the
// hooks out of the settings). Each is a configuration error naming the
// file, the line and what to do.

// encoding rejects text that is not UTF-8: UTF-16 (what Windows
// PowerShell 5.1's > and Out-File write) or UTF-32, with or without a
// byte order mark, and any other bytes that are not UTF-8.
func encoding(path string, data []byte) error {
	switch {
	case bytes.HasPrefix(data, []byte{0, 0, 0xfe, 0xff}), bytes.HasPrefix(data, []byte{0xff, 0xfe, 0, 0}):
		return &Error{File: path, Line: 1, Msg: "is UTF-32 text, not UTF-8; save it as UTF-8 (magehook would read no key of it)"}
	case bytes.HasPrefix(data, []byte{0xff, 0xfe}), bytes.HasPrefix(data, []byte{0xfe, 0xff}):
		return &Error{File: path, Line: 1, Msg: "is UTF-16 text (what Windows PowerShell 5.1's > writes), not UTF-8; save it as UTF-8, e.g. Set-Content -Encoding utf8 (magehook would read no key of it)"}
	}
	if i := bytes.IndexByte(data, 0); i >= 0 {
		return &Error{File: path, Line: 1 + bytes.Count(data[:i], []byte("\n")), Msg: "holds NUL bytes (UTF-16 or UTF-32 text without a byte order mark, or a binary file), not UTF-8 text; save it as UTF-8"}
	}
	if !utf8.Valid(data) {
		line := 1
		for i := 0; i < len(data); {
			r, size := utf8.DecodeRune(data[i:])
			if r == utf8.RuneError && size <= 1 {
				break
			}
			if data[i] == '\n' {
				line++
			}
			i += size
		}
		return &Error{File: path, Line: line, Msg: "is not UTF-8 text (a byte that is no UTF-8 character); save it as UTF-8"}
	}
	return nil
}

// unreadable rejects a line holding a character that is invisible or
// only looks like a space (a zero-width space, a word joiner, a
// non-breaking space, a direction mark): a key or value holding one is
// not the key or value it shows.
func unreadable(path string, n int, text string) error {
	for _, r := range text {
		if r == '\t' || r < utf8.RuneSelf {
			continue
		}
		if n == 1 && r == '\ufeff' && strings.HasPrefix(text, "\ufeff") {
			continue // the byte order mark some editors write
		}
		if unicode.Is(unicode.Cf, r) || unicode.IsSpace(r) || unicode.Is(unicode.Zs, r) || unicode.IsControl(r) {
			return &Error{File: path, Line: n, Msg: fmt.Sprintf("holds the invisible character %U, which makes a key or value other than the one shown; delete it (retype the line)", r)}
		}
	}
	return nil
}

// lookalike rejects a key that is not magehook's but differs from one of
// its keys only by case or by characters that look like ASCII (a
// fullwidth dot or letter): HOOK.ENABLE, Hook.enable, hook．enable.
func lookalike(path string, n int, key string) error {
	if _, known := specOf(key); known {
		return nil
	}
	norm := normalKey(key)
	ascii := true
	for i := 0; i < len(norm); i++ {
		ascii = ascii && norm[i] < utf8.RuneSelf
	}
	if !ascii {
		// Another script's look-alike letters (a Cyrillic о in hооk):
		// a key of no ASCII near one of magehook's is taken for it.
		skeleton := strings.Map(func(r rune) rune {
			if r >= utf8.RuneSelf {
				return '?'
			}
			return r
		}, norm)
		if s := nearest(Keys(), skeleton); s != "" {
			return &Error{File: path, Line: n, Key: key, Msg: "holds characters that are not ASCII and looks like the key " + s + "; did you mean " + s + "? Keys are lower case ASCII"}
		}
	}
	if norm == key {
		return nil
	}
	if _, known := specOf(norm); known || gateKey(norm) {
		msg := "differs from a key of magehook's only by case or by look-alike characters"
		if _, known := specOf(norm); known {
			msg = "differs from the key " + norm + " only by case or by look-alike characters; did you mean " + norm + "?"
		} else if s := nearest(Keys(), norm); s != "" {
			msg += "; did you mean " + s + "?"
		}
		return &Error{File: path, Line: n, Key: key, Msg: msg + " Keys are lower case ASCII"}
	}
	return nil
}

// normalKey is a key in lower case with fullwidth forms made ASCII.
func normalKey(key string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 0xff01 && r <= 0xff5e:
			r -= 0xff01 - 0x21
		case r == 0x2024 || r == 0xfe52 || r == 0x3002 || r == 0xff61:
			r = '.'
		}
		return unicode.ToLower(r)
	}, key)
}
