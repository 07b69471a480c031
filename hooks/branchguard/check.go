package branchguard

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/magehook/magehook/pkg/gitcmd"
	"github.com/magehook/magehook/pkg/gitrepo"
	"github.com/magehook/magehook/pkg/gitx"
	"github.com/magehook/magehook/pkg/proc"
	"github.com/magehook/magehook/pkg/realpath"
	"github.com/magehook/magehook/pkg/regfile"
)

// The rules a finding names.
const (
	RuleMove      = "protected branches never move"
	RulePush      = "protected branches of a remote are only changed by review"
	RuleWrite     = "the checkout of a protected branch never changes"
	RuleRefStore  = "git's ref storage is only changed by git"
	RuleUndecided = "what cannot be decided is denied"
)

// Input is a Bash command and the world it runs in.
type Input struct {
	Command string
	// Dir is where the shell starts (the payload's cwd, or the harness's
	// working-directory argument).
	Dir, Home string
	Getenv    func(string) string
	// Protect are guard.protect's values: branch names, and
	// <remote>/HEAD for whatever that remote's default branch is.
	Protect  []string
	Deadline time.Time
	// Check and MaxBytes are the gate's budget (hook.Call.Budget).
	Check    func() error
	MaxBytes int
	// ReadFile reads scripts and configuration (regular files of at most
	// regfile.MaxText bytes when nil).
	ReadFile func(string) ([]byte, error)
	// Shared: take the analysis the other gates of this hook run share
	// (gitcmd.Shared with gitcmd.HookOptions).
	Shared bool
	// Find finds the checkout of a directory (gitrepo.Find when nil; a
	// hook passes hook.Call.Repo).
	Find func(string) (gitrepo.Repo, error)
	// PolicyOf, when set, is the protected names of a repository whose
	// own policy governs it (other true; policy.go), or other false for
	// one the caller's Protect governs.
	PolicyOf func(gitrepo.Repo) (protect []string, other bool)
	// Typed is magehook's command as typed in the checkout, for the way
	// out a deny names (hook.Call.Typed; "" for go tool mage).
	Typed string
	// PowerShell: Command is PowerShell's (the PowerShell tool), read
	// into the same model (gitcmd.Options.PowerShell).
	PowerShell bool
	// noHooks: the command is a git hook's, whose own git commands do not
	// follow hooks again.
	noHooks bool
}

// Finding is one reason to deny.
type Finding struct {
	Rule string
	// Ref is the protected branch concerned ("" for an undecidable one).
	Ref string
	// Where is the checkout or remote.
	Where string
	// Command is the source text of the command that does it.
	Command string
	// Detail is a sentence for the model: what would happen.
	Detail string
	// Push: the finding is about a remote.
	Push bool
}

// Step is one git invocation as branchguard read it (for hook:explain).
type Step struct {
	Index    int
	Text     string
	Repo     string
	Branches []string
	Effect   string
}

// Report is the whole decision.
type Report struct {
	Analysis *gitcmd.Analysis
	Steps    []Step
	Findings []Finding
}

// checker carries the repositories seen, by git directory.
type checker struct {
	in      Input
	a       *gitcmd.Analysis
	repos   map[string]*repoState
	byDir   map[string]*repoState
	report  *Report
	protect []string
	// treeSeen: the git commands whose working-tree change was judged.
	treeSeen map[int]bool
	// ownStash marks the stash pops and applies of an entry the command
	// itself made from the same checkout (stash.go).
	ownStash map[int]bool
	// stashPops are the findings of stash pops and applies on a protected
	// checkout, kept until stashes has marked ownStash.
	stashPops []stashPop
}

type stashPop struct {
	cmd int
	f   Finding
}

type repoState struct {
	repo      gitrepo.Repo
	err       error
	protected map[string]bool
	config    []gitcmd.ConfigEntry
	loaded    bool
	switches  []switchRec
}

type switchRec struct {
	cmd int
	to  string // a branch, "-" (detached) or "?" (unknown)
	why string
	// sure: the switch cannot fail (it creates a branch that does not
	// exist), so what follows runs after it even without &&.
	sure bool
}

// Check analyses a command and decides it.
func Check(in Input) (*Report, error) {
	if in.ReadFile == nil {
		in.ReadFile = regfile.Reader(regfile.MaxText)
	}
	if in.Find == nil {
		in.Find = gitrepo.Find
	}
	var a *gitcmd.Analysis
	var err error
	if in.Shared {
		opts := gitcmd.HookOptions(in.Dir, in.Home, in.Getenv, in.Deadline, in.MaxBytes)
		opts.PowerShell = in.PowerShell
		a, err = gitcmd.Shared(in.Command, opts)
	} else {
		a, err = gitcmd.Analyze(in.Command, gitcmd.Options{Dir: in.Dir, Home: in.Home, Getenv: in.Getenv,
			ReadFile: in.ReadFile, Stat: os.Stat, Deadline: in.Deadline, Check: in.Check, MaxBytes: in.MaxBytes, PowerShell: in.PowerShell})
	}
	if err != nil {
		return nil, err
	}
	c := &checker{in: in, a: a, repos: map[string]*repoState{}, byDir: map[string]*repoState{}, report: &Report{Analysis: a}, protect: in.Protect}
	if a.SyntaxError != nil && mentionsGit(a.Unparsed) {
		c.find(Finding{Rule: RuleUndecided, Detail: fmt.Sprintf("the command stops parsing at %v, and the part bash would not run mentions git; fix the syntax", a.SyntaxError)})
	}
	for i := range a.Commands {
		c.command(i)
	}
	c.stashes()
	for _, p := range c.stashPops {
		if !c.ownStash[p.cmd] {
			c.find(p.f)
		}
	}
	for _, w := range a.Writes {
		c.write(w)
	}
	return c.report, nil
}

func (c *checker) find(f Finding) {
	for _, g := range c.report.Findings {
		if g.Rule == f.Rule && g.Ref == f.Ref && g.Where == f.Where && g.Detail == f.Detail {
			return
		}
	}
	c.report.Findings = append(c.report.Findings, f)
}

