package redact_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/magehook/magehook/pkg/redact"
)

func TestString(t *testing.T) {
	secrets := []string{
		"ghp_" + strings.Repeat("a1B2", 9),
		"github_pat_" + strings.Repeat("x", 40),
		"sk-ant-api03-" + strings.Repeat("Z9", 20),
		"AKIAIOSFODNN7EXAMPLE",
		"xoxb-123456789012-abcdefABCDEF",
		"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
		"hunter22password",
	}
	in := "curl -H 'Authorization: Bearer " + secrets[0] + "' https://bob:" + secrets[6] + "@example.com " +
		"GITHUB_TOKEN=" + secrets[1] + " ANTHROPIC_API_KEY=" + secrets[2] + " aws " + secrets[3] + " " + secrets[4] + " " + secrets[5] +
		"\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----"
	out := redact.String(in)
	for _, s := range secrets {
		if strings.Contains(out, s) {
			t.Errorf("%q survived:\n%s", s, out)
		}
	}
	for _, keep := range []string{"curl", "https://bob:", "@example.com", "GITHUB_TOKEN=", "aws"} {
		if !strings.Contains(out, keep) {
			t.Errorf("%q was lost:\n%s", keep, out)
		}
	}
	if strings.Contains(out, "b3BlbnNzaC1rZXktdjEAAAAA") {
		t.Error("a private key survived")
	}
	plain := "go test ./... && git commit -m 'tokenize the input'"
	if redact.String(plain) != plain {
		t.Errorf("ordinary text changed: %q", redact.String(plain))
	}
}

func TestCutAndHome(t *testing.T) {
	if got := redact.Cut("héllo world", 2); got != "h…[11 bytes cut]" {
		t.Errorf("Cut on a rune boundary: %q", got)
	}
	if got := redact.Cut("short", 10); got != "short" {
		t.Errorf("Cut of a short string: %q", got)
	}
	if got := redact.Home("/home/alice/x and /home/alice", "/home/alice/"); got != "~/x and ~" {
		t.Errorf("Home: %q", got)
	}
}

// reference is String without the literal shortcut: every pattern, in
// order, on every text.
func reference(s string) string {
	for _, expr := range []string{
		`-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----`,
		`\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}`,
		`\bgithub_pat_[A-Za-z0-9_]{20,}`,
		`\bsk-(?:ant-|proj-)?[A-Za-z0-9_-]{16,}`,
		`\b(?:AKIA|ASIA)[0-9A-Z]{16}\b`,
		`\bxox[abprs]-[A-Za-z0-9-]{10,}`,
		`\bglpat-[A-Za-z0-9_-]{20,}`,
		`\bnpm_[A-Za-z0-9]{30,}`,
		`\bAIza[0-9A-Za-z_-]{35}`,
		`\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}`,
	} {
		s = regexp.MustCompile(expr).ReplaceAllString(s, redact.Mask)
	}
	for _, expr := range []string{
		`(://[^/\s:@]+:)[^@\s/]+(@)`,
		`(?i)(\bbearer\s+)[A-Za-z0-9._~+/=-]{8,}`,
		`(?i)(\bauthorization:\s*(?:basic|token)\s+)[A-Za-z0-9._~+/=-]{8,}`,
		`(?i)(\b[A-Za-z0-9_.-]*(?:password|passwd|pwd|secret|token|api[_-]?key|access[_-]?key|private[_-]?key|client[_-]?secret|credentials?)["']?\s*[:=]\s*["']?)[^\s"'&;,]{4,}`,
	} {
		s = regexp.MustCompile(expr).ReplaceAllString(s, "${1}"+redact.Mask+"${2}")
	}
	return s
}

var redactSeeds = []string{
	"",
	"go test ./... 2>&1 | tail -n 40 && git status --short",
	"curl -H 'Authorization: Bearer abcdefgh12345678' https://bob:hunter22@example.com",
	"AUTHORIZATION: token abcdefghijkl",
	"export API_KEY=abcd1234 CLIENT-SECRET: 'zzzzzzzz' Passwd=qwerty12",
	"xſecret=abcdefgh", // (?i) folds ſ onto s
	"xoxb-123456789012-abcdef ghp_" + strings.Repeat("a", 24) + " AKIAIOSFODNN7EXAMPLE",
	"-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY-----",
	"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N",
	"sk-proj-" + strings.Repeat("Q", 20) + " npm_" + strings.Repeat("n", 32) + " AIza" + strings.Repeat("z", 35),
	"glpat-" + strings.Repeat("g", 20) + " github_pat_" + strings.Repeat("p", 22) + " key: value1234",
}

// TestStringAsEveryPattern: skipping the patterns whose literals a text
// lacks changes no result.
func TestStringAsEveryPattern(t *testing.T) {
	for _, s := range redactSeeds {
		if got, want := redact.Plain(s), reference(s); got != want {
			t.Errorf("Plain(%q) = %q, want %q", s, got, want)
		}
	}
}

func FuzzString(f *testing.F) {
	for _, s := range redactSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := redact.Plain(s), reference(s); got != want {
			t.Errorf("Plain(%q) = %q, want %q", s, got, want)
		}
	})
}

// Head keeps what Cut(String(s)) keeps: the same text for a short one; for
// a long one, a secret that starts before the cut and runs past it is
// masked, and the count of bytes cut is of the text given.
func TestHead(t *testing.T) {
	token := "ghp_" + strings.Repeat("A1b2", 10)
	for _, s := range []string{"", "plain text", "token " + token + " end", strings.Repeat("x", 600) + token} {
		if got, want := redact.Head(s, 500), redact.Cut(redact.String(s), 500); got != want {
			t.Errorf("Head(%.30q) = %.60q, want %.60q", s, got, want)
		}
	}
	long := strings.Repeat("y", 490) + " " + token + " " + strings.Repeat("z", 100<<10)
	got := redact.Head(long, 500)
	if strings.Contains(got, "ghp_") || strings.Contains(got, "A1b2") {
		t.Errorf("a token across the cut leaked: %.600q", got)
	}
	if want := redact.Cut(redact.String(long), 500); got != want {
		t.Errorf("Head = %q\nwant %q", got[480:], want[480:])
	}
}
