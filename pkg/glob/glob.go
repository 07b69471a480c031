// Package glob matches slash-separated repository paths against the
// patterns handlers read from .toolingrc (docdrift.watch, docorphan.skip,
// subagentgate.scope).
//
// A pattern is a path.Match pattern per segment, plus "**", which matches
// any number of segments (zero included). A pattern without a slash
// matches the last segment (the file name) at any depth, as in
// .gitignore; a pattern with a slash is anchored at the repository root
// (a leading "/" only anchors). A trailing "/" matches everything below.
package glob

import (
	"path"
	"strings"
)

// Match reports whether the slash-separated relative path p matches
// pattern. A malformed pattern matches nothing; Valid tells it apart.
func Match(pattern, p string) bool {
	p = strings.TrimPrefix(p, "./")
	if strings.HasSuffix(pattern, "/") {
		pattern += "**"
	}
	if !strings.Contains(pattern, "/") {
		ok, _ := path.Match(pattern, path.Base(p))
		return ok
	}
	return segments(strings.Split(strings.TrimPrefix(pattern, "/"), "/"), strings.Split(p, "/"))
}

// Any reports whether p matches one of the patterns.
func Any(patterns []string, p string) bool {
	for _, pat := range patterns {
		if Match(pat, p) {
			return true
		}
	}
	return false
}

// Valid reports whether every segment of pattern is well formed.
func Valid(pattern string) bool {
	for _, seg := range strings.Split(pattern, "/") {
		if seg == "**" {
			continue
		}
		if _, err := path.Match(seg, ""); err != nil {
			return false
		}
	}
	return true
}

func segments(pat, p []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			rest := pat[1:]
			for i := 0; i <= len(p); i++ {
				if segments(rest, p[i:]) {
					return true
				}
			}
			return false
		}
		if len(p) == 0 {
			return false
		}
		if ok, err := path.Match(pat[0], p[0]); err != nil || !ok {
			return false
		}
		pat, p = pat[1:], p[1:]
	}
	return len(p) == 0
}
