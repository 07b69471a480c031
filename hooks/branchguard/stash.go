package branchguard

import (
	"bytes"
	"fmt"

	"github.com/magehook/magehook/pkg/gitcmd"
)

// stashed is a stash entry a command saved, earlier in the same command,
// from the uncommitted changes of a checkout where a protected branch is
// checked out: the user's edits.
type stashed struct {
	files []string
	where string
	ref   string
}

// stashes judges the stash list by effect (before the writes: a pop of
// an entry the command made from the same checkout is marked in
// ownStash): saving a protected checkout's
// uncommitted changes is no loss (git stash pop brings them back), but
// dropping that entry again in the same command (git stash && git stash
// drop, git stash clear, git update-ref -d refs/stash, git reflog delete
// refs/stash@{0}) throws the user's edits away, as git checkout -- . does.
// An entry the command did not make is left to the user's own judgement:
// dropping a stash one chose is ordinary work.
func (c *checker) stashes() {
	var lists map[string][]stashed // by common git directory
	for i, cmd := range c.a.Commands {
		e, ok := cmd.Git.Stash()
		if !ok {
			continue
		}
		dir, gitDir, dyn := cmd.Git.Where()
		if dyn != "" || dir == "" {
			continue // the ref rules judge a repository only run time knows
		}
		rs := c.repoAt(dir, gitDir)
		if rs.err != nil {
			continue
		}
		key := rs.repo.CommonDir
		list := lists[key]
		switch {
		case e.Push:
			ref := ""
			for _, b := range c.branchesAt(rs, i) {
				if b == "?" || b != "-" && rs.isProtected(b) {
					ref = b
					break
				}
			}
			if ref == "" {
				continue
			}
			files := dirtyFiles(gitRunner(dir, gitDir, rs), e)
			if len(files) == 0 {
				continue // nothing to save: git stash makes no entry
			}
			if lists == nil {
				lists = map[string][]stashed{}
			}
			lists[key] = append([]stashed{{files: files, where: rs.repo.Root, ref: ref}}, list...)
		case len(list) == 0:
		case e.Restore >= 0 || e.Apply >= 0:
			n := max(e.Restore, e.Apply)
			if e.Unknown != "" || n >= len(list) {
				continue
			}
			if list[n].where == rs.repo.Root {
				// What it brings back is what this checkout had: no
				// change of content (gitTree leaves it alone).
				if c.ownStash == nil {
					c.ownStash = map[int]bool{}
				}
				c.ownStash[i] = true
			}
			if e.Restore >= 0 {
				lists[key] = append(list[:n:n], list[n+1:]...)
			}
		default:
			var lost []stashed
			switch {
			case e.All || e.Unknown != "":
				lost, lists[key] = list, nil
			default:
				for _, n := range e.Drop {
					if n < len(list) {
						lost = append(lost, list[n])
					}
				}
			}
			for _, s := range lost {
				name := s.ref
				if name == "?" {
					name = "(unknown)"
				}
				c.find(Finding{Rule: RuleWrite, Ref: s.ref, Where: s.where, Command: cmd.Text,
					Detail: fmt.Sprintf("it would throw away the uncommitted changes of %s, which git stash saved earlier in this command from %s, where the protected branch %s is checked out (the user's edits; commit or stash them on a branch, and keep the stash)", listFew(s.files), s.where, name)})
			}
		}
	}
}

// dirtyFiles lists what a git stash saves: tracked files that differ from
// HEAD (within its pathspecs), and untracked ones with -u or -a. A list
// git cannot make counts as a change (fail closed).
func dirtyFiles(run gitcmd.RunGit, e gitcmd.StashEffect) []string {
	var files []string
	lists := [][]string{append([]string{"diff", "--name-only", "-z", "HEAD", "--"}, e.Paths...)}
	if e.Untracked {
		lists = append(lists, append([]string{"ls-files", "-z", "--others", "--exclude-standard", "--"}, e.Paths...))
	}
	for _, args := range lists {
		out, err := run(args...)
		if err != nil {
			return []string{"(files git cannot list now: " + err.Error() + ")"}
		}
		for _, f := range bytes.Split(out, []byte{0}) {
			if len(f) > 0 {
				files = append(files, string(f))
			}
		}
	}
	return files
}
