package redact

import (
	"sort"
	"strings"
	"unicode/utf8"
)

// Finding is one secret-looking value in a text: what kind it is, where
// it is, and the value itself (for an exemption to be matched against; a
// caller must never show it).
type Finding struct {
	// Kind names the secret ("a GitHub token", "a password in a URL").
	Kind string
	// Start and End are byte offsets of the value in the text.
	Start, End int
	// Line and Column are where it starts, from 1 (the column counts
	// characters, not bytes).
	Line, Column int
	// Value is the secret itself.
	Value string
	// Keyed: the value was found by the name or flag before it (a
	// password=..., --token ...), not by a shape of its own.
	Keyed bool
}

// kindOf names the secret each rule finds, by the rule's first literal
// (TestEveryRuleHasAKind holds every rule to one).
func kindOf(r rule) string {
	switch r.any[0] {
	case "-----BEGIN ", "LS0tLS1CRUdJTi":
		return "a private key"
	case "ghp_", "github_pat_":
		return "a GitHub token"
	case "sk-":
		return "an API key (OpenAI or Anthropic)"
	case "AKIA":
		return "an AWS access key ID"
	case "xoxa-":
		return "a Slack token"
	case "glpat-":
		return "a GitLab token"
	case "npm_":
		return "an npm token"
	case "AIza":
		return "a Google API key"
	case "eyJ":
		return "a JSON Web Token"
	case "sk_live_":
		return "a Stripe key"
	case "hf_":
		return "a Hugging Face token"
	case "hvs.", "s.":
		return "a Vault token"
	case "://":
		return "a password in a URL (a connection string)"
	case "hooks.slack.com/":
		return "a Slack webhook URL"
	case "cookie:", "--cookie":
		return "a cookie"
	case "curl", "mysql", "login", "sshpass", "redis-cli", "zip", "pass:", "secret", "aws":
		return "a password on a command line"
	case "_auth":
		return "an npm auth token"
	case "passw", "password":
		return "a password or secret value"
	case "bearer", "authorization:":
		return "an authorization header"
	}
	return ""
}

// Find returns the secret-looking values of a text, by the same rules as
// String (a value the rules would mask), in the order they appear; one
// found by two rules is reported once, by the first.
func Find(s string) []Finding {
	found := present(s)
	var out []Finding
	for i, r := range rules() {
		if !found[i] {
			continue
		}
		for _, m := range re(i).FindAllStringSubmatchIndex(s, -1) {
			start, end := m[0], m[1]
			if r.keyed {
				// The value lies between the kept groups.
				if len(m) >= 4 && m[2] >= 0 {
					start = m[3]
				}
				if len(m) >= 6 && m[4] >= 0 {
					end = m[4]
				}
			}
			if start >= end || overlaps(out, start, end) {
				continue
			}
			out = append(out, Finding{Kind: kindOf(r), Start: start, End: end, Value: s[start:end], Keyed: r.keyed})
		}
	}
	sort.Slice(out, func(a, b int) bool { return out[a].Start < out[b].Start })
	for i := range out {
		before := s[:out[i].Start]
		out[i].Line = strings.Count(before, "\n") + 1
		out[i].Column = utf8.RuneCountInString(before[strings.LastIndexByte(before, '\n')+1:]) + 1
	}
	return out
}

func overlaps(fs []Finding, start, end int) bool {
	for _, f := range fs {
		if start < f.End && f.Start < end {
			return true
		}
	}
	return false
}
