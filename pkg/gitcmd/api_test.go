package gitcmd_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/magehook/magehook/pkg/gitcmd"
)

// dump renders one command as "argv @dir [via a>b] [env K=V] [opaque]";
// a dynamic word is shown as <its text>, an unknown directory as ?.
func dump(c gitcmd.Command) string {
	var words []string
	for _, w := range c.Args {
		if w.Dynamic != "" {
			words = append(words, "<"+w.Value+">")
		} else {
			words = append(words, w.Value)
		}
	}
	s := strings.Join(words, " ") + " @"
	if c.DirDynamic != "" {
		s += "?"
	} else {
		s += c.Dir
	}
	if len(c.Via) > 0 {
		s += " via " + strings.Join(c.Via, ">")
	}
	for _, v := range c.Env {
		if v.Unset {
			s += " env -" + v.Name
		} else if v.Dynamic != "" {
			s += " env " + v.Name + "=?"
		} else {
			s += " env " + v.Name + "=" + v.Value
		}
	}
	if c.EnvDynamic != "" {
		s += " env?"
	}
	if c.Opaque != "" {
		s += " opaque"
	}
	return s
}

func dumpAll(a *gitcmd.Analysis) []string {
	var out []string
	for _, c := range a.Commands {
		out = append(out, dump(c))
	}
	return out
}

