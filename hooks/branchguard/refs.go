package branchguard

import (
	"strings"

	"github.com/magehook/magehook/pkg/gitcmd"
)

// effect is what one git invocation does to refs.
type effect struct {
	// moves are local refs it may move ("HEAD" is the checked-out branch,
	// else refs/heads/<name>).
	moves []string
	// pushes are remote branches it may move (names, refs/heads/
	// stripped); "*" means every branch of the remote (--all, --mirror,
	// a glob).
	pushes []string
	// pushDefault: a push without refspecs, whose destinations come from
	// the configuration (push.default, remote.<name>.push).
	pushDefault bool
	// fetchDefault: a fetch or pull without refspecs, whose destinations
	// come from remote.<name>.fetch.
	fetchDefault bool
	remote       string
	// switchTo is the branch the checkout has after it ("" for none;
	// "-" detached; "?" unknown).
	switchTo string
	// symrefTo: git symbolic-ref <name> <target> makes name an alias.
	symrefName, symrefTo string
	// undecided says why its effect on refs cannot be decided.
	undecided string
	// what names the operation for messages ("git commit").
	what string
	// creates is a branch git branch <name> creates (it fails if the
	// branch exists, so nothing moves).
	creates string
	// switchWhy says why switchTo is "?"; switchMaybePath: git checkout
	// <name> may restore a file of that name instead.
	switchWhy       string
	switchMaybePath bool
	// pathCandidate: git reset <x> where x may be a path (index only).
	pathCandidate bool
	// treeWrite: git brings content into the working tree (not a restore
	// of what HEAD or the index hold): merge --squash, cherry-pick -n,
	// stash pop, checkout <branch> -- <paths>, restore --source.
	treeWrite string
	// creating: the switch creates its branch (checkout -b, switch -c).
	creating bool
	// upstream is what git branch -u (or push -u) sets as the upstream
	// (remote/branch) of upstreamOf (the checked-out branch when empty).
	upstream, upstreamOf string
}

// args is a subcommand's arguments as the ref rules ask them: flags (each
// option given, in both its spellings, -f and --force), values (by
// option, in both), operands, and the words after "--".
type args struct {
	flags    []string
	values   map[string]string
	operands []gitcmd.Word
	paths    []gitcmd.Word
	dashdash bool
}

func (a *args) has(names ...string) bool {
	for _, f := range a.flags {
		for _, n := range names {
			if f == n {
				return true
			}
		}
	}
	return false
}

// argsOf reads a git command's arguments by the grammar every gate shares
// (gitcmd's gitGrammar: bundled short options, abbreviated and negated
// long ones, which options take a value).
func argsOf(g *gitcmd.Git) args {
	p := g.Parse()
	a := args{values: map[string]string{}, operands: p.Operands, paths: p.Paths, dashdash: p.DashDash}
	for k, vs := range p.Opts {
		short, valued := p.Spelling(k)
		for _, n := range [...]string{k, short} {
			if n == "" {
				continue
			}
			a.flags = append(a.flags, n)
			if valued && len(vs) > 0 {
				a.values[n] = vs[len(vs)-1].Value
			}
		}
	}
	return a
}

func heads(name string) string {
	switch {
	case strings.HasPrefix(name, "refs/"):
		return name
	case strings.HasPrefix(name, "heads/"):
		return "refs/" + name
	}
	return "refs/heads/" + name
}

