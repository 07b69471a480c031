// Package docorphan refuses a commit that adds a document nothing links to.
//
// # PURPOSE
//
// A document no other document links to is found by nobody: not the next
// reader, not the next agent. This gate looks at the Markdown files a git
// commit adds (seed 002, doc-orphan-gate) and refuses the commit while one
// of them is an orphan, naming the index to link it from.
//
// # HOW IT WORKS
//
//  1. PreToolUse on Bash. The command is analysed from its shell syntax
//     tree (pkg/gitcmd, shared with branchguard): only a git commit the
//     shell would run is checked, in the repository it targets (git -C, a
//     preceding cd, the cwd). A commit in a directory the command computes
//     at run time is denied: a gate that cannot decide fails closed.
//  2. The new documents are the Markdown files (.md, .mdx, .markdown) the
//     index holds as added (git diff --cached --diff-filter=A), and the
//     untracked ones — already there, or written by the same command
//     before the commit (echo ... > guide.md) — that a git add earlier in
//     the same command stages (git add -A, git add ., a directory, a file
//     or a glob), less the
//     ones exempt: a README.md, CHANGELOG.md, CONTRIBUTING.md, LICENSE.md,
//     SECURITY.md, CODE_OF_CONDUCT.md, CLAUDE.md, AGENTS.md or GEMINI.md
//     anywhere, anything under .claude/, .github/ or .cursor/, and the
//     globs docorphan.skip adds (pkg/glob). None: the commit is allowed.
//  3. Every other Markdown file of the checkout (tracked, or untracked and
//     not ignored) is read, up to 1 MB each, for its links: inline
//     [text](target), reference [id]: target, <a href="target">, and
//     [[target]]. A target is resolved against the linking file's
//     directory ("/" is the repository root), without its #fragment or
//     ?query; a link to a directory counts for its README.md or index.md.
//  4. A new document no other document links to denies the commit. The
//     reason names it and the index to edit: the nearest README.md or
//     index.md in its directory or above, else the root README.md.
//
// To suppress the gate in a repository, leave it out of hook.enable; to
// exempt files, list globs in docorphan.skip.
//
// # EXIT CODES
//
//	0  allowed (no output), or denied with the decision on stdout
//	2  the gate failed (git could not be run, an unreadable payload): the
//	   call is blocked
package docorphan

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/magehook/magehook/pkg/gitcmd"
	"github.com/magehook/magehook/pkg/gitrepo"
	"github.com/magehook/magehook/pkg/glob"
	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/proc"
	"github.com/magehook/magehook/pkg/toolingrc"
)

// Handler is the catalogue entry.
var Handler = hook.Handler{
	Name:    "docorphan",
	Purpose: "deny a git commit that adds a Markdown document no other document links to, naming the index to edit",
	Events:  []string{"PreToolUse"},
	Matcher: "Bash",
	Policy:  hook.Gatekeeper,
	Run:     run,
}

// Exempt are the documents that need no link (docorphan.skip adds more).
func Exempt() []string {
	return []string{"README.md", "CHANGELOG.md", "CONTRIBUTING.md", "LICENSE.md", "SECURITY.md",
		"CODE_OF_CONDUCT.md", "CLAUDE.md", "AGENTS.md", "GEMINI.md", ".claude/**", ".github/**", ".cursor/**"}
}

// MaxRead is how much of each linking document is read.
const MaxRead = 1 << 20