// Every line of want must be one of the commands found.
var commandTable = []struct {
	cmd  string
	want []string
}{
	{`ls -la`, []string{"ls -la @/repo"}},
	{`sudo -u x env A=1 git push`, []string{"sudo -u x env A=1 git push @/repo", "env A=1 git push @/repo via sudo", "git push @/repo via sudo>env env A=1"}},
	{`nice -n 5 nohup timeout 10 rm -rf build`, []string{"rm -rf build @/repo via nice>nohup>timeout"}},
	{`flock /tmp/l git commit -m x`, []string{"git commit -m x @/repo via flock"}},
	{`flock -c 'git push' /tmp/l`, []string{"git push @/repo via flock -c"}},
	{`bash -c -- 'rm -rf /'`, []string{"rm -rf / @/repo via bash -c"}},
	{`bash -c 'echo $1' x y`, []string{"echo y @/repo via bash -c"}},
	{`eval "rm -rf $D"`, []string{"eval <\"rm -rf $D\"> @/repo opaque"}},
	{`D=/tmp; eval "rm -rf $D"`, []string{"rm -rf /tmp @/repo via eval"}},
	{`cmd=rm; $cmd -rf x`, []string{"rm -rf x @/repo"}},
	{`$CMD -rf x`, []string{"<$CMD> -rf x @/repo"}},
	{`for d in a b; do rm -r $d; done`, []string{"rm -r a @/repo", "rm -r b @/repo"}},
	{`cd /tmp && rm x`, []string{"rm x @/tmp"}},
	{`cd $(mktemp -d) && rm x`, []string{"rm x @?"}},
	{`cd ~+/sub && ls`, []string{"ls @/repo/sub"}},
	{`CDPATH=/srv cd app && ls`, []string{"ls @/srv/app"}},
	{`export CDPATH=/srv; cd app && ls`, []string{"ls @/srv/app env CDPATH=/srv"}},
	{`export X=1; ls`, []string{"ls @/repo env X=1"}},
	{`X=1; export X; ls`, []string{"ls @/repo env X=1"}},
	{`declare -x X=2; ls`, []string{"ls @/repo env X=2"}},
	{`typeset -x X=3; ls`, []string{"ls @/repo env X=3"}},
	{`set -a; X=4; ls`, []string{"ls @/repo env X=4"}},
	{`X=5; ls`, []string{"ls @/repo"}},
	{`source ./env.sh; ls`, []string{"ls @/repo env?"}},
	{`f() { rm -rf "$1"; }; f build`, []string{"rm -rf build @/repo via function f"}},
	{`echo 'rm -rf x' | sh`, []string{"rm -rf x @/repo via sh (stdin)"}},
	{"sh <<'EOF'\nrm -rf y\nEOF", []string{"rm -rf y @/repo via sh (stdin)"}},
	{`curl -s x | bash`, []string{"bash @/repo opaque"}},
	{`find . -name '*.o' -exec rm {} +`, []string{"rm <{}> @/repo via find -exec"}},
	{`ls | xargs rm -f`, []string{"rm -f <<input>> @/repo via xargs"}},
	{`watch -n 1 'git status'`, []string{"git status @/repo via watch"}},
	{`python3 -c 'import os; os.system("rm -rf /")'`, []string{`python3 -c import os; os.system("rm -rf /") @/repo`, `rm -rf / @/repo via python3 -c`}},
	{`python3 -c 'import os as o; o.system("rm -rf /")'`, []string{`python3 -c import os as o; o.system("rm -rf /") @/repo opaque`}},
	{`python3 -c 'import os; os.system(cmd)'`, []string{`python3 -c import os; os.system(cmd) @/repo opaque`}},
	{`python3 -c "import subprocess; subprocess.run(['git','push','-f'], check=True)"`, []string{`git push -f @/repo via python3 -c`}},
	{`python3 -c "import subprocess; subprocess.run(['ls'], cwd='/')"`, []string{`python3 -c import subprocess; subprocess.run(['ls'], cwd='/') @/repo opaque`}},
	{`perl -e 'system("rm", "-rf", "x"); print qx{ls}'`, []string{`rm -rf x @/repo via perl -e`, `ls @/repo via perl -e`}},
	{"ruby -e 'puts `git status`'", []string{`git status @/repo via ruby -e`}},
	{`python3 -c 'print(1)'`, []string{"python3 -c print(1) @/repo"}},
	{`node -e "require('child_process').execSync('ls')"`, []string{`node -e require('child_process').execSync('ls') @/repo`, `ls @/repo via node -e`}},
	{`node -e "const cp = require('child_process'); cp[x]('ls')"`, []string{`node -e const cp = require('child_process'); cp[x]('ls') @/repo opaque`}},
	{`node -e "require('child_process').spawnSync('git', ['push', '-f'])"`, []string{`git push -f @/repo via node -e`}},
	{`git -c alias.x='!rm -rf z' x`, []string{"rm -rf z @/repo via git alias x"}},
	{`git submodule foreach 'git clean -fdx'`, []string{"git clean -fdx @? via git submodule foreach"}},
	{`git rebase -x 'make test' main`, []string{"make test @/repo via git rebase --exec"}},
	{`git bisect run ./test.sh`, []string{"./test.sh @/repo via git bisect run"}},
	{`env -S 'A=1 rm x'`, []string{"rm x @/repo via env -S env A=1"}},
	{`cd /a; exit; rm x`, []string{"rm x @/a"}},
	{`cd /a || exit 1; rm x`, []string{"rm x @/a"}},
	{`if cd /a; then rm x; fi`, []string{"rm x @/a"}},
	{`(cd /a; rm x); rm y`, []string{"rm x @/a", "rm y @/repo"}},
	{`exec rm x`, []string{"rm x @/repo via exec"}},
	{`A=1 B=$(date) ls`, []string{"ls @/repo env A=1 env B=?"}},
	{`env -u HOME ls`, []string{"ls @/repo via env env -HOME"}},
	{`git\ status; "rm" -r 'x'`, []string{"git status @/repo", "rm -r x @/repo"}},
	{`$'rm' -r $'a\x41'`, []string{"rm -r aA @/repo"}},
	{`rm ~/x ~+/y`, []string{"rm /home/u/x /repo/y @/repo"}},
	{`echo "unterminated`, nil},
}

func TestCommands(t *testing.T) {
	for _, tt := range commandTable {
		a, err := gitcmd.Analyze(tt.cmd, testOptions())
		if err != nil {
			t.Errorf("%q: %v", tt.cmd, err)
			continue
		}
		got := dumpAll(a)
		for _, w := range tt.want {
			if !slices.Contains(got, w) {
				t.Errorf("%q: no command %q in\n\t%s", tt.cmd, w, strings.Join(got, "\n\t"))
			}
		}
		if tt.want == nil && len(got) > 0 {
			t.Errorf("%q: want no command, got %q", tt.cmd, got)
		}
	}
}

func TestAfter(t *testing.T) {
	a, _ := gitcmd.Analyze(`git switch main && git commit; git push`, testOptions())
	if len(a.Commands) != 3 || !slices.Equal(a.Commands[1].After, []int{0}) || len(a.Commands[2].After) != 0 {
		t.Errorf("%+v", a.Commands)
	}
	a, _ = gitcmd.Analyze(`set -e; git switch main; git commit`, testOptions())
	if last := a.Commands[len(a.Commands)-1]; !slices.Contains(last.After, 1) {
		t.Errorf("set -e: %+v", last)
	}
}