// effectOf reads a git invocation's effect on refs.
func effectOf(g *gitcmd.Git, stdin string, stdinKnown bool) effect {
	e := effect{what: "git " + g.Sub}
	cur := []string{"HEAD"}
	switch g.Sub {
	case "commit":
		a := argsOf(g)
		if !a.has("--dry-run") {
			e.moves = cur
		}
	case "merge":
		a := argsOf(g)
		if !a.has("--abort", "--quit", "--squash") && !(a.has("--no-commit") && a.has("--no-ff")) {
			e.moves = cur
		}
		if !a.has("--abort", "--quit") {
			e.treeWrite = "git merge brings another branch's changes into the working tree"
		}
	case "cherry-pick", "revert":
		a := argsOf(g)
		if !a.has("--abort", "--quit", "-n", "--no-commit") {
			e.moves = cur
		}
		if !a.has("--abort", "--quit") {
			e.treeWrite = "git " + g.Sub + " changes the working tree"
		}
	case "restore":
		a := argsOf(g)
		if src, ok := a.values["-s"]; ok && src != "HEAD" {
			e.treeWrite = "git restore --source=" + src + " brings files from another commit"
		} else if src, ok := a.values["--source"]; ok && src != "HEAD" {
			e.treeWrite = "git restore --source=" + src + " brings files from another commit"
		}
	case "am":
		a := argsOf(g)
		if !a.has("--abort", "--quit", "--show-current-patch") {
			e.moves = cur
		}
	case "pull":
		a := argsOf(g)
		if a.has("--dry-run") {
			return e
		}
		e.moves = cur
		e.fetchRefspecs(a)
	case "fetch":
		a := argsOf(g)
		if a.has("--dry-run") {
			return e
		}
		if a.has("--all", "--multiple") {
			e.fetchDefault = true
			return e
		}
		e.fetchRefspecs(a)
	case "rebase":
		a := argsOf(g)
		if a.has("--abort", "--quit", "--show-current-patch", "--edit-todo") {
			return e
		}
		if len(a.operands) >= 2 {
			e.moves = []string{heads(a.operands[1].Value)}
			e.switchTo = a.operands[1].Value
		} else {
			e.moves = cur
		}
	case "reset":
		a := argsOf(g)
		if a.has("-p", "--patch") || a.dashdash && len(a.operands) == 0 {
			return e
		}
		if len(a.operands) == 0 {
			return e
		}
		rev := a.operands[0]
		if rev.Dynamic == "" && (rev.Value == "HEAD" || rev.Value == "@") {
			return e
		}
		if !a.dashdash && len(a.operands) > 1 {
			return e // reset <tree-ish> <paths>: the index only
		}
		e.moves = cur
		e.pathCandidate = !a.dashdash && len(a.operands) == 1
	case "update-ref":
		a := argsOf(g)
		if a.has("--stdin") {
			if !stdinKnown {
				e.undecided = "git update-ref --stdin reads the refs to change from input the analysis cannot see"
				return e
			}
			e.moves = stdinRefs(stdin)
			return e
		}
		if len(a.operands) == 0 {
			return e
		}
		ref := a.operands[0]
		if ref.Dynamic != "" {
			e.undecided = "git update-ref changes a ref only known at run time (" + ref.Dynamic + ")"
			return e
		}
		if ref.Value == "HEAD" || ref.Value == "@" {
			if !a.has("--no-deref") {
				e.moves = cur
			}
			return e
		}
		e.moves = []string{ref.Value}
	case "branch":
		e.branch(g)
	case "checkout", "switch":
		e.checkout(g)
	case "worktree":
		a := argsOf(g)
		if b, ok := a.values["-B"]; ok {
			e.moves = []string{heads(b)}
		}
	case "symbolic-ref":
		a := argsOf(g)
		if a.has("-d", "--delete") || len(a.operands) < 2 {
			return e
		}
		name, target := a.operands[0], a.operands[1]
		if name.Dynamic != "" || target.Dynamic != "" {
			e.undecided = "git symbolic-ref with a name only known at run time"
			return e
		}
		if name.Value == "HEAD" {
			e.switchTo = strings.TrimPrefix(target.Value, "refs/heads/")
			if !strings.HasPrefix(target.Value, "refs/heads/") {
				e.switchTo = "?"
			}
			return e
		}
		e.symrefName, e.symrefTo = name.Value, target.Value
	case "filter-branch", "filter-repo":
		a := argsOf(g)
		for _, w := range append(a.operands, a.paths...) {
			if w.Value == "--all" || w.Value == "--branches" || w.Dynamic != "" {
				e.moves = []string{"*"}
				return e
			}
			e.moves = append(e.moves, heads(strings.TrimPrefix(w.Value, "^")))
		}
		if a.has("--all") || g.Sub == "filter-repo" {
			e.moves = []string{"*"}
		}
		if len(e.moves) == 0 {
			e.moves = cur
		}
	case "fast-import":
		if !stdinKnown {
			e.undecided = "git fast-import may move any ref, from a stream the analysis cannot see"
			return e
		}
		e.moves = importRefs(stdin)
	case "stash":
		a := argsOf(g)
		if len(a.operands) >= 2 && a.operands[0].Value == "branch" {
			e.switchTo = a.operands[1].Value
		}
		if len(a.operands) >= 1 && (a.operands[0].Value == "pop" || a.operands[0].Value == "apply") {
			e.treeWrite = "git stash " + a.operands[0].Value + " brings stashed changes into the working tree"
		}
	case "bisect":
		if len(g.Args) > 0 {
			switch g.Args[0].Value {
			case "start", "good", "bad", "new", "old", "skip", "run":
				e.switchTo = "-"
			case "reset":
				e.switchTo = "?"
			}
		}
	case "push", "send-pack":
		e.push(g)
	case "replay":
		// prints update-ref commands; piped to update-ref --stdin, that
		// is caught there.
	}
	return e
}

