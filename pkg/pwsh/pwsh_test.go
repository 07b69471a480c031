package pwsh

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

func TestAnalyze(t *testing.T) {
	cwd := filepath.FromSlash("/r")
	tests := []struct {
		name, src string
		git       string // "op@dir" joined by ","; "?" marks an unknown directory
		writes    string
		opaque    bool
	}{
		{"a plain listing", "Get-ChildItem -Force | Select-Object Name", "", "", false},
		{"a commit", "git commit -m 'wip'", "commit@/r", "", false},
		{"git.exe with a path, after a semicolon", "git status; C:/bin/git.exe push origin main", "push@/r", "", false},
		{"git -C", "git -C ../other commit -am x", "commit@/other", "", false},
		{"after Set-Location", "Set-Location -Path /main; git commit -m x", "commit@/main", "", false},
		{"after cd to a variable", "cd $env:REPO; git push", "push@?", "", false},
		{"inside a script block", "1..3 | ForEach-Object { git commit -m \"n $_\" }", "commit@/r", "", false},
		{"inside a subexpression of a string", `echo "$(git commit -m x)"`, "commit@/r", "", false},
		{"inside an expandable here-string", "$x = @\"\n$(git push)\n\"@", "push@/r", "", false},
		{"not inside a literal here-string", "$x = @'\ngit push\n'@", "", "", false},
		{"echoed, not run", "Write-Output 'git commit'", "", "", false},
		{"a comment", "ls # git commit\n<# git push #>", "", "", false},
		{"a redirection", "echo hi > .toolingrc", "", "/r/.toolingrc", false},
		{"an appending redirection without a space", "echo hi >>.claude/settings.json", "", "/r/.claude/settings.json", false},
		{"a stream merged into another writes nothing", "git status 2>&1", "", "", false},
		{"Set-Content by position", "Set-Content .toolingrc 'hook.enable x'", "", "/r/.toolingrc", false},
		{"Set-Content with a named, abbreviated path", "Set-Content -Val x -Pa bin/magehook", "", "/r/bin/magehook", false},
		{"Out-File -FilePath:value", "'x' | Out-File -FilePath:C:/home/.toolingrc -Append", "", "C:/home/.toolingrc", false},
		{"Remove-Item of several", "Remove-Item -Recurse -Force .codex/hooks.json, .gemini", "", "/r/.codex/hooks.json,/r/.gemini", false},
		{"Copy-Item writes its destination only", "Copy-Item .toolingrc backup.txt", "", "/r/backup.txt", false},
		{"Move-Item writes both ends", "mv .toolingrc old", "", "/r/.toolingrc,/r/old", false},
		{"relative to a Set-Location", "sl sub; ni .toolingrc", "", "/r/sub/.toolingrc", false},
		{"Invoke-Expression is opaque", "iex 'git commit'", "", "", true},
		{"a property in a script block is a value", "Get-ChildItem | ForEach-Object { $_.Name } | Where-Object { $_.Length -gt 3 }", "", "", false},
		{"a method call on a variable is opaque", "$ExecutionContext.InvokeCommand.InvokeScript('git push')", "", "", true},
		{"a computed command is opaque", "& $git commit", "", "", true},
		{"the call operator on a literal", "& 'git' push", "push@/r", "", false},
		{"a nested shell is opaque", "cmd /c git commit", "", "", true},
	}
	for _, tt := range tests {
		a, err := Analyze(tt.src, cwd)
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		var git []string
		for _, g := range a.Git {
			d := filepath.ToSlash(g.Dir)
			if g.DirUnknown {
				d = "?"
			}
			git = append(git, g.Op+"@"+d)
		}
		var writes []string
		for _, w := range a.Writes {
			writes = append(writes, filepath.ToSlash(filepath.Clean(w)))
		}
		if got := strings.Join(git, ","); got != tt.git {
			t.Errorf("%s: git %q, want %q", tt.name, got, tt.git)
		}
		if got := strings.Join(writes, ","); got != tt.writes {
			t.Errorf("%s: writes %q, want %q", tt.name, got, tt.writes)
		}
		if (len(a.Opaque) > 0) != tt.opaque {
			t.Errorf("%s: opaque %q, want %v", tt.name, a.Opaque, tt.opaque)
		}
	}
}

func TestSyntaxErrors(t *testing.T) {
	for _, src := range []string{"echo 'x", `echo "x`, "ls {", "ls (", "<# x", "$x = @'\nx", "echo >", "ls }"} {
		if _, err := Analyze(src, "/r"); !errors.Is(err, ErrSyntax) {
			t.Errorf("%q: %v, want ErrSyntax", src, err)
		}
	}
}

func FuzzAnalyze(f *testing.F) {
	f.Add("git commit -m 'x'; Set-Content a b > c")
	f.Add("1..3 | % { & $x } ; @\"\n$(git push)\n\"@")
	f.Fuzz(func(t *testing.T, src string) {
		Analyze(src, "/r")
	})
}