// dumpWrite renders a write as "op path" with +tree, +repo, +glob, or
// "op ?" when undecidable.
func dumpWrite(w gitcmd.Write) string {
	s := w.Op + " "
	if w.Dynamic != "" {
		s += "?"
	} else {
		s += w.Path
	}
	if w.Tree {
		s += " +tree"
	}
	if w.Repo {
		s += " +repo"
	}
	if w.Glob {
		s += " +glob"
	}
	if m := w.Match; m != nil {
		s += " match" + fmt.Sprint(m.Names)
		if m.Fold {
			s = strings.TrimSuffix(s, "]") + " fold]"
		}
		if m.Subtree {
			s = strings.TrimSuffix(s, "]") + " subtree]"
		}
	}
	return s
}

var writeTable = []struct {
	cmd  string
	want []string // exactly these writes, in order
}{
	{`echo x > a.txt`, []string{"> /repo/a.txt"}},
	{`echo x >> /etc/x 2>/dev/null`, []string{">> /etc/x"}},
	{`cmd &> log.txt`, []string{"&> /repo/log.txt"}},
	{`cmd >| f.txt 2>&1`, []string{">| /repo/f.txt"}},
	{`cat <> rw.txt`, []string{"<> /repo/rw.txt"}},
	{`ls >& out.txt`, []string{">& /repo/out.txt"}},
	{`{ echo a; echo b; } > both.txt`, []string{"> /repo/both.txt"}},
	{`echo x > "$F"`, []string{"> ?"}},
	{`cd "$D" && echo x > a.txt`, []string{"> ?"}},
	{`cd /tmp && echo x > ../etc/a.txt`, []string{"> /etc/a.txt"}},
	{`echo x | tee -a a.txt b.txt`, []string{"tee /repo/a.txt", "tee /repo/b.txt"}},
	{`sed -i 's/a/b/' x.go y.go`, []string{"sed -i /repo/x.go", "sed -i /repo/y.go"}},
	{`sed -i.bak -e 's/a/b/' x.go`, []string{"sed -i /repo/x.go"}},
	{`sed 's/a/b/' x.go`, nil},
	{`perl -pi -e 's/a/b/' x.pl`, []string{"perl -i /repo/x.pl"}},
	{`cp a.txt b.txt`, []string{"cp /repo/b.txt"}},
	{`cp -r src dst`, []string{"cp /repo/dst/src +tree"}},
	{`cp a.txt b.txt dir`, []string{"cp /repo/dir/a.txt", "cp /repo/dir/b.txt"}},
	{`cp -t dir a.txt`, []string{"cp /repo/dir/a.txt"}},
	{`mv a.txt b.txt`, []string{"mv /repo/a.txt +tree", "mv /repo/b.txt +tree"}},
	{`rm -rf build *.o`, []string{"rm /repo/build +tree", "rm /repo/*.o +tree +glob"}},
	{`ln -sf target.txt link.txt`, []string{"ln /repo/link.txt"}},
	{`install -m 755 bin.x /usr/local/bin/x.y`, []string{"install /usr/local/bin/x.y"}},
	{`touch -d now a.txt`, []string{"touch /repo/a.txt"}},
	{`truncate -s 0 a.log`, []string{"truncate /repo/a.log"}},
	{`dd if=/dev/zero of=disk.img bs=1M`, []string{"dd /repo/disk.img"}},
	{`rsync -a src/ host:dst`, nil},
	{`rsync -a src/ dst`, []string{"rsync /repo/dst +tree"}},
	{`chmod -R 755 bin`, []string{"chmod /repo/bin +tree"}},
	{`chmod -x bin/magehook`, []string{"chmod /repo/bin/magehook"}},
	{`go build -o bin/magehook.exe ./x`, []string{"go -o /repo/bin/magehook.exe"}},
	{`go tool mage -compile=bin/magehook.exe`, []string{"mage -compile /repo/bin/magehook.exe"}},
	// -o into a directory (fakeStat: a name without a dot is one) writes
	// a file per package there.
	{`go build -o bin/ ./cmd/...`, []string{"go -o /repo/bin +tree"}},
	{`go build -o bin ./cmd/x`, []string{"go -o /repo/bin/x", "go -o /repo/bin/x.exe"}},
	{`go build -o bin/ .`, []string{"go -o /repo/bin/repo", "go -o /repo/bin/repo.exe"}},
	{`go build -o bin/ example.com/x`, []string{"go -o /repo/bin +tree"}},
	{`GOBIN=/repo/bin go install ./cmd/x`, []string{"go install /repo/bin/x", "go install /repo/bin/x.exe"}},
	{`GOBIN=/repo/bin go install ./...`, []string{"go install /repo/bin +tree"}},
	{`go install example.com/x@latest`, []string{"go install /home/u/go/bin +tree"}},
	{`openssl enc -in a -out b.key`, []string{"openssl -out /repo/b.key"}},
	{`gpg -o out.txt -d a.gpg`, []string{"gpg -o /repo/out.txt"}},
	{`sqlite3 db.sqlite 'select 1'`, []string{"sqlite3 /repo/db.sqlite"}},
	{`xxd -r a.hex b.bin`, []string{"xxd /repo/b.bin"}},
	{`script -q -c true log.txt`, []string{"script /repo/log.txt"}},
	{`scp host:a b.txt`, []string{"scp cp /repo/b.txt +tree"}},
	{`scp a.txt host:b`, nil},
	{`docker cp c:/a b.txt`, []string{"docker cp /repo/b.txt +tree"}},
	{`cpio -idm < a.cpio`, []string{"cpio x /repo +tree"}},
	{`7z x a.7z -oout`, []string{"7z x /repo/out +tree"}},
	{`npx prettier --write a.json`, []string{"prettier --write /repo/a.json +tree"}},
	{`go build ./...`, nil},
	{`chmod -v -w,+r a b`, []string{"chmod /repo/a", "chmod /repo/b"}},
	{`chmod -c 644 a`, []string{"chmod /repo/a"}},
	{`chown user:group f.txt`, []string{"chown /repo/f.txt"}},
	{`tar xzf a.tgz -C out`, []string{"tar -x /repo/out +tree"}},
	{`tar czf a.tgz src`, []string{"tar /repo/a.tgz"}},
	{"patch -p1 <<'EOF'\n--- a/x.go\n+++ b/x.go\n@@ -1 +1 @@\n-a\n+b\nEOF", []string{"patch /repo/x.go"}},
	{"git apply <<'EOF'\ndiff --git a/.toolingrc b/.toolingrc\n--- a/.toolingrc\n+++ b/.toolingrc\nEOF", []string{"git apply /repo/.toolingrc"}},
	{"apply_patch <<'EOF'\n*** Begin Patch\n*** Update File: src/a.go\n*** End Patch\nEOF", []string{"apply_patch /repo/src/a.go"}},
	{`patch -p1 < fix.patch`, []string{"patch ? +tree"}},
	{`python3 -c 'open("x","w").write("y")'`, []string{"python3 -c ?"}},
	{`python3 -c 'import json,sys; print(json.load(open("p.json")))'`, nil},
	{`node -e 'require("fs").writeFileSync("a","b")'`, []string{"node -e ?"}},
	{`awk '{print > "out.txt"}' in.txt`, []string{"awk program ?"}},
	{`awk '$1 > 5 {print $2}' in.txt`, nil},
	{`gofmt -l .`, nil},
	{`gofmt -w .`, []string{"gofmt -w /repo +tree"}},
	{`find . -name '*.tmp' -delete`, []string{"find -delete /repo +tree match[*.tmp]"}},
	{`git checkout -- .toolingrc`, []string{"git checkout /repo/.toolingrc +tree +repo"}},
	{`git -C sub stash`, []string{"git stash /repo/sub +tree +repo"}},
	{`git reset --hard HEAD`, []string{"git reset /repo +tree +repo"}},
	{`git reset HEAD~1`, nil},
	{`git status > s.txt`, []string{"> /repo/s.txt"}},
	{`curl -o out.bin https://x`, []string{"curl /repo/out.bin"}},
	{`echo x > /dev/null; echo y >&2`, nil},
	{`sudo tee /etc/hosts < x`, []string{"tee /etc/hosts"}},
	// find: the trees it walks, narrowed to the names it selects.
	{`find . -name '*.o' -delete`, []string{"find -delete /repo +tree match[*.o]"}},
	{`find a b -iname X -exec rm -rf {} +`, []string{"rm /repo/a +tree match[X fold subtree]", "rm /repo/b +tree match[X fold subtree]"}},
	{`find . -name '*.txt' -exec mv {} {}.bak \;`, []string{"mv /repo +tree match[*.txt subtree]", "mv /repo +tree match[*.txt.bak subtree]"}},
	{`find . -name x -o -name y -delete`, []string{"find -delete /repo +tree"}},
	{`find . -exec rm {}/.. \;`, []string{"rm /repo +tree"}},
	{`find . -name x -exec cat {} \;`, nil},
	// What find prints into xargs: its trees, narrowed.
	{`find . -name '*.o' | xargs rm`, []string{"rm /repo +tree match[*.o]"}},
	{`find a -print0 | xargs -0 rm -rf`, []string{"rm /repo/a +tree"}},
	{`ls | xargs rm`, []string{"rm /repo +tree"}},
	{`ls -a sub | grep x | sort | xargs rm`, []string{"rm /repo +tree", "rm /repo/sub +tree"}},
	{`git ls-files | xargs rm`, []string{"rm /repo +tree"}},
	{`cat list.txt | xargs rm`, []string{"rm ?"}}, // no such file here
	{`echo a.txt b.txt | xargs rm`, []string{"rm /repo/a.txt", "rm /repo/b.txt"}},
	{`xargs rm <<< "a.txt"`, []string{"rm /repo/a.txt"}},
	{`echo a.txt | xargs -I{} rm {}.bak`, []string{"rm ?", "rm ?"}},
	{`rm $(ls)`, []string{"rm /repo/* +glob"}},
	{`rm -r "$(ls -A | grep x)"`, []string{"rm /repo/* +tree +glob"}},
	{`rm $(ls -R)`, []string{"rm ?"}},
	{`rm $(ls sub)`, []string{"rm ?"}},
	{`ls | sed s/a/b/ | xargs rm`, []string{"rm ?"}},
	// A loop over a pattern: each match.
	{`for f in *.o; do rm "$f"; done`, []string{"rm /repo/*.o +glob", "rm /repo/*.o +glob"}},
	// sed's own writes.
	{`sed -n 'w out' in`, []string{"sed w /repo/out"}},
	{`sed 's/a/b/gw out' in`, []string{"sed w /repo/out"}},
	{`sed -e 's/a/b/' -e '$w /tmp/x' in`, []string{"sed w /tmp/x"}},
	{`sed 's/w/x/' in`, nil},
	{`mount --bind /a /b`, []string{"mount /b +tree"}},
	{`emacs --batch f -f save-buffer`, []string{"emacs /repo/f"}},
	// Writers that replace their files.
	{`gzip a b`, []string{"gzip /repo/a", "gzip /repo/b"}},
	{`gzip -k a`, nil},
	{`gunzip a.gz`, []string{"gunzip /repo/a.gz", "gunzip -d /repo/a"}},
	{`zstd a`, nil},
	{`zstd --rm a`, []string{"zstd /repo/a"}},
	{`xz -dc a.xz`, nil},
	{`dos2unix a`, []string{"dos2unix /repo/a"}},
	{`awk -i inplace '{print}' a`, []string{"awk -i inplace /repo/a"}},
	{`awk '{print}' a`, nil},
	{`yq -i .x=1 a.yml`, []string{"yq -i /repo/a.yml"}},
	{`git config -f a.cfg x.y z`, []string{"git config -f /repo/a.cfg"}},
	{`git config --file a.cfg --get x.y`, nil},
	// A write through a symbolic link the command made lands where it leads.
	{`ln -s /r/.git/refs/heads/main x.ref && echo y > x.ref`, []string{"ln /repo/x.ref", "> /repo/x.ref", "> (through a link the command makes) /r/.git/refs/heads/main"}},
	{`ln -s ../other l.d && cp a.txt l.d/b.txt`, []string{"ln /repo/l.d", "cp /repo/l.d/b.txt", "cp (through a link the command makes) /other/b.txt"}},
	// Hard links: the source is the same file as the new name.
	{`ln a n`, []string{"ln (hard link) /repo/a", "ln /repo/n/a"}},
	{`ln -s a n`, []string{"ln /repo/n/a"}},
	{`cp -l a /tmp/n`, []string{"cp (hard link) /repo/a", "cp /tmp/n/a"}},
	{`link a b`, []string{"link /repo/a", "link /repo/b"}},
}

