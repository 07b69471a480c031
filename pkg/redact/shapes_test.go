package redact_test

import (
	"strings"
	"testing"

	"github.com/magehook/magehook/pkg/redact"
)

// TestShapes: each secret is masked, and what a log needs around it stays.
func TestShapes(t *testing.T) {
	tests := []struct {
		name, in, secret string
		keep             []string
	}{
		{"curl -u user:password", "curl -u alice:s3cretPass https://api.example.com", "s3cretPass", []string{"curl -u alice:", "https://api.example.com"}},
		{"curl --user quoted", `curl --user 'bob:pa55word' https://x`, "pa55word", []string{"--user 'bob:"}},
		{"mysql -pSECRET", "mysql -u root -pHunter2x mydb", "Hunter2x", []string{"mysql -u root -p", "mydb"}},
		{"mysqldump -pSECRET", "mysqldump -h db -pHunter2x app > dump.sql", "Hunter2x", []string{"dump.sql"}},
		{"docker login -p", "docker login -u me -p dckr_pat_abc123XYZ registry.example.com", "dckr_pat_abc123XYZ", []string{"docker login -u me -p", "registry.example.com"}},
		{"sshpass -p", "sshpass -p 'TopSecret9' ssh host", "TopSecret9", []string{"ssh host"}},
		{"aws configure set secret", "aws configure set aws_secret_access_key wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "wJalrXUtnFEMI", []string{"aws configure set aws_secret_access_key"}},
		{"aws configure set profile secret", "aws configure set profile.prod.aws_session_token FQoGZXIvYXdzEXAMPLE", "FQoGZXIvYXdzEXAMPLE", nil},
		{"--token X", "gh auth login --token abcdEFGH1234", "abcdEFGH1234", []string{"gh auth login --token"}},
		{"--api-key X", "tool --api-key 'k-9f8e7d6c' run", "k-9f8e7d6c", []string{"tool --api-key", "run"}},
		{"--password X", "psql --password Swordfish1 -h db", "Swordfish1", []string{"-h db"}},
		{"--client-secret X", "login --client-secret zz99yy88", "zz99yy88", nil},
		{"-token X", "vault login -token abcd1234efgh", "abcd1234efgh", nil},
		{"a key=value percent-encoded", "curl 'https://api.example.com/v1?access_token%3Dabcdef1234567890'", "abcdef1234567890", []string{"https://api.example.com/v1?access_token="}},
		{"a header percent-encoded", "curl -H 'Authorization%3A%20Bearer%20abcdefgh12345678ijkl'", "abcdefgh12345678ijkl", []string{"Authorization: Bearer "}},
		{"a Slack webhook percent-encoded", "notify --url https%3A%2F%2Fhooks.slack.com%2Fservices%2FT0000%2FB0000%2FXXXXXXXXXXXX", "XXXXXXXXXXXX", []string{"hooks.slack.com"}},
		{"a token in base64", "echo Z2hwX0FCQ0RFRkdISUpLTE1OT1BRUlNUVVZXWFlaMDEyMzQ1Njc4OWFi | base64 -d", "Z2hwX0FCQ0RFRkdISUpLTE1OT1BRUlNUVVZXWFlaMDEyMzQ1Njc4OWFi", []string{"echo ", "| base64 -d"}},
		{"password= in URL-safe base64", "x-data: cGFzc3dvcmQ9aHVudGVyMnNlY3JldA==", "cGFzc3dvcmQ9aHVudGVyMnNlY3JldA", []string{"x-data: "}},
		{"Stripe live key", "export KEY=sk_live_51Habcdefghijklmnop", "sk_live_51Habcdefghijklmnop", []string{"export"}},
		{"Stripe restricted key", "rk_test_abcdefghijklmnop1234", "rk_test_abcdefghijklmnop1234", nil},
		{"Hugging Face token", "huggingface-cli login hf_AbCdEfGhIjKlMnOpQrStUvWxYz123456", "hf_AbCdEfGhIjKlMnOpQrStUvWxYz123456", []string{"huggingface-cli login"}},
		{"Vault hvs token", "VAULT=hvs.CAESIJ1234567890abcdefghijklmnop", "hvs.CAESIJ1234567890abcdefghijklmnop", nil},
		{"Vault s. token", "vault read -address=x s.Ab12Cd34Ef56Gh78Ij90Kl12 secret/x", "s.Ab12Cd34Ef56Gh78Ij90Kl12", []string{"vault read", "secret/x"}},
		{"Slack webhook", "curl -X POST https://hooks.slack.com/services/T0000/B0000/XXXXXXXXXXXXXXXX -d '{}'", "T0000/B0000/XXXXXXXXXXXXXXXX", []string{"https://hooks.slack.com/services/", "curl -X POST"}},
		{"a Cookie header", `curl -H "Cookie: session=abc123def456; theme=dark" https://x`, "abc123def456", []string{"Cookie: ", "https://x"}},
		{"curl -b", "curl -b 'sid=zyxw9876' https://x", "zyxw9876", []string{"https://x"}},
		{"curl --cookie", "curl --cookie sid=zyxw9876 https://x", "zyxw9876", nil},
		{"SQL PASSWORD", "psql -c \"ALTER USER app WITH PASSWORD 'n3wPass!'\"", "n3wPass!", []string{"ALTER USER app WITH PASSWORD '", "'\""}},
		{"SQL IDENTIFIED BY", "CREATE USER 'u'@'%' IDENTIFIED BY 'Secr3t!x';", "Secr3t!x", []string{"CREATE USER", "IDENTIFIED BY '"}},
		{"a secret in error text", "error: authentication failed for https://bot:glpat-abcdefghijklmnopqrst@gitlab.com/x.git", "glpat-abcdefghijklmnopqrst", []string{"authentication failed", "gitlab.com/x.git"}},
		{"an error quoting a flag", "exit status 1: unknown user (--password Xyzzy1234)", "Xyzzy1234", []string{"unknown user"}},
		{"a quoted password with spaces", `psql --password "correct horse battery" -h db`, "horse battery", []string{"--password", "-h db"}},
		{"docker login -p quoted", `docker login -p 'two words' reg.io`, "two words", []string{"reg.io"}},
		{"mysql -p quoted", `mysql -u root -p'sp ace' db`, "sp ace", []string{" db"}},
		{"key=\"quoted value\"", `export DB_PASSWORD="two words here"; run`, "words here", []string{"DB_PASSWORD=\"", "run"}},
		{"a JSON secret member", `{"api_key": "abc def ghi", "user": "me"}`, "def ghi", []string{`"user": "me"`}},
		{"redis-cli -a", "redis-cli -h cache -a s3cr3tRedis ping", "s3cr3tRedis", []string{"redis-cli -h cache -a", "ping"}},
		{"zip -P", "zip -P ZipPass99 out.zip file", "ZipPass99", []string{"out.zip file"}},
		{"7z -p", "7z a -pSevenPass arch.7z dir", "SevenPass", []string{"arch.7z"}},
		{"openssl -pass pass:", "openssl enc -aes256 -pass pass:OpenPass1 -in f", "OpenPass1", []string{"-in f"}},
		{"npm _authToken", "npm config set //registry.npmjs.org/:_authToken NpmTok3n", "NpmTok3n", []string{"npm config set"}},
		{"gh secret set --body", "gh secret set DEPLOY_KEY --body Gh5ecretValue", "Gh5ecretValue", []string{"gh secret set DEPLOY_KEY"}},
		{"key=value", "DB_PASSWORD=hunter2hunter2 ./run", "hunter2hunter2", []string{"DB_PASSWORD=", "./run"}},
		{"a short value", "curl https://x/api?token=abc&page=2", "abc&", []string{"token=", "&page=2"}},
		{"a one-character value", `{"secret": "z", "user": "me"}`, `"z"`, []string{`"user": "me"`}},
		{"a password in error text", "error: login failed: wrong password hunter2 for admin", "hunter2", []string{"wrong password ", " for admin"}},
		{"a quoted password in error text", "fatal: the password is 'open sesame' (rejected)", "open sesame", []string{"(rejected)"}},
		{"a PEM key in base64, wrapped", "echo LS0tLS1CRUdJTiBPUEVOU1NIIFBSSVZBVEUgS0VZLS0tLS0KYjNCbGJuTnphQzFyWlhrdGRqRUFBQUFBQkc1dmJtVUFBQUFFYm05dVpRQUFB\nQUFBQUFBQkFBQUFNd0FBQUF0emMyZ3RaVwo= | base64 -d > id", "QUFBQUFBQkFBQUFNd0FBQUF0emMyZ3RaVwo", []string{"echo ", "| base64 -d > id"}},
		{"a DER RSA key in base64", "KEY=MIIEowIBAAKCAQEAwJ3bZ8s1nVq2yJ0kX9fQeT4Yb7rKp0QmZl3cA1sH2uV5nE6", "AKCAQEAwJ3bZ8s1nVq2yJ0kX9fQeT4Yb7rKp0QmZl3cA1sH2uV5nE6", []string{"KEY="}},
		{"a PKCS#8 key in base64", "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7", "ADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7", nil},
		{"an OpenSSH key body", "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW", "AAAABG5vbmUAAAAEbm9uZQ", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := redact.String(tt.in)
			if strings.Contains(out, tt.secret) {
				t.Errorf("the secret survived: %s", out)
			}
			if !strings.Contains(out, redact.Mask) {
				t.Errorf("nothing masked: %s", out)
			}
			for _, k := range tt.keep {
				if !strings.Contains(out, k) {
					t.Errorf("%q was lost: %s", k, out)
				}
			}
		})
	}
}

