// Package redact removes secret-looking values from text before it is
// logged or committed as a fixture, and cuts long bodies. A secret of a
// known shape is also found percent-encoded (the text is then logged
// decoded, redacted) and in base64 (the run masked whole), where the
// decoded text shows the shape.
package redact

import (
	"fmt"
	"github.com/magehook/magehook/pkg/lazy"
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
	// without regard to case (the pattern is (?i)).
	any  []string
	fold bool
	expr string // compiled on first use (compiled)
	// keyed rules keep the pattern's groups around the mask.
	keyed bool
	// word and alnum narrow a literal down further: it starts a word, and
	// at least alnum ASCII letters and digits follow it. For a literal
	// common in prose ("s."), they spare the compile of a pattern that
	// cannot match.
	word  bool
	alnum int
}

// compiled holds each rule's pattern once compiled: the table itself is
// static data, with nothing to build at start-up or on first use.
var compiled [len(ruleTable)]struct {
	once sync.Once
	re   *regexp.Regexp
}

// re is rule i's compiled pattern.
func re(i int) *regexp.Regexp {
	c := &compiled[i]
	c.once.Do(func() { c.re = regexp.MustCompile(ruleTable[i].expr) })
	return c.re
}

func rules() []rule { return ruleTable[:] }

// ruleTable applies in order: whole secrets first, then secrets after a key.
var ruleTable = [...]rule{
	// Private keys, whole.
	{any: []string{"-----BEGIN "}, expr: `-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----`},
	// A private key in base64: the PEM text encoded ("-----BEGIN"), or
	// the DER or OpenSSH key itself (PKCS#1 and PKCS#8 "MII..IBA[AD]", SEC1
	// EC keys, PKCS#8 Ed25519, "openssh-key-v1"), wrapped lines included.
	// A certificate (MII...CCA) is public and stays.
	{any: []string{"LS0tLS1CRUdJTi", "MII", "MHcCAQEE", "MIGkAgEBBDA", "MC4CAQAw", "b3BlbnNzaC1rZXktdjE"},
		expr: `(?:LS0tLS1CRUdJTi|\bMII[A-Za-z0-9+/]{3}IBA[AD]|\bMHcCAQEE|\bMIGkAgEBBDA|\bMC4CAQAw|\bb3BlbnNzaC1rZXktdjE)(?:[A-Za-z0-9+/=]|\r?\n)*`},
	// Tokens with a recognisable shape.
	{any: []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_"}, expr: `\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}`},
	{any: []string{"github_pat_"}, expr: `\bgithub_pat_[A-Za-z0-9_]{20,}`},
	{any: []string{"sk-"}, expr: `\bsk-(?:ant-|proj-)?[A-Za-z0-9_-]{16,}`},
	{any: []string{"AKIA", "ASIA"}, expr: `\b(?:AKIA|ASIA)[0-9A-Z]{16}\b`},
	{any: []string{"xoxa-", "xoxb-", "xoxp-", "xoxr-", "xoxs-"}, expr: `\bxox[abprs]-[A-Za-z0-9-]{10,}`},
	{any: []string{"glpat-"}, expr: `\bglpat-[A-Za-z0-9_-]{20,}`},
	{any: []string{"npm_"}, expr: `\bnpm_[A-Za-z0-9]{30,}`},
	{any: []string{"AIza"}, expr: `\bAIza[0-9A-Za-z_-]{35}`},
	{any: []string{"eyJ"}, expr: `\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}`},
	// Stripe secret and restricted keys, Hugging Face tokens.
	{any: []string{"sk_live_", "sk_test_", "rk_live_", "rk_test_"}, expr: `\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{10,}`},
	{any: []string{"hf_"}, expr: `\bhf_[A-Za-z0-9]{20,}`},
	// Vault tokens: hvs./hvb./hvr. and the older s. service tokens.
	{any: []string{"hvs.", "hvb.", "hvr."}, expr: `\bhv[sbr]\.[A-Za-z0-9_-]{20,}`},
	{any: []string{"s."}, word: true, alnum: 24, expr: `\bs\.[A-Za-z0-9]{24}\b`},
	// Credentials in a URL: scheme://user:password@host.
	{any: []string{"://"}, keyed: true, expr: `(://[^/\s:@]+:)[^@\s/]+(@)`},
	// Slack incoming webhooks: the path is the secret.
	{any: []string{"hooks.slack.com/"}, keyed: true, expr: `(https://hooks\.slack\.com/(?:services|workflows|triggers)/)[A-Za-z0-9/_-]+`},
	// Cookies: the header, and curl's -b/--cookie.
	{any: []string{"cookie:"}, fold: true, keyed: true, expr: `(?i)(\b(?:set-)?cookie:\s*)[^\r\n"']+`},
	{any: []string{"--cookie", "curl"}, keyed: true, expr: `((?:\bcurl\b[^|;&\n]*?\s-b|(?:^|\s)--cookie)\s*)` + secretValue},
	// By argument position: curl/wget -u/--user user:password (the
	// user is kept), mysql -pSECRET, docker login -p SECRET, sshpass -p
	// SECRET, aws configure set <secret key> SECRET, and a flag naming
	// a secret followed by its value (--token X, --api-key X,
	// --password X).
	{any: []string{"curl", "wget", "http"}, keyed: true, expr: `(\b(?:curl|wget|https?|httpie)\b[^|;&\n]*?\s(?:-u|--user|--http-user)[\s=]*['"]?[^\s:'"]*:)` + secretValue},
	{any: []string{"mysql"}, keyed: true, expr: `(\bmysql(?:dump|admin|sh)?\b[^|;&\n]*?\s-p)` + secretValue},
	{any: []string{"login"}, keyed: true, expr: `(\b(?:docker|podman|nerdctl|helm\s+registry)\s+login\b[^|;&\n]*?\s-p\s*)` + secretValue},
	{any: []string{"sshpass"}, keyed: true, expr: `(\bsshpass\s+-p\s*)` + secretValue},
	{any: []string{"redis-cli"}, keyed: true, expr: `(\bredis-cli\b[^|;&\n]*?\s-a\s+)` + secretValue},
	{any: []string{"zip", "7z"}, keyed: true, expr: `(\b(?:zip|unzip|7z|7za|7zr)\b[^|;&\n]*?\s-[pP]\s*)` + secretValue},
	{any: []string{"pass:"}, keyed: true, expr: `(\s-pass(?:in|out)?\s+pass:)` + secretValue},
	{any: []string{"_auth"}, keyed: true, expr: `(\b_auth(?:Token)?\s+)` + secretValue},
	{any: []string{"secret"}, keyed: true, expr: `(\bgh\s+secret\s+set\b[^|;&\n]*?\s(?:-b|--body)[\s=]+)` + secretValue},
	{any: []string{"aws"}, fold: true, keyed: true, expr: `(?i)(\baws\s+configure\s+set\s+(?:\S+\.)?(?:aws_secret_access_key|aws_session_token)\s+)` + secretValue},
	{any: []string{"passw", "passphrase", "secret", "token", "key", "auth"}, fold: true, keyed: true,
		expr: `(?i)((?:^|[^A-Za-z0-9_-])--?(?:[a-z0-9]+[-_])*(?:password|passwd|passphrase|secret|token|api[-_]?key|access[-_]?key|private[-_]?key|auth)\s+)(?:'[^']*'|"[^"]*"|[^\s"'&;,|)-][^\s"'&;,|)]*)`},
	// SQL: PASSWORD 'x', IDENTIFIED BY 'x'.
	{any: []string{"password", "identified"}, fold: true, keyed: true, expr: `(?i)(\b(?:password|identified\s+by)\s*(?:=\s*)?')[^']*(')`},
	{any: []string{"password", "identified"}, fold: true, keyed: true, expr: `(?i)(\b(?:password|identified\s+by)\s*(?:=\s*)?")[^"]*(")`},
	// A password in free text ("wrong password hunter2 for admin", "the
	// password is 'x y'"): a quoted value, or a word with a digit or a
	// symbol in it (a word of letters alone is prose: "password reset").
	{any: []string{"passw", "passphrase"}, fold: true, keyed: true,
		expr: `(?i)(\b(?:password|passwd|passphrase)(?:\s+(?:is|was))?\s+)(?:'[^'\n\[][^'\n]*'|"[^"\n\[][^"\n]*"|[A-Za-z]*[0-9!#$%^&*+?~@][^\s'"(),;]*)`},
	// Authorization headers.
	{any: []string{"bearer"}, fold: true, keyed: true, expr: `(?i)(\bbearer\s+)[A-Za-z0-9._~+/=-]{8,}`},
	{any: []string{"authorization:"}, fold: true, keyed: true, expr: `(?i)(\bauthorization:\s*(?:basic|token)\s+)[A-Za-z0-9._~+/=-]{8,}`},
	// key="a quoted value" where the key names a secret: the whole
	// quoted value (the rule below stops at a space).
	{any: []string{"passw", "pwd", "secret", "token", "key", "credential"}, fold: true, keyed: true,
		expr: `(?i)(\b[A-Za-z0-9_.-]*(?:password|passwd|pwd|secret|token|api[_-]?key|access[_-]?key|private[_-]?key|client[_-]?secret|credentials?)["']?\s*[:=]\s*")[^"\n]+(")`},
	{any: []string{"passw", "pwd", "secret", "token", "key", "credential"}, fold: true, keyed: true,
		expr: `(?i)(\b[A-Za-z0-9_.-]*(?:password|passwd|pwd|secret|token|api[_-]?key|access[_-]?key|private[_-]?key|client[_-]?secret|credentials?)["']?\s*[:=]\s*')[^'\n]+(')`},
	// key=value and key: value where the key names a secret.
	{any: []string{"passw", "pwd", "secret", "token", "key", "credential"}, fold: true, keyed: true,
		expr: `(?i)(\b[A-Za-z0-9_.-]*(?:password|passwd|pwd|secret|token|api[_-]?key|access[_-]?key|private[_-]?key|client[_-]?secret|credentials?)["']?\s*[:=]\s*["']?)[^\s"'&;,]+`},
}

// secretValue is the value after a secret's flag: a quoted string whole,
// else up to a space, a quote or a shell operator.
const secretValue = `(?:'[^']*'|"[^"]*"|[^\s"'&;,|)]+)`

// String returns s with secret-looking values replaced by Mask: known
// token shapes anywhere, and the value that follows a secret's name or
// flag (by its position in a command line, a header, a URL or SQL). What a
// log needs around it (the command, the flag, the user name, the host) is
// kept.
//
// A secret written percent-encoded (a URL's query, a form body) or as
// base64 of a known shape (an encoded token or "user:password") is found
// too: a percent-encoded text whose decoded form holds a secret is logged
// decoded and redacted, and a base64 run of at least 16 characters whose
// decoded text holds one is masked whole.
func String(s string) string {
	s = plain(s)
	if d, ok := percentDecoded(s); ok {
		if r := plain(d); r != d {
			s = r
		}
	}
	return encodedSecrets(s)
}

func plain(s string) string {
	found := present(s)
	for i, r := range rules() {
		if !found[i] {
			continue
		}
		if r.keyed {
			s = re(i).ReplaceAllString(s, "${1}"+Mask+"${2}")
		} else {
			s = re(i).ReplaceAllString(s, Mask)
		}
	}
	return s
}

// literal is one of a rule's literals, indexed by its first byte.
type literal struct {
	text string
	fold bool
	rule int
}

// literals indexes the rules' literals by their first byte (both cases for
// a folded one), with a bitmap of the pairs of bytes they start with: most
// positions of a text are passed over on one bit. The literals starting
// with byte c are lits[start[c]:start[c+1]].
type literals struct {
	lits  []literal
	start [257]uint16
	pairs [1 << 16 / 64]uint64
}

func (t *literals) pair(a, b byte) (int, uint64) {
	p := int(a)<<8 | int(b)
	return p >> 6, 1 << (p & 63)
}

// with returns the literals that start with c.
func (t *literals) with(c byte) []literal { return t.lits[t.start[c]:t.start[c+1]] }

// index is built on first use, in two passes (count, then place) with one
// allocation: it is built on every hook call that audits.
var index = lazy.Value[*literals]{New: func() *literals {
	t := new(literals)
	cases := func(c byte, fold bool) (byte, byte, int) {
		if fold && c >= 'a' && c <= 'z' {
			return c, c - 'a' + 'A', 2
		}
		return c, c, 1
	}
	each := func(visit func(a byte, l literal)) {
		for i, r := range rules() {
			for _, text := range r.any {
				a0, a1, n := cases(text[0], r.fold)
				visit(a0, literal{text, r.fold, i})
				if n == 2 {
					visit(a1, literal{text, r.fold, i})
				}
			}
		}
	}
	var count [256]uint16
	each(func(a byte, l literal) {
		count[a]++
		b0, b1, _ := cases(l.text[1], l.fold)
		for _, b := range []byte{b0, b1} {
			w, bit := t.pair(a, b)
			t.pairs[w] |= bit
		}
	})
	for c := range 256 {
		t.start[c+1] = t.start[c] + count[c]
	}
	t.lits = make([]literal, t.start[256])
	next := t.start
	each(func(a byte, l literal) {
		t.lits[next[a]] = l
		next[a]++
	})
	return t
}}

func isWord(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

// alnumRun counts the ASCII letters and digits s starts with, up to n.
func alnumRun(s string, n int) int {
	k := 0
	for k < len(s) && k < n && (isWord(s[k]) && s[k] != '_') {
		k++
	}
	return k
}

// matches reports whether w, of the literal's length, is the literal; a
// folded literal is lower case and w is ASCII up to here (see present).
func (l literal) matches(w string) bool {
	if !l.fold {
		return w == l.text
	}
	for j := 0; j < len(w); j++ {
		c := w[j]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != l.text[j] {
			return false
		}
	}
	return true
}

// present reports, rule by rule, whether s holds one of its literals, in
// one pass over s. Checking the text as it was before any replacement is
// enough: the mask holds no literal and no literal holds '[' or ']', so a
// replacement never makes one appear. (?i) folds some non-ASCII runes
// onto ASCII letters (the Kelvin sign, the long s), so text with non-ASCII
// bytes runs every case-insensitive rule.
func present(s string) []bool {
	rs := rules()
	found := make([]bool, len(rs))
	left := len(rs)
	t := index.Get()
	ascii := true
	for i := 0; i+1 < len(s) && left > 0; i++ {
		c := s[i]
		if c >= utf8.RuneSelf && ascii {
			ascii = false
			for j, r := range rs {
				if r.fold && !found[j] {
					found[j] = true
					left--
				}
			}
		}
		if w, bit := t.pair(c, s[i+1]); t.pairs[w]&bit == 0 {
			continue
		}
		for _, l := range t.with(c) {
			if found[l.rule] || len(s)-i < len(l.text) || !l.matches(s[i:i+len(l.text)]) {
				continue
			}
			if r := rs[l.rule]; r.word && i > 0 && isWord(s[i-1]) || r.alnum > 0 && alnumRun(s[i+len(l.text):], r.alnum) < r.alnum {
				continue
			}
			found[l.rule] = true
			left--
		}
	}
	return found
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

// HeadMargin is how far past a cut Head still redacts: longer than any
// secret shape the rules know (a 4096-bit private key is about 3.3 KB).
const HeadMargin = 8 << 10

// Head is Cut(String(s), n) for a text that may be far longer than n (a
// tool's whole output): only the part kept and a margin after it are
// redacted, so a secret that starts in the kept part and runs past the cut
// is still found whole, and the rest, about to be dropped, is never
// scanned. The count of bytes cut is of the text as given.
func Head(s string, n int) string { return HeadOf(s, len(s), n) }

// HeadOf is Head for a text of which only the first part, head, is at hand
// (total bytes in all; a head of at least n+HeadMargin bytes when it is
// not the whole): what a decoder that stops early hands over.
func HeadOf(head string, total, n int) string {
	if total <= n+HeadMargin || len(head) < n+HeadMargin {
		return Cut(String(head), n)
	}
	r := String(head[:n+HeadMargin])
	cut := min(n, len(r))
	for cut > 0 && cut < len(r) && !utf8.RuneStart(r[cut]) {
		cut--
	}
	return r[:cut] + fmt.Sprintf("…[%d bytes cut]", len(r)-cut+total-(n+HeadMargin))
}

// percentDecoded decodes s's %XX escapes; ok is false when it has none.
func percentDecoded(s string) (string, bool) {
	i := strings.IndexByte(s, '%')
	if i < 0 {
		return s, false
	}
	var b strings.Builder
	decoded := false
	b.WriteString(s[:i])
	for ; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]) {
			b.WriteByte(unhex(s[i+1])<<4 | unhex(s[i+2]))
			i += 2
			decoded = true
			continue
		}
		b.WriteByte(s[i])
	}
	if !decoded || !utf8.ValidString(b.String()) {
		return s, false
	}
	return b.String(), true
}

func isHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

func unhex(c byte) byte {
	switch {
	case c >= 'a':
		return c - 'a' + 10
	case c >= 'A':
		return c - 'A' + 10
	}
	return c - '0'
}

// encodedSecrets masks every run of base64 (standard or URL alphabet) of
// at least 16 characters that decodes to printable text holding a secret.
func encodedSecrets(s string) string {
	var out strings.Builder
	last := 0
	for i := 0; i < len(s); {
		if !isB64(s[i]) {
			i++
			continue
		}
		j := i
		for j < len(s) && isB64(s[j]) {
			j++
		}
		k := j
		for k < len(s) && k-j < 2 && s[k] == '=' {
			k++
		}
		if j-i >= 16 {
			if d, ok := b64Text(s[i:j]); ok && plain(d) != d {
				out.WriteString(s[last:i])
				out.WriteString(Mask)
				last = k
			}
		}
		i = k
		if k == j {
			i = j
		}
	}
	if last == 0 {
		return s
	}
	out.WriteString(s[last:])
	return out.String()
}

func isB64(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '+' || c == '/' || c == '-' || c == '_'
}

// b64Text decodes an unpadded base64 run, either alphabet, and reports
// whether it is printable text (no secret hides in binary we could name).
func b64Text(run string) (string, bool) {
	if len(run)%4 == 1 {
		return "", false
	}
	buf := make([]byte, 0, len(run)*3/4)
	var acc uint32
	bits := 0
	for i := 0; i < len(run); i++ {
		c := run[i]
		var v byte
		switch {
		case c >= 'A' && c <= 'Z':
			v = c - 'A'
		case c >= 'a' && c <= 'z':
			v = c - 'a' + 26
		case c >= '0' && c <= '9':
			v = c - '0' + 52
		case c == '+' || c == '-':
			v = 62
		default: // '/' or '_'
			v = 63
		}
		acc = acc<<6 | uint32(v)
		bits += 6
		if bits >= 8 {
			bits -= 8
			b := byte(acc >> bits)
			if b < 0x20 && b != '\n' && b != '\t' && b != '\r' || b == 0x7f {
				return "", false
			}
			buf = append(buf, b)
		}
	}
	if !utf8.Valid(buf) {
		return "", false
	}
	return string(buf), true
}
