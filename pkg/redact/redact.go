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
		// Stripe secret and restricted keys, Hugging Face tokens.
		regexp.MustCompile(`\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{10,}`),
		regexp.MustCompile(`\bhf_[A-Za-z0-9]{20,}`),
		// Vault tokens: hvs./hvb./hvr. and the older s. service tokens.
		regexp.MustCompile(`\bhv[sbr]\.[A-Za-z0-9_-]{20,}`),
		regexp.MustCompile(`\bs\.[A-Za-z0-9]{24}\b`),
	}
})

// keyed patterns keep their first group (and second, where there is one)
// and mask what follows: the name of a secret, then the secret.
var keyed = sync.OnceValue(func() []*regexp.Regexp {
	const value = `[^\s"'&;,|)]+`
	return []*regexp.Regexp{
		// Credentials in a URL: scheme://user:password@host.
		regexp.MustCompile(`(://[^/\s:@]+:)[^@\s/]+(@)`),
		// Slack incoming webhooks: the path is the secret.
		regexp.MustCompile(`(https://hooks\.slack\.com/(?:services|workflows|triggers)/)[A-Za-z0-9/_-]+`),
		// Authorization headers.
		regexp.MustCompile(`(?i)(\bbearer\s+)[A-Za-z0-9._~+/=-]{8,}`),
		regexp.MustCompile(`(?i)(\bauthorization:\s*(?:basic|token)\s+)[A-Za-z0-9._~+/=-]{8,}`),
		// Cookies: the header, and curl's -b/--cookie.
		regexp.MustCompile(`(?i)(\b(?:set-)?cookie:\s*)[^\r\n"']+`),
		regexp.MustCompile(`((?:^|\s)(?:-b|--cookie)\s*['"]?)[^\s"']+`),
		// By argument position: curl -u/--user user:password (the user is
		// kept), mysql -pSECRET, docker login -p SECRET, sshpass -p SECRET,
		// aws configure set <secret key> SECRET, and a flag naming a secret
		// followed by its value (--token X, --api-key X, --password X).
		regexp.MustCompile(`((?:^|\s)(?:-u|--user)\s*['"]?[^\s:'"]*:)` + value),
		regexp.MustCompile(`(\bmysql(?:dump|admin|sh)?\b[^|;&\n]*?\s-p)` + value),
		regexp.MustCompile(`(\b(?:docker|podman|nerdctl|helm\s+registry)\s+login\b[^|;&\n]*?\s-p\s*['"]?)` + value),
		regexp.MustCompile(`(\bsshpass\s+-p\s*['"]?)` + value),
		regexp.MustCompile(`(?i)(\baws\s+configure\s+set\s+(?:\S+\.)?(?:aws_secret_access_key|aws_session_token)\s+['"]?)` + value),
		regexp.MustCompile(`(?i)((?:^|[^A-Za-z0-9_-])--?(?:[a-z0-9]+[-_])*(?:password|passwd|passphrase|secret|token|api[-_]?key|access[-_]?key|private[-_]?key|auth)\s+['"]?)[^\s"'&;,|)-][^\s"'&;,|)]*`),
		// SQL: PASSWORD 'x', IDENTIFIED BY 'x'.
		regexp.MustCompile(`(?i)(\b(?:password|identified\s+by)\s*(?:=\s*)?')[^']*(')`),
		regexp.MustCompile(`(?i)(\b(?:password|identified\s+by)\s*(?:=\s*)?")[^"]*(")`),
		// key=value and key: value where the key names a secret.
		regexp.MustCompile(`(?i)(\b[A-Za-z0-9_.-]*(?:password|passwd|pwd|secret|token|api[_-]?key|access[_-]?key|private[_-]?key|client[_-]?secret|credentials?)["']?\s*[:=]\s*["']?)[^\s"'&;,]{4,}`),
	}
})

// String returns s with secret-looking values replaced by Mask: known
// token shapes anywhere, and the value that follows a secret's name or
// flag (by its position in a command line, a header, a URL or SQL). What a
// log needs around it (the command, the flag, the user name, the host) is
// kept.
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
