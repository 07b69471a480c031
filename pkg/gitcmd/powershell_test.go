package gitcmd

import (
	"path/filepath"
	"strings"
	"testing"
)

// psModel analyses a PowerShell command in /r and renders what the gates
// read: the git subcommands with where they run (? for unknown), the
// writes (writeForm, relative to /r) and whether a command is opaque.
func psModel(t *testing.T, src string, getenv func(string) string) (git, writes string, opaque bool) {
	t.Helper()
	a, err := Analyze(src, Options{Dir: "/r", Home: "/home/u", Getenv: getenv, PowerShell: true})
	if err != nil {
		t.Fatalf("%q: %v", src, err)
	}
	if a.SyntaxError != nil {
		t.Fatalf("%q: %v", src, a.SyntaxError)
	}
	var gs, ws []string
	for _, c := range a.Commands {
		if c.Git != nil && c.Git.Sub != "" {
			d := filepath.ToSlash(c.Git.Dir)
			if c.Git.DirDynamic != "" {
				d = "?"
			}
			gs = append(gs, c.Git.Sub+"@"+d)
		}
		opaque = opaque || c.Opaque != ""
	}
	seen := map[string]bool{}
	for _, w := range a.Writes {
		if f := writeForm(w, "/r"); !seen[f] {
			seen[f] = true
			ws = append(ws, f)
		}
	}
	return strings.Join(gs, ","), strings.Join(ws, " "), opaque
}

// TestPowerShellModel: what PowerShell runs (git above all, with the
// directory it runs in), the files its cmdlets and redirections write, and
// what the analysis cannot see into, in the model Bash has.
func TestPowerShellModel(t *testing.T) {
	for _, tt := range []struct {
		name, src, git, writes string
		opaque                 bool
	}{
		{"a plain listing", "Get-ChildItem -Force | Select-Object Name", "", "", false},
		{"a commit", "git commit -m 'wip'", "commit@/r", "", false},
		{"git.exe with a path, after a semicolon", "git status; C:/bin/git.exe push origin main", "status@/r,push@/r", "", false},
		{"git -C", "git -C ../other commit -am x", "commit@/other", "", false},
		{"after a Set-Location that fails", "Set-Location -Path /main; git commit -m x", "commit@/r", "", false},
		{"after cd to a variable", "cd $env:REPO; git push", "push@?", "", false},
		{"inside a script block", "1..3 | ForEach-Object { git commit -m \"n $_\" }", "commit@/r", "", false},
		{"inside a subexpression of a string", `echo "$(git commit -m x)"`, "commit@/r", "", false},
		{"inside an expandable here-string", "$x = @\"\n$(git push)\n\"@", "push@/r", "", false},
		{"not inside a literal here-string", "$x = @'\ngit push\n'@", "", "", false},
		{"echoed, not run", "Write-Output 'git commit'", "", "", false},
		{"a comment", "ls # git commit\n<# git push #>", "", "", false},
		{"a redirection", "echo hi > .toolingrc", "", ".toolingrc", false},
		{"an appending redirection without a space", "echo hi >>.claude/settings.json", "", ".claude/settings.json", false},
		{"a stream merged into another writes nothing", "git status 2>&1", "status@/r", "", false},
		{"Set-Content with a named, abbreviated path", "Set-Content -Val x -Pat bin/magehook", "", "bin/magehook", false},
		{"Out-File -FilePath:value", "'x' | Out-File -FilePath:/home/.toolingrc -Append", "", "/home/.toolingrc", false},
		{"Remove-Item of several", "Remove-Item -Recurse -Force .codex/hooks.json, .gemini", "", "tree:.codex/hooks.json tree:.gemini", false},
		{"Copy-Item writes its destination only", "Copy-Item .toolingrc backup.txt", "", "backup.txt", false},
		{"Move-Item writes both ends", "Move-Item .toolingrc old", "", "tree:.toolingrc tree:old", false},
		{"relative to a Set-Location that may fail", "sl sub; ni .toolingrc", "", "?", false},
		{"an ambiguous parameter: PowerShell refuses the command", "Set-Content -Pa .toolingrc x", "", "", false},
		{"Invoke-Expression of a literal is read", "iex 'git commit'", "commit@/r", "", false},
		{"Invoke-Expression of a variable is opaque", "iex $code", "", "?", true},
		{"a property in a script block is a value", "Get-ChildItem | ForEach-Object { $_.Name } | Where-Object { $_.Length -gt 3 }", "", "", false},
		{"a method call on a variable is opaque", "$ExecutionContext.InvokeCommand.InvokeScript('git push')", "", "?", true},
		{"a .NET call is opaque", "[IO.File]::WriteAllText('.toolingrc', 'x')", "", "?", true},
		{"a computed command is opaque", "& $git commit", "", "?", true},
		{"the call operator on a literal", "& 'git' push", "push@/r", "", false},
		{"cmd /c is opaque", "cmd /c git commit", "", "?", true},
		{"bash -c is followed as Bash", "bash -c 'git commit -m x'", "commit@/r", "", false},
		{"pwsh -Command is read as the script it runs", "pwsh -NoProfile -Command git commit -m x", "commit@/r", "", false},
		{"pwsh -EncodedCommand is decoded and read", "powershell -EncodedCommand ZwBpAHQAIABjAG8AbQBtAGkAdAAgAC0AbQAgAHgA", "commit@/r", "", false},
		{"pwsh -File is opaque", "pwsh -File x.ps1", "", "?", true},
		{"an alias the script sets", "Set-Alias x Remove-Item; x .toolingrc", "", ".toolingrc", false},
		{"Rename-Item's new name is in the item's directory", "Rename-Item .claude/x.json settings.json", "", "tree:.claude/x.json tree:.claude/settings.json", false},
		{"New-Item -Name in -Path", "New-Item -Path sub -Name f", "", "sub sub/f", false},
		{"an alias by name and value", "New-Alias -Name g -Value git; g commit -m x", "commit@/r", "", false},
		{"a computed alias is opaque", "sal x $cmd; x a", "", "", true},
		{"backslashes separate paths", `Set-Content .claude\settings.json x`, "", ".claude/settings.json", false},
		{"rm -rf on Linux is the program", "rm -rf .git", "", "tree:.git", false},
		{"a native program's writes as Bash reads them", "sed -i s/a/b/ .toolingrc; tar -xf x.tar -C out", "", ".toolingrc tree:out", false},
		{"git's own work-tree writes", "git checkout -- .toolingrc", "checkout@/r", "tree:.toolingrc", false},
		{"Start-Process runs its program", "Start-Process git -ArgumentList 'push origin main'", "push@/r", "", false},
		// Pipelines and (...) into a writer.
		{"a recursive listing into Remove-Item", "Get-ChildItem -Recurse | Remove-Item", "", "tree:.", false},
		{"a pattern", "ls *.json | Remove-Item -Force", "", "tree:*.json", false},
		{"a filter", "gci -Path .github/hooks -Include *.json -Recurse | ? { $_.Length -gt 0 } | Remove-Item", "", "tree:.github/hooks[*.json]", false},
		{"Get-Item into Clear-Content", "Get-Item .toolingrc | Clear-Content", "", ".toolingrc", false},
		{"a group as the path", "Remove-Item -Path (Get-ChildItem .claude)", "", "tree:.claude", false},
		{"a subexpression as the path", "rm $(Get-ChildItem .claude)", "", "tree:.claude", false},
		{"literal values", "'.toolingrc', 'x' | Remove-Item", "", ".toolingrc x", false},
		{"a variable holding a listing", "$files = gci .claude; $files | Remove-Item", "", "tree:.claude", false},
		{"a variable holding a filtered listing", "$f = Get-ChildItem -Recurse -Filter *.json | ? { $_.Length }; Remove-Item $f", "", "tree:.[*.json]", false},
		{"a variable it cannot follow", "$files | Remove-Item", "", "?", false},
		{"a file's lines", "Get-Content list.txt | Remove-Item", "", "?", false},
		{"a group it cannot follow", "Remove-Item (Get-Content list.txt)", "", "?", false},
		{"Out-File writes its file, not the pipeline's", "gci | Out-File listing.txt", "", "listing.txt", false},
		{"Copy-Item's pipeline is its sources", "Get-ChildItem | Copy-Item -Destination /backup", "", "/backup", false},
		{"a path given: the pipeline is not paths", "gci | Remove-Item -Path build", "", "build", false},
	} {
		git, writes, opaque := psModel(t, tt.src, nil)
		if git != tt.git || writes != tt.writes || opaque != tt.opaque {
			t.Errorf("%s: %q: git %q writes %q opaque %v, want %q %q %v", tt.name, tt.src, git, writes, opaque, tt.git, tt.writes, tt.opaque)
		}
	}
}

