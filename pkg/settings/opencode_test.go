package settings_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/magehook/magehook/pkg/harness"
)

// driver loads the plugin as OpenCode does and calls its hooks; each line
// of stdout is one outcome.
const driver = `
import { pathToFileURL } from "node:url";
const mod = await import(pathToFileURL(process.argv[2]).href);
const hooks = await mod.MagehookPlugin({ directory: process.argv[3], worktree: "/wrong" });
const before = async (tool, args) => {
  try { await hooks["tool.execute.before"]({ tool, sessionID: "s1", callID: "c" + Math.random() }, { args }); console.log("allow " + tool + " " + JSON.stringify(args)); }
  catch (e) { console.log("deny " + tool + ": " + e.message.split("\n")[0]); }
};
for (const step of JSON.parse(process.argv[4])) {
  if (step.system) { const out = { system: [] }; await hooks["experimental.chat.system.transform"]({ sessionID: "s1" }, out); console.log("system " + JSON.stringify(out.system)); continue; }
  await before(step.tool, step.args);
}
`

// sealed makes a fake binary seal its exit code as magehook's does for
// the command (or plugin) that asks (harness.Seal).
func sealed(script string) string {
	head, rest, _ := strings.Cut(script, "\n")
	return head + "\n" + `trap 'c=$?; [ "$MAGEHOOK_SEAL" = "$PPID" ] && exit $((c+100))' EXIT` + "\n" + rest
}

func runPlugin(t *testing.T, spec harness.PluginSpec, bin, steps string) []string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not on PATH; the OpenCode plugin runs in node")
	}
	root := t.TempDir()
	os.Mkdir(filepath.Join(root, ".git"), 0o755)
	sub := filepath.Join(root, "sub")
	os.Mkdir(sub, 0o755)
	switch bin {
	case "":
	case "dir":
		os.MkdirAll(filepath.Join(root, "bin", "magehook"), 0o755)
	default:
		writeFile(t, filepath.Join(root, "bin", "magehook"), bin, 0o755)
	}
	plugin := filepath.Join(root, ".opencode", "plugins", "magehook.js")
	op, _ := harness.Lookup("opencode")
	writeFile(t, plugin, op.Plugin(spec), 0o644)
	drv := filepath.Join(root, "driver.mjs")
	writeFile(t, drv, driver, 0o644)
	cmd := exec.Command(node, drv, plugin, sub, steps)
	cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(node)) // no go: the binary cannot be built
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, out)
	}
	return strings.Split(strings.TrimSpace(string(out)), "\n")
}

func TestOpenCodePluginFailsClosed(t *testing.T) {
	spec := harness.PluginSpec{Binary: "bin/magehook", Gated: []string{"Bash", "Edit", "Write"}}
	steps := `[{"tool":"bash","args":{"command":"ls"}},{"tool":"read","args":{"filePath":"x"}},{"tool":"apply_patch","args":{"patchText":"*** Begin Patch"}}]`
	for name, bin := range map[string]string{
		"missing and not buildable": "",
		"killed by a signal":        "#!/bin/sh\nkill -9 $$\n",
		"a configuration error":     sealed("#!/bin/sh\necho 'magehook: bad .toolingrc' >&2\nexit 3\n"),
		"a file that is no program": "\n",
		"an unsealed exit 0":        "#!/bin/sh\nexit 0\n",
		"a directory":               "dir",
	} {
		got := runPlugin(t, spec, bin, steps)
		if len(got) != 3 || !strings.HasPrefix(got[0], "deny bash: magehook") || !strings.HasPrefix(got[1], "allow read") || !strings.HasPrefix(got[2], "deny apply_patch") {
			t.Errorf("%s: a gated tool must be denied, another let through:\n%s", name, strings.Join(got, "\n"))
		}
	}
}

func TestOpenCodePluginPayload(t *testing.T) {
	// The fake binary answers with what it was given: cwd and the tool.
	bin := `#!/bin/sh
payload=$(cat)
case "$1" in
hook:sessionStart) echo '{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"today is Monday"}}' ;;
hook:preToolUse) echo "$payload" >&2; exit 2 ;;
esac
`
	steps := `[{"system":true},{"system":true},{"tool":"bash","args":{"command":"ls","workdir":"../elsewhere"}},{"tool":"apply_patch","args":{"patchText":"p"}}]`
	got := runPlugin(t, harness.PluginSpec{Binary: "bin/magehook"}, sealed(bin), steps)
	want := []string{`system ["today is Monday"]`, `system ["today is Monday"]`}
	if len(got) != 4 || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("the SessionStart context joins every model call's system prompt:\n%s", strings.Join(got, "\n"))
	}
	if !strings.Contains(got[2], `"cwd":"`) || !strings.Contains(got[2], `/elsewhere"`) || !strings.Contains(got[2], `"tool_name":"Bash"`) {
		t.Errorf("a bash workdir is the call's cwd: %s", got[2])
	}
	if !strings.Contains(got[3], `"tool_name":"apply_patch"`) || !strings.Contains(got[3], `"patchText":"p"`) {
		t.Errorf("apply_patch reaches the binary, which maps it: %s", got[3])
	}
}