// repoAt returns the repository of a directory (or git directory).
func (c *checker) repoAt(dir, gitDir string) *repoState {
	key := dir + "\x00" + gitDir
	if rs, ok := c.byDir[key]; ok {
		return rs
	}
	var r gitrepo.Repo
	var err error
	if gitDir != "" {
		r, err = gitrepo.Open(dir, gitDir)
	} else {
		r, err = c.in.Find(dir)
	}
	var rs *repoState
	if err != nil {
		rs = &repoState{err: err}
	} else if old, ok := c.repos[r.GitDir]; ok {
		rs = old
	} else {
		rs = &repoState{repo: r}
		rs.protected = c.resolveProtect(r, c.protectOf(r))
		c.repos[r.GitDir] = rs
	}
	c.byDir[key] = rs
	return rs
}

// resolveProtect turns guard.protect into branch names for a repository:
// <remote>/HEAD is the branch refs/remotes/<remote>/HEAD names, read from
// the files (no network), else from git; unresolved, it protects the
// defaults main and master. The names are in lower case, and so must be
// what is looked up (protectedKey): refs stored as files on a
// case-insensitive file system (macOS, Windows) make MAIN the same ref as
// main, locally and on a remote there.
func (c *checker) resolveProtect(r gitrepo.Repo, protect []string) map[string]bool {
	out := map[string]bool{}
	for _, p := range protect {
		remote, ok := strings.CutSuffix(p, "/HEAD")
		if !ok {
			out[protectedKey(p)] = true
			continue
		}
		if b := remoteHead(r, remote); b != "" {
			out[protectedKey(b)] = true
		} else {
			out["main"], out["master"] = true, true
		}
	}
	return out
}

// protectOf is what guard.protect is for a repository: its own policy's
// when Input.PolicyOf says another governs it, else the caller's.
func (c *checker) protectOf(r gitrepo.Repo) []string {
	if c.in.PolicyOf != nil {
		if p, other := c.in.PolicyOf(r); other {
			return p
		}
	}
	return c.protect
}

// protectedKey is a branch name as resolveProtect's map holds it.
func protectedKey(branch string) string {
	return strings.ToLower(strings.TrimPrefix(branch, "refs/heads/"))
}

// remoteHead is the default branch of a remote, as last fetched.
func remoteHead(r gitrepo.Repo, remote string) string {
	ref := "refs/remotes/" + remote + "/HEAD"
	data, err := regfile.ReadFile(filepath.Join(r.CommonDir, filepath.FromSlash(ref)), regfile.MaxGitFile)
	if err == nil {
		if t, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "ref:"); ok {
			return strings.TrimPrefix(strings.TrimSpace(t), "refs/remotes/"+remote+"/")
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		// A FIFO or a device there would block git as it would block a
		// plain read: not asked, the default branch is not known.
		return ""
	}
	cmd := gitx.Command("--git-dir="+r.GitDir, "symbolic-ref", "-q", "--short", ref)
	out, err := cmd.Output()
	if err != nil {
		return ""
	}
	return strings.TrimPrefix(strings.TrimSpace(string(out)), remote+"/")
}

func (rs *repoState) isProtected(branch string) bool {
	return rs.protected[protectedKey(branch)]
}

// anyProtected is the protected list of some repository (names only).
func (c *checker) isProtectedName(rs *repoState, name string) bool {
	name = strings.TrimPrefix(name, "refs/heads/")
	if rs != nil && rs.err == nil {
		return rs.isProtected(name)
	}
	for _, p := range c.protect {
		if strings.EqualFold(p, name) {
			return true
		}
		if strings.HasSuffix(p, "/HEAD") && (strings.EqualFold(name, "main") || strings.EqualFold(name, "master")) {
			return true
		}
	}
	return false
}

// branchesAt returns the branches the checkout may have when command i
// runs: what HEAD holds now, changed by the switches before it (a switch
// it certainly runs after replaces, one it may run after adds).
func (c *checker) branchesAt(rs *repoState, i int) []string {
	start := rs.repo.Branch
	switch {
	case rs.repo.Unknown != "":
		start = "?"
	case start == "":
		start = "-"
	}
	set := []string{start}
	var after []int
	if i < len(c.a.Commands) {
		after = c.a.Commands[i].After
	}
	for _, sw := range rs.switches {
		if sw.cmd >= i {
			break
		}
		if sw.sure || contains(after, sw.cmd) {
			set = []string{sw.to}
		} else if !containsStr(set, sw.to) {
			set = append(set, sw.to)
		}
	}
	return set
}

func (c *checker) whyUnknown(rs *repoState) string {
	if rs.repo.Unknown != "" {
		return rs.repo.Unknown
	}
	for i := len(rs.switches) - 1; i >= 0; i-- {
		if rs.switches[i].to == "?" && rs.switches[i].why != "" {
			return rs.switches[i].why
		}
	}
	return "an earlier part of the command changes the branch in a way only run time knows"
}

// command checks one simple command.
func (c *checker) command(i int) {
	cmd := c.a.Commands[i]
	if cmd.Git != nil {
		c.git(i)
		return
	}
	text := strings.Join(cmd.Argv(), " ")
	if c.otherMover(i) {
		return
	}
	if len(cmd.Args) > 0 && cmd.Args[0].Dynamic != "" && (mentionsGit(text) || movesWords(cmd.Argv()[1:])) {
		c.find(Finding{Rule: RuleUndecided, Command: cmd.Text, Detail: fmt.Sprintf("the command name %s is only known at run time (%s), and its arguments look like git", cmd.Args[0].Value, cmd.Args[0].Dynamic)})
		return
	}
	if cmd.Opaque == "" {
		return
	}
	if mentionsGit(text) || obfuscated(text) || mentionsGit(gitcmd.Decoded(text)) || strings.Contains(cmd.Opaque, "only known at run time") || strings.Contains(cmd.Opaque, "standard input") {
		c.find(Finding{Rule: RuleUndecided, Command: cmd.Text, Detail: cmd.Opaque + ", so branchguard cannot tell whether it moves a protected branch"})
	}
}

