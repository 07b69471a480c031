package doctor_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/magehook/magehook/hooks"
	"github.com/magehook/magehook/pkg/doctor"
	"github.com/magehook/magehook/pkg/hooktest"
	"github.com/magehook/magehook/pkg/settings"
	"github.com/magehook/magehook/pkg/toolingrc"
)

func setup(t testing.TB) (string, doctor.Options) {
	root := hooktest.Checkout(t, "hook.enable branchguard")
	bin := filepath.Join(root, "bin", "magehook")
	os.MkdirAll(filepath.Dir(bin), 0o755)
	os.WriteFile(bin, []byte("#!/bin/sh\n"), 0o755)
	cfg, _ := toolingrc.Discover(root)
	in := settings.Installer{Config: cfg, Handlers: hooks.All(), Scope: settings.Project}
	if _, err := in.Install(); err != nil {
		t.Fatal(err)
	}
	// Never the host's managed settings: a file of the test's own.
	managed := filepath.Join(t.TempDir(), "managed-settings.json")
	return root, doctor.Options{Start: root, Handlers: hooks.All(), Home: t.TempDir(), SkipStale: true, ManagedSettings: managed}
}

// Managed settings that switch the project's hooks off are a problem.
func TestManagedSettingsThatSwitchHooksOff(t *testing.T) {
	_, opt := setup(t)
	if r := doctor.Run(context.Background(), opt); strings.Contains(statuses(r), "managed settings") {
		t.Fatalf("no managed settings file, yet: %s", statuses(r))
	}
	os.WriteFile(opt.ManagedSettings, []byte(`{"disableAllHooks": true}`), 0o644)
	r := doctor.Run(context.Background(), opt)
	if !strings.Contains(statuses(r), "managed settings") {
		t.Errorf("disableAllHooks in the managed settings is not reported: %s", statuses(r))
	}
}

func statuses(r doctor.Report) string {
	var b strings.Builder
	for _, l := range r.Lines {
		b.WriteString(string(l.Status) + " " + l.Check + ": " + l.Detail + "\n")
	}
	return b.String()
}

func TestHealthyCheckout(t *testing.T) {
	_, opt := setup(t)
	r := doctor.Run(context.Background(), opt)
	if r.Problems() != 0 {
		t.Errorf("problems in a fresh install:\n%s", statuses(r))
	}
	if !strings.Contains(statuses(r), "ok hook PreToolUse: installed (project)") {
		t.Errorf("report:\n%s", statuses(r))
	}
}

func TestEachDriftIsFoundAlone(t *testing.T) {
	tests := []struct {
		name, from, to, want string
	}{
		{"a changed timeout", `"timeout": 30,`, `"timeout": 31,`, "problem hook PreToolUse: differs from hook install"},
		{"a removed entry", `hook:preToolUse`, `hook:preToolUseX`, "problem hook PreToolUse: differs"},
		{"a statusMessage added by hand", `"timeout": 30,`, `"statusMessage": "checking", "timeout": 30,`, "(with statusMessage)"},
	}
	for _, tt := range tests {
		root, opt := setup(t)
		path := filepath.Join(root, ".claude", "settings.json")
		data, _ := os.ReadFile(path)
		if !strings.Contains(string(data), tt.from) {
			t.Fatalf("%s: the settings do not hold %q:\n%s", tt.name, tt.from, data)
		}
		os.WriteFile(path, []byte(strings.Replace(string(data), tt.from, tt.to, 1)), 0o644)
		r := doctor.Run(context.Background(), opt)
		if !strings.Contains(statuses(r), tt.want) || r.Problems() != 1 {
			t.Errorf("%s: want exactly one problem %q:\n%s", tt.name, tt.want, statuses(r))
		}
	}
}

func TestDisabledHooksAreAProblem(t *testing.T) {
	root, opt := setup(t)
	path := filepath.Join(root, ".claude", "settings.local.json")
	os.WriteFile(path, []byte(`{"disableAllHooks": true}`), 0o644)
	r := doctor.Run(context.Background(), opt)
	if r.Problems() != 1 || !strings.Contains(statuses(r), "sets disableAllHooks: no hook runs") {
		t.Errorf("report:\n%s", statuses(r))
	}
}

func BenchmarkDoctor1000ForeignEntries(b *testing.B) {
	root, opt := setup(b)
	path := filepath.Join(root, ".claude", "settings.json")
	var sb strings.Builder
	sb.WriteString(`{"hooks":{"Notification":[`)
	for i := 0; i < 1000; i++ {
		if i > 0 {
			sb.WriteString(",")
		}
		sb.WriteString(`{"matcher":"x","hooks":[{"type":"command","command":"true","timeout":5}]}`)
	}
	sb.WriteString(`]}}`)
	os.WriteFile(path, []byte(sb.String()), 0o644)
	cfg, _ := toolingrc.Discover(root)
	settings.Installer{Config: cfg, Handlers: hooks.All(), Scope: settings.Project}.Install()
	opt.LookPath = func(string) (string, error) { return "/bin/true", nil }
	for b.Loop() {
		doctor.Run(context.Background(), opt)
	}
}

func TestWarnOnlyGatesAreShown(t *testing.T) {
	root, opt := setup(t)
	os.WriteFile(filepath.Join(root, ".toolingrc"), []byte("hook.enable branchguard\nhook.warn branchguard\n"), 0o644)
	r := doctor.Run(context.Background(), opt)
	if !strings.Contains(statuses(r), "ok warn-only branchguard: branchguard is in warn-only mode") {
		t.Errorf("the doctor does not show the warn-only gate:\n%s", statuses(r))
	}
}

// TestHostileSettingsAreOneLine: a settings file nested ten million deep
// (20 MB) or a million deep (2 MB) is one refusal line from install and
// from the doctor, never a stack dump, and install leaves it as it was.
func TestHostileSettingsAreOneLine(t *testing.T) {
	for name, depth := range map[string]int{"ten million deep": 10_000_000, "a million deep": 1_000_000} {
		t.Run(name, func(t *testing.T) {
			root, opt := setup(t)
			path := filepath.Join(root, ".claude", "settings.json")
			data := []byte(`{"x":` + strings.Repeat("[", depth) + strings.Repeat("]", depth) + `}`)
			os.WriteFile(path, data, 0o644)
			cfg, _ := toolingrc.Discover(root)
			_, err := settings.Installer{Config: cfg, Handlers: hooks.All(), Scope: settings.Project}.Install()
			if err == nil || strings.Contains(err.Error(), "\n") || !(strings.Contains(err.Error(), "levels deep") || strings.Contains(err.Error(), "bytes magehook reads")) {
				t.Fatalf("install: %v", err)
			}
			if now, _ := os.ReadFile(path); len(now) != len(data) {
				t.Errorf("install changed the file")
			}
			r := doctor.Run(context.Background(), opt)
			report := statuses(r)
			if r.Problems() == 0 || !(strings.Contains(report, "levels deep") || strings.Contains(report, "bytes magehook reads")) {
				t.Errorf("doctor:\n%.2000s", report)
			}
		})
	}
}
