package toolingrc

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/magehook/magehook/pkg/safetext"
)

// One policy per repository, set at its top. The gates that govern a
// repository's refs and files are those the .toolingrc of its main
// checkout declares: the top of the outermost repository holding the
// start directory (a submodule's or a nested clone's superproject), and
// for a linked worktree the main checkout git's common directory belongs
// to, found from the worktree's .git file, not from the cwd. That file is
// the policy file (Config.Policy). A worktree's, a submodule's, a nested
// clone's or a subdirectory's .toolingrc may add gates and protected
// branches (the additive keys add up over every file of the chain), never
// remove, replace or weaken them: the weakening keys (policy) are read
// from the policy file and the files above it alone, and an additive
// key's own value (what replaces its default) only from the policy file.
//
// A .toolingrc above the repository counts only when it belongs to the
// user (or root) and nobody else can write it; otherwise it is left out
// of the chain, with a warning (Config.Warnings).

// policy reports the keys that weaken a gate: read from the policy file
// and above, never from a file below it.
func policy(key string) bool {
	switch key {
	case KeyHookWarn, KeyCmdguardOff, KeyCmdguardAllow, KeyCmdguardWarn:
		return true
	}
	return false
}

// mainCheckout is the top of the outermost repository holding dir and,
// when that is a linked worktree, its main checkout ("" outside git).
func mainCheckout(dir string) string {
	outer := ""
	for d := dir; ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			outer = d
		}
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		d = parent
	}
	if outer == "" {
		return ""
	}
	if main := worktreeMain(outer); main != "" {
		return main
	}
	return outer
}

// worktreeMain is the main checkout of the linked worktree at top (its
// .git a file naming a git directory with a commondir), or "".
func worktreeMain(top string) string {
	dot := filepath.Join(top, ".git")
	info, err := os.Lstat(dot)
	if err != nil || !info.Mode().IsRegular() || info.Size() > 4096 {
		return ""
	}
	data, err := os.ReadFile(dot)
	if err != nil {
		return ""
	}
	gitDir, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "gitdir:")
	if !ok {
		return ""
	}
	gitDir = strings.TrimSpace(gitDir)
	if !filepath.IsAbs(gitDir) {
		gitDir = filepath.Join(top, gitDir)
	}
	cdPath := filepath.Join(gitDir, "commondir")
	if ci, err := os.Lstat(cdPath); err != nil || !ci.Mode().IsRegular() || ci.Size() > 4096 {
		return "" // a submodule's git directory: no main checkout elsewhere
	}
	cd, err := os.ReadFile(cdPath)
	if err != nil {
		return ""
	}
	common := strings.TrimSpace(string(cd))
	if !filepath.IsAbs(common) {
		common = filepath.Join(gitDir, common)
	}
	common = filepath.Clean(common)
	if filepath.Base(common) != ".git" {
		return "" // a bare repository's worktree: no checkout holds the policy
	}
	return filepath.Dir(common)
}

// applyPolicy finds the policy file and adds the main checkout's chain
// when the start is not below it, and leaves out the files above the
// repository that are not the user's alone.
func (c *Config) applyPolicy(readChain func(string) ([]File, error)) error {
	c.PolicyTop = mainCheckout(c.Start)
	if c.PolicyTop == "" {
		return nil
	}
	have := map[string]bool{}
	for _, f := range c.Files {
		have[f.Path] = true
	}
	if !within(c.Start, c.PolicyTop) {
		// A worktree outside its main checkout: the main checkout's
		// chain joins, after the files inside the start's repository.
		more, err := readChain(c.PolicyTop)
		if err != nil {
			return err
		}
		at := len(c.Files)
		for i, f := range c.Files {
			if c.RepoTop == "" || !within(f.Dir(), c.RepoTop) {
				at = i
				break
			}
		}
		var add []File
		for _, f := range more {
			if !have[f.Path] {
				have[f.Path] = true
				add = append(add, f)
			}
		}
		c.Files = append(c.Files[:at:at], append(add, c.Files[at:]...)...)
	}
	// Above the repository, only the user's own files count.
	kept := c.Files[:0:0]
	for _, f := range c.Files {
		if within(f.Dir(), c.PolicyTop) || (c.RepoTop != "" && within(f.Dir(), c.RepoTop)) {
			kept = append(kept, f)
			continue
		}
		if why := untrusted(f.Path, c.euid()); why != "" {
			c.Warnings = append(c.Warnings, oneLine(fmt.Sprintf("%s is ignored: it is above the repository and %s; make it and its directories yours (or root's) and writable by you alone (chown, chmod go-w), or remove it", f.Path, why)))
			continue
		}
		kept = append(kept, f)
	}
	c.Files = kept
	c.policy = -1
	for i, f := range c.Files {
		if within(f.Dir(), c.PolicyTop) {
			c.policy = i // the last (topmost) file inside the main checkout
		}
	}
	return nil
}

// Policy is the policy file: the topmost .toolingrc inside the main
// checkout (Config.PolicyTop), or false when there is none.
func (c *Config) Policy() (File, bool) {
	if c.policy < 0 || c.policy >= len(c.Files) || c.PolicyTop == "" {
		return File{}, false
	}
	return c.Files[c.policy], true
}

// top is the index of the file whose additive values replace the
// defaults and from which the weakening keys are read: the policy file,
// else the top file inside the root's repository.
func (c *Config) top() int {
	if _, ok := c.Policy(); ok {
		return c.policy
	}
	return c.repoFiles() - 1
}

// Join adds the files of another configuration that this one lacks,
// after its own: the gates the other declares add to this one's (the
// additive keys count every file), and nothing of it can weaken or
// replace this one's (the policy file stays this one's). A dispatcher
// that takes its root from MAGEHOOK_ROOT joins the payload cwd's
// configuration so, when the cwd lies outside that root: an override
// left exported at a checkout without gates cannot switch off the gates
// of the checkout the agent works in.
func (c *Config) Join(other *Config) {
	if c.own == 0 {
		c.own = len(c.Files)
	}
	have := map[string]bool{}
	for _, f := range c.Files {
		have[f.Path] = true
	}
	for _, f := range other.Files {
		if !have[f.Path] {
			have[f.Path] = true
			c.Files = append(c.Files, f)
		}
	}
	c.Warnings = append(c.Warnings, other.Warnings...)
}

// ownFiles are the files of the configuration itself, without those
// Join added.
func (c *Config) ownFiles() []File {
	if c.own > 0 && c.own <= len(c.Files) {
		return c.Files[:c.own]
	}
	return c.Files
}

// oneLine is a warning as one safe line: a path's control characters
// (and newlines) escaped.
func oneLine(s string) string {
	return strings.ReplaceAll(safetext.String(s), "\n", `\n`)
}