// TestOrdinaryCommandsStay: commands with flags that look like secret
// flags but carry none are left alone.
func TestOrdinaryCommandsStay(t *testing.T) {
	for _, s := range []string{
		"go test ./... && git commit -m 'tokenize the input'",
		"docker login --password-stdin registry.example.com",
		"echo $PASSWORD | docker login -u me --password-stdin",
		"git log -p --stat",
		"mysql -p mydb",
		"npm run build -- --token-file .npmrc",
		"ls -la /tmp",
		"curl -u : --negotiate https://x",
		"grep -rn token src/",
		"sed -i 's/s.foo/s.bar/' file",
		"git checkout -b feature/login",
		"unzip -l archive.zip",
		"zip -r out.zip dir",
		"redis-cli ping",
		"git push -u origin main",
		"docker run -u 1000:1000 image",
		"curl 'https://example.com/search?q=caf%C3%A9%20au%20lait'",
		"cat /usr/local/share/ca-certificates/internal-root.crt",
		"echo aGVsbG8gd29ybGQsIHRoaXMgaXMgbm90IGEgc2VjcmV0 | base64 -d",
		"the password reset link expired; ask for a new password",
		"MIIDdzCCAl+gAwIBAgIJAJ4 is a certificate, public",
		"max_tokens=100 tokenizer=bert",
	} {
		if got := redact.String(s); got != s {
			t.Errorf("%q changed: %q", s, got)
		}
	}
}
