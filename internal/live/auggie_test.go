package live_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// No Auggie session runs offline (pkg/harness's auggie says why), so its
// scenarios run what Auggie 0.36.0 would run: the installed command of
// .augment/settings.json, after Auggie's own substitution of ${NAME} in the
// command text, under bash -c in the workspace root with Auggie's hook
// variables, fed payloads built as its package builds them
// (testdata/harness/auggie). TestAuggieCannotRunOffline keeps the reason
// honest: the day the pinned client runs without a login, it fails.

// TestAuggieCannotRunOffline: the pinned Auggie, with no login, refuses
// to start a session.
func TestAuggieCannotRunOffline(t *testing.T) {
	cl := requireClient(t, "auggie")
	t.Parallel()
	c := newConsumer(t, catalogue)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, cl.Path(), "--print", "do the work")
	cmd.Dir = c.Dir
	cmd.Env = append(append([]string(nil), c.Env...), "AUGMENT_DISABLE_AUTO_UPDATE=1", "NO_COLOR=1")
	out, _ := cmd.CombinedOutput()
	if !strings.Contains(string(out), "No auth provided") {
		t.Fatalf("auggie without a login did not refuse as the harness table says; if it runs offline now, drive it for real:\n%s", out)
	}
}

// auggieSubstitute is what Auggie 0.36.0 does to a hook's command text
// before it runs it (augment.mjs: sge with the eno and tno patterns):
// ${NAME} and ${NAME:-default} not preceded by a backslash become the
// variable's value in Auggie's environment (the default, or the text
// itself, when unset), then \${ becomes ${.
func auggieSubstitute(text string, env map[string]string) string {
	var b strings.Builder
	for i := 0; i < len(text); {
		if !strings.HasPrefix(text[i:], "${") || (i > 0 && text[i-1] == '\\') {
			b.WriteByte(text[i])
			i++
			continue
		}
		j := i + 2
		for j < len(text) && (text[j] == '_' || text[j] >= 'a' && text[j] <= 'z' || text[j] >= 'A' && text[j] <= 'Z' || j > i+2 && text[j] >= '0' && text[j] <= '9') {
			j++
		}
		name := text[i+2 : j]
		end, def, hasDef := -1, "", false
		switch {
		case name == "":
		case strings.HasPrefix(text[j:], "}"):
			end = j + 1
		case strings.HasPrefix(text[j:], ":-"):
			if k := strings.IndexByte(text[j+2:], '}'); k >= 0 {
				end, def, hasDef = j+2+k+1, text[j+2:j+2+k], true
			}
		}
		if end < 0 {
			b.WriteByte(text[i])
			i++
			continue
		}
		if v, ok := env[name]; ok {
			b.WriteString(v)
		} else if hasDef {
			b.WriteString(def)
		} else {
			b.WriteString(text[i:end])
		}
		i = end
	}
	return strings.ReplaceAll(b.String(), `\${`, "${")
}

