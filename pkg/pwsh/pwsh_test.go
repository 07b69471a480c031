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
		{"pwsh -Command is read as the script it runs", "pwsh -NoProfile -Command git commit -m x", "commit@/r", "", false},
		{"pwsh -EncodedCommand is decoded and read", "powershell -EncodedCommand ZwBpAHQAIABjAG8AbQBtAGkAdAAgAC0AbQAgAHgA", "commit@/r", "", false},
		{"pwsh -File is opaque", "pwsh -File x.ps1", "", "", true},
		{"an alias the script sets", "Set-Alias x Remove-Item; x .toolingrc", "", "/r/.toolingrc", false},
		{"Rename-Item's new name is in the item's directory", "Rename-Item .claude/x.json settings.json", "", "/r/.claude/x.json,/r/settings.json,/r/.claude/settings.json", false},
		{"Rename-Item to an absolute name", "Rename-Item a /b", "", "/r/a,/b", false},
		{"New-Item -Name in -Path", "New-Item -Path sub -Name f", "", "/r/sub,/r/sub/f", false},
		{"an alias by name and value", "New-Alias -Name g -Value git; g commit -m x", "commit@/r", "", false},
		{"a computed alias is opaque", "sal x $cmd; x a", "", "", true},
		{"backslashes separate paths", `Set-Content .claude\settings.json x`, "", "/r/.claude/settings.json", false},
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

// A writing cmdlet that takes its paths from a pipeline or a (...) is
// judged from what produced them: a listing cmdlet's paths as trees, a
// literal list as paths, anything else as unknown.
func TestPipedPaths(t *testing.T) {
	cwd := filepath.FromSlash("/r")
	dump := func(a Analysis) string {
		var parts []string
		for _, tr := range a.Trees {
			s := filepath.ToSlash(tr.Path)
			if tr.Children {
				s += " children"
			}
			if tr.Recurse {
				s += " recurse"
			}
			if tr.Subtree {
				s += " subtree"
			}
			if len(tr.Names) > 0 {
				s += " names=" + strings.Join(tr.Names, "|")
			}
			parts = append(parts, s)
		}
		if len(a.Unknown) > 0 {
			parts = append(parts, "unknown")
		}
		return strings.Join(parts, ",")
	}
	for _, tt := range []struct{ src, want string }{
		{"Get-ChildItem -Recurse | Remove-Item", "/r/. children recurse subtree"},
		{"gci | rm", "/r/. children subtree"},
		{"ls *.json | Remove-Item -Force", "/r/*.json children subtree"},
		{"Get-ChildItem .claude -Filter *.json | Remove-Item", "/r/.claude children subtree names=*.json"},
		{"gci -Path .github/hooks -Include *.json -Recurse | ? { $_.Length -gt 0 } | Remove-Item", "/r/.github/hooks children recurse subtree names=*.json"},
		{"Get-Item .toolingrc | Clear-Content", "/r/.toolingrc"},
		{"Remove-Item -Path (Get-ChildItem .claude)", "/r/.claude children subtree"},
		{"Remove-Item (gci -r bin)", "/r/bin children recurse subtree"},
		{"rm $(Get-ChildItem .claude)", "/r/.claude children subtree"},
		{"'.toolingrc', 'x' | Remove-Item", "/r/.toolingrc subtree,/r/x subtree"},
		{"gci . | Set-Content -Value x", "/r/. children"},
		{"Set-Location sub; gci | Remove-Item", "/r/sub/. children subtree"},
		{"$files | Remove-Item", "unknown"},
		{"$files = gci .claude; $files | Remove-Item", "/r/.claude children subtree"},
		{"$f = Get-ChildItem -Recurse -Filter *.json | ? { $_.Length }; Remove-Item $f", "/r/. children recurse subtree names=*.json"},
		{"$files = Get-Content list.txt; $files | Remove-Item", "unknown"},
		{"Get-Content list.txt | Remove-Item", "unknown"},
		{"gci $env:HOME | Remove-Item", "unknown"},
		{"Remove-Item (Get-Content list.txt)", "unknown"},
		// Not paths from the pipeline.
		{"gci | Out-File listing.txt", ""},
		{"gci | Copy-Item -Destination /backup", ""},
		{"Get-ChildItem -Recurse | Select-Object Name", ""},
		{"gci | Remove-Item -Path build", ""},
		{"Get-Content a.txt | Set-Content b.txt", ""},
	} {
		a, err := Analyze(tt.src, cwd)
		if err != nil {
			t.Errorf("%q: %v", tt.src, err)
			continue
		}
		if got := dump(a); got != tt.want {
			t.Errorf("%q: %q, want %q", tt.src, got, tt.want)
		}
	}
}

// $env:NAME and $HOME are read from the environment the script starts
// with, when it is given.
func TestEnvironmentPaths(t *testing.T) {
	env := func(k string) string {
		return map[string]string{"TEMP": "/tmp", "HOME": "/home/u"}[k]
	}
	for _, tt := range []struct{ src, want string }{
		{`Set-Content $env:TEMP\notes.txt x`, "/tmp/notes.txt"},
		{`'x' > $env:TEMP/a`, "/tmp/a"},
		{`Remove-Item $HOME/.claude/settings.json`, "/home/u/.claude/settings.json"},
		{`Set-Content $env:NOPE/x x`, "$($env:NOPE/x)"},
		{`Set-Content $env:TEMP/$name x`, "$($env:TEMP/$name)"},
	} {
		a, err := Analyze(tt.src, "/r", env)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(a.Writes, ","); filepath.ToSlash(got) != tt.want {
			t.Errorf("%q: %q, want %q", tt.src, got, tt.want)
		}
	}
}

// After a Set-Location, what would run and be written were it to fail.
func TestAFailedSetLocation(t *testing.T) {
	a, err := Analyze("Set-Location sub; git commit -m x; Remove-Item bin/x; 'y' > out.txt", "/r")
	if err != nil {
		t.Fatal(err)
	}
	var placed []string
	for _, c := range a.Commands {
		placed = append(placed, c.Name()+"@"+filepath.ToSlash(c.Dir)+"|"+filepath.ToSlash(c.Alt)+"?"+filepath.ToSlash(c.AltIf))
	}
	if got, want := strings.Join(placed, ","), "set-location@/r|?,git@/r/sub|/r?/r/sub,remove-item@/r/sub|/r?/r/sub"; got != want {
		t.Errorf("commands %q, want %q", got, want)
	}
	var alt []string
	for _, w := range a.Alt {
		alt = append(alt, filepath.ToSlash(w.Path)+"?"+filepath.ToSlash(w.If))
	}
	if got, want := strings.Join(alt, ","), "/r/bin/x?/r/sub,/r/out.txt?/r/sub"; got != want {
		t.Errorf("alt %q, want %q", got, want)
	}
}
