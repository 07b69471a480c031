package settings_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/magehook/magehook/pkg/settings"
)

const declared = `{
  "hooks": {
    "PreToolUse": [
      {"matcher": "Bash", "hooks": [
        {"type": "command", "command": "gate.sh", "timeout": 10},
        {"type": "command", "command": "audit.sh"}
      ]}
    ],
    "Stop": [{"hooks": [{"type": "command", "command": "stop.sh"}]}]
  },
  "model": "declared-model-is-ignored"
}`

func changes(p settings.Plan) string {
	var lines []string
	for _, c := range p.Changes {
		lines = append(lines, c.String())
	}
	return strings.Join(lines, "\n")
}

func TestReconcile(t *testing.T) {
	tests := []struct {
		name      string
		runtime   string
		prune     bool
		converged bool
		report    []string // substrings, in order
		hooks     []string // in the written file, in order
		absent    []string
	}{
		{
			name:    "an empty runtime gets every declared hook",
			runtime: `{"model": "opus", "permissions": {"allow": []}}`,
			report:  []string{"added PreToolUse [Bash] gate.sh", "added PreToolUse [Bash] audit.sh", "added Stop [] stop.sh"},
			hooks:   []string{`"model": "opus"`, `"permissions"`, "gate.sh", "audit.sh", "stop.sh"},
		},
		{
			name:      "a converged runtime is not written",
			runtime:   `{"model":"opus","hooks":{"Stop":[{"hooks":[{"type":"command","command":"stop.sh"}]}],"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"gate.sh","timeout":10},{"type":"command","command":"audit.sh"}]}]}}`,
			converged: true,
		},
		{
			name:    "a changed timeout is updated",
			runtime: `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"gate.sh","timeout":99},{"type":"command","command":"audit.sh"}]}],"Stop":[{"hooks":[{"type":"command","command":"stop.sh"}]}]}}`,
			report:  []string{"updated PreToolUse [Bash] gate.sh"},
			hooks:   []string{`"timeout": 10`},
			absent:  []string{`99`},
		},
		{
			name:    "a group in the wrong order is reordered",
			runtime: `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"audit.sh"},{"type":"command","command":"gate.sh","timeout":10}]}],"Stop":[{"hooks":[{"type":"command","command":"stop.sh"}]}]}}`,
			report:  []string{"reordered PreToolUse [Bash]"},
			hooks:   []string{"gate.sh", "audit.sh"},
		},
		{
			name:    "an undeclared hook is kept and named",
			runtime: `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"mine.sh"}]}]}}`,
			report:  []string{"added PreToolUse [Bash] gate.sh", "undeclared PreToolUse [Bash] mine.sh"},
			hooks:   []string{"gate.sh", "audit.sh", "mine.sh"},
		},
		{
			name:    "prune removes an undeclared hook",
			runtime: `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"mine.sh"}]}],"Notification":[{"hooks":[{"type":"command","command":"notify.sh"}]}]}}`,
			prune:   true,
			report:  []string{"removed Notification [] notify.sh", "removed PreToolUse [Bash] mine.sh"},
			hooks:   []string{"gate.sh"},
			absent:  []string{"mine.sh", "notify.sh"},
		},
		{
			name:    "_hooks_local is merged and never dropped, even with prune",
			runtime: `{"_hooks_local":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"$HOME/.claude/hooks/laptop.sh"}]}],"Notification":[{"hooks":[{"type":"command","command":"say.sh"}]}]}}`,
			prune:   true,
			report:  []string{"local PreToolUse [Bash] $HOME/.claude/hooks/laptop.sh", "local Notification [] say.sh"},
			hooks:   []string{"_hooks_local", `"hooks": {`, "gate.sh", "audit.sh", "laptop.sh", "say.sh"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := settings.Reconcile([]byte(declared), []byte(tt.runtime), tt.prune)
			if err != nil {
				t.Fatal(err)
			}
			if p.Converged() != tt.converged {
				t.Fatalf("converged %v, want %v; report:\n%s", p.Converged(), tt.converged, changes(p))
			}
			report := changes(p)
			for _, want := range tt.report {
				if !strings.Contains(report, want) {
					t.Errorf("report lacks %q:\n%s", want, report)
				}
			}
			out := string(p.Next)
			rest := out
			for _, want := range tt.hooks {
				i := strings.Index(rest, want)
				if i < 0 {
					t.Errorf("written file lacks %q (or holds it out of order):\n%s", want, out)
					break
				}
				rest = rest[i+len(want):]
			}
			for _, gone := range tt.absent {
				if strings.Contains(out, gone) {
					t.Errorf("written file still holds %q", gone)
				}
			}
			if strings.Contains(out, "declared-model-is-ignored") {
				t.Error("a non-hooks key of the source reached the runtime")
			}
			if !tt.converged {
				again, err := settings.Reconcile([]byte(declared), p.Next, tt.prune)
				if err != nil || !again.Converged() {
					t.Errorf("reconcile is not idempotent: %v\n%s", err, changes(again))
				}
			}
		})
	}
}

func TestReconcileKeepsOtherKeysInOrder(t *testing.T) {
	runtime := `{
  "zeta": 1.50,
  "alpha": "ünïcode",
  "hooks": {},
  "mid": [1, 2]
}
`
	p, err := settings.Reconcile([]byte(declared), []byte(runtime), false)
	if err != nil {
		t.Fatal(err)
	}
	out := string(p.Next)
	if !(strings.Index(out, "zeta") < strings.Index(out, "alpha") && strings.Index(out, "alpha") < strings.Index(out, `"hooks"`) && strings.Index(out, `"hooks"`) < strings.Index(out, "mid")) {
		t.Errorf("key order changed:\n%s", out)
	}
	if !strings.Contains(out, `"zeta": 1.50`) || !strings.Contains(out, "ünïcode") {
		t.Errorf("values changed:\n%s", out)
	}
}

func TestApplyBacksUpAndRefusesBadRuntime(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "declared.json")
	rt := filepath.Join(dir, "home", ".claude", "settings.json")
	writeFile(t, src, declared, 0o644)
	writeFile(t, rt, `{"model":"opus"}`, 0o600)
	r := settings.Reconciler{Source: src, Runtime: rt, BackupDir: filepath.Join(dir, "backups")}
	if _, err := r.Apply(); err != nil {
		t.Fatal(err)
	}
	backups, _ := filepath.Glob(filepath.Join(dir, "backups", "*.bak"))
	if len(backups) != 1 {
		t.Fatalf("want one backup, got %v", backups)
	}
	if b, _ := os.ReadFile(backups[0]); string(b) != `{"model":"opus"}` {
		t.Errorf("backup %q", b)
	}
	p, err := r.Plan()
	if err != nil || !p.Converged() {
		t.Errorf("after apply, plan: %v %s", err, changes(p))
	}
	bad := `{"hooks": [`
	writeFile(t, rt, bad, 0o600)
	if _, err := r.Apply(); err == nil || !strings.Contains(err.Error(), "runtime") {
		t.Errorf("an unparseable runtime: %v", err)
	}
	if b, _ := os.ReadFile(rt); string(b) != bad {
		t.Errorf("an unparseable runtime was written")
	}
}
