package hooks_test

import (
	"strings"
	"testing"

	"github.com/magehook/magehook/hooks/pathguard"
	"github.com/magehook/magehook/hooks/secretguard"
	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/hooktest"
)

// psPairs are a PowerShell command and the Bash command that does the
// same, each judged on main and on the feature branch of the gate world.
var psPairs = []struct{ ps, bash string }{
	{`Remove-Item -Recurse -Force .git`, `rm -rf .git`},
	{`rm -r -fo .git`, `rm -r -f .git`},
	{`git push origin main`, `git push origin main`},
	{`git push --force origin feat`, `git push --force origin feat`},
	{`git commit --allow-empty -m wip`, `git commit --allow-empty -m wip`},
	{`git rebase origin/main`, `git rebase origin/main`},
	{`git reset --hard HEAD~1`, `git reset --hard HEAD~1`},
	{`git status; git log --oneline | Select-Object -First 5`, `git status; git log --oneline | head -n 5`},
	{`Set-Content .toolingrc x`, `echo x > .toolingrc`},
	{`Add-Content -Path .toolingrc -Value 'hook.enable x'`, `echo 'hook.enable x' >> .toolingrc`},
	{`'{}' | Out-File .claude/settings.json`, `echo '{}' > .claude/settings.json`},
	{`Copy-Item README.md .toolingrc`, `cp README.md .toolingrc`},
	{`Move-Item .toolingrc old.rc`, `mv .toolingrc old.rc`},
	{`Remove-Item .claude -Recurse`, `rm -r .claude`},
	{`New-Item -ItemType File -Path src/new.go`, `touch src/new.go`},
	{`Set-Content src/a.go 'package a'`, `echo 'package a' > src/a.go`},
	{`Set-Content build/out.txt x`, `echo x > build/out.txt`},
	{`Remove-Item -Recurse -Force node_modules`, `rm -rf node_modules`},
	{`Get-ChildItem -Recurse -Filter *.log | Remove-Item`, `find . -name '*.log' -delete`},
	{`Get-ChildItem -Recurse -Filter .toolingrc | Remove-Item`, `find . -name .toolingrc -delete`},
	{`Start-Process git -ArgumentList 'push','origin','main' -Wait`, `git push origin main`},
	{`Invoke-Expression 'git push origin main'`, `eval 'git push origin main'`},
	{`pwsh -NoProfile -Command "Remove-Item .toolingrc"`, `rm .toolingrc`},
	{`bash -c 'rm -rf .git'`, `rm -rf .git`},
	{`go test ./...; go vet ./...`, `go test ./... && go vet ./...`},
	{`Get-Content README.md | Select-Object -First 10`, `head -n 10 README.md`},
	{`Set-Location src; Get-ChildItem`, `cd src && ls`},
	{`Remove-Item -Recurse -Force ~`, `rm -rf ~`},
}

// TestPowerShellIsJudgedAsBash: every gate (branchguard, configguard,
// cmdguard, pathguard, secretguard) reads a PowerShell command through the
// same model as Bash's, so a PowerShell command and its Bash equivalent get
// the same verdict, on main and on a feature branch of a real checkout.
func TestPowerShellIsJudgedAsBash(t *testing.T) {
	w := buildGateWorld(t, false)
	handlers := append(append([]hook.Handler{}, gateHandlers...), pathguard.Handler, secretguard.Handler)
	denied := func(dir, tool, command string) (bool, string) {
		out := hooktest.Run(t, handlers, dir, "PreToolUse", "PreToolUse/bash", map[string]any{"tool_name": tool, "tool_input": map[string]any{"command": command}, "cwd": dir})
		return out.Code != 0 || strings.Contains(out.Stdout, `"permissionDecision":"deny"`), out.Stdout + out.Stderr
	}
	var bothWays [2]int
	for _, p := range psPairs {
		for _, dir := range []string{w.root, w.feat} {
			on := "main"
			if dir == w.feat {
				on = "feat"
			}
			b, bwhy := denied(dir, "Bash", p.bash)
			ps, pwhy := denied(dir, "PowerShell", p.ps)
			if b != ps {
				t.Errorf("on %s: PowerShell %q denied %v (%s), Bash %q denied %v (%s)", on, p.ps, ps, pwhy, p.bash, b, bwhy)
			}
			if b {
				bothWays[1]++
			} else {
				bothWays[0]++
			}
		}
	}
	// The table holds both verdicts, so that it can fail either way.
	if bothWays[0] == 0 || bothWays[1] == 0 {
		t.Errorf("the pairs are all judged one way: %v allowed/denied", bothWays)
	}
}
