package gitcmd

import (
	"bytes"
	"strings"
)

// TreeChange is what a git command does to the files of its working tree,
// in terms git itself computes before the command runs: lists of names
// (git diff between what is checked out and what the command applies,
// the stash's trees, a commit's own changes), so that a gate asks git
// which files change instead of taking the whole tree.
type TreeChange struct {
	// Lists are git invocations (arguments after "git") that each print
	// NUL-separated names, relative to the top of the working tree, of
	// files the command may change.
	Lists []GitList
	// Content: the command brings content the checkout did not have
	// (a merge, another commit's files, git rm, git mv); otherwise it
	// puts back what HEAD or the index hold.
	Content bool
	// Discards: the files listed have uncommitted changes the command
	// throws away (checkout -- f, restore, reset --hard, checkout -f).
	Discards bool
	// FromIndex: the files come from the index (git checkout-index, git
	// restore and git checkout -- <paths> without a source), so the lists
	// hold only while nothing earlier in the line changes the index
	// (git update-index --cacheinfo, git add).
	FromIndex bool
	// Switch: the command moves the checkout to another commit (a
	// checkout or switch of a branch, reset --hard <commit>): the files
	// change because the branch does, which ref rules judge.
	Switch bool
	// Dirty lists the uncommitted changes (tracked files that differ from
	// HEAD or the index) the command throws away: the user's edits.
	Dirty []GitList
	// Paths are the command's own pathspecs (nil: the whole tree), for
	// a judge that wants them.
	Paths []Word
	// Revs are the revisions the command applies (a merge's, a rebase's
	// upstream, onto and branch, a cherry-pick's commits, a pull's
	// remote-tracking branches): when one does not name a commit, git
	// refuses and the tree does not change, unless an earlier command of
	// the same line creates it.
	Revs []string
	// Unknown says why what it changes cannot be listed (a revision only
	// run time knows, a subcommand without a model): judge the whole tree.
	Unknown string
}

// GitList is one git invocation of a TreeChange.
type GitList struct {
	Args []string
	// Optional: a failure means there is nothing to list (a stash
	// without untracked files has no third parent).
	Optional bool
}

// RunGit runs git with args in the working tree and returns its output.
type RunGit func(args ...string) ([]byte, error)

// Files runs the lists and returns the names they print, deduplicated;
// an error of a list that is not optional is returned (the caller then
// judges the whole tree).
func (t TreeChange) Files(run RunGit) ([]string, error) {
	seen := map[string]bool{}
	var out []string
	for _, l := range t.Lists {
		data, err := run(l.Args...)
		if err != nil {
			if l.Optional {
				continue
			}
			return nil, err
		}
		for _, name := range bytes.Split(data, []byte{0}) {
			if n := string(bytes.TrimSpace(name)); n != "" && !seen[n] {
				seen[n] = true
				out = append(out, n)
			}
		}
	}
	return out, nil
}

// Unresolved returns the first of Revs that names no commit, as git
// rev-parse --verify says; "" when all do (or there are none). A range
// (a..b) or other expression is taken to resolve: only a plain name is
// asked.
func (t TreeChange) Unresolved(run RunGit) string {
	for _, r := range t.Revs {
		if r == "" || strings.HasPrefix(r, "-") || strings.Contains(r, "..") {
			continue
		}
		if _, err := run("rev-parse", "--verify", "--quiet", "--end-of-options", r+"^{commit}"); err != nil {
			return r
		}
	}
	return ""
}

// ReadsRefsOnly reports a git command that creates, moves and deletes no
// ref (status, log, diff, show, ...): one before a merge of a revision
// that does not exist cannot make it exist.
func (g *Git) ReadsRefsOnly() bool {
	if g == nil || g.Dynamic != "" || g.shellAlias != "" {
		return false
	}
	if g.Help || g.Exits {
		return true
	}
	switch g.Sub {
	case "status", "log", "diff", "show", "rev-parse", "rev-list", "describe", "shortlog", "blame", "annotate", "grep", "ls-files", "ls-tree",
		"cat-file", "merge-base", "diff-tree", "diff-index", "diff-files", "show-ref", "for-each-ref", "name-rev", "cherry", "whatchanged",
		"range-diff", "count-objects", "version", "var", "check-ignore", "check-attr", "check-ref-format", "show-branch", "format-patch", "archive":
		return true
	}
	return false
}

