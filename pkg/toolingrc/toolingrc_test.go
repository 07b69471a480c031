package toolingrc_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/magehook/magehook/pkg/toolingrc"
)

func write(t *testing.T, dir, text string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".toolingrc"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestParse(t *testing.T) {
	f, err := toolingrc.Parse("x/.toolingrc", []byte(`# a comment
hook.enable   sessionclock
hook.enable	branchguard # trailing comment
  wiki.origin https://example.com/wiki.git#main
other.tool.key some value with spaces

`))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range f.Entries {
		got = append(got, e.Key+"="+e.Value)
	}
	want := "hook.enable=sessionclock|hook.enable=branchguard|wiki.origin=https://example.com/wiki.git#main|other.tool.key=some value with spaces"
	if strings.Join(got, "|") != want {
		t.Errorf("entries\n got %s\nwant %s", strings.Join(got, "|"), want)
	}
	if f.Entries[1].Line != 3 {
		t.Errorf("line of the second entry = %d, want 3", f.Entries[1].Line)
	}
	_, err = toolingrc.Parse("x/.toolingrc", []byte("hook.binary\n"))
	if err == nil || err.Error() != "x/.toolingrc:1: hook.binary: has no value; write the key, a space and the value" {
		t.Errorf("a key without a value: %v", err)
	}
}

func TestDiscoveryAndHomes(t *testing.T) {
	top := t.TempDir()
	write(t, top, "wiki.origin file:///srv/wiki.git\nhook.enable a\n")
	root := filepath.Join(top, "repo")
	write(t, root, "hook.enable b\nhook.enable c\n")
	start := filepath.Join(root, "sub", "dir")
	if err := os.MkdirAll(start, 0o755); err != nil {
		t.Fatal(err)
	}
	cfg, err := toolingrc.Discover(start)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Root() != root {
		t.Errorf("root %s, want %s", cfg.Root(), root)
	}
	enable, _ := cfg.Get(toolingrc.KeyHookEnable)
	if strings.Join(enable.Values, ",") != "b,c" || enable.Home != root || enable.Line != 1 {
		t.Errorf("hook.enable comes from the nearest file holding it: %+v", enable)
	}
	origin, _ := cfg.Get(toolingrc.KeyWikiOrigin)
	if origin.String() != "file:///srv/wiki.git" || origin.Home != top {
		t.Errorf("wiki.origin comes from the parent, with the parent as home: %+v", origin)
	}
	base, _ := cfg.Get(toolingrc.KeyWorktreeBase)
	if base.Abs() != filepath.Join(root, ".claude", "worktrees") || base.File != "" {
		t.Errorf("a default's home is the root: %+v", base)
	}
	project, _ := cfg.Get(toolingrc.KeyWikiProject)
	if project.String() != "repo" {
		t.Errorf("wiki.project defaults to the root's name: %+v", project)
	}
	protect, _ := cfg.Get(toolingrc.KeyGuardProtect)
	if strings.Join(protect.Values, ",") != "main,master" {
		t.Errorf("guard.protect default: %+v", protect)
	}
}

func TestNoFileIsAConfigurationError(t *testing.T) {
	dir := t.TempDir()
	_, err := toolingrc.Discover(dir)
	var cerr *toolingrc.Error
	if !errors.As(err, &cerr) || !strings.Contains(err.Error(), dir) || !strings.Contains(err.Error(), "no .toolingrc found") {
		t.Errorf("Discover in an empty tree: %v", err)
	}
}

func TestDiscoveryFromOddStarts(t *testing.T) {
	root := t.TempDir()
	write(t, root, "hook.enable a\n")
	if _, err := toolingrc.Discover(filepath.Join(root, "does", "not", "exist")); err != nil {
		t.Errorf("a start that does not exist still walks up: %v", err)
	}
	loop := filepath.Join(root, "loop")
	if err := os.Symlink(loop, loop); err != nil {
		t.Skip(err)
	}
	if _, err := toolingrc.Discover(filepath.Join(loop, "x")); err != nil {
		t.Errorf("a start inside a symlink loop still walks up: %v", err)
	}
	if err := os.Mkdir(filepath.Join(root, "d"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(root, "d", ".toolingrc"), 0o755); err != nil {
		t.Fatal(err)
	}
	_, err := toolingrc.Discover(filepath.Join(root, "d"))
	if err == nil || err.Error() != filepath.Join(root, "d", ".toolingrc")+": is a directory, not a file; replace it with the configuration file, or remove it" {
		t.Errorf("a directory named .toolingrc is an error, not a file to skip: %v", err)
	}
}

// A .toolingrc that exists but cannot be fully read stops discovery with
// an error naming the file, the line and what to do; it is never skipped.
func TestUnreadableFilesAreErrors(t *testing.T) {
	t.Run("a file the user cannot read", func(t *testing.T) {
		if os.Getuid() == 0 {
			t.Skip("root reads everything")
		}
		root := t.TempDir()
		write(t, root, "hook.enable a\n")
		if err := os.Chmod(filepath.Join(root, ".toolingrc"), 0); err != nil {
			t.Fatal(err)
		}
		_, err := toolingrc.Discover(root)
		if err == nil || !strings.Contains(err.Error(), ".toolingrc: cannot be read (permission denied)") || errors.Is(err, toolingrc.ErrNotFound) {
			t.Errorf("got %v", err)
		}
	})
	t.Run("a line over 1 MiB", func(t *testing.T) {
		root := t.TempDir()
		write(t, root, "hook.enable a\nwiki.origin https://x/"+strings.Repeat("y", toolingrc.MaxLine)+"\n")
		_, err := toolingrc.Discover(root)
		if err == nil || !strings.Contains(err.Error(), ".toolingrc:2: the line is longer than 1048576 bytes") {
			t.Errorf("got %v", err)
		}
	})
	t.Run("a magehook key without a value, in a parent", func(t *testing.T) {
		top := t.TempDir()
		write(t, top, "# x\nguard.protect\n")
		write(t, filepath.Join(top, "repo"), "hook.enable a\n")
		_, err := toolingrc.Discover(filepath.Join(top, "repo"))
		if err == nil || err.Error() != filepath.Join(top, ".toolingrc")+":2: guard.protect: has no value; write the key, a space and the value" {
			t.Errorf("got %v", err)
		}
	})
	t.Run("another tool's bare word is that tool's", func(t *testing.T) {
		top := t.TempDir()
		write(t, top, "fugu.verbose\nwiki.origin file:///srv/wiki.git\n")
		write(t, filepath.Join(top, "repo"), "hook.enable a\n")
		cfg, err := toolingrc.Discover(filepath.Join(top, "repo"))
		if err != nil {
			t.Fatal(err)
		}
		if v, _ := cfg.Get(toolingrc.KeyWikiOrigin); v.String() != "file:///srv/wiki.git" {
			t.Errorf("wiki.origin = %q", v.String())
		}
	})
}

// The gate keys add up inside git: a .toolingrc below the top one, or
// above the repository, adds handlers and protected branches and cannot
// remove the top one's, defaults included.
func TestGateKeysAddUpInsideTheRepository(t *testing.T) {
	home := t.TempDir()
	write(t, home, "hook.enable auditlog\nguard.protect trunk\n")
	repo := filepath.Join(home, "repo")
	if err := os.MkdirAll(filepath.Join(repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, repo, "hook.enable branchguard\n")
	sub := filepath.Join(repo, "sub")
	write(t, sub, "hook.enable sessionclock\nguard.protect release\nhook.enable branchguard\n")
	cfg, err := toolingrc.Discover(filepath.Join(sub, "deeper"))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.RepoTop != repo {
		t.Errorf("RepoTop = %q, want %q", cfg.RepoTop, repo)
	}
	enable, err := cfg.Get(toolingrc.KeyHookEnable)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(enable.Values, ","); got != "branchguard,sessionclock,auditlog" {
		t.Errorf("hook.enable = %s: the repository's top file, then the subdirectory and home add", got)
	}
	if enable.Origins[1] != (toolingrc.Origin{File: filepath.Join(sub, ".toolingrc"), Line: 1}) {
		t.Errorf("origins %+v", enable.Origins)
	}
	protect, err := cfg.Get(toolingrc.KeyGuardProtect)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(protect.Values, ","); got != "main,master,release,trunk" {
		t.Errorf("guard.protect = %s: the top file has none, so it keeps the default; the subdirectory and home add (issue 29.2: home's never replaces main)", got)
	}
	// Without home's value, the top one's is the default, which a
	// subdirectory cannot remove.
	write(t, home, "# nothing\n")
	cfg, _ = toolingrc.Discover(sub)
	protect, _ = cfg.Get(toolingrc.KeyGuardProtect)
	if got := strings.Join(protect.Values, ","); got != "main,master,release" {
		t.Errorf("guard.protect = %s", got)
	}
	// Other keys: the nearest file still wins.
	write(t, sub, "state.dir sub-state\n")
	cfg, _ = toolingrc.Discover(sub)
	if v, _ := cfg.Get(toolingrc.KeyStateDir); v.Abs() != filepath.Join(sub, "sub-state") {
		t.Errorf("state.dir = %s", v.Abs())
	}
}

func TestBadValues(t *testing.T) {
	tests := []struct {
		line, want string
	}{
		{"wiki.dir ../elsewhere", `:1: wiki.dir: value "../elsewhere" has a '..' segment; write a path inside the file's directory`},
		{"worktree.base a/../../b", `has a '..' segment`},
		{"state.dir /var/state", `is absolute`},
		{"wiki.dir .", `names the directory itself`},
		{"wiki.dir ./", `names the directory itself`},
		{"wiki.origin example.com/wiki.git", `is not a URL with a scheme`},
		{"wiki.project -x", `is not a name`},
		{"hook.enable ../x", `is not a name`},
		{"hook.binary ../bin/magehook", `has a '..' segment`},
	}
	for _, tt := range tests {
		root := t.TempDir()
		write(t, root, tt.line+"\n")
		cfg, err := toolingrc.Discover(root)
		if err != nil {
			t.Fatal(err)
		}
		key := strings.Fields(tt.line)[0]
		_, err = cfg.Get(key)
		if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), filepath.Join(root, ".toolingrc")) {
			t.Errorf("%q: error %v, want one naming the file, the line and %q", tt.line, err, tt.want)
		}
		if cfg.Validate() == nil {
			t.Errorf("%q: Validate accepted it", tt.line)
		}
	}
	root := t.TempDir()
	write(t, root, "wiki.dir ./Wiki\nworktree.base .claude/worktrees\nunknown.key ../anything\n")
	cfg, _ := toolingrc.Discover(root)
	if err := cfg.Validate(); err != nil {
		t.Errorf("good values and unknown keys: %v", err)
	}
}

// FuzzParse: any file either parses or gives a configuration error that
// names the file; the values of known keys never panic the checks.
func FuzzParse(f *testing.F) {
	f.Add([]byte("hook.enable a\n# c\nwiki.dir Wiki # x\n"))
	f.Add([]byte("hook.binary\n"))
	f.Add([]byte("wiki.origin file:///x\x00\n\r\nstate.dir ../x"))
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := toolingrc.Parse("fuzz/.toolingrc", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz/.toolingrc") {
				t.Fatalf("error without the file name: %v", err)
			}
			return
		}
		cfg := &toolingrc.Config{Start: "fuzz", Files: []toolingrc.File{file}}
		cfg.Validate()
		for _, e := range file.Entries {
			cfg.Get(e.Key)
		}
	})
}

// A misspelt key in the gates' prefixes is an error for a hook run; a bare
// word in magehook's prefixes is one too; elsewhere both are left alone.
func TestGateTypos(t *testing.T) {
	root := t.TempDir()
	write(t, root, "hook.enable branchguard\nhook.enabel sessionclock\nwiki.orgin x\n")
	cfg, err := toolingrc.Discover(root)
	if err != nil {
		t.Fatal(err)
	}
	err = cfg.GateTypo()
	if err == nil || !strings.HasPrefix(err.Error(), filepath.Join(root, ".toolingrc")+":2: hook.enabel: unknown key; did you mean hook.enable?") {
		t.Errorf("GateTypo: %v", err)
	}
	write(t, root, "hook.enable branchguard\nwiki.orgin x\n")
	cfg, _ = toolingrc.Discover(root)
	if err := cfg.GateTypo(); err != nil {
		t.Errorf("a typo outside the gate prefixes is only a warning: %v", err)
	}
	if _, err := toolingrc.Parse("x/.toolingrc", []byte("guard.protekt\n")); err == nil {
		t.Error("a bare word in magehook's prefixes must be an error")
	}
}