func TestWrites(t *testing.T) {
	for _, tt := range writeTable {
		a, err := gitcmd.Analyze(tt.cmd, testOptions())
		if err != nil {
			t.Errorf("%q: %v", tt.cmd, err)
			continue
		}
		var got []string
		for _, w := range a.Writes {
			got = append(got, dumpWrite(w))
		}
		if !slices.Equal(got, tt.want) && !(len(got) == 0 && len(tt.want) == 0) {
			t.Errorf("%q\n got %q\nwant %q", tt.cmd, got, tt.want)
		}
	}
}

func TestXargsRmIsUndecidable(t *testing.T) {
	a, _ := gitcmd.Analyze(`cat list.txt | xargs rm`, testOptions())
	if len(a.Writes) != 1 || a.Writes[0].Dynamic == "" {
		t.Errorf("%+v", a.Writes)
	}
}

func TestBudget(t *testing.T) {
	o := testOptions()
	o.MaxBytes = 10
	if _, err := gitcmd.Analyze("echo 01234567890", o); err != gitcmd.ErrTooLarge {
		t.Errorf("size cap: %v", err)
	}
	o = testOptions()
	o.Deadline = time.Unix(1, 0) // long past: the first check stops it
	long := strings.Repeat("ls; ", 100)
	if _, err := gitcmd.Analyze(long, o); err != gitcmd.ErrBudget {
		t.Errorf("deadline: %v", err)
	}
	// Functions calling functions, deeper than MaxDepth.
	var b strings.Builder
	for i := range 20 {
		fmt.Fprintf(&b, "f%d() { f%d; }; ", i, i+1)
	}
	b.WriteString("f0")
	if _, err := gitcmd.Analyze(b.String(), testOptions()); err != gitcmd.ErrBudget {
		t.Errorf("depth: %v", err)
	}
}