// DirtyFiles runs the Dirty lists: the uncommitted changes the command
// throws away.
func (t TreeChange) DirtyFiles(run RunGit) ([]string, error) {
	return TreeChange{Lists: t.Dirty}.Files(run)
}

// The fixed options of the lists: names only, renames as a delete and an
// add (both names), no external diff or textconv program, no pager.
var (
	diffNames = []string{"diff", "--no-ext-diff", "--no-textconv", "--no-renames", "--name-only", "-z"}
	logNames  = []string{"-c", "log.showSignature=false", "log", "--no-walk=unsorted", "--format=", "--no-renames", "--name-only", "-z", "-m", "--no-show-signature"}
)

// dirtyLists are the uncommitted changes of paths (all when none): the
// working tree and the index against HEAD.
func dirtyLists(paths []string) []GitList {
	return []GitList{diffList([]string{"HEAD"}, paths), diffList([]string{"--cached", "HEAD"}, paths)}
}

func diffList(revs []string, paths []string) GitList {
	args := append(append([]string{}, diffNames...), revs...)
	args = append(args, "--")
	return GitList{Args: append(args, paths...)}
}

// TreeChange models what the git command writes in its working tree: ok
// is false for a command that writes none (status, commit, log, a
// restore of the index only, stash list, ...).
func (g *Git) TreeChange() (TreeChange, bool) {
	if g == nil || g.Sub == "" || g.Help || g.Exits || g.Dynamic != "" {
		return TreeChange{}, false
	}
	p := g.Parse()
	var tc TreeChange
	unknown := func(why string) (TreeChange, bool) {
		tc.Unknown = why
		return tc, true
	}
	if p.Dynamic != "" {
		return unknown("git " + g.Sub + " has an option only known at run time (" + p.Dynamic + ")")
	}
	paths, why := literal(p.Paths)
	if why != "" {
		return unknown(why)
	}
	tc.Paths = p.Paths
	switch g.Sub {
	case "merge":
		switch {
		case p.Has("--abort"):
			// Back to HEAD: what the merge left in the tree goes.
			tc.Lists = append(tc.Lists, diffList([]string{"HEAD"}, nil))
			return tc, true
		case p.Has("--quit", "--continue"):
			return tc, false
		}
		revs, why := literal(p.Operands)
		if why != "" {
			return unknown(why)
		}
		if len(revs) == 0 {
			revs = []string{"@{upstream}"}
		}
		tc.Content = true
		for _, r := range revs {
			if r == "-" {
				r = "@{-1}"
			}
			tc.Revs = append(tc.Revs, r)
			tc.Lists = append(tc.Lists, diffList([]string{"HEAD..." + r}, nil))
		}
	case "pull":
		if p.Has("--dry-run") {
			return tc, false
		}
		ops, why := literal(p.Operands)
		if why != "" {
			return unknown(why)
		}
		var revs []string
		switch {
		case len(ops) == 0:
			revs = []string{"@{upstream}"}
		case len(ops) == 1:
			revs = []string{"@{upstream}"}
		default:
			for _, spec := range ops[1:] {
				src, _, _ := strings.Cut(strings.TrimPrefix(spec, "+"), ":")
				src = strings.TrimPrefix(src, "refs/heads/")
				if src == "" || strings.ContainsAny(src, "*") {
					return unknown("git pull of " + spec + " fetches what the remote has")
				}
				if ops[0] == "." {
					revs = append(revs, src)
				} else {
					revs = append(revs, "refs/remotes/"+ops[0]+"/"+src)
				}
			}
		}
		// As a merge or as a rebase (pull.rebase may say either): what it
		// brings, and the checkout's own commits it may replay.
		tc.Content = true
		tc.Revs = revs
		for _, r := range revs {
			tc.Lists = append(tc.Lists, diffList([]string{"HEAD", r}, nil), diffList([]string{r + "...HEAD"}, nil))
		}
	case "rebase":
		switch {
		case p.Has("--abort"):
			tc.Lists = append(tc.Lists, diffList([]string{"HEAD"}, nil), GitList{Args: append(append([]string{}, diffNames...), "HEAD", "ORIG_HEAD", "--"), Optional: true})
			return tc, true
		case p.Has("--quit", "--show-current-patch", "--edit-todo"):
			return tc, false
		case p.Has("--continue", "--skip"):
			// The rest of a rebase under way replays commits of the branch
			// it started from (ORIG_HEAD) that HEAD does not have; without
			// ORIG_HEAD no rebase is under way, and git refuses.
			tc.Content = true
			tc.Lists = append(tc.Lists, GitList{Args: []string{"-c", "log.showSignature=false", "log", "--format=", "--no-renames", "--name-only", "-z", "-m", "ORIG_HEAD", "--not", "HEAD", "--"}, Optional: true})
			return tc, true
		case p.Has("--root"):
			return unknown("git rebase --root rewrites the whole history")
		}
		ops, why := literal(p.Operands)
		if why != "" {
			return unknown(why)
		}
		upstream := "@{upstream}"
		if len(ops) >= 1 {
			upstream = ops[0]
		}
		onto := upstream
		if v, ok := p.Value("--onto"); ok {
			if v.Dynamic != "" {
				return unknown("git rebase --onto " + v.Value + " is only known at run time")
			}
			onto = v.Value
		}
		branch := "HEAD"
		if len(ops) >= 2 {
			branch = ops[1]
		}
		tc.Content = true
		tc.Revs = []string{upstream, onto, branch}
		// What the new base brings, and the commits replayed onto it.
		tc.Lists = append(tc.Lists, diffList([]string{"HEAD", onto}, nil), diffList([]string{upstream + "..." + branch}, nil))
		if branch != "HEAD" {
			tc.Lists = append(tc.Lists, diffList([]string{"HEAD", branch}, nil))
		}
	case "cherry-pick", "revert":
		switch {
		case p.Has("--abort"):
			tc.Lists = append(tc.Lists, diffList([]string{"HEAD"}, nil))
			return tc, true
		case p.Has("--quit"):
			return tc, false
		case p.Has("--continue", "--skip"):
			return unknown("git " + g.Sub + " " + g.Args[0].Value + " goes on with a sequence under way")
		}
		revs, why := literal(p.Operands)
		if why != "" {
			return unknown(why)
		}
		if len(revs) == 0 || p.Has("--stdin") {
			return unknown("git " + g.Sub + " reads its commits from input the analysis cannot see")
		}
		tc.Content = true
		tc.Revs = revs
		tc.Lists = append(tc.Lists, GitList{Args: append(append(append([]string{}, logNames...), revs...), "--")})
	case "stash":
		sub := "push"
		ops := p.Operands
		if len(ops) > 0 {
			sub = ops[0].Value
			ops = ops[1:]
		}
		switch sub {
		case "pop", "apply":
			revs, why := literal(ops)
			if why != "" {
				return unknown(why)
			}
			s := "stash@{0}"
			if len(revs) > 0 {
				s = revs[0]
				if isDigits(s) {
					s = "stash@{" + s + "}"
				}
			}
			tc.Content = true
			tc.Lists = append(tc.Lists,
				diffList([]string{s + "^1", s}, nil),
				GitList{Args: []string{"ls-tree", "-r", "--full-name", "--name-only", "-z", s + "^3"}, Optional: true})
			if p.Has("--index") {
				tc.Lists = append(tc.Lists, diffList([]string{s + "^1", s + "^2"}, nil))
			}
		case "push", "save", "-":
			if p.Has("--patch") {
				return unknown("git stash --patch stashes the hunks chosen at run time")
			}
			if sub == "save" {
				ops = nil
			}
			rest, why := literal(ops)
			if why != "" {
				return unknown(why)
			}
			paths = append(paths, rest...)
			// The changes go into the stash (git stash pop brings them
			// back): the tree returns to HEAD.
			tc.Lists = append(tc.Lists, diffList([]string{"HEAD"}, paths))
			if p.Has("--include-untracked") {
				tc.Lists = append(tc.Lists, GitList{Args: append([]string{"ls-files", "--full-name", "-z", "--others", "--exclude-standard", "--"}, paths...)})
			}
			if p.Has("--all") {
				tc.Lists = append(tc.Lists, GitList{Args: append([]string{"ls-files", "--full-name", "-z", "--others", "--"}, paths...)})
			}
		case "branch":
			return unknown("git stash branch checks out another commit and applies the stash")
		default:
			return tc, false // list, show, drop, clear, create, store
		}
	case "checkout", "switch", "restore":
		tc, ok := g.checkoutChange(p, paths)
		return tc.checked(), ok
	case "reset":
		if !p.Has("--hard", "--merge", "--keep") {
			return tc, false
		}
		revs, why := literal(p.Operands)
		if why != "" {
			return unknown(why)
		}
		rev := "HEAD"
		if len(revs) > 0 {
			rev = revs[0]
		}
		tc.Content = rev != "HEAD" && rev != "@"
		tc.Switch = tc.Content
		tc.Discards = p.Has("--hard")
		if tc.Discards {
			tc.Dirty = dirtyLists(nil)
		}
		tc.Lists = append(tc.Lists, diffList([]string{rev}, nil))
		if p.Has("--hard") {
			tc.Lists = append(tc.Lists, diffList([]string{"--cached", rev}, nil))
		}
	case "read-tree":
		if !p.Has("-u") {
			return tc, false
		}
		revs, why := literal(p.Operands)
		if why != "" {
			return unknown(why)
		}
		if len(revs) == 0 || p.Has("--empty") {
			return unknown("git read-tree -u empties or fills the tree from the index")
		}
		tc.Content = true
		for _, r := range revs {
			tc.Lists = append(tc.Lists, diffList([]string{r}, nil))
		}
	case "checkout-index":
		ops, why := literal(p.Operands)
		if why != "" {
			return unknown(why)
		}
		if p.Has("--stdin") {
			return unknown("git checkout-index --stdin reads the paths from input the analysis cannot see")
		}
		if !p.Has("--all") && len(ops) == 0 {
			return tc, false
		}
		if _, ok := p.Value("--prefix"); ok {
			return unknown("git checkout-index --prefix writes the files under another name")
		}
		tc.FromIndex = true
		tc.Discards = p.Has("--force")
		tc.Lists = append(tc.Lists, diffList(nil, ops))
		if tc.Discards {
			tc.Dirty = []GitList{diffList(nil, ops)}
		}
		tc.Paths = p.Operands
	default:
		return tc, false
	}
	return tc.checked(), true
}

