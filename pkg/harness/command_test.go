package harness_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/magehook/magehook/pkg/harness"
)

// fakeBinary writes a bin/magehook that prints its parent's process id,
// its grandparent's and its arguments, and seals its exit as magehook's
// binary does.
func fakeBinary(t testing.TB) string {
	t.Helper()
	root := t.TempDir()
	os.Mkdir(filepath.Join(root, ".git"), 0o755)
	os.MkdirAll(filepath.Join(root, "bin"), 0o755)
	script := "#!/bin/sh\necho \"$PPID $(ps -o ppid= -p $PPID) $*\"\n[ \"$MAGEHOOK_SEAL\" = \"$PPID\" ] && exit 100\nexit 0\n"
	if err := os.WriteFile(filepath.Join(root, "bin", "magehook"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return root
}

// TestThePresentBinaryCostsOneWait: when the binary is there, the
// installed command is the shell the harness starts, a test builtin and
// the binary, whose sealed answer the shell passes on: the binary's parent
// is the shell, the shell's the harness, for every harness's command form.
func TestThePresentBinaryCostsOneWait(t *testing.T) {
	root := fakeBinary(t)
	for _, h := range harness.All() {
		if h.Layout == harness.Plugin {
			continue
		}
		for _, ev := range []struct{ name, target string }{{"PreToolUse", "preToolUse"}, {"Stop", "stop"}} {
			c := h.Command(harness.CommandSpec{Binary: "bin/magehook", Event: ev.name, Target: ev.target, Timeout: 30, GateAll: true})
			cmd := exec.Command("sh", "-c", h.ShellText(c))
			cmd.Dir = filepath.Join(root, "bin") // Codex and Cursor walk up from here
			cmd.Env = append(os.Environ(), projectEnv(root)...)
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("%s %s: %v", h.Name, c, err)
			}
			fields := strings.Fields(string(out))
			if len(fields) < 3 || fields[1] != strconv.Itoa(os.Getpid()) || fields[2] != "hook:"+ev.target {
				t.Errorf("%s %s: the binary's shell is not the harness's child: %q (harness pid %d)", h.Name, ev.name, out, os.Getpid())
			}
		}
	}
}

// BenchmarkInstalledCommand times one hook call through the command form
// install writes against the bare quoted path earlier versions wrote, with
// a binary that does nothing.
func BenchmarkInstalledCommand(b *testing.B) {
	root := fakeBinary(b)
	os.RemoveAll(filepath.Join(root, ".git"))
	if out, err := exec.Command("git", "init", "-q", root).CombinedOutput(); err != nil {
		b.Fatalf("%v %s", err, out)
	}
	os.WriteFile(filepath.Join(root, "bin", "magehook"), []byte("#!/bin/sh\n[ \"$MAGEHOOK_SEAL\" = \"$PPID\" ] && exit 100\nexit 0\n"), 0o755)
	claude, _ := harness.Lookup("claude")
	codex, _ := harness.Lookup("codex")
	forms := map[string]string{
		"bare-path":   `"$CLAUDE_PROJECT_DIR/bin/magehook" hook:preToolUse`,
		"exec-form":   `d="$CLAUDE_PROJECT_DIR"; b="$d/bin/magehook"; [ -x "$b" ] || exit 2; exec "$b" hook:preToolUse`,
		"claude":      claude.Command(harness.CommandSpec{Binary: "bin/magehook", Event: "PreToolUse", Target: "preToolUse", Timeout: 30}),
		"codex-walk":  codex.Command(harness.CommandSpec{Binary: "bin/magehook", Event: "PreToolUse", Target: "preToolUse", Timeout: 30}),
		"git-rev-old": `"$(dirname "$(git rev-parse --path-format=absolute --git-common-dir)")/bin/magehook" hook:preToolUse -harness=codex`,
	}
	for name, c := range forms {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				cmd := exec.Command("sh", "-c", c)
				cmd.Dir = root
				cmd.Env = append(os.Environ(), "CLAUDE_PROJECT_DIR="+root)
				if err := cmd.Run(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
