package configguard_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/magehook/magehook/internal/gittest"
	"github.com/magehook/magehook/pkg/hooktest"
)

// wired is a checkout on a feature branch with every kind of guarded file
// in place: the .toolingrc, a wiring file, the hook binary.
func wired(t *testing.T) string {
	root := checkout(t)
	for _, f := range []string{".claude/settings.json", "bin/magehook", "src/main.go", "build/out.o", "sub/keep"} {
		os.MkdirAll(filepath.Join(root, filepath.Dir(f)), 0o755)
		if err := os.WriteFile(filepath.Join(root, f), []byte("x\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// A case-insensitive file system (macOS, Windows, a casefold directory on
// Linux) opens the guarded file for any spelling it folds to: every such
// spelling is guarded, on every system.
func TestSpellingsAFileSystemFoldsTogether(t *testing.T) {
	root := wired(t)
	for _, path := range []string{
		".TOOLINGRC", "sub/.ToolingRC", ".Claude/Settings.JSON", ".CLAUDE/settings.local.JSON", "BIN/MAGEHOOK", "Bin/MageHook",
		".CODEX/hooks.json", ".GitHub/Hooks/magehook.json",
		".toolingrc.", ".toolingrc ", ".toolingrc::$DATA", // Windows strips trailing dots and spaces; a stream is the file
		".tool\u200cingrc", ".c\u200dlaude/settings.json", // HFS+ ignores zero-width joiners
		".toolıngrc",                                                                                      // NTFS upper-cases the dotless i to I
		"TOOLIN~1", "CLAUDE~1/SETTIN~1.JSO", "CLAUDE~1/settings.json", "bin/MAGEHO~1", "bin/magehook.exe", // 8.3 short names, Windows' .exe
	} {
		if out := run(t, root, "Write", map[string]any{"file_path": path, "content": "x"}); !denied(out) {
			t.Errorf("Write %q: %+v, want a deny", path, out)
		}
		if out := run(t, root, "Bash", map[string]any{"command": "rm -f '" + path + "'"}); !denied(out) {
			t.Errorf("rm %q: %+v, want a deny", path, out)
		}
	}
	for _, cmd := range []string{"rm -rf BIN", "rm -rf .CLAUDE", "RM -rf .claude", "mv .Claude x", "Rm.exe .toolingrc", "rm -rf CLAUDE~1", "rm TOOLIN~1"} {
		if out := run(t, root, "Bash", map[string]any{"command": cmd}); !denied(out) {
			t.Errorf("%q: %+v, want a deny", cmd, out)
		}
	}
	// Names that fold to something else stay allowed.
	for _, path := range []string{".toolingrc.bak", "toolingrc", ".claude/SETTINGS.md", "BIN/other", ".claudex/settings.json", "README~1.MD", "bin/OTHER~1"} {
		if out := run(t, root, "Write", map[string]any{"file_path": path, "content": "x"}); denied(out) {
			t.Errorf("Write %q: %+v, want it allowed", path, out)
		}
	}
}

// Relative paths start where the tool call runs: the harness's
// working-directory argument (Codex's and OpenCode's workdir, Gemini's
// dir_path), not the payload's cwd nor the hook process's directory.
func TestRelativePathsStartInTheWorkingDirectoryArgument(t *testing.T) {
	root := wired(t)
	sub := filepath.Join(root, "sub")
	for _, tt := range []struct {
		tool string
		in   map[string]any
	}{
		{"Bash", map[string]any{"command": "rm -rf .claude", "workdir": root}},
		{"Bash", map[string]any{"command": "rm bin/magehook", "workdir": ".."}},
		{"Bash", map[string]any{"command": "chmod -x bin/magehook", "workdir": root}}, // Gemini's dir_path is mapped here (pkg/harness)
		{"Bash", map[string]any{"command": "rm -rf .c*", "workdir": root}},
		{"PowerShell", map[string]any{"command": "Remove-Item -Recurse .claude", "workdir": root}},
		{"PowerShell", map[string]any{"command": "Remove-Item bin/magehook", "workdir": root}},
	} {
		out := hooktest.Run(t, handlers, sub, "PreToolUse", "PreToolUse/edit", map[string]any{"tool_name": tt.tool, "tool_input": tt.in})
		if !denied(out) {
			t.Errorf("%s %v from %s: %+v, want a deny", tt.tool, tt.in, sub, out)
		}
	}
	// The same command in a directory holding nothing guarded is allowed.
	out := hooktest.Run(t, handlers, root, "PreToolUse", "PreToolUse/edit", map[string]any{"tool_name": "Bash",
		"tool_input": map[string]any{"command": "rm -rf .claude bin", "workdir": sub}})
	if denied(out) {
		t.Errorf("rm -rf in %s: %+v, want it allowed", sub, out)
	}
	// An edited file's relative path: from the cwd.
	out = hooktest.Run(t, handlers, sub, "PreToolUse", "PreToolUse/edit", map[string]any{"tool_name": "Write",
		"tool_input": map[string]any{"file_path": "../bin/magehook", "content": "x"}})
	if !denied(out) {
		t.Errorf("Write ../bin/magehook from %s: %+v", sub, out)
	}
}

// Bash commands that reach a guarded file without naming it as written,
// and the everyday commands that must stay allowed.
func TestShellAttacks(t *testing.T) {
	root := wired(t)
	gittest.Git(t, root, "add", "-A")
	gittest.Git(t, root, "commit", "-qm", "wired")
	os.Symlink(filepath.Join(root, ".claude"), filepath.Join(root, "sub", "cl"))
	os.WriteFile(filepath.Join(root, "notes"), []byte("n\n"), 0o644)
	os.WriteFile(filepath.Join(root, "sub", "list"), []byte(".toolingrc\nnotes\n"), 0o644)
	if err := os.Link(filepath.Join(root, ".toolingrc"), filepath.Join(root, "sub", "rc")); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		command string
		deny    bool
	}{
		// Patterns: braces, negated classes, a tree matched by a pattern.
		{`rm -f .{toolingrc,x}`, true},
		{`rm -rf .{claude,x}`, true},
		{`rm -rf .c*`, true},
		{`rm -rf ?claude`, true},
		{`rm -rf .[!.]*`, true},
		{`rm -rf .clau[d]e`, true},
		{`rm -rf b?n`, true},
		{`rm -rf s*/cl/*`, true},
		{`rm -rf build/*.o`, false},
		{`rm -rf .{git,x}ignore`, false},
		// find: what it selects, by name.
		{`find . -name 'settings*.json' -exec rm {} +`, true},
		{`find . -type f -name '*.json' -exec rm {} \;`, true},
		{`find . -iname '.TOOL*' -delete`, true},
		{`find . -name magehook -execdir rm {} +`, true},
		{`find . -name .claude -exec rm -rf {} +`, true},
		{`find . -name '*.o' -o -name x -delete`, true},
		{`find . -name '*.json' -exec rm {}.bak \; -exec rm -rf {}/.. \;`, true},
		{`find . -type f -exec rm {} +`, true},
		{`find . -exec rm -rf {} +`, true},
		{`find . -name '*.json' -exec mv {} {}.bak \;`, true},
		{`find . -name '*.txt' -exec mv {} {}.bak \;`, false},
		{`find . -name '*.o' -delete`, false},
		{`find . -name __pycache__ -prune -exec rm -rf {} +`, false},
		{`find build -type f -delete`, false},
		// Paths find prints into xargs; a loop over a pattern.
		{`find . -name '*.json' | xargs rm`, true},
		{`find . -maxdepth 1 -name '.t*' -print0 | xargs -0 rm`, true},
		{`find . | xargs rm -rf`, true},
		{`find . -name '*.go' -print0 | xargs -0 gofmt -w`, false},
		{`find build -type f | xargs rm`, false},
		{`ls -a | grep tooling | xargs rm`, true},
		{`cat sub/list | xargs rm`, true}, // the file names .toolingrc
		{`xargs rm < sub/list`, true},
		{`cat sub/keep | xargs rm -f`, false},
		{`for f in $(ls -A); do rm -rf "$f"; done`, true},
		{`rm $(ls -a | grep tool)`, true},
		{`cd build && rm $(ls)`, false},
		{`git ls-files | grep json | xargs rm -f`, true},
		{`for f in .t*; do rm "$f"; done`, true},
		{`for f in .c*; do rm -rf $f; done`, true},
		{`for f in src/*.go; do gofmt -w "$f"; done`, false},
		// Variables that hold other words than they seem to.
		{`IFS=.; x="a.toolingrc"; set -- $x; rm ".$2"`, true},
		{`declare -n r=x; x=.toolingrc; rm $r`, true},
		// Scripts and programs that write what they name.
		{`sed -n 'w .toolingrc' /dev/null`, true},
		{`sed 's/x/y/w .claude/settings.json' README.md`, true},
		{`sed -e '1e rm .toolingrc' README.md`, true},
		{`sed -n '/x/p; s/a/b/g' README.md`, false},
		{`emacs --batch .toolingrc -f save-buffer`, true},
		{`mount --bind /tmp .claude`, true},
		{`ruby -e "File.delete('.toolingrc')"`, true},
		{`python3 -c "import os; os.rename('bin', 'bin2')"`, true},
		{`perl -e 'rename "bin","b2"'`, true},
		{`node -e "require('fs').renameSync('bin','b')"`, true},
		{`python3 -c "import os; os.chmod('bin/magehook', 0o644)"`, true},
		{`python3 -c "import shutil; shutil.copy('src/main.go', 'build/')"`, false},
		// Writers the analysis did not know.
		{`gzip .toolingrc`, true},
		{`xz .claude/settings.json`, true},
		{`zstd --rm .toolingrc`, true},
		{`gunzip .toolingrc.gz`, true},
		{`zstd .toolingrc`, false}, // keeps the original
		{`gzip -c .toolingrc > /tmp/rc.gz`, false},
		{`dos2unix .toolingrc`, true},
		{`awk -i inplace '{print}' .toolingrc`, true},
		{`gawk -i inplace 1 .claude/settings.json`, true},
		{`yq -i '.a=1' .claude/settings.json`, true},
		{`git config -f .claude/settings.json hooks.x y`, true},
		{`git config --file=.toolingrc a.b c`, true},
		{`git config -f .claude/settings.json --get hooks.x`, false},
		{`awk '{print}' .toolingrc`, false},
		// Programs whose options or operands name what they write.
		{`go build -o bin/ ./cmd/magehook`, true},
		{`go build -o bin/ ./...`, true},
		{`go build -o bin ./cmd/x`, false}, // writes bin/x
		{`go build -o bin/ ./src`, false},
		{`GOBIN=$PWD/bin go install ./cmd/magehook`, true},
		{`GOBIN=$PWD/bin go install ./...`, true},
		{`GOBIN=$PWD/bin go install ./cmd/x`, false},
		{`go build -o build/ ./...`, false},
		{`openssl enc -in x -out .toolingrc`, true},
		{`gpg -o .toolingrc -d x.gpg`, true},
		{`sqlite3 .toolingrc 'create table t(x)'`, true},
		{`xxd -r x .toolingrc`, true},
		{`uniq x .toolingrc`, true},
		{`script -q -c true .toolingrc`, true},
		{`scp host:x .toolingrc`, true},
		{`docker cp c:/x .claude`, true},
		{`cpio -idm < a.cpio`, true},
		{`7z x a.7z`, true},
		{`ar x a.a`, true},
		{`jar xf a.jar`, true},
		{`npx prettier --write .claude/settings.json`, true},
		{`npx prettier --write src`, false},
		{`git diff x | git apply`, true},
		{`git stash show -p | patch -p1`, true},
		{`scp x host:y`, false},
		{`cmake -B bin`, true},
		{`cmake -B build`, false},
		// Hard links: made now, or made before (sub/rc is .toolingrc).
		{`ln .toolingrc notes2`, true},
		{`cp -l .claude/settings.json /tmp/s`, true},
		{`cp -al .claude /tmp/c`, true},
		{`link bin/magehook /tmp/m`, true},
		{`echo x > sub/rc`, true},
		{`ln -s .toolingrc /tmp/rc-link`, false}, // a link alone changes nothing
		// Links made by the command itself, then written through.
		{`ln -s .claude c && rm c/settings.json`, true},
		{`mkdir -p d && cd d && ln -s ../.toolingrc t && rm t`, true},
		{`ln -s "$PWD/bin" b; chmod -x b/magehook`, true},
		{`ln -s src s && echo x > s/y.go`, false},
		// Commands whose name only run time knows, multiplexers, rename.
		{`$(echo rm) .toolingrc`, true},
		{"`echo rm` .claude/settings.json", true},
		{`"$(which rm)" .toolingrc`, true},
		{`$(which go) test ./...`, false},
		{`busybox rm .toolingrc`, true},
		{`toybox rm -rf .claude`, true},
		{`busybox ls`, false},
		{`rename 's/x/y/' .toolingrc`, true},
		{`rename 's/x/y/' src/*.go`, false},
		// A cd that fails leaves the writes where the shell was.
		{`cd /nonexistent; rm bin/magehook`, true},
		{`cd nope; chmod -x bin/magehook`, true},
		{`tar -xf a.tar; cd nope; rm bin/magehook`, true},
		{`mkdir -p newdir; cd newdir; rm -rf bin`, false},
		{`cd nope && rm -rf build`, false},
		// A directory's mode decides who reaches what is below it.
		{`chmod 000 bin`, true},
		{`chmod -R a-x .`, true},
		{`chmod u=r bin`, true},
		{`chown -R nobody .claude`, true},
		{`chmod +x bin`, false},
		{`chmod +x bin/magehook`, false},
		{`chmod -R u+rw .claude`, false},
		{`chmod 755 bin/magehook`, true}, // = as well as +: judged as a change
		{`chmod u+rwx,g+r bin`, false},
		{`chmod 644 src/main.go`, false},
		// A computed path in a command that hides the name it means.
		{`rm $(printf '\x2etoolingrc')`, true},
		{`python3 -c 'import os; os.remove("."+"toolingrc")'`, true},
		{`perl -e 'unlink ".tool"."ingrc"'`, true},
		{`python3 -c 'import shutil; shutil.rmtree(".cl"+"aude")'`, true},
		{`node -e 'require("fs").rmSync(Buffer.from("LmNsYXVkZQ==","base64").toString(),{recursive:true})'`, true},
		{`python3 -c 'open("out.txt","w").write("x")'`, false},
		{`python3 -c "open('CLAUDE.md','a').write('x')"`, false},
		{`python3 -c "import sqlite3; c = sqlite3.connect('db'); cur = c.cursor(); open('out.csv','w')"`, false},
		{`pwsh -enc UgBlAG0AbwB2AGUALQBJAHQAZQBtACAALgB0AG8AbwBsAGkAbgBnAHIAYwA=`, true},
		{`echo cm0gLnRvb2xpbmdyYw== | base64 -d | sh`, true},
		// Everyday commands.
		{`git status`, false},
		{`ls -la`, false},
		{`go test ./...`, false},
		{`npm test`, false},
		{`cat README.md | head`, false},
		{`cat .toolingrc .claude/settings.json`, false},
		{`grep -rn toolingrc .`, false},
		{`rm -rf node_modules build dist`, false},
		{`mkdir -p build && echo x > build/out`, false},
		{`cp .toolingrc /tmp/backup`, false},
		{`gofmt -l .`, false},
	} {
		out := run(t, root, "Bash", map[string]any{"command": tt.command})
		if denied(out) != tt.deny || out.Code != 0 {
			t.Errorf("%q: %+v, want deny %v", tt.command, out, tt.deny)
		}
	}
}

// What is denied says why, naming the file.
func TestAttackReasonsNameTheFile(t *testing.T) {
	root := wired(t)
	out := run(t, root, "Bash", map[string]any{"command": "find . -name 'settings*.json' -exec rm {} +"})
	if !strings.Contains(out.Stdout, filepath.Join(".claude", "settings.json")) || !strings.Contains(out.Stdout, "find selects") {
		t.Errorf("%+v", out)
	}
}

// branchguard lets the agent write files git ignores on a protected
// branch; a .gitignore (or .git/info/exclude) naming the gate's own files
// is no way round configguard.
func TestIgnoringAGuardedFileIsNoWayRound(t *testing.T) {
	root := gittest.Repo(t, map[string]string{".toolingrc": "hook.enable branchguard\n", ".gitignore": ".claude/\nbin/\n.toolingrc\n"})
	os.WriteFile(filepath.Join(root, ".git", "info", "exclude"), []byte(".codex/\n"), 0o644)
	for _, path := range []string{".toolingrc", ".claude/settings.json", "bin/magehook", ".codex/hooks.json"} {
		if out := run(t, root, "Write", map[string]any{"file_path": path, "content": "x"}); !denied(out) || !strings.Contains(out.Stdout, "by hand") {
			t.Errorf("Write %s on main, ignored: %+v", path, out)
		}
	}
	if out := run(t, root, "Write", map[string]any{"file_path": ".claude/notes.md", "content": "x"}); denied(out) {
		t.Errorf("an ignored file that is not guarded: %+v", out)
	}
}

// PowerShell pipelines name no path where the writing cmdlet is: the
// guarded file is reached through what the producing cmdlet lists.
func TestPowerShellPipelines(t *testing.T) {
	root := wired(t)
	os.MkdirAll(filepath.Join(root, ".github", "hooks"), 0o755)
	os.WriteFile(filepath.Join(root, ".github", "hooks", "magehook.json"), []byte("{}"), 0o644)
	os.WriteFile(filepath.Join(root, "a.json"), []byte("{}"), 0o644)
	for _, tt := range []struct {
		command string
		deny    bool
	}{
		{`Get-ChildItem -Recurse | Remove-Item`, true},
		{`gci | rm -Recurse -Force`, true},
		{`gci .claude | rm`, true},
		{`ls .github/hooks/*.json | Remove-Item -Force`, true},
		{`Get-ChildItem -Path .claude -Filter *.json | Remove-Item`, true},
		{`gci -r -Include settings*.json | Remove-Item`, true},
		{`gci . -Recurse -Filter magehook | ? { $_.Length } | Remove-Item`, true},
		{`Remove-Item -Path (Get-ChildItem .claude)`, true},
		{`Remove-Item (gci -r bin)`, true},
		{`rm $(Get-ChildItem .claude -Force)`, true},
		{`Get-Item .toolingrc | Clear-Content`, true},
		{`gci .claude | Set-Content -Value '{}'`, true},
		{`'.toolingrc' | Remove-Item`, true},
		{`$files | Remove-Item`, true},
		{`$files = gci .claude; $files | Remove-Item`, true},
		{`$f = Get-ChildItem -Recurse -Filter settings*.json; Remove-Item $f`, true},
		{`$files = Get-ChildItem -Recurse -Filter *.o; $files | Remove-Item`, false},
		{`Get-Content list.txt | Remove-Item`, true},
		{`Remove-Item -LiteralPath .claude/settings.json`, true},
		{`Move-Item -LiteralPath .toolingrc -Destination old`, true},
		{`Copy-Item x -Destination .claude/settings.json`, true},
		{`[IO.File]::WriteAllText('.toolingrc', 'x')`, true},
		{`$p = '.tool' + 'ingrc'; Set-Content $p x`, true},
		{`Set-Content (Join-Path $PWD .toolingrc) x`, true},
		{`'x' > $env:USERPROFILE\.claude\settings.json`, true},
		{`sc .toolingrc x`, true},
		{`Rename-Item .claude/x.json settings.json`, true},
		{`Rename-Item -Path .claude/x.json -NewName settings.local.json`, true},
		{`Rename-Item src/a.go b.go`, false},
		{`New-Item -Path sub -Name .toolingrc -ItemType File`, true},
		{`New-Item -Name .toolingrc -Value x`, true},
		{`New-Item -Path src -Name new.go -ItemType File`, false},
		{`Set-Alias x Remove-Item; x .toolingrc`, true},
		{`New-Alias -Name w -Value Set-Content; w bin/magehook ''`, true},
		{`Set-Location /nonexistent; Remove-Item bin/magehook`, true}, // the Set-Location fails: PowerShell goes on here
		{`cd nope; 'x' > bin/magehook`, true},
		{`Set-Location src; Remove-Item main.go`, false},
		{`Copy-Item settings.json .claude`, true},
		{`Copy-Item -Path x/magehook -Destination bin`, true},
		{`Copy-Item notes.txt .claude`, false},
		{`Copy-Item README.md ` + os.TempDir(), false},
		{`Copy-Item x .claude\settings.json`, true},
		{`Remove-Item -Path .\.claude\settings.json`, true},
		{`Remove-Item -Path .\BIN\MAGEHOOK`, true},
		{`Remove-Item -Recurse .\.claude`, true},
		{`New-Item -ItemType HardLink -Path x -Target .toolingrc`, true},
		{`New-Item -ItemType SymbolicLink -Path x -Value .claude\settings.json`, true},
		{`powershell -EncodedCommand UgBlAG0AbwB2AGUALQBJAHQAZQBtACAALgB0AG8AbwBsAGkAbgBnAHIAYwA=`, true},
		{`pwsh -NoProfile -Command Remove-Item .toolingrc`, true},
		{`pwsh -c "gci -r | rm"`, true},
		{`pwsh -NoProfile -Command Get-ChildItem`, false},
		// Pipelines that reach nothing guarded, and everyday commands.
		{`ls *.json | Remove-Item -Force`, false},
		{`Get-ChildItem build -Recurse | Remove-Item -Recurse`, false},
		{`gci -r -Filter *.o | Remove-Item`, false},
		{`gci src | Set-Content -Value x`, false},
		{`Get-ChildItem -Recurse | Select-Object Name`, false},
		{`gci | Out-File listing.txt`, false},
		{`gci src | Copy-Item -Destination $env:TEMP`, false},
		{`gci .claude | Copy-Item -Destination $env:TEMP`, true}, // a computed path in a command naming a guarded file
		{`Get-Content .toolingrc | Select-String branchguard`, false},
		{`git status; go test ./...`, false},
		{`$p = Join-Path $PWD '.claude'; Test-Path $p`, false},
		{`New-Item -ItemType Directory -Path $env:TEMP\x -Force`, false},
		{`Set-Content "$env:USERPROFILE\Users\notes.txt" x`, false},
		{`$rc = Get-Content .toolingrc; Write-Output $rc`, false},
	} {
		out := run(t, root, "PowerShell", map[string]any{"command": tt.command})
		if denied(out) != tt.deny || out.Code != 0 {
			t.Errorf("%q: %+v, want deny %v", tt.command, out, tt.deny)
		}
	}
}

// Every file a harness reads hooks or their switches from is guarded, the
// system and managed ones included (an agent running as root could write
// them).
func TestEveryScopesHookFilesAreGuarded(t *testing.T) {
	root := wired(t)
	for _, path := range []string{
		"/etc/claude-code/managed-settings.json", "/etc/claude-code/managed-settings.d/10-x.json",
		"/Library/Application Support/ClaudeCode/managed-settings.json", `C:\Program Files\ClaudeCode\managed-settings.json`,
		".github/copilot/settings.json", ".github/copilot/settings.local.json", "/root/.copilot/settings.json",
		"/root/.copilot/hooks/x.json", "/etc/github-copilot/policy.d/a.json",
		"/etc/codex/requirements.toml", "/etc/codex/config.toml", "/etc/cursor/hooks.json",
		"/Library/Application Support/Cursor/hooks.json", "/etc/gemini-cli/settings.json", "/etc/gemini-cli/system-defaults.json",
	} {
		if out := run(t, root, "Write", map[string]any{"file_path": path, "content": "x"}); !denied(out) {
			t.Errorf("Write %s: %+v, want a deny", path, out)
		}
	}
	for _, path := range []string{".github/copilot/instructions.md", "/etc/codex/notes.txt", ".cursor/rules/x.mdc"} {
		if out := run(t, root, "Write", map[string]any{"file_path": path, "content": "x"}); denied(out) {
			t.Errorf("Write %s: %+v, want it allowed", path, out)
		}
	}
}

// A git hook's writes are the writes of the git command that runs it.
func TestGitHooksWritesAreTheCommands(t *testing.T) {
	root := wired(t)
	hooks := filepath.Join(root, ".git", "hooks")
	os.MkdirAll(hooks, 0o755)
	bash := func(cmd string) hooktest.Outcome { return run(t, root, "Bash", map[string]any{"command": cmd}) }
	if out := bash("git switch -c topic"); denied(out) {
		t.Fatalf("no hook: %+v", out)
	}
	os.WriteFile(filepath.Join(hooks, "post-checkout"), []byte("#!/bin/sh\necho hook.enable sessionclock > .toolingrc\n"), 0o755)
	if out := bash("git switch -c topic"); !denied(out) || !strings.Contains(out.Stdout, "runs the hook") {
		t.Errorf("a post-checkout hook writing .toolingrc: %+v", out)
	}
	os.Remove(filepath.Join(hooks, "post-checkout"))
	os.WriteFile(filepath.Join(hooks, "pre-commit"), []byte("#!/usr/bin/env python3\nimport os\nos.remove('.claude/settings.json')\n"), 0o755)
	if out := bash("git commit -qm x"); !denied(out) {
		t.Errorf("a python pre-commit naming a wiring file: %+v", out)
	}
	for _, text := range []string{
		"#!/bin/sh\ngofmt -l . && go vet ./...\n",
		"#!/usr/bin/env sh\n. \"$(dirname -- \"$0\")/_/husky.sh\"\n\nnpx lint-staged\n",
		"#!/usr/bin/env bash\nARGS=(hook-impl --hook-type=pre-commit)\nexec /usr/bin/python3 -mpre_commit \"${ARGS[@]}\"\n",
	} {
		os.WriteFile(filepath.Join(hooks, "pre-commit"), []byte(text), 0o755)
		if out := bash("git commit -qm x"); denied(out) {
			t.Errorf("an ordinary pre-commit hook %q: %+v", text, out)
		}
	}
	if out := bash("printf 'rm .toolingrc' > .git/hooks/post-commit && chmod +x .git/hooks/post-commit && git commit -qm x"); !denied(out) {
		t.Errorf("a hook the command writes first: %+v", out)
	}
	if out := bash("git status && git log --oneline | head"); denied(out) {
		t.Errorf("no hook runs: %+v", out)
	}
}

// A guarded file that is a symbolic link (dotfiles: ~/.claude/settings.json
// -> ~/dotfiles/claude.json) is changed through its target too.
func TestTheTargetOfAGuardedLinkIsGuarded(t *testing.T) {
	root := checkout(t)
	dots := t.TempDir()
	os.WriteFile(filepath.Join(dots, "claude.json"), []byte("{}"), 0o644)
	os.WriteFile(filepath.Join(dots, "rc"), []byte("hook.enable branchguard\n"), 0o644)
	os.MkdirAll(filepath.Join(root, ".claude"), 0o755)
	os.Symlink(filepath.Join(dots, "claude.json"), filepath.Join(root, ".claude", "settings.json"))
	os.Remove(filepath.Join(root, "sub", ".toolingrc"))
	os.MkdirAll(filepath.Join(root, "sub"), 0o755)
	os.Symlink(filepath.Join(dots, "rc"), filepath.Join(root, "sub", ".toolingrc"))
	for _, cmd := range []string{"echo {} > " + filepath.Join(dots, "claude.json"), "sed -i s/a/b/ " + filepath.Join(dots, "claude.json")} {
		if out := run(t, root, "Bash", map[string]any{"command": cmd}); !denied(out) {
			t.Errorf("%q: %+v, want a deny", cmd, out)
		}
	}
	if out := run(t, root, "Edit", map[string]any{"file_path": filepath.Join(dots, "claude.json")}); !denied(out) {
		t.Errorf("Edit the link's target: %+v", out)
	}
	if out := run(t, root, "Write", map[string]any{"file_path": filepath.Join(dots, "notes.md"), "content": "x"}); denied(out) {
		t.Errorf("another file beside it: %+v", out)
	}
}

// git clean removes untracked files git does not ignore: it keeps the
// gates' files when each is tracked or ignored, and -x removes ignored
// ones too.
func TestGitClean(t *testing.T) {
	root := wired(t)
	os.WriteFile(filepath.Join(root, ".gitignore"), []byte("bin/\nbuild/\n"), 0o644)
	gittest.Git(t, root, "add", ".toolingrc", ".claude/settings.json", ".gitignore")
	gittest.Git(t, root, "commit", "-qm", "tracked")
	bash := func(cmd string) hooktest.Outcome { return run(t, root, "Bash", map[string]any{"command": cmd}) }
	for cmd, deny := range map[string]bool{
		"git clean -fd":       false, // .toolingrc, settings tracked; bin/ ignored
		"git clean -fdx":      true,  // bin/magehook is ignored: -x removes it
		"git clean -fX":       true,
		"git clean -f -- bin": true,
	} {
		if out := bash(cmd); denied(out) != deny {
			t.Errorf("%q: %+v, want deny %v", cmd, out, deny)
		}
	}
	os.Remove(filepath.Join(root, ".gitignore"))
	gittest.Git(t, root, "rm", "-q", "--cached", ".gitignore")
	if out := bash("git clean -fd"); !denied(out) {
		t.Errorf("git clean -fd with the binary untracked and not ignored: %+v", out)
	}
}