// checked makes a change whose lists would pass a word of the command to
// git as an option (a revision spelled -x) unknown: the lists must only
// read.
func (t TreeChange) checked() TreeChange {
	for _, l := range t.Lists {
		for i, a := range l.Args {
			if a == "--" {
				break
			}
			if i >= len(diffNames) && strings.HasPrefix(a, "-") && a != "--cached" && l.Args[0] == "diff" {
				return TreeChange{Unknown: "git would read " + a + " as an option"}
			}
		}
	}
	return t
}

// checkoutChange models git checkout, switch and restore.
func (g *Git) checkoutChange(p GitArgs, paths []string) (TreeChange, bool) {
	var tc TreeChange
	unknown := func(why string) (TreeChange, bool) {
		tc.Unknown = why
		return tc, true
	}
	if p.Has("--patch") {
		return unknown("git " + g.Sub + " --patch takes the hunks chosen at run time")
	}
	if p.Has("--pathspec-from-file") {
		return unknown("git " + g.Sub + " reads its paths from a file")
	}
	ops, why := literal(p.Operands)
	if why != "" {
		return unknown(why)
	}
	force := p.Has("--force", "--discard-changes")
	if g.Sub == "restore" {
		worktree := p.Has("--worktree") || !p.Has("--staged")
		if !worktree {
			return tc, false
		}
		paths = append(paths, ops...)
		src := ""
		if v, ok := p.Value("--source"); ok {
			if v.Dynamic != "" {
				return unknown("git restore --source " + v.Value + " is only known at run time")
			}
			src = v.Value
		} else if p.Has("--staged") {
			src = "HEAD"
		}
		return restoreFrom(src, paths), true
	}
	// git checkout [<tree-ish>] [--] <paths>: files; else a switch.
	if g.Sub == "checkout" && p.Has("--ours", "--theirs") {
		return restoreFrom("", append(ops, paths...)), true
	}
	if g.Sub == "checkout" && (p.DashDash || len(ops) >= 2) {
		src := ""
		if len(ops) > 0 && (p.DashDash || len(ops) >= 2) {
			src, ops = ops[0], ops[1:]
		}
		if p.DashDash && len(ops) > 0 {
			// checkout <tree-ish> <path> -- <path>: both lists are paths
			// only when the first operand is one; take it as a tree-ish.
			paths = append(ops, paths...)
		} else if !p.DashDash {
			paths = ops
		}
		if src == "@" {
			src = "HEAD"
		}
		if p.Has("--ours", "--theirs", "--merge") {
			src = ""
		}
		return restoreFrom(src, paths), true
	}
	if _, orphan := p.Value("--orphan"); orphan && g.Sub == "switch" {
		// git switch --orphan empties the working tree of tracked files
		// (git checkout --orphan keeps them).
		return unknown("git switch --orphan removes every tracked file")
	}
	// A switch. git checkout <name> may also be a file of that name;
	// either way the files that differ from the target change.
	target := ""
	for _, k := range []string{"-b", "-B", "--orphan", "--create", "--force-create"} {
		if _, ok := p.Value(k); ok {
			target = "HEAD"
		}
	}
	switch {
	case len(ops) == 1:
		target = ops[0]
	case len(ops) > 1:
		target = ops[len(ops)-1]
	case target == "" && g.Sub == "checkout" && !force:
		return tc, false // git checkout alone: nothing
	case target == "":
		target = "HEAD"
	}
	if target == "-" {
		target = "@{-1}"
	}
	if g.Sub == "checkout" && len(ops) == 1 && !p.Has("--detach", "-b", "-B", "--orphan") {
		// git checkout <name> with a file of that name restores the file
		// from the index, throwing its changes away.
		tc.Lists = append(tc.Lists, diffList(nil, ops))
		tc.Dirty = append(tc.Dirty, diffList(nil, ops))
		tc.Discards = true
	}
	same := target == "HEAD" || target == "@"
	if same && !force && len(tc.Lists) == 0 {
		return tc, false // onto what is checked out: nothing changes
	}
	tc.Content = !same
	tc.Switch = !same
	if force {
		// The working tree becomes the target's, local changes and all.
		tc.Discards = true
		tc.Dirty = append(tc.Dirty, dirtyLists(nil)...)
		tc.Lists = append(tc.Lists, diffList([]string{target}, nil), diffList([]string{"--cached", target}, nil))
	} else if !same {
		// Files that differ between the commits change; git refuses to
		// overwrite local changes to them. (git checkout <name> of a
		// name that is no revision is the file's restore, above.)
		l := diffList([]string{"HEAD", target}, nil)
		l.Optional = g.Sub == "checkout" && len(ops) == 1 && len(tc.Lists) == 1
		tc.Lists = append(tc.Lists, l)
	}
	return tc, true
}

