// Package redact removes secret-looking values from text before it is
// logged or committed as a fixture, and cuts long bodies.
package redact

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"
)

// Mask replaces what was removed.
const Mask = "[REDACTED]"

// A rule is one pattern and the literals it cannot match without: a
// pattern is compiled, on first use, only for text that holds one of them,
// and most text (a command, a path) holds none. The hook binary starts on
// every tool call; compiling the fourteen patterns cost more than the rest
// of an audited call.
type rule struct {
	// any lists the literals; with fold they are lower case and matched
	// without regard to ASCII case (the pattern is (?i)).
	any  []string
	fold bool
	re   func() *regexp.Regexp
	// keyed rules keep the pattern's groups around the mask.
	keyed bool
}

func lazy(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}

// rules apply in order: whole secrets first, then secrets after a key.
var rules = sync.OnceValue(func() []rule {
	return []rule{
		// Private keys, whole.
		{any: []string{"-----BEGIN "}, re: lazy(`-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----`)},
		// Tokens with a recognisable shape.
		{any: []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_"}, re: lazy(`\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}`)},
		{any: []string{"github_pat_"}, re: lazy(`\bgithub_pat_[A-Za-z0-9_]{20,}`)},
		{any: []string{"sk-"}, re: lazy(`\bsk-(?:ant-|proj-)?[A-Za-z0-9_-]{16,}`)},
		{any: []string{"AKIA", "ASIA"}, re: lazy(`\b(?:AKIA|ASIA)[0-9A-Z]{16}\b`)},
		{any: []string{"xoxa-", "xoxb-", "xoxp-", "xoxr-", "xoxs-"}, re: lazy(`\bxox[abprs]-[A-Za-z0-9-]{10,}`)},
		{any: []string{"glpat-"}, re: lazy(`\bglpat-[A-Za-z0-9_-]{20,}`)},
		{any: []string{"npm_"}, re: lazy(`\bnpm_[A-Za-z0-9]{30,}`)},
		{any: []string{"AIza"}, re: lazy(`\bAIza[0-9A-Za-z_-]{35}`)},
		{any: []string{"eyJ"}, re: lazy(`\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}`)},
		// Credentials in a URL: scheme://user:password@host.
		{any: []string{"://"}, keyed: true, re: lazy(`(://[^/\s:@]+:)[^@\s/]+(@)`)},
		// Authorization headers.
		{any: []string{"bearer"}, fold: true, keyed: true, re: lazy(`(?i)(\bbearer\s+)[A-Za-z0-9._~+/=-]{8,}`)},
		{any: []string{"authorization:"}, fold: true, keyed: true, re: lazy(`(?i)(\bauthorization:\s*(?:basic|token)\s+)[A-Za-z0-9._~+/=-]{8,}`)},
		// key=value and key: value where the key names a secret.
		{any: []string{"passw", "pwd", "secret", "token", "key", "credential"}, fold: true, keyed: true,
			re: lazy(`(?i)(\b[A-Za-z0-9_.-]*(?:password|passwd|pwd|secret|token|api[_-]?key|access[_-]?key|private[_-]?key|client[_-]?secret|credentials?)["']?\s*[:=]\s*["']?)[^\s"'&;,]{4,}`)},
	}
})

// String returns s with secret-looking values replaced by Mask.
func String(s string) string {
	lower, ascii := "", true
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			ascii = false // (?i) folds some non-ASCII runes onto ASCII letters: no shortcut
			break
		}
	}
	for _, r := range rules() {
		if !r.mayMatch(s, &lower, ascii) {
			continue
		}
		before := s
		if r.keyed {
			s = r.re().ReplaceAllString(s, "${1}"+Mask+"${2}")
		} else {
			s = r.re().ReplaceAllString(s, Mask)
		}
		if s != before {
			lower = ""
		}
	}
	return s
}

// mayMatch reports whether s holds one of the rule's literals. The mask
// holds none and no literal holds '[' or ']', so a replacement never makes
// a literal appear that was not there. lower caches s in lower case.
func (r rule) mayMatch(s string, lower *string, ascii bool) bool {
	if r.fold {
		if !ascii {
			return true
		}
		if *lower == "" {
			*lower = strings.ToLower(s)
		}
		s = *lower
	}
	for _, lit := range r.any {
		if strings.Contains(s, lit) {
			return true
		}
	}
	return false
}

// Home replaces a home directory prefix with ~ wherever it appears.
func Home(s, home string) string {
	home = strings.TrimRight(home, "/")
	if home == "" || home == "/" {
		return s
	}
	return strings.ReplaceAll(s, home, "~")
}

// Cut shortens s to at most n bytes (on a rune boundary), saying how much
// was cut.
func Cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + fmt.Sprintf("…[%d bytes cut]", len(s)-cut)
}
