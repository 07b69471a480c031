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

// Hooks lists the hooks git would run from dir: its executable regular
// files, git's .sample files left out (git never runs them). A directory
// that does not exist holds none.
func Hooks(dir string) []Hook {
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
