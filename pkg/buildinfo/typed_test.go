package buildinfo_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/magehook/magehook/pkg/buildinfo"
)

// The fixes a message names follow the checkout's layout: go tool mage
// where the checkout's module has the tool line, the hook module's form
// where magefiles/ is a module of its own (go tool mage at the top has no
// such tool there), and the built binary once there is one.
func TestTheFixIsTypedAsTheCheckoutRunsIt(t *testing.T) {
	plain, own := t.TempDir(), t.TempDir()
	if err := os.MkdirAll(filepath.Join(own, "magefiles"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(own, "magefiles", "go.mod"), []byte("module hooks\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	msg := "bin/magehook is stale; run go tool mage hook:build"
	for _, tt := range []struct {
		root, run, typed, msg string
	}{
		{plain, "go tool mage", "go tool mage", msg},
		{own, "go -C magefiles tool mage -w ..", "bin/magehook", "bin/magehook is stale; run go -C magefiles tool mage -w .. hook:build"},
	} {
		if got := buildinfo.Run(tt.root); got != tt.run {
			t.Errorf("Run(%s) = %q, want %q", tt.root, got, tt.run)
		}
		if got := buildinfo.Typed(tt.root, filepath.Join(tt.root, "bin", "magehook")); got != tt.typed {
			t.Errorf("Typed(%s) = %q, want %q", tt.root, got, tt.typed)
		}
		if got := buildinfo.InCheckout(tt.root, msg); got != tt.msg {
			t.Errorf("InCheckout(%s) = %q, want %q", tt.root, got, tt.msg)
		}
	}
}
