package harness_test

import (
	"crypto/sha256"
	"testing"

	"github.com/magehook/magehook/pkg/harness"
)

// TestCodexTrustHash holds the hash to what Codex 0.169.0's app-server
// (hooks/list, currentHash) said for these hooks of a .codex/hooks.json:
// a matcher group with a command holding quotes, a backslash, non-ASCII
// and HTML characters; a SessionStart without a timeout (600); a Stop
// whose matcher Codex ignores (the event takes none).
func TestCodexTrustHash(t *testing.T) {
	for _, c := range []struct {
		event, matcher, command string
		timeout                 int
		want                    string
	}{
		{"PreToolUse", "Bash|apply_patch", `d="$PWD"; echo "é <x> & \\ '" hook:preToolUse`, 30,
			"sha256:62de48a04e1d0746be18c2a90dbc956107b672a7829f99d2240611f7d74fb774"},
		{"SessionStart", "", "echo start", 0, "sha256:0622ee3c0637622018c9e9801f26ec5c5d94a48f4d99284a7ef05b9d6ac7388d"},
		{"Stop", "ignored", "echo stop", 600, "sha256:236335e9e512004a0f5f42af65a07ea9059bd9a23dbb68286ed57fecf2b69ddf"},
	} {
		if got := harness.CodexTrustHash(c.event, c.matcher, c.command, c.timeout); got != c.want {
			t.Errorf("%s %q: %s, Codex says %s", c.event, c.command, got, c.want)
		}
	}
	if k := harness.CodexTrustKey("/r/.codex/hooks.json", "PreToolUse", 1, 0); k != "/r/.codex/hooks.json:pre_tool_use:1:0" {
		t.Errorf("key %s", k)
	}
}

// TestSum256 holds the hand-written SHA-256 to crypto/sha256 on every
// length around the block boundaries.
func TestSum256(t *testing.T) {
	data := make([]byte, 300)
	for i := range data {
		data[i] = byte(i*7 + 3)
	}
	for n := 0; n <= len(data); n++ {
		if got, want := harness.Sum256(data[:n]), sha256.Sum256(data[:n]); got != want {
			t.Fatalf("length %d: %x, want %x", n, got, want)
		}
	}
}