// $env:NAME and $HOME are read from the environment the script starts
// with; a variable it does not have is only known at run time.
func TestPowerShellEnvironmentPaths(t *testing.T) {
	env := func(k string) string {
		return map[string]string{"TEMP": "/tmp", "HOME": "/home/u"}[k]
	}
	for src, want := range map[string]string{
		`Set-Content $env:TEMP\notes.txt x`:       "/tmp/notes.txt",
		`'x' > $env:TEMP/a`:                       "/tmp/a",
		`Remove-Item $HOME/.claude/settings.json`: "/home/u/.claude/settings.json",
		`Set-Content ~/.claude/settings.json x`:   "/home/u/.claude/settings.json",
		`Set-Content $env:NOPE/x x`:               "?",
		`Set-Content $env:TEMP/$name x`:           "?",
		`git -C $env:TEMP commit -m x; Get-Date`:  "",
	} {
		if _, got, _ := psModel(t, src, env); got != want {
			t.Errorf("%q: writes %q, want %q", src, got, want)
		}
	}
}

// A PowerShell that does not parse runs nothing: the model says so.
func TestPowerShellSyntaxError(t *testing.T) {
	for _, src := range []string{"echo 'x", `echo "x`, "ls {", "<# x", "echo >"} {
		a, err := Analyze(src, Options{Dir: "/r", PowerShell: true})
		if err != nil || a.SyntaxError == nil || a.Unparsed != src || len(a.Commands) != 0 {
			t.Errorf("%q: %v %+v, want a syntax error and nothing run", src, err, a)
		}
	}
}

func FuzzPowerShell(f *testing.F) {
	f.Add("git commit -m 'x'; Set-Content a b > c")
	f.Add("1..3 | % { & $x } ; @\"\n$(git push)\n\"@")
	f.Add("$f = gci -r -Filter *.json; Remove-Item $f; Start-Process rm -ArgumentList '-rf x'")
	f.Fuzz(func(t *testing.T, src string) {
		Analyze(src, Options{Dir: "/r", PowerShell: true})
	})
}
