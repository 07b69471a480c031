package branchguard_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/magehook/magehook/internal/gittest"
	"github.com/magehook/magehook/pkg/hooktest"
)

func pwshOut(t *testing.T, cwd, command string) hooktest.Outcome {
	t.Helper()
	return hooktest.Run(t, handlers, cwd, "PreToolUse", "PreToolUse/bash", map[string]any{"tool_name": "PowerShell", "tool_input": map[string]any{"command": command}})
}

// guard.protect origin/HEAD means the same branch for PowerShell as for
// Bash: the one refs/remotes/origin/HEAD names.
func TestPowerShellResolvesTheRemoteDefault(t *testing.T) {
	root, feature := setup(t, "guard.protect origin/HEAD")
	gittest.Bare(t, root)
	gittest.Git(t, root, "push", "-q", "origin", "feat")
	gittest.Git(t, root, "remote", "set-head", "origin", "feat")
	deny(t, pwshOut(t, feature, "git commit -m x"), "would move the protected branch feat")
	allow(t, pwshOut(t, root, "git commit -m x")) // main is not origin's default here
	deny(t, pwshOut(t, root, "git push origin HEAD:feat"), "would update feat on origin")
	gittest.Git(t, root, "remote", "set-head", "origin", "main")
	deny(t, pwshOut(t, root, "git commit -m x"), "would move the protected branch main")
	allow(t, pwshOut(t, feature, "git commit -m x"))
}

// PowerShell is judged as Bash is: every ref-moving git command, not only
// commit and push, and the files its cmdlets write into a protected
// checkout (those git ignores excepted).
func TestPowerShellIsJudgedAsBash(t *testing.T) {
	root, feature := setup(t)
	os.WriteFile(filepath.Join(root, ".gitignore"), []byte(".env.local\nbuild/\n"), 0o644)
	os.MkdirAll(filepath.Join(root, "build"), 0o755)
	for _, tt := range []struct {
		command string
		deny    bool
	}{
		{`git merge feat`, true},
		{`git reset --hard HEAD~1`, true},
		{`git update-ref refs/heads/main HEAD~1`, true},
		{`git branch -f main feat`, true},
		{`git -c alias.c=commit c -m x`, true},
		{`git.exe push origin feat:main`, true},
		{`& 'git' commit -m "wip $n"`, true},
		{`git -C ` + feature + ` commit -m x; git commit -m y`, true},
		{`Set-Location ` + feature + `; git commit -m x`, false},
		{`git -C ` + feature + ` merge main`, false},
		{`python3 -c "import subprocess; subprocess.run(['git','commit','-m','x'])"`, true},
		{`pwsh -NoProfile -Command git commit -m x`, true},
		{`powershell -EncodedCommand ZwBpAHQAIABjAG8AbQBtAGkAdAAgAC0AbQAgAHgA`, true},
		{`pwsh -c "Get-ChildItem"`, false},
		{`Set-Content README.md x`, true},
		{`'x' > src/new.go`, true},
		{`Add-Content -LiteralPath src/a.go '//'`, true},
		{`gci src | Remove-Item`, true},
		{`$files | Remove-Item`, true},
		{`Set-Content $p x`, true},
		{`Set-Content .env.local 'A=1'`, false},
		{`Set-Alias g git; g commit -m x`, true},
		{`Set-Location /nonexistent; git commit -m x`, true}, // the Set-Location fails: the commit runs on main
		{`Set-Location /nonexistent; Set-Content README.md x`, true},
		{`Set-Location ` + feature + `; Set-Content notes.md x`, false},
		{`Copy-Item README.md ` + t.TempDir(), false},
		{`Copy-Item ` + filepath.Join(feature, "x") + ` src`, true},
		{`gci build | Remove-Item -Recurse`, false},
		{`Set-Content ` + filepath.Join(feature, "notes.md") + ` x`, false},
		{`git status; git log --oneline | Select-Object -First 5`, false},
		{`git diff; go test ./...; npm test`, false},
		{`Get-ChildItem -Recurse | Select-Object Name`, false},
		{`Get-Content README.md | Select-Object -First 10`, false},
	} {
		out := pwshOut(t, root, tt.command)
		if got := strings.Contains(out.Stdout, `"permissionDecision":"deny"`); got != tt.deny || out.Code != 0 {
			t.Errorf("%q on main: deny %v, want %v: %+v", tt.command, got, tt.deny, out)
		}
	}
}

// A PowerShell run from Bash with its script encoded is judged by what the
// encoding hides.
func TestEncodedPowerShellFromBash(t *testing.T) {
	root, feature := setup(t)
	out := hooktest.Run(t, handlers, root, "PreToolUse", "PreToolUse/bash", map[string]any{"tool_input.command": "pwsh -EncodedCommand ZwBpAHQAIABjAG8AbQBtAGkAdAAgAC0AbQAgAHgA"})
	deny(t, out, "git")
	out = hooktest.Run(t, handlers, feature, "PreToolUse", "PreToolUse/bash", map[string]any{"tool_input.command": "pwsh -c Get-Date"})
	allow(t, out)
}
