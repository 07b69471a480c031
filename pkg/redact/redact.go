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

// patterns are compiled on first use, not at program start: this package
// is linked into the hook binary, which starts on every tool call.
var patterns = sync.OnceValue(func() []*regexp.Regexp {
	return []*regexp.Regexp{
		// Private keys, whole.
		regexp.MustCompile(`-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----`),
		// Tokens with a recognisable shape.
		regexp.MustCompile(`\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}`),
		regexp.MustCompile(`\bgithub_pat_[A-Za-z0-9_]{20,}`),
		regexp.MustCompile(`\bsk-(?:ant-|proj-)?[A-Za-z0-9_-]{16,}`),
		regexp.MustCompile(`\b(?:AKIA|ASIA)[0-9A-Z]{16}\b`),
		regexp.MustCompile(`\bxox[abprs]-[A-Za-z0-9-]{10,}`),
		regexp.MustCompile(`\bglpat-[A-Za-z0-9_-]{20,}`),
		regexp.MustCompile(`\bnpm_[A-Za-z0-9]{30,}`),
		regexp.MustCompile(`\bAIza[0-9A-Za-z_-]{35}`),
		regexp.MustCompile(`\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}`),
	}
})

var keyed = sync.OnceValue(func() []*regexp.Regexp {
	return []*regexp.Regexp{
		// Credentials in a URL: scheme://user:password@host.
		regexp.MustCompile(`(://[^/\s:@]+:)[^@\s/]+(@)`),
		// Authorization headers.
		regexp.MustCompile(`(?i)(\bbearer\s+)[A-Za-z0-9._~+/=-]{8,}`),
		regexp.MustCompile(`(?i)(\bauthorization:\s*(?:basic|token)\s+)[A-Za-z0-9._~+/=-]{8,}`),
		// key=value and key: value where the key names a secret.
		regexp.MustCompile(`(?i)(\b[A-Za-z0-9_.-]*(?:password|passwd|pwd|secret|token|api[_-]?key|access[_-]?key|private[_-]?key|client[_-]?secret|credentials?)["']?\s*[:=]\s*["']?)[^\s"'&;,]{4,}`),
	}
})

// String returns s with secret-looking values replaced by Mask.
func String(s string) string {
	for _, re := range patterns() {
		s = re.ReplaceAllString(s, Mask)
	}
	for _, re := range keyed() {
		s = re.ReplaceAllString(s, "${1}"+Mask+"${2}")
	}
	return s
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
