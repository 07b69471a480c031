package payload

import (
	"path/filepath"
	"strings"
)

// WorkDir is where a shell tool call runs: the tool input's workdir
// (each harness's own name for it is mapped there when its payload is
// read: pkg/harness, WorkDirFields), relative to the cwd or absolute (~/
// is home), else the payload's cwd. Every gate that resolves a shell
// command's paths starts there.
func (p *Payload) WorkDir(home string) string {
	for _, f := range [...]string{"workdir"} {
		d, ok := p.InputString(f)
		if !ok || d == "" {
			continue
		}
		if strings.HasPrefix(d, "~/") && home != "" {
			d = filepath.Join(home, d[2:])
		}
		if !filepath.IsAbs(d) {
			d = filepath.Join(p.CWD, d)
		}
		return filepath.Clean(d)
	}
	return p.CWD
}
