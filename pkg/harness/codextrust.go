package harness

import (
	"encoding/hex"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/magehook/magehook/pkg/hook"
)

// CodexTrustKey is the key Codex keeps the user's review of one hook under
// in $CODEX_HOME/config.toml (hooks.state."<key>"): the hooks file's path,
// the event in snake case, and the hook's position.
func CodexTrustKey(file, event string, group, index int) string {
	return file + ":" + CodexEvent(event) + ":" + strconv.Itoa(group) + ":" + strconv.Itoa(index)
}

// CodexEvent is Codex's name for an event in trust keys and hashes:
// PreToolUse is pre_tool_use.
func CodexEvent(event string) string {
	var b strings.Builder
	for i, r := range event {
		if unicode.IsUpper(r) {
			if i > 0 {
				b.WriteByte('_')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

// CodexTrustHash is the hash Codex compares a reviewed hook's
// trusted_hash with (verified against 0.169.0's app-server hooks/list
// currentHash): SHA-256 of the compact, key-sorted JSON of the hook's
// normalized identity — the event in snake case, the group's matcher
// (when the event takes one), and the one command handler with async
// false and its timeout (600 when none is set). A hook whose hash differs
// from the trusted one is "modified" and does not run; so the doctor can
// tell a stale review without codex on PATH.
func CodexTrustHash(event, matcher, command string, timeout int) string {
	if timeout <= 0 {
		timeout = 600
	}
	var b strings.Builder
	b.WriteString(`{"event_name":`)
	serdeString(&b, CodexEvent(event))
	b.WriteString(`,"hooks":[{"async":false,"command":`)
	serdeString(&b, command)
	b.WriteString(`,"timeout":` + strconv.Itoa(timeout) + `,"type":"command"}]`)
	if ev, ok := hook.Lookup(event); ok && ev.MatcherField != "" && matcher != "" {
		b.WriteString(`,"matcher":`)
		serdeString(&b, matcher)
	}
	b.WriteString("}")
	sum := sum256([]byte(b.String()))
	return "sha256:" + hex.EncodeToString(sum[:])
}

// serdeString writes s as serde_json writes a string: only the quote, the
// backslash and control characters are escaped (short forms for \b \t \n
// \f \r, \u00xx for the others); everything else, non-ASCII included, is
// written as it is.
func serdeString(b *strings.Builder, s string) {
	b.WriteByte('"')
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		c := s[i]
		switch {
		case c == '"':
			b.WriteString(`\"`)
		case c == '\\':
			b.WriteString(`\\`)
		case c == '\b':
			b.WriteString(`\b`)
		case c == '\t':
			b.WriteString(`\t`)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\f':
			b.WriteString(`\f`)
		case c == '\r':
			b.WriteString(`\r`)
		case c < 0x20:
			b.WriteString(`\u00`)
			b.WriteString(hex.EncodeToString([]byte{c}))
		default:
			_ = r
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	b.WriteByte('"')
}
