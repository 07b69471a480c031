package configguard

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strings"

	"github.com/magehook/magehook/hooks/commitmsg"
	"github.com/magehook/magehook/pkg/buildinfo"
	"github.com/magehook/magehook/pkg/realpath"
	"github.com/magehook/magehook/pkg/regfile"
	"github.com/magehook/magehook/pkg/spool"
)

// What magehook runs, or builds what it runs from, beside the hook binary
// itself: each is as much the gates as the binary, since a change there
// is code that later answers (or starts beside) every call.
//
//   - the OTel shipper, spool.ShipperName beside each hook binary, which
//     a hook starts detached;
//   - the build's sidecars beside each hook binary
//     (buildinfo.SidecarPattern: the lock and the output renamed over the
//     binary when it is complete);
//   - the sources the hook binary is built from, which the installed
//     command (cmd/ensure) rebuilds it from at SessionStart when they
//     changed: everything under magefiles/ of the checkout (the
//     magefiles, the handlers kept there, the hook module's go.mod and
//     go.sum, Mage's own mage_output_file.go), and every directory the
//     hook module's go.mod replaces a module with (a local path);
//   - the commit-msg git hook that holds magehook's line
//     (commitmsg.Marker), which runs the binary for every commit.
//
// Not guarded, because they are the project's own work: the root go.mod
// and the packages of the repository's module when the magefiles live in
// it (no hook module), and the Go module and build caches (the user's).

// buildRoots are the roots whose magefiles/ the hook binary is built from:
// the home of hook.binary, the configuration's root and repository, the
// main checkout of a linked worktree and the policy's top, each once.
func (g *guard) buildRoots() []string {
	if g.rootsSet {
		return g.roots
	}
	g.rootsSet = true
	var cand []string
	if g.bin != nil {
		cand = append(cand, g.bin.Home)
	}
	if g.cfg != nil {
		cand = append(cand, g.cfg.Root(), g.cfg.RepoTop, g.cfg.PolicyTop)
		if g.c != nil {
			if main := mainCheckout(g.c, g.cfg.Root()); main != "" {
				cand = append(cand, main)
			}
		}
	}
	seen := map[string]bool{}
	for _, r := range cand {
		if r == "" {
			continue
		}
		for _, p := range []string{filepath.Clean(r), resolvedOr(r)} {
			if !seen[p] {
				seen[p] = true
				g.roots = append(g.roots, p)
			}
		}
	}
	// The hook module's local replacements are sources too.
	for _, r := range append([]string(nil), g.roots...) {
		for _, d := range localReplaces(filepath.Join(r, "magefiles")) {
			if !seen["replace:"+d] {
				seen["replace:"+d] = true
				g.replaced = append(g.replaced, d)
			}
		}
	}
	return g.roots
}

func resolvedOr(p string) string {
	if r, err := realpath.Resolve(p); err == nil {
		return r
	}
	return filepath.Clean(p)
}

// localReplaces are the directories a hook module's go.mod (in dir)
// replaces modules with: the right side of a replace that is a path
// (./, ../ or absolute), made absolute and resolved.
func localReplaces(dir string) []string {
	data, err := regfile.ReadFile(filepath.Join(dir, "go.mod"), regfile.MaxText)
	if err != nil {
		return nil
	}
	var out []string
	block := false
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if i := strings.Index(line, "//"); i >= 0 {
			line = line[:i]
		}
		line = strings.TrimSpace(line)
		switch {
		case block && line == ")":
			block = false
			continue
		case line == "replace (":
			block = true
			continue
		case strings.HasPrefix(line, "replace ") || strings.HasPrefix(line, "replace\t"):
			line = strings.TrimSpace(line[len("replace"):])
		case !block:
			continue
		}
		_, target, ok := strings.Cut(line, "=>")
		if !ok {
			continue
		}
		fields := strings.Fields(target)
		if len(fields) == 0 {
			continue
		}
		p := strings.Trim(fields[0], `"`)
		if !(strings.HasPrefix(p, "./") || strings.HasPrefix(p, "../") || filepath.IsAbs(p)) {
			continue // a module path: the module cache's
		}
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		out = append(out, resolvedOr(p))
	}
	return out
}

// artefact says what a path (fp, folded; parts its components) is when
// it is one of the files above ("" when it is not).
func (g *guard) artefact(path, fp string, parts []string) string {
	if len(parts) == 0 {
		return ""
	}
	last := parts[len(parts)-1]
	dir := "/" + strings.Join(parts[:len(parts)-1], "/")
	for _, b := range g.binary {
		bdir := foldPath(filepath.Dir(b))
		if dir != bdir && !samePath(dir, bdir) {
			continue
		}
		if component(last, fold(spool.ShipperName)) || strings.TrimSuffix(last, ".exe") == fold(spool.ShipperName) {
			return "the OTel shipper a hook starts (" + spool.ShipperName + " beside the hook binary)"
		}
		if matchName(buildinfo.SidecarPattern(b), last) {
			return "a build file of the hook binary (" + buildinfo.SidecarPattern(b) + " beside it: the build lock, the output put in its place)"
		}
	}
	g.buildRoots()
	for _, r := range g.roots {
		if within(fp, filepath.Join(r, "magefiles")) {
			return "a source of the hook binary (magefiles/, which hook:build and the SessionStart rebuild compile into it)"
		}
	}
	for _, d := range g.replaced {
		if within(fp, d) {
			return "a source of the hook binary (" + d + ", where the hook module's go.mod replaces a module)"
		}
	}
	if last == "commit-msg" && magehookGitHook(path) {
		return "the commit-msg git hook that runs magehook (" + commitmsg.Marker + ")"
	}
	return ""
}

// magehookGitHook reports a commit-msg hook (followed through links) that
// holds magehook's line.
func magehookGitHook(path string) bool {
	data, err := regfile.ReadFile(path, regfile.MaxText)
	return err == nil && bytes.Contains(data, []byte(commitmsg.Marker))
}

// existingArtefacts are the files above that exist, for the judgement of
// a tree (rm -r of a directory holding one) and of links to them.
func (g *guard) existingArtefacts() []string {
	var out []string
	for _, b := range g.binaries() {
		d := filepath.Dir(b)
		out = append(out, filepath.Join(d, spool.ShipperName))
		if m, err := filepath.Glob(filepath.Join(d, buildinfo.SidecarPattern(b))); err == nil {
			out = append(out, m...)
		}
	}
	for _, r := range g.buildRoots() {
		out = append(out, filepath.Join(r, "magefiles"))
		if g.c == nil {
			continue
		}
		if repo, err := g.c.Repo(r); err == nil {
			if hook := filepath.Join(repo.CommonDir, "hooks", "commit-msg"); magehookGitHook(hook) {
				out = append(out, hook)
			}
		}
	}
	out = append(out, g.replaced...)
	var kept []string
	for _, p := range out {
		if _, err := os.Lstat(p); err == nil {
			kept = append(kept, p)
		}
	}
	return kept
}
