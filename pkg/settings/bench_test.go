package settings_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/magehook/magehook/pkg/settings"
)

// thousandForeign is a settings file holding 1,000 foreign hook entries
// over a few events, with other keys around them.
func thousandForeign() []byte {
	var b strings.Builder
	b.WriteString(`{"model":"opus","permissions":{"allow":["Bash(go test:*)"]},"hooks":{`)
	events := []string{"PreToolUse", "PostToolUse", "Stop", "SessionStart", "UserPromptSubmit"}
	for i, e := range events {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `%q:[`, e)
		for g := 0; g < 20; g++ {
			if g > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, `{"matcher":"Tool%d","hooks":[`, g)
			for h := 0; h < 10; h++ {
				if h > 0 {
					b.WriteString(",")
				}
				fmt.Fprintf(&b, `{"type":"command","command":"$HOME/.claude/hooks/%s-%d-%d.sh","timeout":%d}`, e, g, h, 5+h)
			}
			b.WriteString("]}")
		}
		b.WriteString("]")
	}
	b.WriteString(`}}`)
	return []byte(b.String())
}

func BenchmarkInstall1000ForeignEntries(b *testing.B) {
	cfg := checkout(b, "hook.enable bashgate", "hook.enable gate")
	entries, _ := settings.Entries(cfg, handlers, settings.Project)
	data := thousandForeign()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := settings.Install(data, entries, settings.OwnerFor(cfg)); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkReconcile1000Entries(b *testing.B) {
	data := thousandForeign()
	for b.Loop() {
		if _, err := settings.Reconcile(data, data, false); err != nil {
			b.Fatal(err)
		}
	}
}
