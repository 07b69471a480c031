// Package promptguard keeps a secret the user pastes into a prompt from
// reaching the model.
//
// # PURPOSE
//
// A prompt goes to the model provider and into the transcript, and from
// there into logs, summaries and sub-agents. A token pasted to "make the
// call work" is a leaked token. This gate blocks a prompt that carries a
// secret before it is sent, and tells the user what it found — the kind
// and where, never the value — so they can send it again without it.
//
//	promptguard.allow 'sk_test_*'        # a value (glob) that may be sent
//	promptguard.allow AKIAIOSFODNN7EXAMPLE
//
// # HOW IT WORKS
//
//  1. UserPromptSubmit (Claude Code, Codex, Copilot; Gemini's BeforeAgent).
//     The prompt is read for secrets by pkg/redact's rules (Find, the
//     rules String masks with): private keys, tokens of a known shape
//     (GitHub, GitLab, OpenAI and Anthropic, AWS, Slack, Stripe, npm,
//     Google, Hugging Face, Vault, JSON Web Tokens), connection strings
//     and URLs with a password, Slack webhooks, authorization headers,
//     passwords on a command line, and values after a secret's name
//     (password=..., api_key: ..., --token ...).
//  2. A value found only by the name before it (not by a shape of its
//     own) counts when it looks like a credential rather than a word: at
//     least 8 characters mixing letters with digits or symbols, or 20
//     and more; placeholders (<token>, $TOKEN, ${X}, ***, xxxx,
//     "changeme") never do. "the token: handling" and "--password flag"
//     are prose. The password of a URL (scheme://user:password@host)
//     counts from 4 characters, placeholders ("password", "pass") aside.
//  3. A value matching a promptguard.allow glob (a test key, a documented
//     example) passes.
//  4. A prompt with a secret is blocked: the reason (shown to the user;
//     the prompt is not sent, and Claude Code erases it from the context)
//     lists each finding's kind, line and column. Nothing is logged.
//
// # EXIT CODES
//
//	0  allowed (no output), or blocked with the decision on stdout
//	2  the gate failed (an unreadable configuration): the prompt is blocked
package promptguard

import (
	"fmt"
	"path"
	"strings"

	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/redact"
	"github.com/magehook/magehook/pkg/toolingrc"
)

// Handler is the catalogue entry.
var Handler = hook.Handler{
	Name:    "promptguard",
	Purpose: "block a prompt that carries a secret (keys, tokens, passwords in connection strings) before it reaches the model, saying the kind and position",
	Events:  []string{"UserPromptSubmit"},
	Policy:  hook.Gatekeeper,
	Run:     run,
}

func run(c *hook.Call) (hook.Result, error) {
	prompt := c.Payload.Prompt
	if prompt == "" {
		return hook.Result{}, nil
	}
	findings := redact.Find(prompt)
	if len(findings) == 0 {
		return hook.Result{}, nil
	}
	var allow []string
	if c.Config != nil {
		v, err := c.Config.Get(toolingrc.KeyPromptguardAllow)
		if err != nil {
			return hook.Result{}, err
		}
		for _, a := range v.Values {
			allow = append(allow, unquote(a))
		}
	}
	var found []string
	for _, f := range findings {
		if f.Keyed && !credential(f.Value, strings.Contains(f.Kind, "URL")) || allowed(allow, f.Value) {
			continue
		}
		found = append(found, fmt.Sprintf("%s at line %d, column %d", f.Kind, f.Line, f.Column))
	}
	if len(found) == 0 {
		return hook.Result{}, nil
	}
	reason := "promptguard: the prompt was not sent: it holds " + strings.Join(found, "; ") +
		". Send it again without the secret (name the environment variable or the file that holds it instead); " +
		"a value that is no secret (a test key) can be exempted with promptguard.allow in .toolingrc."
	return hook.Result{Decision: hook.DecisionDeny, Reason: reason, SuppressOriginalPrompt: true}, nil
}

func unquote(s string) string {
	if len(s) >= 2 && (s[0] == '\'' || s[0] == '"') && s[len(s)-1] == s[0] {
		return s[1 : len(s)-1]
	}
	return s
}

func allowed(globs []string, value string) bool {
	for _, g := range globs {
		if g == value {
			return true
		}
		if ok, _ := path.Match(g, value); ok {
			return true
		}
	}
	return false
}

// credential reports whether a value found by its name looks like a
// secret rather than a word or a placeholder.
func credential(v string, inURL bool) bool {
	v = strings.Trim(v, `"'`+"`")
	low := strings.ToLower(v)
	switch {
	case inURL && len(v) >= 4:
		// user:password@host: whatever stands there is a password,
		// unless it is a placeholder.
		for _, p := range [...]string{"pass", "password", "passwd", "pwd", "secret", "changeme", "xxxx", "****"} {
			if low == p {
				return false
			}
		}
		return !strings.HasPrefix(v, "$") && !strings.HasPrefix(v, "<") && !strings.HasPrefix(v, "{")
	case len(v) < 8:
		return false
	case strings.HasPrefix(v, "$") || strings.HasPrefix(v, "<") || strings.HasPrefix(v, "{{") || strings.HasPrefix(v, "%"):
		return false
	case strings.Trim(low, "*x.-_") == "":
		return false
	}
	for _, p := range [...]string{"changeme", "password", "placeholder", "example", "your_", "your-", "redacted", "secret", "token"} {
		if strings.Contains(low, p) && len(v) < 20 {
			return false
		}
	}
	var letters, digits, other bool
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			letters = true
		case c >= '0' && c <= '9':
			digits = true
		default:
			other = true
		}
	}
	return len(v) >= 20 && (letters || digits) || letters && (digits || other)
}
