package gitcmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// readForm renders a read for the examples: the path relative to /w,
// "tree:" for a tree ("rtree:" when a search skips hidden and ignored
// files, "htree:" ignored ones only; "-X" and "+X" its excludes and
// includes), ">DEST" for a copy's destination, "REV:" for a blob, "?" for
// a path only known at run time.
func readForm(r Read, dir string) string {
	if r.Dynamic != "" {
		return "?"
	}
	rel := func(p string) string {
		if p == "?" {
			return p
		}
		if x, err := filepath.Rel(dir, p); err == nil && !strings.HasPrefix(x, "..") {
			return filepath.ToSlash(x)
		}
		return p
	}
	s := rel(r.Path)
	if r.Rev != "" {
		s = r.Rev + ":" + s
	}
	if r.Tree {
		prefix := "tree:"
		if f := r.Filter; f != nil {
			switch {
			case !f.Hidden && !f.Ignored:
				prefix = "rtree:"
			case f.Hidden && !f.Ignored:
				prefix = "htree:"
			}
			for _, x := range f.Exclude {
				s += "-" + x
			}
			for _, x := range f.Include {
				s += "+" + x
			}
		}
		s = prefix + s
	}
	if r.To != "" {
		s += ">" + rel(r.To)
	}
	return s
}

func readsOf(t *testing.T, command, dir string) (string, []Dump) {
	t.Helper()
	a, err := Analyze(command, Options{Dir: dir, Home: "/home/u"})
	if err != nil {
		t.Fatalf("%s: %v", command, err)
	}
	reads, dumps := a.Reads()
	var got []string
	seen := map[string]bool{}
	for _, r := range reads {
		if f := readForm(r, dir); !seen[f] {
			seen[f] = true
			got = append(got, f)
		}
	}
	return strings.Join(got, " "), dumps
}

// TestReadsThroughTheCommandModel: what runs a reader (wrappers, bash -c,
// aliases, loops, substitutions) reads what it reads; git's and
// interpreters' readers; redirections in.
func TestReadsThroughTheCommandModel(t *testing.T) {
	for command, want := range map[string]string{
		"bash -c 'cat .env'":                        ".env",
		"sudo head -1 /root/.ssh/id_rsa":            "/root/.ssh/id_rsa",
		"x=$(< .env.local)":                         ".env.local",
		"while read l; do echo $l; done < .env":     ".env",
		"for f in .env a; do cat $f; done":          ".env a",
		"cat $F":                                    "?",
		"git show HEAD:.env":                        "HEAD:.env",
		"git -C sub show main:./config/.env":        "main:sub/config/.env",
		"git cat-file -p HEAD:secrets/db.txt":       "HEAD:secrets/db.txt",
		"git show :.env":                            "::.env",
		"git diff -- .env":                          ".env",
		"git diff HEAD~1 .env.local":                "HEAD~1 .env.local",
		"git blame .env":                            ".env",
		"git log -p -- id_rsa":                      "id_rsa",
		"git -c alias.s='show HEAD:.env' s":         "HEAD:.env",
		"git status":                                "",
		"python3 -c \"print(open('.env').read())\"": ".env",
		"node -e 'require(\"fs\").readFileSync(\"/home/u/.aws/credentials\")'":    "fs /home/u/.aws/credentials",
		"ruby -e \"puts File.read('.env')\"":                                      ".env",
		"python3 -c \"import os; open(os.path.expanduser('~/.ssh/id_ed25519'))\"": "~/.ssh/id_ed25519",
		"python3 -c \"$CODE\"":                      "?",
		"ls -la .env && test -f .env && wc -l .env": "",
		"env FOO=1 go test ./...":                   "",
	} {
		if got, _ := readsOf(t, command, "/w"); got != want {
			t.Errorf("%s: reads %q, want %q", command, got, want)
		}
	}
}

func TestCredentialPrinters(t *testing.T) {
	for command, want := range map[string]bool{
		"gh auth token": true, "gh auth status --show-token": true, "gcloud auth print-access-token": true,
		"aws configure get aws_secret_access_key": true, "aws configure export-credentials --format env": true,
		"kubectl config view --raw": true, "echo url=https://x | git credential fill": true, "docker-credential-desktop get": true,
		"security find-generic-password -s x -w": true,
		"gh auth status":                         false, "gh pr list": false, "aws configure get region": false, "kubectl config view": false,
		"gcloud auth list": false, "git credential-cache exit": false,
	} {
		_, dumps := readsOf(t, command, "/w")
		got := false
		for _, d := range dumps {
			got = got || d.Credential
		}
		if got != want {
			t.Errorf("%s: prints a credential %v, want %v", command, got, want)
		}
	}
}

func TestWholeEnvironmentDumps(t *testing.T) {
	for command, want := range map[string]string{
		"env": "env", "env | grep KEY": "env", "env -0": "env", "printenv": "printenv", "set": "set", "export -p": "export -p",
		"declare -p": "declare -p", "declare -x": "declare -x", "typeset": "typeset", "bash -c env": "env", "export": "export",
		"python3 -c 'import os; print(os.environ)'": "python3 -c", "node -e 'console.log(process.env)'": "node -e", "perl -e 'print %ENV'": "perl -e",
		"python3 -c 'import os; print(os.environ[\"HOME\"])'": "", "node -e 'console.log(process.env.HOME)'": "",
		"env FOO=1 cmd": "", "printenv HOME": "", "set -euo pipefail": "", "export A=1": "", "declare -a xs": "", "env -u X make": "",
	} {
		_, dumps := readsOf(t, command, "/w")
		var got []string
		for _, d := range dumps {
			got = append(got, d.Op)
		}
		if strings.Join(got, " ") != want {
			t.Errorf("%s: dumps %q, want %q", command, got, want)
		}
	}
}

// TestGitShowFindsTheRepositoryTop: a blob path is relative to the top of
// the work tree, wherever git runs in it.
func TestGitShowFindsTheRepositoryTop(t *testing.T) {
	top := t.TempDir()
	if err := os.MkdirAll(filepath.Join(top, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(top, "a", "b")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if got, _ := readsOf(t, "git show HEAD:.env", sub); got != "HEAD:"+filepath.Join(top, ".env") {
		t.Errorf("got %q", got)
	}
}