func run(c *hook.Call) (hook.Result, error) {
	p := c.Payload
	command, ok := p.InputString("command")
	if !ok {
		return hook.Result{}, fmt.Errorf("a Bash payload without tool_input.command")
	}
	home := ""
	if c.Getenv != nil {
		home = c.Getenv("HOME")
	}
	a, err := gitcmd.Shared(command, gitcmd.HookOptions(p.WorkDir(home), home, c.Getenv, c.Budget.Until(), c.Budget.Limit()))
	if err != nil {
		return hook.Deny("docorphan cannot check this command: " + err.Error() + "."), nil
	}
	if a.SyntaxError != nil && strings.Contains(a.Unparsed, "git") {
		return hook.Deny("docorphan cannot check this command: it does not parse as shell (" + a.SyntaxError.Error() + "); fix the syntax."), nil
	}
	var skip []string
	seen := map[string]bool{}
	var reasons []string
	for ci, cmd := range a.Commands {
		if !cmd.Runs("commit") {
			continue
		}
		dir, gitDir, dynamic := cmd.Git.Where()
		if dynamic != "" {
			reasons = append(reasons, "git commit runs in a directory the command computes at run time, so docorphan cannot tell which documents it adds; name the repository with git -C <dir>")
			continue
		}
		var repo gitrepo.Repo
		if gitDir != "" {
			repo, err = gitrepo.Open(dir, gitDir)
		} else {
			repo, err = gitrepo.Find(dir)
		}
		if errors.Is(err, gitrepo.ErrNotRepo) {
			continue
		}
		if err != nil {
			return hook.Result{}, err
		}
		if seen[repo.Root] {
			continue
		}
		seen[repo.Root] = true
		if skip == nil {
			v, err := c.Config.Get(toolingrc.KeyDocorphanSkip)
			if err != nil {
				return hook.Result{}, err
			}
			skip = append(Exempt(), v.Values...)
		}
		adds := Staged(a.Commands[:ci], repo)
		orphans, err := Orphans(repo, skip, adds, Created(a, ci, repo, adds))
		if err != nil {
			return hook.Result{}, err
		}
		for _, o := range orphans {
			reasons = append(reasons, fmt.Sprintf("the commit adds %s, which no other document links to; link it from %s (or exempt it with docorphan.skip in .toolingrc)",
				o, Index(repo.Root, o)))
		}
	}
	if len(reasons) == 0 {
		return hook.Result{}, nil
	}
	return hook.Deny("docorphan: " + strings.Join(reasons, "; ") + "."), nil
}

// Staged returns what the git add commands before a commit stage in repo,
// as pathspecs from its root: "" for everything (git add -A, git add . at
// the root), a directory ("docs/") or a file or glob ("docs/a.md").
func Staged(before []gitcmd.Command, repo gitrepo.Repo) []string {
	var specs []string
	for _, cmd := range before {
		if !cmd.Runs("add") {
			continue
		}
		dir, _, dynamic := cmd.Git.Where()
		if dynamic != "" {
			continue
		}
		if r, err := gitrepo.Find(dir); err != nil || r.Root != repo.Root {
			continue
		}
		all, ended := false, false
		for _, w := range cmd.Git.Args {
			v := w.Value
			switch {
			case w.Dynamic != "":
				all = true // a computed path may be any of them
			case !ended && v == "--":
				ended = true
			case !ended && (v == "-A" || v == "--all" || v == "--no-ignore-removal"):
				all = true
			case !ended && strings.HasPrefix(v, "-"):
			default:
				p := v
				if !filepath.IsAbs(p) {
					p = filepath.Join(dir, p)
				}
				rel, err := filepath.Rel(repo.Root, p)
				if err != nil || strings.HasPrefix(rel, "..") {
					continue
				}
				rel = filepath.ToSlash(rel)
				if rel == "." {
					all = true
				} else if info, err := os.Stat(p); err == nil && info.IsDir() {
					specs = append(specs, rel+"/")
				} else {
					specs = append(specs, rel)
				}
			}
		}
		if all && !hasFlag(cmd.Git.Args, "-u", "--update") {
			specs = append(specs, "") // git add -u stages no untracked file
		}
	}
	return specs
}

func hasFlag(args []gitcmd.Word, flags ...string) bool {
	for _, a := range args {
		for _, f := range flags {
			if a.Value == f {
				return true
			}
		}
	}
	return false
}