// git checks one git invocation.
func (c *checker) git(i int) {
	cmd := c.a.Commands[i]
	g := cmd.Git
	if g.Exits || g.Help {
		return
	}
	if g.Dynamic != "" {
		c.find(Finding{Rule: RuleUndecided, Command: cmd.Text, Detail: g.Dynamic})
		return
	}
	subs := []string{g.Sub}
	if g.Sub == "" {
		return // a shell alias: its commands are checked on their own
	}
	if len(g.Guesses) > 0 {
		subs = g.Guesses
	}
	dir, gitDir, dyn := g.Where()
	var rs *repoState
	fresh := dyn == "" && dir != "" && gitDir == "" && c.freshRepo(dir, i)
	if fresh {
		// A repository the command itself creates has no branch to
		// protect yet: only what it pushes can reach one.
		for _, sub := range subs {
			gg := *g
			gg.Sub = sub
			e := effectOf(&gg, cmd.Stdin, cmd.StdinKnown)
			if e.pushDefault {
				c.find(Finding{Rule: RuleUndecided, Command: cmd.Text, Detail: "git push without a refspec, from a repository this command creates, goes where configuration set at run time says; name the branch (git push <remote> <branch>)"})
				continue
			}
			c.apply(i, &gg, e, nil, "")
		}
		return
	}
	if nw := c.newWorktree(dir, i); dyn == "" && dir != "" && gitDir == "" && nw != nil {
		rs = nw
	} else if dyn == "" && dir != "" {
		rs = c.repoAt(dir, gitDir)
		if rs.err != nil {
			if !errors.Is(rs.err, gitrepo.ErrNotRepo) {
				c.find(Finding{Rule: RuleUndecided, Command: cmd.Text, Detail: "the repository cannot be read: " + rs.err.Error()})
			}
			rs = nil
		}
	}
	for _, sub := range subs {
		gg := *g
		gg.Sub = sub
		e := effectOf(&gg, cmd.Stdin, cmd.StdinKnown)
		subtreeEffect(&gg, &e)
		c.apply(i, &gg, e, rs, dyn)
		if gitcmd.RunsHooks(sub) {
			c.gitHooks(i, &gg, rs)
		}
	}
}

// newWorktree returns the state of a worktree an earlier command of this
// one adds (git worktree add) where none exists now and dir lies in it:
// the repository it belongs to, with the branch the add checks out there
// (-b/-B/--orphan's, the branch named, the one named after the directory,
// or none for --detach and a commit), or nil.
func (c *checker) newWorktree(dir string, i int) *repoState {
	if dir == "" {
		return nil
	}
	for _, w := range c.a.Writes {
		if w.At >= i || w.Dynamic != "" || w.Op != "git worktree add" || !realpathWithin(dir, w.Path) || w.Command < 0 {
			continue
		}
		if _, err := os.Lstat(filepath.Join(w.Path, ".git")); err == nil {
			continue
		}
		key := "worktree\x00" + w.Path
		if st, ok := c.byDir[key]; ok {
			return st
		}
		add := c.a.Commands[w.Command]
		g := add.Git
		if g == nil {
			continue
		}
		gdir, gitDir, dyn := g.Where()
		if dyn != "" || gdir == "" {
			continue
		}
		parent := c.repoAt(gdir, gitDir)
		if parent.err != nil {
			continue
		}
		branch, named := "", false
		var ops []string
		args := g.Args
		for j := 0; j < len(args); j++ {
			v := args[j].Value
			switch {
			case args[j].Dynamic != "":
				branch, named = "?", true
			case v == "-b" || v == "-B" || v == "--orphan":
				if j+1 < len(args) {
					branch, named = args[j+1].Value, true
					if args[j+1].Dynamic != "" {
						branch = "?"
					}
					j++
				}
			case v == "-d" || v == "--detach":
				branch, named = "-", true
			case v == "--reason":
				j++
			case strings.HasPrefix(v, "-"):
			default:
				ops = append(ops, v)
			}
		}
		if len(ops) > 0 && ops[0] == "add" {
			ops = ops[1:]
		}
		if !named {
			switch {
			case len(ops) >= 2:
				if ok, known := gitrepo.RefExists(parent.repo.CommonDir, heads(ops[1])); ok || !known {
					branch = ops[1]
				} else {
					branch = "-" // a commit or a tag: detached
				}
			default:
				branch = filepath.Base(w.Path)
			}
		}
		st := &repoState{repo: parent.repo, protected: parent.protected}
		st.repo.Root, st.repo.Branch, st.repo.Unknown = w.Path, branch, ""
		if branch == "?" {
			st.repo.Branch, st.repo.Unknown = "", "git worktree add names a branch only known at run time"
		}
		c.byDir[key] = st
		return st
	}
	return nil
}

// freshRepo reports that dir lies in a repository an earlier command of
// this one creates (git init, git clone) where none exists now.
func (c *checker) freshRepo(dir string, i int) bool {
	for _, w := range c.a.Writes {
		if w.At >= i || w.Dynamic != "" || (w.Op != "git init" && w.Op != "git clone") || !realpathWithin(dir, w.Path) {
			continue
		}
		if _, err := os.Lstat(filepath.Join(w.Path, ".git")); err != nil {
			return true
		}
	}
	return false
}

