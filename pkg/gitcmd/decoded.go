package gitcmd

import (
	"encoding/base64"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Decoded returns the text hidden in a command's base64 words (as UTF-8,
// or as the UTF-16LE of PowerShell's -EncodedCommand), so that a gate
// asking whether a command it cannot follow names something (git, a
// guarded file) sees what the encoding hides: pwsh -enc ..., echo ... |
// base64 -d | sh. Words shorter than 8 characters are left alone.
func Decoded(text string) string {
	var out []string
	for _, word := range strings.FieldsFunc(text, func(r rune) bool {
		return r == ' ' || r == '\t' || r == '\n' || r == '\'' || r == '"' || r == '`' || r == ';' || r == '|' || r == '(' || r == ')' || r == '='
	}) {
		if len(word) < 8 {
			continue
		}
		var data []byte
		var err error
		for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
			if data, err = enc.DecodeString(word); err == nil {
				break
			}
		}
		if err != nil || len(data) == 0 {
			continue
		}
		if len(data)%2 == 0 && len(data) >= 4 && data[1] == 0 {
			u := make([]uint16, len(data)/2)
			for i := range u {
				u[i] = uint16(data[2*i]) | uint16(data[2*i+1])<<8
			}
			out = append(out, string(utf16.Decode(u)))
			continue
		}
		if utf8.Valid(data) {
			out = append(out, string(data))
		}
	}
	return strings.Join(out, "\n")
}
