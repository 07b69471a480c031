package subagentgate_test

import (
	"strings"
	"testing"
	"time"

	"github.com/magehook/magehook/hooks/subagentgate"
	"github.com/magehook/magehook/internal/gittest"
	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/hooktest"
)

var hs = []hook.Handler{subagentgate.Handler}

func repo(t *testing.T, rc ...string) string {
	t.Helper()
	return gittest.Repo(t, map[string]string{
		".toolingrc": strings.Join(append([]string{"hook.enable subagentgate", "subagentgate.types worker"}, rc...), "\n") + "\n",
		"src/a.go":   "package a\n",
	})
}

func stop(t *testing.T, dir, agentType string) hooktest.Outcome {
	t.Helper()
	return hooktest.Run(t, hs, dir, "SubagentStop", "SubagentStop/explore", map[string]any{"agent_type": agentType})
}

func blocked(t *testing.T, out hooktest.Outcome, want ...string) {
	t.Helper()
	if out.Code != 0 || !strings.HasPrefix(out.Stdout, `{"decision":"block","reason":"subagentgate: this worker result is not eligible yet`) {
		t.Fatalf("want a block, got %+v", out)
	}
	for _, w := range want {
		if !strings.Contains(out.Stdout, w) {
			t.Errorf("the reason lacks %q: %s", w, out.Stdout)
		}
	}
}

func TestAnEligibleResultStops(t *testing.T) {
	dir := repo(t, "subagentgate.check sh -c 'exit 0'", "subagentgate.scope src/**")
	gittest.Write(t, dir, map[string]string{"src/a.go": "package a\n\nfunc A() {}\n", "src/b.go": "package a\n"})
	if out := stop(t, dir, "worker"); out.Code != 0 || out.Stdout != "" {
		t.Errorf("%+v", out)
	}
}

func TestEveryFailureIsNamed(t *testing.T) {
	dir := repo(t, `subagentgate.check sh -c 'echo "--- FAIL: TestA"; exit 1'`, "subagentgate.check sh -c 'exit 0'", "subagentgate.scope src/**")
	key := "AKIA" + "ABCDEFGHIJKLMNOP"
	gittest.Write(t, dir, map[string]string{"src/conf.go": "package a\nconst k = \"" + key + "\"\n", "docs/x.md": "x\n"})
	out := stop(t, dir, "worker")
	blocked(t, out, `the check \"sh -c 'echo \\\"--- FAIL: TestA\\\"; exit 1'\" failed (exit status 1); its last lines:\n--- FAIL: TestA`,
		"secret-looking values in src/conf.go", "changes outside the worker's scope (src/**): docs/x.md")
	if strings.Contains(out.Stdout, key) || strings.Contains(out.Stdout, "exit 0") {
		t.Errorf("the reason quotes the secret or a passing check: %s", out.Stdout)
	}
}

func TestOnlyTheConfiguredTypesAreChecked(t *testing.T) {
	dir := repo(t, "subagentgate.check false")
	for _, typ := range []string{"Explore", "general-purpose", ""} {
		if out := stop(t, dir, typ); out.Code != 0 || out.Stdout != "" {
			t.Errorf("%q: %+v", typ, out)
		}
	}
	blocked(t, stop(t, dir, "worker"), `the check \"false\" failed`)
	all := gittest.Repo(t, map[string]string{".toolingrc": "hook.enable subagentgate\nsubagentgate.types *\nsubagentgate.check false\n"})
	blocked2 := stop(t, all, "Explore")
	if !strings.Contains(blocked2.Stdout, `"decision":"block"`) {
		t.Errorf("* selects every named type: %+v", blocked2)
	}
	if out := stop(t, all, ""); out.Stdout != "" {
		t.Errorf("an internal agent (agent_type \"\") is never checked: %+v", out)
	}
	if out := hooktest.Run(t, hs, dir, "SubagentStop", "SubagentStop/explore", map[string]any{"agent_type": "worker", "stop_hook_active": true}); out.Stdout != "" {
		t.Errorf("stop_hook_active never blocks: %+v", out)
	}
}

func TestTheBudgetBoundsTheChecks(t *testing.T) {
	defer func(b time.Duration) { subagentgate.Budget = b }(subagentgate.Budget)
	subagentgate.Budget = time.Nanosecond // the moment has passed before the first check
	dir := repo(t, "subagentgate.check sleep 1000", "subagentgate.secrets no")
	blocked(t, stop(t, dir, "worker"), `the check \"sleep 1000\" did not`)
}

func TestAMissingCheckBlocks(t *testing.T) {
	dir := repo(t, "subagentgate.check no-such-linter-xyz ./...")
	blocked(t, stop(t, dir, "worker"), "no-such-linter-xyz")
}

func TestNothingConfigured(t *testing.T) {
	dir := gittest.Repo(t, map[string]string{".toolingrc": "hook.enable subagentgate\n"})
	if out := stop(t, dir, "Explore"); out.Code != 0 || out.Stdout != "" || out.Stderr != "" {
		t.Errorf("%+v", out)
	}
}
