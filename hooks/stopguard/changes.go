package stopguard

import (
	"errors"
	"hash/fnv"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/magehook/magehook/pkg/gitrepo"
	"github.com/magehook/magehook/pkg/proc"
	"github.com/magehook/magehook/pkg/regfile"
	"github.com/magehook/magehook/pkg/toolingrc"
)

// Fingerprint sums up the state of the checkout at root: the commit HEAD
// names and, for every changed or untracked file, its path, size and
// modification time. Equal fingerprints mean no file changed in between
// (as far as git shows; ignored files do not count). It is "" outside a
// git checkout, or when git fails: then nothing is known, and the check runs.
func Fingerprint(root string) string {
	repo, err := gitrepo.Find(root)
	if err != nil {
		return ""
	}
	out, err := proc.Output(repo.Root, []string{"GIT_DIR=" + repo.GitDir, "GIT_WORK_TREE=" + repo.Root, "GIT_TERMINAL_PROMPT=0", "LC_ALL=C", "GIT_OPTIONAL_LOCKS=0"},
		"git", "status", "--porcelain=v2", "-z", "--branch", "--untracked-files=all", "--no-renames")
	if err != nil {
		return ""
	}
	h := fnv.New64a()
	for _, e := range strings.Split(string(out), "\x00") {
		if e == "" {
			continue
		}
		h.Write([]byte(e))
		h.Write([]byte{0})
		if strings.HasPrefix(e, "#") {
			continue // branch.oid, branch.head, ...
		}
		// The path is the last space-separated field of a v2 entry (paths
		// with spaces: everything after the fixed fields).
		path := entryPath(e)
		if info, err := os.Lstat(filepath.Join(repo.Root, filepath.FromSlash(path))); err == nil {
			h.Write([]byte(strconv.FormatInt(info.Size(), 10) + " " + strconv.FormatInt(info.ModTime().UnixNano(), 10)))
		}
		h.Write([]byte{0})
	}
	return strconv.FormatUint(h.Sum64(), 16)
}

// entryPath is the path of one porcelain v2 entry.
func entryPath(e string) string {
	fields := 0
	switch e[0] {
	case '1':
		fields = 8 // 1 XY sub mH mI mW hH hI path
	case 'u':
		fields = 10
	case '?', '!':
		fields = 1
	default:
		return e
	}
	rest := e
	for i := 0; i < fields; i++ {
		j := strings.IndexByte(rest, ' ')
		if j < 0 {
			return rest
		}
		rest = rest[j+1:]
	}
	return rest
}

// marks are where the fingerprints live: pass, the checkout's at its last
// passing check; start-<id>, a session's or a sub-agent's at its start.
type marks struct{ dir string }

func marksOf(cfg *toolingrc.Config) (marks, error) {
	v, err := cfg.Get(toolingrc.KeyStateDir)
	if err != nil {
		return marks{}, err
	}
	return marks{filepath.Join(v.Abs(), "stopguard")}, nil
}

func (m marks) read(name string) string {
	data, err := regfile.ReadFile(filepath.Join(m.dir, name), regfile.MaxText)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(data))
}

func (m marks) write(name, fingerprint string) error {
	if fingerprint == "" {
		return nil
	}
	if err := os.MkdirAll(m.dir, 0o755); err != nil {
		return err
	}
	tmp := filepath.Join(m.dir, "."+name+".tmp")
	if err := os.WriteFile(tmp, []byte(fingerprint+"\n"), 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, filepath.Join(m.dir, name))
}

// prune removes start marks older than a week.
func (m marks) prune(now time.Time) {
	entries, err := os.ReadDir(m.dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), "start-") {
			continue
		}
		if info, err := e.Info(); err == nil && now.Sub(info.ModTime()) > 7*24*time.Hour {
			os.Remove(filepath.Join(m.dir, e.Name()))
		}
	}
}

// startName is the start mark of the agent that stops or starts: the
// sub-agent's when there is one, else the session's.
func startName(session, agent string) (string, error) {
	id := session
	if agent != "" {
		id = agent
	}
	if !toolingrc.IsToken(id) {
		return "", errors.New("no session or agent id")
	}
	return "start-" + id, nil
}