func realpathWithin(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// needsRepo reports an effect that depends on the checkout's branch or
// configuration.
func (e effect) needsRepo() bool {
	return containsStr(e.moves, "HEAD") || containsStr(e.pushes, "HEAD") || e.pushDefault || e.fetchDefault || e.switchTo != ""
}

func (c *checker) apply(i int, g *gitcmd.Git, e effect, rs *repoState, dyn string) {
	cmd := c.a.Commands[i]
	where := ""
	var branches []string
	if rs != nil {
		where = rs.repo.Root
		branches = c.branchesAt(rs, i)
	}
	step := Step{Index: i, Text: cmd.Text, Repo: where, Branches: branches, Effect: describe(e)}
	c.report.Steps = append(c.report.Steps, step)
	if e.undecided != "" {
		c.find(Finding{Rule: RuleUndecided, Command: cmd.Text, Where: where, Detail: e.undecided})
		return
	}
	if rs == nil && e.needsRepo() {
		if dyn != "" && (len(e.moves) > 0 || len(e.pushes) > 0 || e.pushDefault || e.fetchDefault) {
			c.find(Finding{Rule: RuleUndecided, Command: cmd.Text, Detail: fmt.Sprintf("%s runs in a repository only known at run time (%s), so branchguard cannot tell its branch; name the repository with git -C <dir>", e.what, dyn)})
		}
		// Outside any repository git fails; explicit names are still checked.
	}
	for _, ref := range e.moves {
		switch {
		case ref == "HEAD":
			if rs == nil {
				continue
			}
			for _, b := range branches {
				switch {
				case b == "?":
					c.find(Finding{Rule: RuleUndecided, Command: cmd.Text, Where: where, Detail: fmt.Sprintf("%s acts on the checked-out branch of %s, which branchguard cannot tell: %s", e.what, where, c.whyUnknown(rs))})
				case b != "-" && rs.isProtected(b):
					c.find(Finding{Rule: RuleMove, Ref: b, Where: where, Command: cmd.Text, Detail: fmt.Sprintf("%s would move the protected branch %s, checked out in %s", e.what, b, where)})
				}
			}
		case ref == "*":
			c.find(Finding{Rule: RuleMove, Ref: c.firstProtected(rs), Where: where, Command: cmd.Text, Detail: e.what + " rewrites every branch, protected ones included"})
		default:
			final := ref
			if rs != nil {
				if f, err := gitrepo.Resolve(rs.repo.CommonDir, ref); err == nil {
					final = f
				}
			}
			for _, r := range []string{ref, final} {
				if strings.HasPrefix(r, "refs/heads/") && c.isProtectedName(rs, r) {
					name := strings.TrimPrefix(r, "refs/heads/")
					c.find(Finding{Rule: RuleMove, Ref: name, Where: where, Command: cmd.Text, Detail: fmt.Sprintf("%s would move %s", e.what, name)})
					break
				}
			}
		}
	}
	remote := e.remote
	if remote == "" {
		remote = "the remote"
	}
	for _, dst := range e.pushes {
		switch dst {
		case "*":
			c.find(Finding{Rule: RulePush, Ref: c.firstProtected(rs), Where: remote, Command: cmd.Text, Push: true, Detail: e.what + " would update every branch of " + remote + ", protected ones included"})
		case "HEAD":
			for _, b := range branches {
				if b == "?" {
					c.find(Finding{Rule: RuleUndecided, Command: cmd.Text, Where: where, Detail: e.what + " pushes the checked-out branch, which branchguard cannot tell: " + c.whyUnknown(rs)})
				} else if b != "-" && c.isProtectedName(rs, b) {
					c.find(Finding{Rule: RulePush, Ref: b, Where: remote, Command: cmd.Text, Push: true, Detail: fmt.Sprintf("%s would update %s on %s", e.what, b, remote)})
				}
			}
		default:
			if c.isProtectedName(rs, dst) {
				c.find(Finding{Rule: RulePush, Ref: dst, Where: remote, Command: cmd.Text, Push: true, Detail: fmt.Sprintf("%s would update %s on %s", e.what, dst, remote)})
			}
		}
	}
	if e.pushDefault && rs != nil {
		c.defaultPush(i, e, rs, branches, withFlags(rs.configOf(c), g.Config))
	}
	if e.fetchDefault && rs != nil {
		c.defaultFetch(i, e, rs, withFlags(rs.configOf(c), g.Config))
	}
	if e.symrefTo != "" {
		if c.isProtectedName(rs, e.symrefTo) || c.isProtectedName(rs, e.symrefName) {
			c.find(Finding{Rule: RuleMove, Ref: strings.TrimPrefix(e.symrefTo, "refs/heads/"), Where: where, Command: cmd.Text, Detail: fmt.Sprintf("%s would make %s a symbolic ref to %s, so commits on it move %s", e.what, e.symrefName, e.symrefTo, strings.TrimPrefix(e.symrefTo, "refs/heads/"))})
		}
	}
	if e.treeWrite != "" && rs != nil {
		for _, b := range branches {
			if b == "?" || (b != "-" && rs.isProtected(b)) {
				f := Finding{Rule: RuleWrite, Ref: b, Where: where, Command: cmd.Text, Detail: fmt.Sprintf("%s of %s, where the protected branch %s is checked out", e.treeWrite, where, b)}
				if g.Sub == "stash" {
					// Unless it is a stash this command made here (stash.go).
					c.stashPops = append(c.stashPops, stashPop{i, f})
					continue
				}
				c.find(f)
			}
		}
	}
	if e.upstream != "" && rs != nil {
		c.setUpstream(e, rs, branches)
	}
	if e.switchTo != "" && rs != nil {
		c.recordSwitch(i, e, rs)
	}
}

// setUpstream notes what git branch -u sets, for a later push.
func (c *checker) setUpstream(e effect, rs *repoState, branches []string) {
	rs.configOf(c)
	targets := branches
	if e.upstreamOf != "" {
		targets = []string{e.upstreamOf}
	}
	remote, branch, ok := strings.Cut(e.upstream, "/")
	if !ok {
		remote, branch = ".", e.upstream
	}
	for _, b := range targets {
		rs.config = append(rs.config, gitcmd.ConfigEntry{Key: "branch." + b + ".remote", Value: remote}, gitcmd.ConfigEntry{Key: "branch." + b + ".merge", Value: "refs/heads/" + branch})
	}
}

func (c *checker) firstProtected(rs *repoState) string {
	if rs != nil {
		for _, p := range c.protect {
			if rs.protected[protectedKey(p)] {
				return p
			}
		}
		for p := range rs.protected {
			return p
		}
	}
	if len(c.protect) > 0 {
		return c.protect[0]
	}
	return ""
}

// recordSwitch notes what branch the checkout has after a switch.
func (c *checker) recordSwitch(i int, e effect, rs *repoState) {
	to := e.switchTo
	if to != "-" && to != "?" {
		ref := heads(to)
		exists, known := gitrepo.RefExists(rs.repo.CommonDir, ref)
		if e.switchMaybePath && known && !exists && !rs.isProtected(to) && !c.remoteBranch(rs, to) {
			return // a file, a commit or a tag: no branch is checked out after it, or the same one
		}
		if f, err := gitrepo.Resolve(rs.repo.CommonDir, ref); err == nil {
			to = strings.TrimPrefix(f, "refs/heads/")
		}
	}
	sure := false
	if e.creating {
		exists, known := gitrepo.RefExists(rs.repo.CommonDir, heads(e.switchTo))
		sure = known && !exists
	}
	rs.switches = append(rs.switches, switchRec{cmd: i, to: to, why: e.switchWhy, sure: sure})
}

// remoteBranch reports a branch some remote has (git checkout creates it).
func (c *checker) remoteBranch(rs *repoState, name string) bool {
	entries, err := os.ReadDir(filepath.Join(rs.repo.CommonDir, "refs", "remotes"))
	if err == nil {
		for _, e := range entries {
			if ok, _ := gitrepo.RefExists(rs.repo.CommonDir, "refs/remotes/"+e.Name()+"/"+name); ok {
				return true
			}
		}
	}
	data, _ := regfile.ReadFile(filepath.Join(rs.repo.CommonDir, "packed-refs"), regfile.MaxRefs)
	return strings.Contains(string(data), "refs/remotes/") && strings.Contains(string(data), "/"+name+"\n")
}

func (rs *repoState) configOf(c *checker) []gitcmd.ConfigEntry {
	if !rs.loaded {
		rs.config = gitcmd.LoadConfig(rs.repo.GitDir, c.in.Home, c.in.Getenv, regfile.Reader(regfile.MaxText))
		for _, kv := range c.a.GitConfig {
			k, v, _ := strings.Cut(kv, "=")
			rs.config = append(rs.config, gitcmd.ConfigEntry{Key: k, Value: v})
		}
		rs.loaded = true
	}
	return rs.config
}

// withFlags adds git -c name=value pairs (which win) to a configuration.
func withFlags(cfg []gitcmd.ConfigEntry, flags []string) []gitcmd.ConfigEntry {
	if len(flags) == 0 {
		return cfg
	}
	out := append([]gitcmd.ConfigEntry(nil), cfg...)
	for _, kv := range flags {
		k, v, _ := strings.Cut(kv, "=")
		out = append(out, gitcmd.ConfigEntry{Key: k, Value: v})
	}
	return out
}

func lastValue(cfg []gitcmd.ConfigEntry, key string) (string, bool) {
	v, ok := "", false
	for _, e := range cfg {
		if strings.EqualFold(e.Key, key) {
			v, ok = e.Value, true
		}
	}
	return v, ok
}

func allValues(cfg []gitcmd.ConfigEntry, key string) []string {
	var out []string
	for _, e := range cfg {
		if strings.EqualFold(e.Key, key) {
			out = append(out, e.Value)
		}
	}
	return out
}

// defaultPush works out where git push without refspecs pushes:
// remote.<name>.push, else push.default (simple, current, upstream,
// matching, nothing).
func (c *checker) defaultPush(i int, e effect, rs *repoState, branches []string, cfg []gitcmd.ConfigEntry) {
	cmd := c.a.Commands[i]
	if c.a.GitConfigDynamic != "" {
		c.find(Finding{Rule: RuleUndecided, Command: cmd.Text, Detail: "git push without a refspec follows configuration that " + c.a.GitConfigDynamic})
		return
	}
	for _, b := range branches {
		if b == "?" {
			c.find(Finding{Rule: RuleUndecided, Command: cmd.Text, Where: rs.repo.Root, Detail: "git push pushes the checked-out branch, which branchguard cannot tell: " + c.whyUnknown(rs)})
			continue
		}
		if b == "-" {
			continue
		}
		remote := e.remote
		if remote == "" {
			if r, ok := lastValue(cfg, "branch."+b+".pushremote"); ok {
				remote = r
			} else if r, ok := lastValue(cfg, "remote.pushdefault"); ok {
				remote = r
			} else if r, ok := lastValue(cfg, "branch."+b+".remote"); ok {
				remote = r
			} else {
				remote = "origin"
			}
		}
		var dsts []string
		if specs := allValues(cfg, "remote."+remote+".push"); len(specs) > 0 {
			for _, s := range specs {
				s = strings.TrimPrefix(s, "+")
				src, dst, ok := strings.Cut(s, ":")
				if !ok {
					dst = src
				}
				if strings.Contains(dst, "*") {
					dsts = append(dsts, "*")
				} else if dst == "HEAD" || src == "HEAD" && !ok {
					dsts = append(dsts, b)
				} else {
					dsts = append(dsts, strings.TrimPrefix(dst, "refs/heads/"))
				}
			}
		} else {
			mode, _ := lastValue(cfg, "push.default")
			switch strings.ToLower(mode) {
			case "nothing":
			case "matching":
				dsts = append(dsts, "*")
			case "upstream", "tracking":
				if m, ok := lastValue(cfg, "branch."+b+".merge"); ok {
					dsts = append(dsts, strings.TrimPrefix(m, "refs/heads/"))
				}
			default: // simple, current
				dsts = append(dsts, b)
			}
		}
		for _, d := range dsts {
			if d == "*" {
				c.find(Finding{Rule: RulePush, Ref: c.firstProtected(rs), Where: remote, Command: cmd.Text, Push: true, Detail: "git push would update every matching branch of " + remote + ", protected ones included"})
			} else if rs.isProtected(d) {
				c.find(Finding{Rule: RulePush, Ref: d, Where: remote, Command: cmd.Text, Push: true, Detail: fmt.Sprintf("git push from %s would update %s on %s", b, d, remote)})
			}
		}
	}
}

// defaultFetch checks remote.<name>.fetch refspecs that write local
// branches (a fetch into refs/heads/main moves main).
func (c *checker) defaultFetch(i int, e effect, rs *repoState, cfg []gitcmd.ConfigEntry) {
	cmd := c.a.Commands[i]
	for _, kv := range cfg {
		if !strings.HasPrefix(kv.Key, "remote.") || !strings.HasSuffix(kv.Key, ".fetch") {
			continue
		}
		if e.remote != "" && kv.Key != "remote."+e.remote+".fetch" {
			continue
		}
		_, dst, ok := strings.Cut(strings.TrimPrefix(kv.Value, "+"), ":")
		if !ok || !strings.HasPrefix(dst, "refs/heads/") {
			continue
		}
		name := strings.TrimPrefix(dst, "refs/heads/")
		if strings.Contains(name, "*") || rs.isProtected(name) {
			c.find(Finding{Rule: RuleMove, Ref: c.firstProtected(rs), Where: rs.repo.Root, Command: cmd.Text, Detail: fmt.Sprintf("%s fetches into local branches (%s = %s), protected ones included", e.what, kv.Key, kv.Value)})
		}
	}
}

// write checks one file the command writes.
func (c *checker) write(w gitcmd.Write) {
	if w.Repo {
		switch w.Op {
		case "git apply", "git rm", "git mv", "git merge-file":
			// git's own content writes of the paths it names: judged
			// below as any other write.
		default:
			c.gitTree(w)
			return
		}
	}
	if w.Op == "mkdir" {
		return // an empty directory is nothing git sees
	}
	if w.Op == "git submodule update" && !w.Glob && w.Dynamic == "" {
		if _, err := os.Lstat(filepath.Join(w.Path, ".git")); err != nil {
			// A submodule not checked out yet gets the commit the
			// superproject records: the superproject's checkout is as
			// it was (git status shows nothing), and the new one is the
			// submodule's.
			return
		}
	}
	text := ""
	if w.Command >= 0 {
		text = c.a.Commands[w.Command].Text
	}
	if w.Dynamic != "" {
		dir := w.Dir
		if dir == "" {
			dir = c.in.Dir
		}
		if dir == "" {
			return
		}
		rs := c.repoAt(dir, "")
		if rs.err != nil {
			return
		}
		for _, b := range c.branchesAt(rs, w.At) {
			if b == "?" || (b != "-" && rs.isProtected(b)) {
				c.find(Finding{Rule: RuleWrite, Ref: b, Where: rs.repo.Root, Command: text, Detail: fmt.Sprintf("%s, in %s, where the protected branch %s is checked out", w.Dynamic, rs.repo.Root, b)})
			}
		}
		return
	}
	path := w.Path
	if w.Glob {
		path = globBase(path)
	} else if w.Op != "rm" && w.Op != "unlink" && !w.Tree {
		// A write goes where the path's links lead, the last one too
		// (echo x >> bin/rl, bin/rl -> ../README.md, writes README.md);
		// the entry as written is judged as well. Only a removal takes
		// the link itself away and leaves its target.
		from := w.Path
		if w.Written != "" {
			from = w.Written
		}
		if r, err := realpath.Resolve(from); err == nil && r != w.Path {
			lw := w
			lw.Path, lw.Written = r, ""
			c.write(lw)
		}
	}
	rs := c.repoAt(path, "")
	if rs.err != nil {
		return
	}
	if c.refStore(w, path, rs, text) {
		return
	}
	for _, b := range c.branchesAt(rs, w.At) {
		if b == "?" || (b != "-" && rs.isProtected(b)) {
			if ignored(rs.repo.Root, w.Path, w.Op == "mkdir" || w.Tree) {
				return
			}
			name := b
			if b == "?" {
				name = "(unknown: " + c.whyUnknown(rs) + ")"
			}
			c.find(Finding{Rule: RuleWrite, Ref: b, Where: rs.repo.Root, Command: text, Detail: fmt.Sprintf("%s would change %s on the protected branch %s of %s", w.Op, w.Path, name, rs.repo.Root)})
		}
	}
}

// gitTree judges git's own working-tree write (checkout, restore, reset
// --hard, read-tree -u, checkout-index, merge, stash pop, ...) on a
// checkout where a protected branch is checked out, as git lists what it
// changes (gitcmd.Git.TreeChange): bringing another commit's content in
// is a write; putting back what HEAD or the index hold is none, unless it
// throws uncommitted changes away: those edits are the user's. A switch
// to another branch moves the checkout off the protected branch (its
// refs rules judge it). What git cannot list is denied there.
func (c *checker) gitTree(w gitcmd.Write) {
	if w.Command < 0 || w.Command >= len(c.a.Commands) || c.treeSeen[w.Command] {
		return
	}
	if c.treeSeen == nil {
		c.treeSeen = map[int]bool{}
	}
	c.treeSeen[w.Command] = true
	if c.ownStash[w.Command] {
		return // a stash the command made here, brought back (stash.go)
	}
	cmd := c.a.Commands[w.Command]
	g := cmd.Git
	tc, ok := g.TreeChange()
	if !ok {
		return
	}
	dir, gitDir, dyn := g.Where()
	if dyn != "" || dir == "" {
		return // the ref rules judge a repository only run time knows
	}
	rs := c.repoAt(dir, gitDir)
	if rs.err != nil {
		return
	}
	var on []string
	for _, b := range c.branchesAt(rs, w.At) {
		if b == "?" || (b != "-" && rs.isProtected(b)) {
			on = append(on, b)
		}
	}
	if len(on) == 0 {
		return
	}
	run := gitRunner(dir, gitDir, rs)
	detail := ""
	switch {
	case tc.Unknown != "":
		detail = fmt.Sprintf("git %s may change the working tree in ways branchguard cannot list (%s)", g.Sub, tc.Unknown)
	case tc.Content && !tc.Switch:
		files, err := tc.Files(run)
		switch {
		case err != nil:
			detail = fmt.Sprintf("git %s changes files git cannot list now (%v)", g.Sub, err)
		case len(files) > 0:
			detail = fmt.Sprintf("git %s would change %s", g.Sub, listFew(files))
		}
	}
	if detail == "" && len(tc.Dirty) > 0 {
		files, err := tc.DirtyFiles(run)
		switch {
		case err != nil:
			detail = fmt.Sprintf("git %s may throw away uncommitted changes git cannot list now (%v)", g.Sub, err)
		case len(files) > 0:
			detail = fmt.Sprintf("git %s would throw away the uncommitted changes of %s (the user's edits; commit or stash them on a branch first)", g.Sub, listFew(files))
		}
	}
	if detail == "" {
		return
	}
	for _, b := range on {
		name := b
		if b == "?" {
			name = "(unknown: " + c.whyUnknown(rs) + ")"
		}
		c.find(Finding{Rule: RuleWrite, Ref: b, Where: rs.repo.Root, Command: cmd.Text, Detail: fmt.Sprintf("%s in %s, where the protected branch %s is checked out", detail, rs.repo.Root, name)})
	}
}

// gitRunner runs git read-only in a checkout the command runs git in.
func gitRunner(dir, gitDir string, rs *repoState) gitcmd.RunGit {
	return func(args ...string) ([]byte, error) {
		env := []string{"GIT_TERMINAL_PROMPT=0", "GIT_OPTIONAL_LOCKS=0", "LC_ALL=C"}
		if gitDir != "" {
			env = append(env, "GIT_DIR="+gitDir, "GIT_WORK_TREE="+rs.repo.Root)
		}
		return proc.Output(dir, env, "git", append([]string{"-c", "core.fsmonitor=false", "-c", "core.untrackedCache=false"}, args...)...)
	}
}

// listFew names up to three files, and how many more.
func listFew(files []string) string {
	if len(files) <= 3 {
		return strings.Join(files, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(files[:3], ", "), len(files)-3)
}

// refStore handles a write inside a git directory: HEAD changes which
// branch is checked out; refs/heads/<protected>, packed-refs and the
// reftable move branches without git.
func (c *checker) refStore(w gitcmd.Write, path string, rs *repoState, text string) bool {
	for _, base := range []string{rs.repo.GitDir, rs.repo.CommonDir} {
		rel, err := filepath.Rel(base, path)
		if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
			continue
		}
		rel = filepath.ToSlash(rel)
		if rel == "HEAD" || strings.HasSuffix(rel, "/HEAD") && strings.HasPrefix(rel, "worktrees/") {
			target := rs
			if rel != "HEAD" {
				target = c.repoAt(filepath.Dir(path), filepath.Dir(path))
			}
			target.switches = append(target.switches, switchRec{cmd: w.At, to: "?", why: "the command writes " + path + " directly"})
			return true
		}
		hit := rel == "packed-refs" || rel == "reftable" || strings.HasPrefix(rel, "reftable/")
		if name, ok := strings.CutPrefix(rel, "refs/heads/"); ok && (rs.isProtected(name) || w.Tree || w.Glob) {
			hit = true
		}
		if w.Tree && (rel == "." || rel == "refs" || rel == "refs/heads") {
			hit = true
		}
		if hit {
			c.find(Finding{Rule: RuleRefStore, Ref: c.firstProtected(rs), Where: rs.repo.Root, Command: text, Detail: fmt.Sprintf("%s would change %s, where git keeps the protected branches of %s", w.Op, path, rs.repo.Root)})
		}
		return true
	}
	return false
}

// globBase is the directory part of a pattern before its first
// pattern character.
func globBase(p string) string {
	i := strings.IndexAny(p, "*?[{")
	if i < 0 {
		return p
	}
	return filepath.Dir(p[:i] + "x")
}

// ignored asks git whether a path is ignored (only on the way to a deny).
func ignored(root, path string, dir bool) bool {
	return gitx.Ignored(root, path, dir)
}

func describe(e effect) string {
	var parts []string
	if len(e.moves) > 0 {
		parts = append(parts, "moves "+strings.Join(e.moves, ", "))
	}
	if len(e.pushes) > 0 {
		parts = append(parts, "pushes to "+strings.Join(e.pushes, ", "))
	}
	if e.pushDefault {
		parts = append(parts, "pushes where the configuration says")
	}
	if e.fetchDefault {
		parts = append(parts, "fetches where the configuration says")
	}
	if e.switchTo != "" {
		parts = append(parts, "checks out "+e.switchTo)
	}
	if e.symrefTo != "" {
		parts = append(parts, "points "+e.symrefName+" at "+e.symrefTo)
	}
	if e.undecided != "" {
		parts = append(parts, "undecided: "+e.undecided)
	}
	if len(parts) == 0 {
		return "moves no branch"
	}
	return strings.Join(parts, "; ")
}

func mentionsGit(s string) bool {
	return strings.Contains(strings.ToLower(s), "git")
}

// obfuscated reports code that builds what it runs at run time.
func obfuscated(s string) bool {
	for _, t := range []string{"base64", "b64decode", "fromCharCode", "chr(", "\\x", "decode(", "[::-1]", "reverse", "rot13", "codecs", "unhexlify", "fromhex", "atob", "Buffer.from"} {
		if strings.Contains(s, t) {
			return true
		}
	}
	return false
}

// movesWords reports arguments that read like a git command that moves
// refs (for a command name only known at run time).
func movesWords(args []string) bool {
	for _, a := range args {
		switch a {
		case "push", "commit", "merge", "rebase", "reset", "update-ref", "branch", "cherry-pick", "revert", "am", "pull", "fetch", "checkout", "switch", "filter-branch", "symbolic-ref", "fast-import":
			return true
		}
	}
	return false
}

func contains(list []int, v int) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

func containsStr(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

// subtreeEffect: git subtree add, merge and pull commit on the checked-out
// branch; git subtree push pushes to the refspec it names; split --rejoin
// commits too. (git subtree is a script of git's contrib, not a builtin:
// effectOf does not read it.)
func subtreeEffect(g *gitcmd.Git, e *effect) {
	if g.Sub != "subtree" {
		return
	}
	p := g.Parse()
	if len(p.Operands) == 0 {
		return
	}
	switch p.Operands[0].Value {
	case "add", "merge", "pull":
		e.moves = []string{"HEAD"}
	case "split":
		if p.Has("--rejoin") {
			e.moves = []string{"HEAD"}
		}
		if b, ok := p.Value("--branch"); ok {
			e.moves = append(e.moves, heads(b.Value))
		}
	case "push":
		if len(p.Operands) >= 3 {
			_, dst, ok := strings.Cut(p.Operands[2].Value, ":")
			if !ok {
				dst = p.Operands[2].Value
			}
			e.remote = p.Operands[1].Value
			e.pushes = []string{strings.TrimPrefix(dst, "refs/heads/")}
		}
	}
}

// otherMover judges programs other than git that move branches: a pull
// request merged on the forge (gh pr merge, glab mr merge), the forge's
// API writing a branch or merging (gh api -X PATCH .../git/refs/heads/main,
// .../merges, .../pulls/N/merge, GraphQL mergePullRequest), gh repo sync
// (the local default branch), npm version (a commit on the checked-out
// branch). It reports whether the command was one of them.
func (c *checker) otherMover(i int) bool {
	cmd := c.a.Commands[i]
	args := cmd.Args
	if len(args) < 2 {
		return false
	}
	word := func(j int) string {
		if j < len(args) && args[j].Dynamic == "" {
			return args[j].Value
		}
		return ""
	}
	name := cmd.Name()
	switch name {
	case "gh", "glab", "npm", "pnpm", "yarn":
	default:
		return false // (the hot path: no repository looked up)
	}
	for _, a := range args[1:] {
		if a.Dynamic == "" && (a.Value == "--help" || a.Value == "-h") {
			return true // gh pr merge --help, npm version -h: the usage is printed, nothing moves
		}
		if a.Dynamic == "" && a.Value == "--" {
			break
		}
	}
	dir := cmd.Dir
	var rs *repoState
	if dir != "" && cmd.DirDynamic == "" {
		if r := c.repoAt(dir, ""); r.err == nil {
			rs = r
		}
	}
	switch {
	case (name == "gh" && word(1) == "pr" && word(2) == "merge") || (name == "glab" && word(1) == "mr" && word(2) == "merge"):
		for _, a := range args[3:] {
			if a.Value == "--disable-auto" {
				return true
			}
		}
		c.find(Finding{Rule: RulePush, Ref: c.firstProtected(rs), Where: "the forge", Command: cmd.Text, Push: true,
			Detail: name + " " + word(1) + " merge merges the pull request into its base branch on the forge, a protected branch as a rule; ask the user to merge it"})
		return true
	case name == "gh" && word(1) == "api":
		method, path, fields, query := "", "", false, ""
		for j := 2; j < len(args); j++ {
			v := args[j].Value
			if args[j].Dynamic != "" {
				if path == "" && !strings.HasPrefix(v, "-") {
					c.find(Finding{Rule: RuleUndecided, Command: cmd.Text, Detail: "gh api calls an endpoint only known at run time (" + args[j].Dynamic + "), which may move a protected branch"})
					return true
				}
				continue
			}
			switch {
			case v == "-X" || v == "--method":
				if j+1 < len(args) {
					j++
					method = strings.ToUpper(args[j].Value)
				}
			case strings.HasPrefix(v, "--method="):
				method = strings.ToUpper(v[len("--method="):])
			case strings.HasPrefix(v, "-X") && len(v) > 2:
				method = strings.ToUpper(v[2:])
			case v == "-f" || v == "-F" || v == "--field" || v == "--raw-field" || v == "--input":
				fields = true
				if j+1 < len(args) {
					j++
					if strings.HasPrefix(args[j].Value, "query=") {
						query = args[j].Value
					}
				}
			case v == "-H" || v == "--header" || v == "-q" || v == "--jq" || v == "-t" || v == "--template" || v == "--hostname" || v == "--cache" || v == "-p" || v == "--preview":
				j++
			case strings.HasPrefix(v, "-"):
			case path == "":
				path = v
			}
		}
		if method == "" {
			method = "GET"
			if fields {
				method = "POST"
			}
		}
		detail := ""
		switch {
		case path == "graphql" && (strings.Contains(query, "mergePullRequest") || strings.Contains(query, "updateRef") || strings.Contains(query, "deleteRef") || strings.Contains(query, "mergeBranch")):
			detail = "gh api graphql runs a mutation that merges or moves a branch"
		case method == "GET" || method == "HEAD":
			return true
		case strings.Contains(path, "/git/refs/heads/"):
			b := path[strings.Index(path, "/git/refs/heads/")+len("/git/refs/heads/"):]
			if c.isProtectedName(rs, b) {
				detail = fmt.Sprintf("gh api %s %s would move the protected branch %s on the forge", method, path, b)
			}
		case strings.HasSuffix(path, "/merges") || strings.Contains(path, "/pulls/") && strings.HasSuffix(path, "/merge") || strings.HasSuffix(path, "/merge-upstream"):
			detail = fmt.Sprintf("gh api %s %s merges into a branch on the forge, a protected one as a rule", method, path)
		}
		if detail != "" {
			c.find(Finding{Rule: RulePush, Ref: c.firstProtected(rs), Where: "the forge", Command: cmd.Text, Push: true, Detail: detail + "; ask the user to do it"})
		}
		return true
	case name == "gh" && word(1) == "repo" && word(2) == "sync":
		branch := ""
		remote := false
		for j := 3; j < len(args); j++ {
			v := args[j].Value
			switch {
			case v == "-b" || v == "--branch":
				if j+1 < len(args) {
					j++
					branch = args[j].Value
				}
			case strings.HasPrefix(v, "--branch="):
				branch = v[len("--branch="):]
			case v == "-s" || v == "--source":
				j++
			case !strings.HasPrefix(v, "-"):
				remote = true // a repository on the forge: its branch moves there
			}
		}
		if branch == "" || c.isProtectedName(rs, branch) {
			where := "the local checkout"
			if remote {
				where = "the forge"
			}
			c.find(Finding{Rule: RuleMove, Ref: c.firstProtected(rs), Where: where, Command: cmd.Text, Push: remote,
				Detail: "gh repo sync updates the default branch (or the one --branch names) of " + where + ", a protected branch; ask the user to sync it"})
		}
		return true
	case (name == "npm" || name == "pnpm" || name == "yarn") && word(1) == "version":
		for _, a := range args[2:] {
			if a.Value == "--no-git-tag-version" || a.Value == "--git-tag-version=false" {
				return true
			}
		}
		if len(args) < 3 {
			return true // prints the versions
		}
		if rs != nil {
			gg := &gitcmd.Git{Sub: "commit", Dir: dir}
			c.apply(i, gg, effect{what: name + " version (a commit and a tag)", moves: []string{"HEAD"}}, rs, "")
		}
		return true
	}
	return false
}
