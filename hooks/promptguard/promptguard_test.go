package promptguard_test

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/magehook/magehook/hooks/promptguard"
	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/hooktest"
)

var hs = []hook.Handler{promptguard.Handler}

// The secrets are built at run time so that this file holds none.
var (
	githubToken = "ghp_" + strings.Repeat("Zx9Q", 9)
	awsKey      = "AKIA" + "Q3EXAMPLEKEY7ZZZ"
	stripeKey   = "sk_live_" + strings.Repeat("4eC3", 6)
	privateKey  = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjE\n-----END OPENSSH PRIVATE KEY-----"
)

func prompt(t *testing.T, root, text string) hooktest.Outcome {
	t.Helper()
	return hooktest.Run(t, hs, root, "UserPromptSubmit", "UserPromptSubmit/prompt", map[string]any{"prompt": text})
}

func blocked(t *testing.T, out hooktest.Outcome, secret string, want ...string) {
	t.Helper()
	if out.Code != 0 || !strings.Contains(out.Stdout, `"decision":"block"`) {
		t.Errorf("want a block, got %+v", out)
		return
	}
	for _, w := range want {
		if !strings.Contains(out.Stdout, w) {
			t.Errorf("the reason does not say %q: %s", w, out.Stdout)
		}
	}
	if secret != "" && strings.Contains(out.Stdout+out.Stderr, secret) {
		t.Errorf("the answer echoes the secret: %s", out.Stdout)
	}
}

func passed(t *testing.T, what string, out hooktest.Outcome) {
	t.Helper()
	if out.Code != 0 || out.Stdout != "" {
		t.Errorf("%s: want no answer, got %+v", what, out)
	}
}

func TestPromptsWithSecretsAreBlocked(t *testing.T) {
	root := hooktest.Checkout(t, "hook.enable promptguard")
	blocked(t, prompt(t, root, "push it with my token "+githubToken+" please"), githubToken, "a GitHub token at line 1, column 23")
	blocked(t, prompt(t, root, "the keys:\naws "+awsKey+"\nstripe "+stripeKey), awsKey, "an AWS access key ID at line 2, column 5", "a Stripe key at line 3, column 8")
	blocked(t, prompt(t, root, "use this key\n"+privateKey), "b3BlbnNzaC1rZXktdjE", "a private key at line 2, column 1")
	blocked(t, prompt(t, root, "connect to postgres://app:Tr0ub4dor@db.internal:5432/app"), "Tr0ub4dor", "a password in a URL")
	blocked(t, prompt(t, root, "set DB_PASSWORD=Zq8!mw2xPL in the env"), "Zq8!mw2xPL", "a password or secret value at line 1, column 17")
	blocked(t, prompt(t, root, "curl -H 'Authorization: Bearer "+strings.Repeat("aZ3", 8)+"' https://api.example.com"), strings.Repeat("aZ3", 8), "an authorization header")
	blocked(t, prompt(t, root, "and don't leak "+githubToken), githubToken, "Send it again without the secret")
}

func TestProseAndPlaceholdersPass(t *testing.T) {
	root := hooktest.Checkout(t, "hook.enable promptguard")
	for _, text := range []string{
		"fix the failing tests and commit", "rename the token: handling is confusing", "add a --password flag to the CLI",
		"read API_KEY from the environment ($API_KEY)", "the URL is postgres://user:password@localhost/db",
		"set password=changeme in the example", "use <your-token> there", "Bearer authentication is broken",
		"the sk- prefix marks keys", "what is an AKIA key?", "",
	} {
		passed(t, text, prompt(t, root, text))
	}
}

func TestAllowExemptsAPattern(t *testing.T) {
	root := hooktest.Checkout(t, "hook.enable promptguard", "promptguard.allow 'sk_live_4eC3*'", "promptguard.allow "+awsKey)
	passed(t, "an exempt Stripe test key", prompt(t, root, "try "+stripeKey))
	passed(t, "an exempt AWS example", prompt(t, root, "the docs' key "+awsKey))
	blocked(t, prompt(t, root, "but "+githubToken), githubToken, "a GitHub token")
}

func TestOtherHarnesses(t *testing.T) {
	root := hooktest.Checkout(t, "hook.enable promptguard")
	for _, name := range []string{"codex/UserPromptSubmit", "copilot/UserPromptSubmit", "gemini/BeforeAgent"} {
		h := strings.Split(name, "/")[0]
		data := hooktest.HarnessFixture(t, name, map[string]any{"cwd": root, "prompt": "deploy with " + githubToken})
		out := hooktest.RunHarness(t, hs, h, "UserPromptSubmit", data)
		if out.Code == 0 && out.Stdout == "" || strings.Contains(out.Stdout, githubToken) {
			t.Errorf("%s: %+v", name, out)
		}
	}
}

func TestReplayShowsTheDecision(t *testing.T) {
	root := hooktest.Checkout(t, "hook.enable promptguard")
	data := hooktest.Fixture(t, "UserPromptSubmit/prompt", map[string]any{"cwd": root, "prompt": "token " + githubToken})
	d := &hook.Dispatcher{Handlers: hs, Getenv: func(string) string { return "" },
		Getwd: func() (string, error) { return root, nil }, Now: func() time.Time { return hooktest.Clock }}
	r := hook.RunReplay(context.Background(), d, "UserPromptSubmit", data)
	var out bytes.Buffer
	r.Write(&out)
	if !strings.Contains(out.String(), "promptguard deny") || !strings.Contains(out.String(), "a GitHub token at line 1, column 7") || strings.Contains(out.String(), githubToken) {
		t.Errorf("replay:\n%s", out.String())
	}
}
