package configguard

import (
	"strings"
	"testing"
	"unicode"
)

// foldUnicode is fold without its ASCII shortcut.
func foldUnicode(name string) string {
	if i := strings.IndexByte(name, ':'); i > 0 {
		name = name[:i]
	}
	var b strings.Builder
	for _, r := range name {
		if !ignorable(r) {
			b.WriteRune(unicode.ToLower(unicode.ToUpper(r)))
		}
	}
	s := b.String()
	if s != "." && s != ".." {
		s = strings.TrimRight(s, ". ")
	}
	return s
}

// The ASCII shortcut folds every ASCII name as the Unicode path does.
func TestFoldASCIIAgrees(t *testing.T) {
	names := []string{"", ".", "..", "...", ".toolingrc", ".TOOLINGRC", "Settings.JSON", "BIN", "magehook. . ", "a:b", ":x", "TOOLIN~1", "x y ", "Z@[`{"}
	for c := 0; c < 128; c++ {
		names = append(names, string(rune(c)), "a"+string(rune(c))+"Z")
	}
	for _, n := range names {
		if got, want := fold(n), foldUnicode(n); got != want {
			t.Errorf("fold(%q) = %q, want %q", n, got, want)
		}
	}
}