func TestAuggieSubstitutionIsAuggies(t *testing.T) {
	env := map[string]string{"HOME": "/h"}
	for in, want := range map[string]string{
		"${HOME}/x":          "/h/x",
		"${d:-.}":            ".",
		"${NOPE}":            "${NOPE}",
		`\${d:-.} \${d%/*}`:  "${d:-.} ${d%/*}",
		"${d%/*}":            "${d%/*}",
		"$HOME ${HOME:-y} $": "$HOME /h $",
	} {
		if got := auggieSubstitute(in, env); got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
}

// auggieRun runs the installed entry of an event as Auggie 0.36.0 runs a
// hook, with a payload built from testdata/harness/auggie.
func auggieRun(t *testing.T, c *Consumer, root, event, fixture string, overrides map[string]any, env ...string) (stdout, stderr string, code int) {
	t.Helper()
	var file struct {
		Hooks map[string][]struct {
			Hooks []struct{ Command string }
		}
	}
	if err := json.Unmarshal([]byte(read(t, filepath.Join(root, ".augment", "settings.json"))), &file); err != nil {
		t.Fatal(err)
	}
	groups := file.Hooks[event]
	if len(groups) == 0 || len(groups[0].Hooks) == 0 {
		t.Fatalf("no %s entry in .augment/settings.json", event)
	}
	var payload map[string]any
	raw := strings.ReplaceAll(read(t, filepath.Join(moduleRoot(t), "testdata", "harness", "auggie", fixture+".json")), "/home/user/my-project", root)
	if err := json.Unmarshal([]byte(raw), &payload); err != nil {
		t.Fatal(err)
	}
	for k, v := range overrides {
		payload[k] = v
	}
	in, _ := json.Marshal(payload)
	environ := append(append([]string(nil), c.Env...), env...)
	vars := map[string]string{}
	for _, kv := range environ {
		if k, v, ok := strings.Cut(kv, "="); ok {
			vars[k] = v
		}
	}
	command := auggieSubstitute(groups[0].Hooks[0].Command, vars)
	cmd := exec.Command("bash", "-c", command)
	cmd.Dir = root
	cmd.Env = append(environ, "AUGMENT_PROJECT_DIR="+root, "AUGMENT_CONVERSATION_ID=5b0e6f0c-auggie-conv", "AUGMENT_HOOK_EVENT="+event)
	if tool, ok := payload["tool_name"].(string); ok {
		cmd.Env = append(cmd.Env, "AUGMENT_TOOL_NAME="+tool)
	}
	cmd.Stdin = bytes.NewReader(in)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	code = 0
	if x, ok := err.(*exec.ExitError); ok {
		code = x.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return o.String(), e.String(), code
}

// TestAuggieGuardsMainInAFreshClone: in a clone of a repository with the
// committed .augment/settings.json and no binary, SessionStart builds it
// and answers the context; on main the commit, the edit and the new file
// are denied in the answer Auggie parses; on a feature branch they pass.
// Without go the binary cannot be built and a gated call is blocked
// (exit 2, which Auggie reads as a block).
func TestAuggieGuardsMainInAFreshClone(t *testing.T) {
	requireClient(t, "auggie")
	t.Parallel()
	c := newConsumer(t, catalogue)
	c.InstallAndPush(t, "auggie")
	base := filepath.Dir(c.Dir)
	clone := filepath.Join(base, "clone")
	c.Run(t, base, "git", "clone", "-q", c.Origin, clone)
	if _, err := os.Stat(filepath.Join(clone, "bin", "magehook")); err == nil {
		t.Fatal("the clone has a binary")
	}
	// Without go (only the system's tools), the binary cannot be built:
	// the gated call is blocked, exit 2.
	_, stderr, code := auggieRun(t, c, clone, "PreToolUse", "PreToolUse-launch-process", nil, "PATH=/usr/bin:/bin")
	if code != 2 || !strings.Contains(stderr, "could not be built") {
		t.Errorf("a clone without the binary and without go: exit %d, want 2 (a block)\n%s", code, stderr)
	}
	out, stderr, code := auggieRun(t, c, clone, "SessionStart", "SessionStart", nil)
	if code != 0 || !strings.Contains(out, "Current date and time") || !strings.Contains(out, `"hookEventName":"SessionStart"`) {
		t.Errorf("SessionStart: exit %d\n%s\n%s", code, out, stderr)
	}
	if _, err := os.Stat(filepath.Join(clone, "bin", "magehook")); err != nil {
		t.Fatalf("SessionStart did not build the binary: %v", err)
	}
	write(t, clone, "README.md", "# consumer\nchanged\n")
	for _, tt := range []struct{ fixture, reason string }{
		{"PreToolUse-launch-process", "git commit would move the protected branch main"},
		{"PreToolUse-str-replace-editor", "Edit would change"},
		{"PreToolUse-save-file", "Write would change"},
	} {
		out, stderr, code := auggieRun(t, c, clone, "PreToolUse", tt.fixture, nil)
		if code != 0 || !strings.Contains(out, `"permissionDecision":"deny"`) || !strings.Contains(out, tt.reason) {
			t.Errorf("%s on main: exit %d, want a deny naming %q\n%s\n%s", tt.fixture, code, tt.reason, out, stderr)
		}
		if strings.Contains(out, "claude --worktree") || !strings.Contains(out, "launch-process") {
			t.Errorf("%s: the way out is not Auggie's\n%s", tt.fixture, out)
		}
	}
	c.Run(t, clone, "git", "checkout", "-q", "-b", "feature")
	for _, fixture := range []string{"PreToolUse-launch-process", "PreToolUse-str-replace-editor", "PreToolUse-save-file"} {
		out, stderr, code := auggieRun(t, c, clone, "PreToolUse", fixture, nil)
		if code != 0 || strings.Contains(out, "deny") {
			t.Errorf("%s on a feature branch: exit %d\n%s\n%s", fixture, code, out, stderr)
		}
	}
}

// TestAuggieMisspeltToolingrcClosesTheGates: a misspelt gate key denies
// the commit with the line's error in the reason.
func TestAuggieMisspeltToolingrcClosesTheGates(t *testing.T) {
	requireClient(t, "auggie")
	t.Parallel()
	c := newConsumer(t, catalogue)
	c.Install(t, "auggie")
	write(t, c.Dir, ".toolingrc", strings.Replace(catalogue, "hook.enable branchguard", "hook.enabel branchguard", 1))
	out, stderr, code := auggieRun(t, c, c.Dir, "PreToolUse", "PreToolUse-launch-process", nil)
	blocked := code == 2 || code == 0 && strings.Contains(out, `"permissionDecision":"deny"`)
	if !blocked || !strings.Contains(out+stderr, "hook.enabel: unknown key; did you mean hook.enable?") {
		t.Errorf("a misspelt .toolingrc: exit %d\n%s\n%s", code, out, stderr)
	}
}