// Created returns the documents the commands before the commit at index
// ci write (echo ... > guide.md) and a git add before it stages, as paths
// from the root: at PreToolUse they do not exist yet.
func Created(a *gitcmd.Analysis, ci int, repo gitrepo.Repo, adds []string) []string {
	if len(adds) == 0 {
		return nil
	}
	var out []string
	for _, w := range a.Writes {
		if w.Dynamic != "" || w.Glob || w.Tree || w.Repo || w.Command < 0 || w.Command >= ci {
			continue
		}
		rel, err := filepath.Rel(repo.Root, w.Path)
		if err != nil || strings.HasPrefix(rel, "..") {
			continue
		}
		rel = filepath.ToSlash(rel)
		if IsDoc(rel) && stagedBy(adds, rel) {
			out = append(out, rel)
		}
	}
	return out
}

// stagedBy reports whether an untracked file is staged by one of specs.
func stagedBy(specs []string, f string) bool {
	for _, s := range specs {
		switch {
		case s == "":
			return true
		case strings.HasSuffix(s, "/") && strings.HasPrefix(f, s):
			return true
		case s == f:
			return true
		default:
			if ok, _ := path.Match(s, f); ok {
				return true
			}
		}
	}
	return false
}

// Orphans returns the documents the commit adds that no other document of
// the checkout links to, as slash-separated paths from the root: the ones
// the index holds as added, and the untracked ones the git add specs
// (Staged) stage before it.
func Orphans(repo gitrepo.Repo, skip, adds, created []string) ([]string, error) {
	git := func(args ...string) (string, error) {
		out, err := proc.Output(repo.Root, []string{"GIT_DIR=" + repo.GitDir, "GIT_WORK_TREE=" + repo.Root, "GIT_TERMINAL_PROMPT=0", "LC_ALL=C"}, "git", args...)
		return string(out), err
	}
	added, err := git("diff", "--cached", "--name-only", "--diff-filter=A", "--no-renames", "-z")
	if err != nil {
		return nil, err
	}
	var fresh []string
	for _, f := range strings.Split(added, "\x00") {
		if f != "" && IsDoc(f) && !glob.Any(skip, f) {
			fresh = append(fresh, f)
		}
	}
	if len(adds) > 0 {
		untracked, err := git("ls-files", "-z", "--others", "--exclude-standard")
		if err != nil {
			return nil, err
		}
		for _, f := range strings.Split(untracked, "\x00") {
			if f != "" && IsDoc(f) && !glob.Any(skip, f) && stagedBy(adds, f) {
				fresh = append(fresh, f)
			}
		}
	}
	if len(created) > 0 {
		tracked, err := git("ls-files", "-z", "--cached")
		if err != nil {
			return nil, err
		}
		known := map[string]bool{}
		for _, f := range strings.Split(tracked, "\x00") {
			known[f] = true
		}
		for _, f := range fresh {
			known[f] = true
		}
		for _, f := range created {
			if !known[f] && !glob.Any(skip, f) {
				fresh = append(fresh, f)
				known[f] = true
			}
		}
	}
	if len(fresh) == 0 {
		return nil, nil
	}
	all, err := git("ls-files", "-z", "--cached", "--others", "--exclude-standard")
	if err != nil {
		return nil, err
	}
	linked := map[string]bool{}
	for _, f := range strings.Split(all, "\x00") {
		if f == "" || !IsDoc(f) {
			continue
		}
		text, err := readCapped(filepath.Join(repo.Root, filepath.FromSlash(f)))
		if err != nil {
			continue // deleted in the work tree, or not a regular file
		}
		for _, target := range Links(text) {
			if t, ok := resolve(f, target); ok && t != f {
				linked[t] = true
				linked[path.Join(t, "README.md")] = true
				linked[path.Join(t, "index.md")] = true
			}
		}
	}
	var orphans []string
	for _, f := range fresh {
		if !linked[f] {
			orphans = append(orphans, f)
		}
	}
	return orphans, nil
}