// TestScriptsAreRead: a script the command runs, from the checkout, is
// analysed like the command itself.
func TestScriptsAreRead(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "deploy.sh"), []byte("#!/bin/sh\ncd sub && rm -rf out\n"), 0o755)
	os.WriteFile(filepath.Join(dir, "env.sh"), []byte("export GIT_DIR=/elsewhere/.git\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "tool.py"), []byte("#!/usr/bin/env python3\nimport subprocess\nsubprocess.run(['ls'])\n"), 0o755)
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	o := gitcmd.Options{Dir: dir, Home: "/home/u", ReadFile: os.ReadFile, Stat: os.Stat, Getenv: func(string) string { return "" }}
	for _, tt := range []struct{ cmd, want string }{
		{"./deploy.sh", "rm -rf out @" + dir + "/sub via script ./deploy.sh"},
		{"bash deploy.sh", "rm -rf out @" + dir + "/sub via script deploy.sh"},
		{". ./env.sh && ls", "ls @" + dir + " env GIT_DIR=/elsewhere/.git"},
		{"./tool.py", "ls @" + dir + " via ./tool.py"},
		{"python3 tool.py", "ls @" + dir + " via python3 tool.py"},
	} {
		a, err := gitcmd.Analyze(tt.cmd, o)
		if err != nil {
			t.Fatal(err)
		}
		if got := dumpAll(a); !slices.Contains(got, tt.want) {
			t.Errorf("%q: no %q in %q", tt.cmd, tt.want, got)
		}
	}
}

// Written keeps "link/.." for a reader that resolves links as the kernel
// does; Path is cleaned.
func TestWriteKeepsThePathAsWritten(t *testing.T) {
	o := testOptions()
	a, err := gitcmd.Analyze(`echo x > l/../settings.json; cat y > /abs/l/../z`, o)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Writes) != 2 {
		t.Fatalf("%+v", a.Writes)
	}
	sep := string(filepath.Separator)
	if w := a.Writes[0]; w.Written != o.Dir+sep+"l/../settings.json" || w.Path != filepath.Join(o.Dir, "settings.json") {
		t.Errorf("relative: %+v", w)
	}
	if w := a.Writes[1]; w.Written != "/abs/l/../z" || w.Path != "/abs/z" {
		t.Errorf("absolute: %+v", w)
	}
}

