package redact_test

import (
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
