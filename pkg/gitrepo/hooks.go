package gitrepo

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/magehook/magehook/pkg/regfile"
)

// Hook is one hook git would run from a hooks directory.
type Hook struct {
	Path string
	// Text is the hook's content; Err says why it could not be read.
	Text string
	Err  error
	// Shell: it is a shell script (no #! line, or one naming a POSIX
	// shell), which a shell analysis can read.
	Shell bool
}

// HooksDir is the directory git runs a repository's hooks from: hooksPath
// (core.hooksPath: ~/ is home, relative to the working tree's top) when
// set, else the common directory's hooks/. "" means none runs (/dev/null).
func HooksDir(r Repo, hooksPath, home string) string {
	switch {
	case hooksPath == "":
		return filepath.Join(r.CommonDir, "hooks")
	case hooksPath == "/dev/null":
		return ""
	case strings.HasPrefix(hooksPath, "~/") && home != "":
		return filepath.Join(home, hooksPath[2:])
	case !filepath.IsAbs(hooksPath):
		return filepath.Join(r.Root, hooksPath)
	}
	return hooksPath
}

// HookNames are the hooks a git subcommand runs (githooks(5)); none for
// one that runs no hook.
func HookNames(sub string) []string {
	const refs = "reference-transaction"
	switch sub {
	case "commit":
		return []string{"pre-commit", "prepare-commit-msg", "commit-msg", "post-commit", "post-rewrite", refs}
	case "merge", "pull":
		return []string{"pre-merge-commit", "prepare-commit-msg", "commit-msg", "post-merge", refs}
	case "rebase":
		return []string{"pre-rebase", "post-rewrite", "post-checkout", "prepare-commit-msg", "commit-msg", refs}
	case "am":
		return []string{"applypatch-msg", "pre-applypatch", "post-applypatch", "post-rewrite", refs}
	case "checkout", "switch", "clone", "worktree":
		return []string{"post-checkout", refs}
	case "push":
		return []string{"pre-push", refs}
	case "cherry-pick", "revert":
		return []string{"prepare-commit-msg", "commit-msg", refs}
	case "gc":
		return []string{"pre-auto-gc"}
	case "stash", "reset", "update-ref", "fetch", "branch", "tag":
		return []string{refs}
	}
	return nil
}

// Hooks lists the hooks git would run from dir, of the names given (all
// when none is): its executable regular files, git's .sample files left
// out (git never runs them). A directory that does not exist holds none.
func Hooks(dir string, names ...string) []Hook {
	if dir == "" {
		return nil
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []Hook
	for _, e := range entries {
		if e.IsDir() || strings.HasSuffix(e.Name(), ".sample") {
			continue
		}
		if len(names) > 0 && !contains(names, e.Name()) {
			continue
		}
		path := filepath.Join(dir, e.Name())
		info, err := os.Stat(path)
		if err != nil || !info.Mode().IsRegular() || info.Mode()&0o111 == 0 {
			continue
		}
		h := Hook{Path: path}
		data, err := regfile.ReadFile(path, 1<<20)
		if err != nil {
			h.Err = err
		} else {
			h.Text = string(data)
			line, _, _ := strings.Cut(h.Text, "\n")
			h.Shell = !strings.HasPrefix(line, "#!") || shellLine(line)
		}
		out = append(out, h)
	}
	return out
}

// shellLine reports a #! line that runs a POSIX shell.
func shellLine(line string) bool {
	f := strings.Fields(strings.TrimPrefix(line, "#!"))
	if len(f) == 0 {
		return true
	}
	prog := filepath.Base(f[0])
	if prog == "env" && len(f) > 1 {
		prog = filepath.Base(f[1])
	}
	switch prog {
	case "sh", "bash", "dash", "zsh", "ksh", "ash", "busybox":
		return true
	}
	return false
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
