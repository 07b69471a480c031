package redact

import (
	"strings"
	"testing"
)

// everyRule is String without the literal shortcut: every rule, in order,
// on every text.
func everyRule(s string) string {
	for i, r := range rules() {
		if r.keyed {
			s = re(i).ReplaceAllString(s, "${1}"+Mask+"${2}")
		} else {
			s = re(i).ReplaceAllString(s, Mask)
		}
	}
	return s
}

var ruleSeeds = []string{
	"", "Run the tests and show the status. ", "token s." + strings.Repeat("a1", 12) + " end",
	"xs." + strings.Repeat("a1", 12), "s." + strings.Repeat("a", 23), "s." + strings.Repeat("a", 24),
	"s." + strings.Repeat("a", 25), "(s." + strings.Repeat("Z9", 12) + ")", "_s." + strings.Repeat("b", 24),
	"curl -u bob:hunter22 https://x", "mysql -psecret1 db", "docker login -p abcdefgh reg", "xſecret=abcdefgh",
	"Cookie: a=b", "aws configure set aws_secret_access_key ABCDEFGH", "--api-key abcdefgh", "PASSWORD 'x1'",
	"hvs." + strings.Repeat("h", 24), "hf_" + strings.Repeat("f", 24), "sk_live_" + strings.Repeat("k", 12),
	"https://hooks.slack.com/services/T0/B0/xyz",
}

func TestStringAsEveryRule(t *testing.T) {
	for _, s := range ruleSeeds {
		if got, want := plain(s), everyRule(s); got != want {
			t.Errorf("plain(%q) = %q, every rule gives %q", s, got, want)
		}
	}
}

func FuzzStringAsEveryRule(f *testing.F) {
	for _, s := range ruleSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := plain(s), everyRule(s); got != want {
			t.Errorf("plain(%q) = %q, every rule gives %q", s, got, want)
		}
	})
}
