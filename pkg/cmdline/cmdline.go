// Package cmdline splits a command line from .toolingrc into its
// arguments (Words), with quotes and no other shell syntax.
package cmdline

import "strings"

// Words splits a command line from .toolingrc into an argument list:
// whitespace separates words, single and double quotes group them. There is
// no other shell syntax (no variables, globs or escapes), so a configured
// command never runs through a shell.
func Words(s string) []string {
	var words []string
	var cur strings.Builder
	in, quote := false, byte(0)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0 && c == quote:
			quote = 0
		case quote != 0:
			cur.WriteByte(c)
		case c == '\'' || c == '"':
			quote, in = c, true
		case c == ' ' || c == '\t':
			if in {
				words = append(words, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteByte(c)
			in = true
		}
	}
	if in {
		words = append(words, cur.String())
	}
	return words
}
