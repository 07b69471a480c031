package drift_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/magehook/magehook/hooks"
	"github.com/magehook/magehook/pkg/drift"
	"github.com/magehook/magehook/pkg/hooktest"
	"github.com/magehook/magehook/pkg/settings"
	"github.com/magehook/magehook/pkg/spool"
	"github.com/magehook/magehook/pkg/toolingrc"
)

// installed is a checkout with branchguard enabled and its entries
// installed in the project scope, and a HOME of its own.
func installed(t *testing.T) (*toolingrc.Config, string) {
	t.Helper()
	root := hooktest.Checkout(t, "hook.enable branchguard")
	cfg, err := toolingrc.Discover(root)
	if err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	if _, err := (settings.Installer{Config: cfg, Handlers: hooks.All(), Scope: settings.Project, Home: home}).Install(); err != nil {
		t.Fatal(err)
	}
	return cfg, home
}

func edit(t *testing.T, path string, f func(map[string]any)) {
	t.Helper()
	doc := map[string]any{}
	if data, err := os.ReadFile(path); err == nil {
		if err := json.Unmarshal(data, &doc); err != nil {
			t.Fatal(err)
		}
	}
	f(doc)
	data, _ := json.Marshal(doc)
	os.MkdirAll(filepath.Dir(path), 0o755)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func group(matcher, cmd string) []any {
	g := map[string]any{"hooks": []any{map[string]any{"type": "command", "command": cmd}}}
	if matcher != "" {
		g["matcher"] = matcher
	}
	return []any{g}
}

// matcher is the matcher install writes for an event, as a drift term
// shows it.
func matcher(t *testing.T, cfg *toolingrc.Config, event string) string {
	entries, err := settings.Entries(cfg, hooks.All(), settings.Project)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Event == event && e.Matcher != "" {
			return "[" + e.Matcher + "]"
		}
	}
	return "" // no matcher: every tool
}

func scope(t *testing.T, r drift.Report, name string) drift.Scope {
	t.Helper()
	for _, s := range r.Scopes {
		if s.Name == name {
			return s
		}
	}
	t.Fatalf("no scope %s in %+v", name, r.Scopes)
	return drift.Scope{}
}

func TestDrift(t *testing.T) {
	tests := []struct {
		name    string
		change  func(t *testing.T, root, home string)
		scope   string
		want    string // fmt of Missing, Extra, Local
		drifted bool
	}{
		{"an installed checkout has converged", func(*testing.T, string, string) {}, "project", "[] [] []", false},
		{"a hook removed by hand is declared and not wired", func(t *testing.T, root, _ string) {
			edit(t, settings.Project.Path(root, ""), func(d map[string]any) { delete(d["hooks"].(map[string]any), "PreToolUse") })
		}, "project", "[PreToolUse%M magehook] [] []", true},
		{"a user hook nothing declares is undeclared", func(t *testing.T, _, home string) {
			edit(t, settings.User.Path("", home), func(d map[string]any) {
				d["hooks"] = map[string]any{"Stop": group("", "bash ~/bin/notify.sh --loud")}
			})
		}, "user", "[] [Stop notify.sh] []", true},
		{"a hook under _hooks_local and wired is local", func(t *testing.T, root, _ string) {
			edit(t, settings.Local.Path(root, ""), func(d map[string]any) {
				d["hooks"] = map[string]any{"PreToolUse": group("Bash", "$HOME/.claude/hooks/laptop-guard.sh")}
				d[settings.LocalKey] = map[string]any{"PreToolUse": group("Bash", "$HOME/.claude/hooks/laptop-guard.sh")}
			})
		}, "local", "[] [] [PreToolUse[Bash] laptop-guard.sh]", false},
		{"a hook under _hooks_local and not wired never runs", func(t *testing.T, root, _ string) {
			edit(t, settings.Local.Path(root, ""), func(d map[string]any) {
				d[settings.LocalKey] = map[string]any{"PreToolUse": group("Bash", "$HOME/.claude/hooks/laptop-guard.sh")}
			})
		}, "local", "[PreToolUse[Bash] laptop-guard.sh] [] []", true},
		{"a foreign hook in the project file is the repository's", func(t *testing.T, root, _ string) {
			edit(t, settings.Project.Path(root, ""), func(d map[string]any) {
				d["hooks"].(map[string]any)["Notification"] = group("", "./scripts/say.sh")
			})
		}, "project", "[] [] []", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, home := installed(t)
			tt.change(t, cfg.Root(), home)
			r, err := drift.Check(cfg, hooks.All(), home)
			if err != nil {
				t.Fatal(err)
			}
			s := scope(t, r, tt.scope)
			want := strings.ReplaceAll(tt.want, "%M", matcher(t, cfg, "PreToolUse"))
			if got := fmt.Sprint(s.Missing, s.Extra, s.Local); got != want {
				t.Errorf("%s: got %s, want %s", tt.scope, got, want)
			}
			if r.Drifted() != tt.drifted {
				t.Errorf("drifted %v, want %v: %+v", r.Drifted(), tt.drifted, r.Scopes)
			}
			recs := r.Records(drift.Facts{Source: "test"})
			if len(recs) != len(r.Scopes) {
				t.Errorf("%d records for %d scopes", len(recs), len(r.Scopes))
			}
			for _, rec := range recs {
				if rec.Kind != spool.KindDrift {
					t.Errorf("record kind %s", rec.Kind)
				}
			}
		})
	}
}

func TestFactsMakeARecordDrift(t *testing.T) {
	cfg, home := installed(t)
	r, err := drift.Check(cfg, hooks.All(), home)
	if err != nil {
		t.Fatal(err)
	}
	stale := true
	for _, rec := range r.Records(drift.Facts{Stale: &stale, Source: "doctor"}) {
		drifted := false
		for _, a := range rec.Attrs {
			if a.Key == "magehook.drifted" {
				drifted = a.Value.(bool)
			}
		}
		if !drifted || rec.Severity != spool.Warn {
			t.Errorf("a stale binary's record: drifted %v, severity %s", drifted, rec.Severity)
		}
	}
}