// restoreFrom is a restore of paths from src (the index when empty): the
// files that differ between the working tree and src change. From HEAD
// or the index it throws away the user's changes; from another commit it
// brings content.
func restoreFrom(src string, paths []string) TreeChange {
	tc := TreeChange{}
	var revs []string
	if src != "" {
		revs = []string{src}
	}
	tc.Content = src != "" && src != "HEAD"
	tc.Discards = !tc.Content
	tc.FromIndex = src == ""
	if len(paths) == 0 {
		tc.Unknown = "git restores no paths it names"
		return tc
	}
	// (A file the source has and the working tree does not shows as
	// deleted: it is listed too.)
	tc.Lists = append(tc.Lists, diffList(revs, paths))
	switch src {
	case "":
		tc.Dirty = []GitList{diffList(nil, paths)}
	case "HEAD":
		tc.Dirty = dirtyLists(paths)
	}
	for _, p := range paths {
		tc.Paths = append(tc.Paths, Word{Value: p})
	}
	return tc
}

// literal returns the values of words, or why one is only known at run
// time.
func literal(ws []Word) ([]string, string) {
	out := make([]string, 0, len(ws))
	for _, w := range ws {
		if w.Dynamic != "" {
			return nil, w.Value + " is only known at run time (" + w.Dynamic + ")"
		}
		out = append(out, w.Value)
	}
	return out, ""
}
