package redact

import (
	"strings"
	"testing"
)

func TestEveryRuleHasAKind(t *testing.T) {
	for i, r := range rules() {
		if kindOf(r) == "" {
			t.Errorf("rule %d (%s) has no kind", i, r.expr)
		}
	}
}

func TestFindSaysKindAndPosition(t *testing.T) {
	token := "ghp_" + strings.Repeat("a1B2", 6)
	text := "please push\nwith my token " + token + " and\npostgres://app:s3cr3t-pw@db:5432/app"
	got := Find(text)
	if len(got) != 2 {
		t.Fatalf("Find = %+v", got)
	}
	if g := got[0]; g.Kind != "a GitHub token" || g.Line != 2 || g.Column != 15 || g.Value != token || text[g.Start:g.End] != token {
		t.Errorf("first: %+v", g)
	}
	if g := got[1]; g.Kind != "a password in a URL (a connection string)" || g.Line != 3 || g.Value != "s3cr3t-pw" || !g.Keyed {
		t.Errorf("second: %+v", g)
	}
	if f := Find("fix the tests, then commit"); len(f) != 0 {
		t.Errorf("prose: %+v", f)
	}
}

// TestFindFindsWhatStringMasks: every value Find reports is one String
// would mask, for the seeds of the rule tests.
func TestFindFindsWhatStringMasks(t *testing.T) {
	for _, s := range ruleSeeds {
		for _, f := range Find(s) {
			if masked := String(s); strings.Contains(masked, f.Value) && !strings.Contains(strings.ReplaceAll(s, f.Value, ""), f.Value) {
				t.Errorf("%q: Find reports %q, which String keeps: %q", s, f.Value, masked)
			}
		}
	}
}