func (e *effect) fetchRefspecs(a args) {
	if len(a.operands) == 0 {
		e.fetchDefault = true
		return
	}
	e.remote = a.operands[0].Value
	if len(a.operands) == 1 {
		e.fetchDefault = true
		return
	}
	for _, w := range a.operands[1:] {
		if w.Dynamic != "" {
			e.undecided = "a fetch refspec only known at run time (" + w.Dynamic + ")"
			return
		}
		spec := strings.TrimPrefix(w.Value, "+")
		_, dst, ok := strings.Cut(spec, ":")
		if !ok || dst == "" {
			continue // into FETCH_HEAD only
		}
		if strings.HasPrefix(dst, "refs/") && !strings.HasPrefix(dst, "refs/heads/") {
			continue
		}
		if strings.Contains(dst, "*") {
			e.moves = append(e.moves, "*")
			continue
		}
		e.moves = append(e.moves, heads(dst))
	}
}

func (e *effect) branch(g *gitcmd.Git) {
	a := argsOf(g)
	for _, f := range []string{"-u", "--set-upstream-to"} {
		if up, ok := a.values[f]; ok {
			e.upstream = up
			if len(a.operands) > 0 {
				e.upstreamOf = a.operands[0].Value
			}
			return
		}
	}
	if a.has("-l", "--list", "-a", "--all", "-r", "--remotes", "--show-current", "--unset-upstream", "--edit-description", "-v", "-vv", "--verbose") && !a.has("-d", "-D", "--delete", "-m", "-M", "--move", "-c", "-C", "--copy", "-f", "--force") {
		return
	}
	ops := a.operands
	for _, w := range ops {
		if w.Dynamic != "" {
			e.undecided = "git branch names a branch only known at run time (" + w.Dynamic + ")"
			return
		}
	}
	switch {
	case a.has("-d", "-D", "--delete"):
		for _, w := range ops {
			e.moves = append(e.moves, heads(w.Value))
		}
	case a.has("-m", "-M", "--move"):
		switch len(ops) {
		case 1:
			e.moves = []string{"HEAD", heads(ops[0].Value)}
		case 2:
			e.moves = []string{heads(ops[0].Value), heads(ops[1].Value)}
		}
	case a.has("-c", "-C", "--copy"):
		if len(ops) == 1 {
			e.moves = []string{heads(ops[0].Value)}
		} else if len(ops) == 2 {
			e.moves = []string{heads(ops[1].Value)}
		}
	case a.has("-f", "--force"):
		if len(ops) >= 1 {
			e.moves = []string{heads(ops[0].Value)}
		}
	case len(ops) >= 1:
		e.creates = heads(ops[0].Value)
	}
}