// TestScriptWrittenByTheCommand: a script an earlier part of the command
// writes runs what it writes, not what is on disk now.
func TestScriptWrittenByTheCommand(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "s.sh"), []byte("ls\n"), 0o755)
	o := gitcmd.Options{Dir: dir, ReadFile: os.ReadFile, Stat: os.Stat, Getenv: func(string) string { return "" }}
	for _, tt := range []struct{ cmd, want string }{
		{"echo 'rm -rf x' > s.sh && sh s.sh", "rm -rf x @" + dir + " via script s.sh"},
		{"cat > s.sh <<'EOF'\nrm -rf y\nEOF\nbash s.sh", "rm -rf y @" + dir + " via script s.sh"},
		{"curl -o s.sh https://x && sh s.sh", "sh s.sh @" + dir + " opaque"},
		{"chmod +x s.sh && ./s.sh", "ls @" + dir + " via script ./s.sh"},
	} {
		a, err := gitcmd.Analyze(tt.cmd, o)
		if err != nil {
			t.Fatal(err)
		}
		if got := dumpAll(a); !slices.Contains(got, tt.want) {
			t.Errorf("%q: no %q in %q", tt.cmd, tt.want, got)
		}
	}
}

// A nameref, or positional parameters set from a computed word, hold
// what only run time knows: the word that reads them is dynamic.
func TestVariablesThatAreNotWhatTheySeem(t *testing.T) {
	for _, cmd := range []string{
		`declare -n r=x; x=commit; git $r`,
		`local -n r=x; git "$r"`,
		`set -- $(cat name); git "$1"`,
		`IFS=.; x=a.commit; set -- $x; git "$2"`,
	} {
		a, err := gitcmd.Analyze(cmd, testOptions())
		if err != nil {
			t.Fatal(err)
		}
		last := a.Commands[len(a.Commands)-1]
		if last.Git == nil || last.Dynamic(1) == "" {
			t.Errorf("%q: %q is not dynamic", cmd, last.Argv())
		}
	}
}

