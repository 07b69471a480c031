package gitx

import (
	"bytes"
	"errors"
	"fmt"
	"github.com/magehook/magehook/pkg/lazy"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/magehook/magehook/pkg/regfile"
)

// The git the hooks run is never whichever git the hook's PATH finds
// first: an agent that writes ~/.local/bin/git (first on PATH in many
// distributions) would answer every question a gate asks of git (is this
// file ignored, which branch is checked out). It is resolved once, when
// the hook binary is built (hook:build, hook:install: the linker sets
// Installed), and checked by the doctor. A binary built otherwise (go
// test, go run) takes the first git of the system's own directories.

// Installed is what the build sets: installedTag, the absolute path of
// git, and ";" (the tag lets the doctor find the value in a built binary).
var Installed string

const installedTag = "magehook-git="

// InstalledVar is the linker path of Installed.
const InstalledVar = "github.com/magehook/magehook/pkg/gitx.Installed"

// systemDirs are where a system's own git lives, in order.
func systemDirs() []string {
	if runtime.GOOS == "windows" {
		return []string{`C:\Program Files\Git\cmd`, `C:\Program Files\Git\bin`, `C:\Program Files (x86)\Git\cmd`}
	}
	return []string{"/usr/bin", "/bin", "/usr/local/bin", "/opt/homebrew/bin", "/opt/local/bin", "/run/current-system/sw/bin", "/nix/var/nix/profiles/default/bin"}
}

// InstalledPath is the git path the build set, or "".
func InstalledPath() string {
	return parseTag(Installed)
}

func parseTag(s string) string {
	v, ok := strings.CutPrefix(s, installedTag)
	if !ok {
		return ""
	}
	v, _, _ = strings.Cut(v, ";")
	return v
}

var path = lazy.Value[string]{New: func() string {
	if p := InstalledPath(); p != "" && executable(p) {
		return p
	}
	exe := "git"
	if runtime.GOOS == "windows" {
		exe = "git.exe"
	}
	for _, d := range systemDirs() {
		if p := filepath.Join(d, exe); executable(p) {
			return p
		}
	}
	// Last, a PATH directory no agent of this user can write into
	// unnoticed: absolute, outside the home directory, writable by
	// nobody but its owner.
	home, _ := os.UserHomeDir()
	for _, d := range filepath.SplitList(os.Getenv("PATH")) {
		if !filepath.IsAbs(d) || home != "" && within(d, home) || sharedWritable(d) {
			continue
		}
		if p := filepath.Join(d, exe); executable(p) {
			return p
		}
	}
	return exe // none: running it fails, and a gate that needs it fails closed
}}

// Path is the git the hooks run (see Installed).
func Path() string { return path.Get() }

// Resolve finds git for a build to record: the first on PATH, made
// absolute.
func Resolve() (string, error) {
	p, err := exec.LookPath("git")
	if err != nil {
		return "", err
	}
	return filepath.Abs(p)
}

// LinkerFlag is the -X flag that records git (Resolve) in a build, or ""
// when there is no git to record.
func LinkerFlag() string {
	p, err := Resolve()
	if err != nil || strings.ContainsAny(p, `'";`) {
		return ""
	}
	return "-X '" + InstalledVar + "=" + installedTag + p + ";'"
}

// BuiltWith reads the git path a built hook binary records, "" when it
// records none (a binary built before magehook recorded it, or by other
// means).
func BuiltWith(binary string) (string, error) {
	data, err := regfile.ReadFile(binary, 512<<20)
	if err != nil {
		return "", err
	}
	for rest := data; ; {
		i := bytes.Index(rest, []byte(installedTag))
		if i < 0 {
			return "", nil
		}
		rest = rest[i:]
		end := bytes.IndexByte(rest, ';')
		if end > 0 && end < 4096 {
			if p := parseTag(string(rest[:end+1])); filepath.IsAbs(p) {
				return p, nil
			}
		}
		rest = rest[len(installedTag):]
	}
}

// Check says what is wrong with a git for the hooks to run ("" when
// nothing): it must be an executable file that no other user can
// replace.
func Check(p string) error {
	info, err := os.Stat(p)
	switch {
	case err != nil:
		return err
	case info.IsDir() || info.Mode().Perm()&0o111 == 0:
		return errors.New("is not an executable file")
	case sharedWritable(p) || sharedWritable(filepath.Dir(p)):
		return fmt.Errorf("can be replaced by other users (it or %s is writable by its group or by anyone)", filepath.Dir(p))
	}
	return nil
}

func executable(p string) bool {
	info, err := os.Stat(p)
	return err == nil && !info.IsDir() && (runtime.GOOS == "windows" || info.Mode().Perm()&0o111 != 0)
}

// sharedWritable reports a file or directory others than its owner can
// write (a sticky directory such as /tmp included).
func sharedWritable(p string) bool {
	if runtime.GOOS == "windows" {
		return false
	}
	info, err := os.Stat(p)
	return err == nil && info.Mode().Perm()&0o022 != 0
}

func within(p, dir string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// repoEnv are the variables that point git at another repository, index
// or program than the one a hook asks about; the hook's own git runs
// without them (a caller that means one passes it).
var repoEnv = []string{"GIT_DIR", "GIT_WORK_TREE", "GIT_COMMON_DIR", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY",
	"GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_NAMESPACE", "GIT_EXEC_PATH", "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT",
	"GIT_EXTERNAL_DIFF", "GIT_PAGER", "GIT_EDITOR", "GIT_SEQUENCE_EDITOR", "GIT_SSH", "GIT_SSH_COMMAND", "GIT_ASKPASS", "GIT_PREFIX"}

// Env is the hook process's environment for a git the hook runs: without
// repoEnv (and GIT_CONFIG_KEY_n/VALUE_n), never prompting, in the C
// locale.
func Env() []string {
	var out []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		drop := strings.HasPrefix(k, "GIT_CONFIG_KEY_") || strings.HasPrefix(k, "GIT_CONFIG_VALUE_")
		for _, r := range repoEnv {
			drop = drop || k == r
		}
		if !drop {
			out = append(out, kv)
		}
	}
	return append(out, "GIT_TERMINAL_PROMPT=0", "LC_ALL=C")
}

// Command is git (Path) with args, in the hook's environment (Env), with
// core.fsmonitor off: a question a hook asks never starts a program the
// repository's configuration names.
func Command(args ...string) *exec.Cmd {
	cmd := exec.Command(Path(), append([]string{"-c", "core.fsmonitor=false"}, args...)...)
	cmd.Env = Env()
	return cmd
}