func (e *effect) checkout(g *gitcmd.Git) {
	sub := g.Sub
	a := argsOf(g)
	for _, f := range []string{"-B", "-C", "--force-create"} {
		if b, ok := a.values[f]; ok {
			e.moves = []string{heads(b)}
			e.switchTo = b
			return
		}
	}
	for _, f := range []string{"-b", "-c", "--create", "--orphan"} {
		if b, ok := a.values[f]; ok {
			e.switchTo, e.creating = b, true
			return
		}
	}
	if a.has("--detach", "-d") && sub == "switch" || a.has("--detach") {
		e.switchTo = "-"
		return
	}
	if a.has("-p", "--patch") {
		return
	}
	if len(a.paths) > 0 || len(a.operands) != 1 {
		// Paths: files, not a switch. From another commit, content the
		// checkout did not have.
		if len(a.operands) >= 1 && (len(a.paths) > 0 || len(a.operands) >= 2) {
			if src := a.operands[0]; src.Value != "HEAD" {
				e.treeWrite = "git " + sub + " " + src.Value + " -- <paths> brings files from another commit"
			}
		}
		return
	}
	t := a.operands[0]
	switch {
	case t.Dynamic != "":
		e.switchTo = "?"
		e.switchWhy = "git " + sub + " to a branch only known at run time (" + t.Dynamic + ")"
	case t.Value == "-" || strings.HasPrefix(t.Value, "@{-"):
		e.switchTo = "?"
		e.switchWhy = "git " + sub + " - returns to a branch only run time knows"
	default:
		e.switchTo = t.Value
		e.switchMaybePath = sub == "checkout"
	}
}

func (e *effect) push(g *gitcmd.Git) {
	a := argsOf(g)
	if a.has("-n", "--dry-run") {
		return
	}
	if a.has("--all", "--branches", "--mirror") {
		e.pushes = []string{"*"}
		return
	}
	ops := a.operands
	if r, ok := a.values["--repo"]; ok {
		e.remote = r
	} else if len(ops) > 0 {
		if ops[0].Dynamic != "" {
			e.undecided = "git push to a remote only known at run time (" + ops[0].Dynamic + ")"
			return
		}
		e.remote = ops[0].Value
		ops = ops[1:]
	}
	del := a.has("-d", "--delete")
	if len(ops) == 0 {
		if del || a.has("--tags") {
			return // nothing, or only tags
		}
		e.pushDefault = true
		return
	}
	for _, w := range ops {
		if w.Dynamic != "" {
			e.undecided = "git push of a refspec only known at run time (" + w.Dynamic + ")"
			return
		}
		spec := strings.TrimPrefix(w.Value, "+")
		if spec == "tag" {
			continue
		}
		src, dst, hasDst := strings.Cut(spec, ":")
		if !hasDst {
			dst = src
		}
		if del {
			dst = spec
		}
		if strings.Contains(dst, "*") {
			e.pushes = append(e.pushes, "*")
			continue
		}
		switch {
		case dst == "HEAD" || dst == "@" || (!hasDst && (strings.HasPrefix(src, "HEAD") || src == "@")):
			e.pushes = append(e.pushes, "HEAD")
		case strings.HasPrefix(dst, "refs/tags/"), strings.HasPrefix(dst, "refs/remotes/"), strings.HasPrefix(dst, "refs/notes/"):
		case strings.HasPrefix(dst, "refs/heads/"):
			e.pushes = append(e.pushes, strings.TrimPrefix(dst, "refs/heads/"))
		case strings.HasPrefix(dst, "heads/"):
			e.pushes = append(e.pushes, strings.TrimPrefix(dst, "heads/"))
		case strings.HasPrefix(dst, "refs/"):
		default:
			e.pushes = append(e.pushes, dst)
		}
	}
}

// stdinRefs lists the refs an update-ref --stdin script changes.
func stdinRefs(text string) []string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		f := strings.Fields(line)
		if len(f) >= 2 {
			switch f[0] {
			case "update", "create", "delete", "symref-update", "symref-create", "symref-delete":
				out = append(out, f[1])
			}
		}
	}
	return out
}

// importRefs lists the refs a fast-import stream writes.
func importRefs(text string) []string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		if r, ok := strings.CutPrefix(line, "commit "); ok {
			out = append(out, strings.TrimSpace(r))
		}
		if r, ok := strings.CutPrefix(line, "reset "); ok {
			out = append(out, strings.TrimSpace(r))
		}
	}
	return out
}
