package safetext

import (
	"bytes"
	"strings"
	"testing"
)

func TestString(t *testing.T) {
	for in, want := range map[string]string{
		"plain text\twith a tab\n":           "plain text\twith a tab\n",
		"title \x1b]0;pwned\x07 here":        `title \x1b]0;pwned\x07 here`,
		"clipboard \x1b]52;c;ZXZpbA==\x1b\\": `clipboard \x1b]52;c;ZXZpbA==\x1b\`,
		"clear \x1b[2J\x1b[H":                `clear \x1b[2J\x1b[H`,
		"c1 csi \u009b2J":                    `c1 csi \u009b2J`,
		"over\rwrite":                        `over\x0dwrite`,
		"bidi \u202eexe.txt":                 `bidi \u202eexe.txt`,
		"café ünïcode":                       "café ünïcode",
		"bad \xff byte":                      `bad \xff byte`,
		"del \x7f":                           `del \x7f`,
	} {
		if got := String(in); got != want {
			t.Errorf("String(%q) = %q, want %q", in, got, want)
		}
	}
	s := "nothing to escape: é"
	if n := testing.AllocsPerRun(10, func() { String(s) }); n != 0 {
		t.Errorf("%v allocations for a safe string", n)
	}
}

// A character split across writes is escaped whole.
func TestWriterJoinsSplitCharacters(t *testing.T) {
	var out bytes.Buffer
	w := Writer(&out)
	text := "a\u009bb\u202ec é \x1b[31mred"
	for i := 0; i < len(text); i++ {
		if n, err := w.Write([]byte{text[i]}); n != 1 || err != nil {
			t.Fatal(n, err)
		}
	}
	if got, want := out.String(), String(text); got != want || strings.ContainsRune(got, 0x1b) {
		t.Fatalf("got %q, want %q", got, want)
	}
}
