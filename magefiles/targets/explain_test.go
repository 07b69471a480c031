package targets

import (
	"strings"
	"testing"

	"github.com/magehook/magehook/internal/gittest"
	"github.com/magehook/magehook/pkg/hook"
)

// TestExplainSpeaksForEveryGate: hook:explain names each enabled gate's
// decision, from the same dispatch the hook binary makes: cmdguard's
// deny of rm -rf ~ (which branchguard allows), configguard's of a write
// to .toolingrc, a repository's own gate, and an allow when none denies.
func TestExplainSpeaksForEveryGate(t *testing.T) {
	saved := Local
	t.Cleanup(func() { Local = saved })
	Local = append(append([]hook.Handler(nil), saved...), hook.Handler{
		Name: "nodeploy", Purpose: "a repository's own gate", Events: []string{"PreToolUse"}, Matcher: "Bash", Policy: hook.Gatekeeper,
		Run: func(c *hook.Call) (hook.Result, error) {
			if cmd, _ := c.Payload.InputString("command"); strings.Contains(cmd, "deploy") {
				return hook.Deny("deploys go through the pipeline"), nil
			}
			return hook.Result{}, nil
		},
	})
	root := gittest.Repo(t, map[string]string{".toolingrc": "hook.enable branchguard\nhook.enable cmdguard\nhook.enable nodeploy\n", "README.md": "x\n"})
	gittest.Git(t, root, "checkout", "-q", "-b", "feature")
	home := t.TempDir()
	for _, tt := range []struct {
		command    string
		powershell bool
		want       []string
	}{
		{"rm -rf ~", false, []string{"branchguard allow", "cmdguard     deny: cmdguard: a recursive delete", "decision  deny (cmdguard)"}},
		{"echo x > .toolingrc", false, []string{"configguard  deny: Bash (>) would change", "decision  deny (configguard)"}},
		{"./deploy.sh && rm -rf ~", false, []string{"cmdguard     deny", "nodeploy     deny: deploys go through the pipeline", "decision  deny (cmdguard, nodeploy)"}},
		{"git status && go test ./...", false, []string{"cmdguard     allow", "configguard  allow", "nodeploy     allow", "decision  allow"}},
		// PowerShell, read into the same model: the same gates, the same reasons.
		{"Remove-Item -Recurse -Force ~", true, []string{"cmdlet remove-item, judged as rm -r -f --", "branchguard allow", "cmdguard     deny: cmdguard: a recursive delete", "decision  deny (cmdguard)"}},
		{"Set-Content .toolingrc x", true, []string{"configguard  deny: PowerShell (set-content) would change", "decision  deny (configguard)"}},
		{"git status; go test ./...", true, []string{"cmdguard     allow", "configguard  allow", "decision  allow"}},
	} {
		w, stdout, _ := testWorld(root, map[string]string{"HOME": home})
		if err := w.explain(tt.command, "", "", tt.powershell); err != nil {
			t.Fatal(err)
		}
		if testing.Verbose() {
			t.Log(stdout.String())
		}
		for _, want := range tt.want {
			if !strings.Contains(stdout.String(), want) {
				t.Errorf("hook:explain %q lacks %q:\n%s", tt.command, want, stdout.String())
			}
		}
	}
}