func readCapped(p string) (string, error) {
	info, err := os.Stat(p)
	if err != nil {
		return "", err
	}
	if !info.Mode().IsRegular() {
		return "", fmt.Errorf("%s is not a regular file", p)
	}
	f, err := os.Open(p)
	if err != nil {
		return "", err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, MaxRead))
	return string(b), err
}

// Links returns the link targets of a Markdown text, as written.
func Links(text string) []string {
	var out []string
	for i := 0; i < len(text); i++ {
		if c := text[i]; c != ']' && c != '[' && c != 'h' && c != 'H' {
			continue
		}
		switch {
		case strings.HasPrefix(text[i:], "]("):
			if t, ok := until(text[i+2:], ")"); ok {
				out = append(out, t)
			}
		case strings.HasPrefix(text[i:], "]:") && lineStart(text, i):
			if t, ok := until(text[i+2:], "\n"); ok {
				out = append(out, t)
			}
		case strings.HasPrefix(text[i:], "[["):
			if t, ok := until(text[i+2:], "]]"); ok {
				if bar := strings.IndexByte(t, '|'); bar >= 0 {
					t = t[:bar]
				}
				out = append(out, t, t+".md")
			}
		case len(text) > i+5 && strings.EqualFold(text[i:i+5], "href="):
			rest := text[i+5:]
			if len(rest) > 0 && (rest[0] == '"' || rest[0] == '\'') {
				if t, ok := until(rest[1:], rest[:1]); ok {
					out = append(out, t)
				}
			}
		}
	}
	return out
}

// lineStart reports whether the "]:" at i closes a reference label that
// begins its line ("[id]: target").
func lineStart(text string, i int) bool {
	start := strings.LastIndexByte(text[:i], '\n') + 1
	return strings.HasPrefix(strings.TrimLeft(text[start:i], " "), "[")
}

func until(s, end string) (string, bool) {
	j := strings.Index(s, end)
	if j < 0 || j > 2048 {
		return "", false
	}
	t := strings.TrimSpace(s[:j])
	if strings.HasPrefix(t, "<") {
		if k := strings.IndexByte(t, '>'); k > 0 {
			return t[1:k], true
		}
	}
	if k := strings.IndexAny(t, " \t"); k >= 0 {
		t = t[:k] // a link title follows
	}
	return t, t != ""
}

// resolve turns a link target written in the document from into a path
// from the repository root; false for URLs and fragments of from itself.
func resolve(from, target string) (string, bool) {
	if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") || strings.HasPrefix(target, "#") {
		return "", false
	}
	if i := strings.IndexAny(target, "#?"); i >= 0 {
		target = target[:i]
	}
	target = strings.ReplaceAll(target, "%20", " ")
	if target == "" {
		return "", false
	}
	var p string
	if strings.HasPrefix(target, "/") {
		p = path.Clean(strings.TrimPrefix(target, "/"))
	} else {
		p = path.Join(path.Dir(from), target)
	}
	if p == ".." || strings.HasPrefix(p, "../") {
		return "", false
	}
	return p, true
}

// Index is the document a new one should be linked from: the nearest
// README.md or index.md in its directory or above, else README.md.
func Index(root, doc string) string {
	for dir := path.Dir(doc); ; dir = path.Dir(dir) {
		for _, name := range []string{"README.md", "index.md"} {
			cand := path.Join(dir, name)
			if cand == doc {
				continue
			}
			if info, err := os.Stat(filepath.Join(root, filepath.FromSlash(cand))); err == nil && info.Mode().IsRegular() {
				return cand
			}
		}
		if dir == "." || dir == "/" {
			return "README.md"
		}
	}
}

// IsDoc reports whether a path is a Markdown document.
func IsDoc(p string) bool {
	l := strings.ToLower(p)
	return strings.HasSuffix(l, ".md") || strings.HasSuffix(l, ".mdx") || strings.HasSuffix(l, ".markdown")
}
