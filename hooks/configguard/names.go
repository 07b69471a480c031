package configguard

import (
	"os"
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Guarded names are compared as the most forgiving file system would
// compare them, on every system: a checkout on macOS (APFS and HFS+ are
// case-insensitive by default), on Windows (NTFS), on a Linux directory
// with casefold (ext4 chattr +F) or on a mounted share opens .toolingrc
// for .TOOLINGRC, and the gate cannot afford to ask each directory how it
// compares names (a probe per call, and per directory: a checkout can mix
// them). A false deny of a file literally named .TOOLINGRC on a
// case-sensitive system is cheap; a missed one is a gate switched off. So
// fold ignores case (both ways: ı and ſ as NTFS's upper-casing sees them,
// the Kelvin sign as APFS's folding does), drops the code points HFS+
// ignores in names (zero-width joiners and the like: git's CVE-2014-9390),
// the trailing dots and spaces Windows strips, and an NTFS stream suffix
// (.toolingrc::$DATA is the file itself).
func fold(name string) string {
	if i := strings.IndexByte(name, ':'); i > 0 {
		name = name[:i]
	}
	if s, ok := foldASCII(name); ok {
		return s
	}
	var b strings.Builder
	for _, r := range name {
		if ignorable(r) {
			continue
		}
		b.WriteRune(unicode.ToLower(unicode.ToUpper(r)))
	}
	s := b.String()
	if s != "." && s != ".." {
		s = strings.TrimRight(s, ". ")
	}
	return s
}

// foldASCII is fold for a name of ASCII alone, the common case, without
// the Unicode tables: letters lower-cased, trailing dots and spaces cut.
func foldASCII(name string) (string, bool) {
	upper := false
	for i := 0; i < len(name); i++ {
		c := name[i]
		if c >= utf8.RuneSelf {
			return "", false
		}
		upper = upper || 'A' <= c && c <= 'Z'
	}
	s := name
	if upper {
		b := []byte(name)
		for i, c := range b {
			if 'A' <= c && c <= 'Z' {
				b[i] = c + 'a' - 'A'
			}
		}
		s = string(b)
	}
	if s != "." && s != ".." {
		s = strings.TrimRight(s, ". ")
	}
	return s, true
}

// ignorable reports the code points HFS+ leaves out when it compares
// names, and other invisible ones an agent could slip into a name.
func ignorable(r rune) bool {
	switch {
	case r == 0x00ad, r == 0x034f, r == 0x180e, r == 0xfeff:
		return true
	case r >= 0x200b && r <= 0x200f, r >= 0x202a && r <= 0x202e, r >= 0x2060 && r <= 0x206f:
		return true
	}
	return false
}

// foldParts is a path's components, each folded.
func foldParts(p string) []string {
	parts := split(filepath.ToSlash(p))
	for i, c := range parts {
		parts[i] = fold(c)
	}
	return parts
}

// foldPath is a path with each component folded, for comparing paths.
func foldPath(p string) string {
	return "/" + strings.Join(foldParts(p), "/")
}

// within reports whether path is dir or below it, as folded names compare
// (a short name in dir standing for its long one: rm -r CLAUDE~1).
func within(path, dir string) bool {
	fp, fd := foldPath(path), foldPath(dir)
	if fp == fd || strings.HasPrefix(fp, strings.TrimSuffix(fd, "/")+"/") {
		return true
	}
	pp, pd := split(fp), split(fd)
	if len(pp) < len(pd) {
		return false
	}
	for i := range pd {
		if pp[i] != pd[i] && !component(pd[i], pp[i]) {
			return false
		}
	}
	return true
}

// matchName reports whether a shell pattern matches a name, as folded
// names compare. A bracket class [!x] is the shell's negation; a pattern
// Go cannot read is taken to match (a gate over-matches, never under).
func matchName(pattern, name string) bool {
	pattern = strings.ReplaceAll(fold(pattern), "[!", "[^")
	ok, err := filepath.Match(pattern, fold(name))
	return ok || err != nil
}

// hasMeta reports shell pattern characters in a path component.
func hasMeta(s string) bool {
	return strings.ContainsAny(s, "*?[")
}

// braces expands the shell's brace lists ({a,b}, nested too) in a pattern;
// a brace without a comma list is kept as written. At most max patterns.
func braces(p string, max int) []string {
	open := -1
	depth := 0
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '\\':
			i++
		case '{':
			if depth == 0 {
				open = i
			}
			depth++
		case '}':
			if depth == 0 {
				continue
			}
			depth--
			if depth > 0 {
				continue
			}
			var alts []string
			start, d := open+1, 0
			for j := open + 1; j < i; j++ {
				switch p[j] {
				case '{':
					d++
				case '}':
					d--
				case ',':
					if d == 0 {
						alts = append(alts, p[start:j])
						start = j + 1
					}
				}
			}
			if len(alts) == 0 {
				open = -1
				continue // {x} or {a..b}: kept as written
			}
			alts = append(alts, p[start:i])
			var out []string
			for _, a := range alts {
				for _, e := range braces(p[:open]+a+p[i+1:], max) {
					if len(out) < max {
						out = append(out, e)
					}
				}
			}
			return out
		}
	}
	return []string{p}
}