// Decoded finds what base64 words hide, PowerShell's UTF-16LE included.
func TestDecoded(t *testing.T) {
	for _, tt := range []struct{ text, want string }{
		{"echo cm0gLnRvb2xpbmdyYw== | base64 -d | sh", "rm .toolingrc"},
		{"pwsh -enc ZwBpAHQAIABjAG8AbQBtAGkAdAAgAC0AbQAgAHgA", "git commit -m x"},
		{"git status && go test ./...", ""},
		{"echo hello", ""},
	} {
		got := gitcmd.Decoded(tt.text)
		if tt.want == "" && got != "" || !strings.Contains(got, tt.want) {
			t.Errorf("%q: %q, want %q", tt.text, got, tt.want)
		}
	}
}

// A deletion in interpreter code is followed as rm only when its paths are
// whole literals: a path built by an expression stays an unseen write.
func TestInterpreterDeletionsOfLiteralsOnly(t *testing.T) {
	for _, tt := range []struct {
		cmd  string
		rm   string // the rm command followed, "" for none
		seen bool   // no write is left that the analysis cannot name
	}{
		{`python3 -c "import shutil; shutil.rmtree('/srv/x')"`, "rm -rf -- /srv/x", true},
		{`python3 -c "import os; os.remove('.' + 'toolingrc')"`, "", false},
		{`perl -e 'unlink "/etc/a", $b'`, "", false},
		{`perl -e 'unlink "/etc/a", "/etc/b"'`, "rm -f -- /etc/a /etc/b", true},
		{`ruby -e "FileUtils.rm_rf('/srv/y')"`, "rm -rf -- /srv/y", true},
		{`node -e "require('fs').rmSync(dir, {recursive: true})"`, "", false},
	} {
		a, err := gitcmd.Analyze(tt.cmd, testOptions())
		if err != nil {
			t.Fatal(err)
		}
		rm := ""
		for _, c := range a.Commands {
			if c.Name() == "rm" {
				rm = strings.Join(c.Argv(), " ")
			}
		}
		seen := true
		for _, w := range a.Writes {
			if w.Dynamic != "" {
				seen = false
			}
		}
		if rm != tt.rm || seen != tt.seen {
			t.Errorf("%s: follows %q (unseen writes %v), want %q (%v)", tt.cmd, rm, !seen, tt.rm, !tt.seen)
		}
	}
}
