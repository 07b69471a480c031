package gitcmd

// Literals returns the text between each pair of matching quotes (single,
// double or back), at any depth: 'a' inside "..." is found too.
func Literals(text string) []string {
	var out []string
	for _, q := range []byte{'\'', '"', '`'} {
		start := -1
		for i := 0; i < len(text); i++ {
			if text[i] == '\\' && q != '\'' {
				i++
				continue
			}
			if text[i] != q {
				continue
			}
			if start < 0 {
				start = i + 1
				continue
			}
			out = append(out, text[start:i])
			start = -1
		}
	}
	return out
}