// glob lists the existing paths an absolute shell pattern matches, with
// folded names ({a,b} expanded, [!x] negated, dot files matched by * too:
// more than the shell, never less). Past max paths it stops and reports
// that the list is not complete.
func glob(pattern string, max int) ([]string, bool) {
	var out []string
	complete := true
	for _, p := range braces(pattern, 64) {
		vol := filepath.VolumeName(p)
		matches := []string{vol + string(filepath.Separator)}
		for _, c := range split(p[len(vol):]) {
			var next []string
			for _, m := range matches {
				if !hasMeta(c) {
					next = append(next, filepath.Join(m, c))
					continue
				}
				entries, err := os.ReadDir(m)
				if err != nil {
					continue
				}
				for _, e := range entries {
					if !matchName(c, e.Name()) {
						continue
					}
					if len(next) >= max {
						complete = false
						break
					}
					next = append(next, filepath.Join(m, e.Name()))
				}
			}
			matches = next
		}
		for _, m := range matches {
			if _, err := os.Lstat(m); err == nil {
				out = append(out, m)
			}
		}
	}
	return out, complete
}

// shortPrefix reports a Windows 8.3 short name (TOOLIN~1, SETTIN~1.JSO,
// CLAUDE~1: NTFS makes one for each long name unless told not to) and the
// head of the long name it stands for, folded.
func shortPrefix(c string) (string, bool) {
	i := strings.IndexByte(c, '~')
	if i < 1 || i > 6 {
		return "", false
	}
	rest := c[i+1:]
	j := 0
	for j < len(rest) && rest[j] >= '0' && rest[j] <= '9' {
		j++
	}
	if j == 0 || (j < len(rest) && (rest[j] != '.' || len(rest)-j-1 > 3)) {
		return "", false
	}
	return c[:i], true
}

// longHead is what a short name keeps of a long one: its folded
// characters before the first pattern character, without dots and spaces.
func longHead(name string) string {
	if i := strings.IndexAny(name, "*?["); i >= 0 {
		name = name[:i]
	}
	return strings.NewReplacer(".", "", " ", "").Replace(fold(name))
}

// component reports whether a folded path component may name the file a
// folded pattern component matches: by the pattern, or as a short name
// whose head the long name starts with.
func component(c, pattern string) bool {
	if ok, err := filepath.Match(pattern, c); ok || err != nil {
		return true
	}
	if head, ok := shortPrefix(c); ok {
		long := longHead(pattern)
		return strings.HasPrefix(long, head) || len(long) < len(head) && strings.HasPrefix(head, long)
	}
	return false
}

// samePath reports whether two folded paths may name the same file:
// component by component, a short name standing for its long one, and
// Windows' .exe taken off the last.
func samePath(a, b string) bool {
	pa, pb := split(a), split(b)
	if len(pa) != len(pb) {
		return false
	}
	for i := range pa {
		x, y := pa[i], pb[i]
		if i == len(pa)-1 {
			x, y = strings.TrimSuffix(x, ".exe"), strings.TrimSuffix(y, ".exe")
		}
		if x != y && !component(x, y) {
			return false
		}
	}
	return true
}
