package gitcmd

import "strings"

// StashEffect is what a git command does to the stash list, which holds
// uncommitted changes (refs/stash and its reflog, shared by every
// worktree of a repository): a gate that keeps the user's edits asks it,
// so that saving them and then dropping the entry (git stash && git stash
// drop) is judged as the discard it is.
type StashEffect struct {
	// Push: the command saves the working tree's uncommitted changes as a
	// new stash@{0} (git stash, push, save), when there are any.
	// Untracked: untracked files go in too (-u, -a); Paths are its
	// pathspecs (nil: the whole tree).
	Push      bool
	Untracked bool
	Paths     []string
	// Restore is the entry the command applies and then removes (pop),
	// Apply one it applies and keeps (apply); -1 for none.
	Restore, Apply int
	// Drop lists the entries the command removes without applying them
	// (stash drop, reflog delete refs/stash@{n}); All: it removes every
	// entry (stash clear, update-ref -d refs/stash, reflog expire of
	// refs/stash).
	Drop []int
	All  bool
	// Unknown says why the entry it removes is only known at run time.
	Unknown string
}

// Stash reports the command's effect on the stash list; ok is false for a
// command that leaves it alone.
func (g *Git) Stash() (StashEffect, bool) {
	e := StashEffect{Restore: -1, Apply: -1}
	if g == nil || g.Sub == "" || g.Help || g.Exits {
		return e, false
	}
	if g.Dynamic != "" || g.Sub != "stash" && g.Sub != "update-ref" && g.Sub != "reflog" {
		return e, false // (a subcommand only run time knows: the ref rules judge it)
	}
	p := g.Parse()
	switch g.Sub {
	case "stash":
		sub := "push"
		ops := p.Operands
		if len(ops) > 0 {
			sub, ops = ops[0].Value, ops[1:]
		}
		switch sub {
		case "push", "save", "-":
			if p.Has("--patch") {
				e.Unknown = "git stash --patch stashes the hunks chosen at run time"
			}
			e.Push = true
			e.Untracked = p.Has("--include-untracked", "--all")
			if sub != "save" {
				for _, w := range append(append([]Word(nil), ops...), p.Paths...) {
					e.Paths = append(e.Paths, w.Value)
				}
			}
		case "pop", "apply", "drop":
			n := 0
			if len(ops) > 0 {
				var ok bool
				if n, ok = stashEntry(ops[0]); !ok {
					e.Unknown = "the stash entry " + ops[0].Value + " is not one the analysis can read"
				}
			}
			switch sub {
			case "pop":
				e.Restore = n
			case "apply":
				e.Apply = n
			default:
				e.Drop = append(e.Drop, n)
			}
		case "clear":
			e.All = true
		default:
			return e, false // list, show, create, store, branch
		}
		return e, true
	case "update-ref":
		if !p.Has("-d") || len(p.Operands) == 0 {
			return e, false
		}
		if ref := p.Operands[0]; ref.Dynamic != "" {
			e.Unknown = "the ref " + ref.Value + " git update-ref -d deletes is only known at run time"
		} else if ref.Value != "refs/stash" && ref.Value != "stash" {
			return e, false
		}
		e.All = true
		return e, true
	case "reflog":
		if len(p.Operands) == 0 || p.Operands[0].Value != "delete" && p.Operands[0].Value != "expire" {
			return e, false
		}
		found := false
		for _, w := range p.Operands[1:] {
			if w.Dynamic != "" {
				e.Unknown, found = "the reflog entry "+w.Value+" is only known at run time", true
				continue
			}
			ref, sel, _ := strings.Cut(w.Value, "@{")
			if ref != "stash" && ref != "refs/stash" {
				continue
			}
			found = true
			if n, ok := stashEntry(Word{Value: "stash@{" + sel}); ok && p.Operands[0].Value == "delete" {
				e.Drop = append(e.Drop, n)
			} else {
				e.All = true
			}
		}
		if p.Operands[0].Value == "expire" && p.Has("--all") {
			found, e.All = true, true
		}
		return e, found
	}
	return e, false
}

// stashEntry reads a stash entry's number: stash@{n}, refs/stash@{n}, n.
func stashEntry(w Word) (int, bool) {
	if w.Dynamic != "" {
		return 0, false
	}
	v := strings.TrimPrefix(w.Value, "refs/")
	if isDigits(v) {
		return atoiDefault(v, -1), true
	}
	if n, ok := strings.CutPrefix(v, "stash@{"); ok {
		if n, ok = strings.CutSuffix(n, "}"); ok && isDigits(n) {
			return atoiDefault(n, -1), true
		}
	}
	return 0, false
}
