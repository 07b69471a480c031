package main

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"magehook": func() { os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
	})
}

// TestScripts runs testdata/script: the first hour of a new user, from an
// empty directory to a custom gate that denies, through the real go
// command (which needs the module proxy or a warm module cache).
func TestScripts(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a consumer repository with the go command; run without -short")
	}
	src, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	goEnv := map[string]string{}
	out, err := exec.Command("go", "env", "GOPATH", "GOMODCACHE", "GOCACHE", "GOPROXY", "GOSUMDB", "GOFLAGS", "GOTOOLCHAIN").Output()
	if err != nil {
		t.Fatal(err)
	}
	for i, line := range strings.Split(strings.TrimSuffix(string(out), "\n"), "\n") {
		goEnv[[]string{"GOPATH", "GOMODCACHE", "GOCACHE", "GOPROXY", "GOSUMDB", "GOFLAGS", "GOTOOLCHAIN"}[i]] = line
	}
	testscript.Run(t, testscript.Params{
		Dir:                 filepath.Join("testdata", "script"),
		RequireExplicitExec: true,
		Setup: func(env *testscript.Env) error {
			for k, v := range goEnv {
				env.Setenv(k, v)
			}
			env.Setenv("MAGEHOOK_SRC", src)
			// testscript's TMPDIR is inside $WORK, the consumer repository:
			// a test's temporary checkout there would sit below the
			// repository's .toolingrc, which a checkout may only add to.
			tmp, err := os.MkdirTemp("", "magehook-first-hour-")
			if err != nil {
				return err
			}
			env.Defer(func() { os.RemoveAll(tmp) })
			env.Setenv("TMPDIR", tmp)
			env.Setenv("HOME", filepath.Join(env.WorkDir, "home"))
			env.Setenv("GIT_AUTHOR_NAME", "t")
			env.Setenv("GIT_AUTHOR_EMAIL", "t@example.com")
			env.Setenv("GIT_COMMITTER_NAME", "t")
			env.Setenv("GIT_COMMITTER_EMAIL", "t@example.com")
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"readme": cmdReadme,
		},
	})
}

// readme module-path writes the README's marked blocks into the work
// directory: each ```go block after a "<!-- file: path -->" line to its
// path (example.com/repo replaced by the module path), and every block
// after a "<!-- run -->" line, in order, to run.sh.
func cmdReadme(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: readme module-path")
	}
	blocks, err := readmeBlocks(filepath.Join(ts.Getenv("MAGEHOOK_SRC"), "README.md"))
	if err != nil {
		ts.Fatalf("readme: %v", err)
	}
	var run strings.Builder
	files := 0
	for _, b := range blocks {
		text := strings.ReplaceAll(b.text, "example.com/repo", args[0])
		if b.file == "" {
			run.WriteString(text)
			continue
		}
		path := ts.MkAbs(b.file)
		ts.Check(os.MkdirAll(filepath.Dir(path), 0o755))
		ts.Check(os.WriteFile(path, []byte(text), 0o644))
		files++
	}
	if files == 0 || run.Len() == 0 {
		ts.Fatalf("readme: found %d file blocks and %d bytes to run; the README lost its marks", files, run.Len())
	}
	ts.Check(os.WriteFile(ts.MkAbs("run.sh"), []byte("set -eu\n"+run.String()), 0o644))
}

type block struct{ file, text string }

func readmeBlocks(path string) ([]block, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var (
		blocks  []block
		pending *block
		inside  bool
		text    strings.Builder
	)
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case inside && line == "```":
			inside = false
			pending.text = text.String()
			blocks = append(blocks, *pending)
			pending = nil
		case inside:
			text.WriteString(line + "\n")
		case pending != nil && strings.HasPrefix(line, "```"):
			inside = true
			text.Reset()
		case strings.HasPrefix(line, "<!-- file: ") && strings.HasSuffix(line, " -->"):
			pending = &block{file: strings.TrimSuffix(strings.TrimPrefix(line, "<!-- file: "), " -->")}
		case line == "<!-- run -->":
			pending = &block{}
		}
	}
	return blocks, sc.Err()
}

// TestMageVersionFollowsGoMod keeps the Mage release init pins in step with
// the one this module requires.
func TestMageVersionFollowsGoMod(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	want := MageModule + " " + MageVersion
	if !strings.Contains(string(data), want) {
		t.Fatalf("go.mod does not require %s; update MageVersion in adopt.go", want)
	}
}
