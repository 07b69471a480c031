package cmdguard

import (
	"errors"
	"os"
	"path/filepath"
	"strings"

	"github.com/magehook/magehook/pkg/gitrepo"
	"github.com/magehook/magehook/pkg/proc"
)

// class evaluates a {class} atom (all but {dirty}, which asks git).
func class(a atom, v command, w *world) (bool, string) {
	switch a.text {
	case "root", "home", "checkout":
		for _, op := range v.paths {
			if op.Dynamic == "" && op.Glob && !matchesEverything(op.Value) {
				continue // *.log, build-*: some of the entries there, not the directory as a whole
			}
			p, why := operandPath(v, op)
			if why != "" {
				return true, why
			}
			switch a.text {
			case "root":
				if p == "/" {
					return true, ""
				}
			case "home":
				if atOrAbove(p, w.home) {
					return true, ""
				}
			case "checkout":
				if atOrAbove(p, checkoutOf(v, w)) {
					return true, ""
				}
			}
		}
	case "outside":
		// A path computed at run time is left to the other rules: a
		// temporary file's name (rm -f "$(mktemp)") is ordinary, and a
		// recursive delete of one is rm-everything's.
		for _, op := range v.paths {
			p, why := operandPath(v, op)
			if why != "" {
				if strings.HasPrefix(op.Value, "~") && !strings.ContainsAny(op.Value, "$`") {
					return true, "" // under a home directory the hook does not know: never the checkout, never scratch
				}
				continue
			}
			if !within(p, checkoutOf(v, w)) && !scratch(p, v, w) {
				return true, ""
			}
		}
	case "writes-outside":
		for _, wr := range w.a.Writes {
			if wr.Command == v.idx && wr.Dynamic == "" && !wr.Repo && !within(wr.Path, checkoutOf(v, w)) && !scratch(wr.Path, v, w) {
				return true, ""
			}
		}
	case "dir":
		for _, op := range v.paths {
			if op.Dynamic != "" {
				return true, op.Dynamic
			}
			if op.Glob || strings.HasPrefix(op.Value, ":") || op.Value == "." {
				return true, ""
			}
			p, why := operandPath(v, op)
			if why != "" {
				return true, why
			}
			if info, err := os.Stat(p); err == nil && info.IsDir() {
				return true, ""
			}
		}
	case "glob":
		for _, op := range v.paths {
			if op.Dynamic == "" && anyGlob(splitAlts(a.value), op.Value) {
				return true, ""
			}
		}
	case "writes":
		globs := splitAlts(a.value)
		for _, wr := range w.a.Writes {
			if wr.Command != v.idx {
				continue
			}
			if wr.Dynamic != "" {
				continue // a computed path: other rules (and the gates' write analysis) judge it
			}
			if anyGlob(globs, wr.Path) || underHome(globs, w.home, wr.Path) {
				return true, ""
			}
		}
	case "sql":
		words := splitAlts(strings.ToLower(a.value))
		for _, arg := range v.all {
			if arg.Dynamic == "" && sqlStatement(arg.Value, words) {
				return true, ""
			}
		}
		// SQL the client reads on its standard input: a here-document, a
		// here-string, a file redirected in that the analysis read.
		if v.c.StdinKnown && sqlStatement(v.c.Stdin, words) {
			return true, ""
		}
		// SQL echoed or printed into the client earlier in the call
		// (echo 'drop table x' | psql). A here-document or here-string is
		// not in the analysis, so not seen.
		for i := 0; i < v.idx && i < len(w.a.Commands); i++ {
			prev := w.a.Commands[i]
			if n := prev.Name(); n != "echo" && n != "printf" {
				continue
			}
			for _, arg := range prev.Args[1:] {
				if arg.Dynamic == "" && sqlStatement(arg.Value, words) {
					return true, ""
				}
			}
		}
	case "destroys":
		return destroys(splitAlts(a.value), v, w), ""
	case "writes-device":
		return erasesDevice(v), ""
	case "download-pipe":
		return downloadPipe(v, w), ""
	case "past-ceiling":
		return pastCeiling(v, w)
	}
	return false, ""
}

// within reports whether p is dir or under it.
func within(p, dir string) bool {
	if dir == "" {
		return false
	}
	dir = filepath.Clean(dir)
	return p == dir || strings.HasPrefix(p, strings.TrimSuffix(dir, "/")+"/")
}

// scratch reports whether p is in scratch space: under /tmp, /var/tmp,
// macOS's per-user temporary directories, or $TMPDIR. When the checkout
// itself lies in scratch space (a sandbox, a test), what sits beside it
// there (another checkout, a worktree) is not scratch, nor is a home
// directory there.
func scratch(p string, v command, w *world) bool {
	if within(p, w.home) {
		return false // a home directory under /tmp is a home
	}
	roots := [...]string{"/tmp", "/var/tmp", "/private/tmp", "/private/var/tmp", "/private/var/folders", "/var/folders", "/dev/shm", w.tmpdir}
	for _, r := range roots {
		if r == "" || !filepath.IsAbs(r) || filepath.Clean(r) == "/" || !within(p, r) {
			continue
		}
		if co := checkoutOf(v, w); co != "" && within(co, r) && within(p, filepath.Dir(co)) {
			return false
		}
		return true
	}
	return false
}

// checkoutOf is the work tree the command runs in: the repository holding
// its directory, else the checkout magehook serves.
func checkoutOf(v command, w *world) string {
	if v.c.DirDynamic == "" && v.c.Dir != "" {
		if repo, err := gitrepo.Find(v.c.Dir); err == nil {
			return repo.Root
		}
	}
	return w.checkout
}

// sqlStatement reports a statement of text (split at ';') that begins
// with one of words, case-insensitively.
func sqlStatement(text string, words []string) bool {
	if strings.HasPrefix(text, "-") {
		_, value, ok := strings.Cut(text, "=")
		if !ok {
			return false
		}
		text = value // --command=DROP ...
	}
	text = stripSQLComments(strings.ToLower(text))
	for _, w := range words {
		// MongoDB's shell: db.dropDatabase(), db.users.drop(), and a
		// deleteMany({}) or remove({}) of every document.
		if w == "drop" && (strings.Contains(text, ".dropdatabase(") || strings.Contains(text, ".drop(")) {
			return true
		}
		if w == "delete-all" && (strings.Contains(text, ".deletemany({})") || strings.Contains(text, ".remove({})")) {
			return true
		}
	}
	for _, stmt := range strings.Split(text, ";") {
		fields := strings.Fields(stmt)
		if len(fields) < 2 {
			continue // a lone word ("drop") is no statement
		}
		for _, w := range words {
			if fields[0] == w {
				return true
			}
			// DELETE FROM t with no WHERE: every row.
			if w == "delete-all" && fields[0] == "delete" && !strings.Contains(stmt, " where ") {
				return true
			}
		}
	}
	return false
}

// stripSQLComments replaces /* ... */ and -- comments by a space, as the
// server does before it reads the keywords (DROP/**/TABLE is DROP TABLE).
// Quoted strings are left alone.
func stripSQLComments(s string) string {
	var b strings.Builder
	quote := byte(0)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
			b.WriteByte(c)
		case c == '\'' || c == '"':
			quote = c
			b.WriteByte(c)
		case c == '/' && i+1 < len(s) && s[i+1] == '*':
			end := strings.Index(s[i+2:], "*/")
			if end < 0 {
				return b.String() + " "
			}
			i += end + 3
			b.WriteByte(' ')
		case c == '-' && i+1 < len(s) && s[i+1] == '-':
			end := strings.IndexByte(s[i:], '\n')
			if end < 0 {
				return b.String() + " "
			}
			i += end
			b.WriteByte('\n')
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// downloadPipe: an interpreter reads its program from a standard input that
// an earlier download in the same command feeds (curl ... | sh).
func downloadPipe(v command, w *world) bool {
	shell := false
	switch strings.TrimRight(v.program, "0123456789.") {
	case "sh", "bash", "zsh", "dash", "ksh", "fish":
		shell = true
	case "python", "node", "perl", "ruby", "php", "source", "":
	default:
		return false
	}
	if v.program == "." {
		shell = true
	}
	fed := strings.Contains(v.c.Opaque, "standard input") || strings.Contains(v.c.Opaque, "process substitution")
	if shell {
		for _, o := range v.options {
			if !strings.HasPrefix(o.Value, "--") && strings.Contains(o.Value[1:], "s") {
				fed = true // sh -s: the script comes on stdin, what follows are its arguments
			}
		}
	}
	if !fed {
		return false
	}
	for i := 0; i < v.idx && i < len(w.a.Commands); i++ {
		switch w.a.Commands[i].Name() {
		case "curl", "wget", "fetch", "aria2c", "http", "https", "xh", "iwr", "invoke-webrequest":
			return true
		}
	}
	return false
}

// pastCeiling: a deploy command (its program or an argument names deploy,
// release or promote) whose arguments or environment name an environment
// past deploy.ceiling.
func pastCeiling(v command, w *world) (bool, string) {
	if len(w.past) == 0 {
		return false, ""
	}
	deploy := isDeployWord(v.program)
	for _, a := range v.all {
		deploy = deploy || a.Dynamic == "" && isDeployWord(a.Value)
	}
	if !deploy {
		return false, ""
	}
	values := make([]string, 0, len(v.all)+len(v.c.Env))
	for _, a := range v.all {
		if a.Dynamic == "" {
			values = append(values, a.Value)
		}
	}
	for _, e := range v.c.Env {
		if e.Dynamic == "" && !e.Unset {
			values = append(values, e.Value)
		}
	}
	for _, val := range values {
		if i := strings.LastIndexByte(val, '='); i >= 0 {
			val = val[i+1:]
		}
		for _, env := range w.past {
			if strings.EqualFold(val, env) {
				return true, ""
			}
		}
	}
	return false, ""
}

func isDeployWord(s string) bool {
	s = strings.ToLower(filepath.Base(s))
	return strings.Contains(s, "deploy") || strings.Contains(s, "release") || strings.Contains(s, "promote")
}

// dirty evaluates {dirty}: the repository git works in has uncommitted
// changes to tracked files. A repository only known at run time counts as
// dirty (the gate fails closed); no repository at all, as clean.
func dirty(v command, w *world) (bool, string, error) {
	if w.assume {
		return true, "", nil
	}
	dir, gitDir := v.c.Dir, ""
	dyn := v.c.DirDynamic
	if v.c.Git != nil {
		dir, gitDir, dyn = v.c.Git.Where()
	}
	if dyn != "" {
		return true, "the repository is only known at run time (" + dyn + ")", nil
	}
	ok, err := w.dirty(dir, gitDir)
	return ok, "", err
}

// gitDirty asks git whether tracked files have changes, without a goroutine.
func gitDirty(dir, gitDir string) (bool, error) {
	var repo gitrepo.Repo
	var err error
	if gitDir != "" {
		repo, err = gitrepo.Open(dir, gitDir)
	} else {
		repo, err = gitrepo.Find(dir)
	}
	if errors.Is(err, gitrepo.ErrNotRepo) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	out, err := proc.Output(repo.Root, []string{"GIT_DIR=" + repo.GitDir, "GIT_WORK_TREE=" + repo.Root, "GIT_TERMINAL_PROMPT=0", "LC_ALL=C", "GIT_OPTIONAL_LOCKS=0"},
		"git", "status", "--porcelain", "--untracked-files=no")
	if err != nil {
		return false, err
	}
	return len(strings.TrimSpace(string(out))) > 0, nil
}

// blockDevices are the names block devices have.
var blockDevices = []string{"/dev/sd*", "/dev/hd*", "/dev/vd*", "/dev/xvd*", "/dev/nvme*", "/dev/mmcblk*", "/dev/disk*", "/dev/rdisk*", "/dev/mapper/*", "/dev/md*", "/dev/dm-*", "/dev/loop*", "/dev/zd*"}

// erasesDevice: a disk tool given a block device, in a form that erases
// or repartitions it, not one that only prints (parted -l, sgdisk -p,
// sfdisk -l, hdparm -I, nvme list). Each tool's destructive forms are
// listed here: the knowledge is data, one line per program.
func erasesDevice(v command) bool {
	device := false
	for _, op := range v.operands {
		if op.Dynamic == "" && anyGlob(blockDevices, op.Value) {
			device = true
		}
	}
	for _, o := range v.options {
		if _, val, ok := strings.Cut(o.Value, "="); ok && anyGlob(blockDevices, val) {
			device = true
		}
	}
	if !device {
		return false
	}
	has := func(words ...string) bool {
		for _, a := range v.all {
			for _, w := range words {
				if a.Dynamic == "" && (a.Value == w || strings.HasPrefix(a.Value, w+"=")) {
					return true
				}
			}
		}
		return false
	}
	switch v.program {
	case "parted":
		return has("mklabel", "mktable", "mkpart", "rm", "resizepart", "mkfs")
	case "fdisk", "gdisk", "cfdisk", "cgdisk":
		return !has("-l", "--list", "-s", "--getsz", "-V", "--version", "-h", "--help") // its commands come interactively, or on stdin
	case "sgdisk":
		return has("-Z", "--zap-all", "-z", "--zap", "-o", "--clear", "-d", "--delete", "-n", "--new", "-g", "--mbrtogpt", "-R", "--replicate") || clustered(v, "ZzodnR")
	case "sfdisk":
		return !has("-l", "--list", "-d", "--dump", "-J", "--json", "-s", "--show-size", "-V", "--verify", "-g", "--show-geometry", "-F", "--list-free", "-r", "--reorder", "--backup-pt-sectors")
	case "hdparm":
		return has("--security-erase", "--security-erase-enhanced", "--trim-sector-ranges", "--trim-sector-ranges-stdin", "--write-sector", "--make-bad-sector", "--dco-restore", "--fwdownload")
	case "cryptsetup":
		return has("luksFormat", "erase", "luksErase", "reencrypt", "luksKillSlot")
	case "nvme":
		return has("format", "sanitize", "ns-delete", "delete-ns", "write-zeroes")
	case "zpool":
		return has("create", "destroy", "labelclear", "add", "replace")
	case "dmsetup":
		return has("remove", "wipe_table", "remove_all")
	}
	return true // blkdiscard, mkdosfs, mkntfs, mkfs.*, mkswap, shred, sg_format
}

// clustered reports a short option letter of letters in a cluster (-Zo).
func clustered(v command, letters string) bool {
	for _, o := range v.options {
		if !strings.HasPrefix(o.Value, "--") && strings.ContainsAny(o.Value[1:], letters) {
			return true
		}
	}
	return false
}

// destroys reports a write of the command's, as the analysis found it
// whatever the program (rm, mv, find -delete or -exec rm, xargs rm,
// rsync --delete, chmod -R, ...), that removes, moves away or changes the
// mode of a whole tree at or above / (root), the home directory (home)
// or the checkout (checkout). A find that selects entries by name
// (find / -name '*.log' -delete) counts for / and the home directory
// alone: in the checkout, it is the ordinary cleanup. A write whose path
// is computed is left to the gates' write analysis.
func destroys(targets []string, v command, w *world) bool {
	for _, wr := range w.a.Writes {
		if wr.Command != v.idx || wr.Dynamic != "" || !wr.Tree || !wr.Destroys() && !(wr.Op == "rsync" && rsyncDeletes(v)) {
			continue
		}
		for _, t := range targets {
			switch {
			case t == "root" && wr.Path == "/":
				return true
			case t == "home" && atOrAbove(wr.Path, w.home):
				return true
			case t == "checkout" && wr.Match == nil && !wr.ModeOnly() && atOrAbove(wr.Path, checkoutOf(v, w)):
				return true
			}
		}
	}
	return false
}

// rsyncDeletes reports rsync's --delete options (--delete, --delete-after,
// --delete-excluded, ...), with which the destination loses what the
// source lacks.
func rsyncDeletes(v command) bool {
	for _, o := range v.all {
		if o.Value == "--" {
			return false
		}
		if o.Dynamic == "" && strings.HasPrefix(o.Value, "--del") {
			return true
		}
	}
	return false
}

// underHome reports a path below home that a glob with a leading ~/
// matches (~/.ssh/* for $HOME/.ssh/authorized_keys), as the shell reads
// ~/ in a path; with no home known, such a glob matches nothing (a write
// under an unknown home is computed, and judged as such).
func underHome(globs []string, home, p string) bool {
	if home == "" {
		return false
	}
	rest, ok := strings.CutPrefix(p, strings.TrimSuffix(home, "/"))
	if !ok || !strings.HasPrefix(rest, "/") {
		return false
	}
	rest = rest[1:]
	for _, g := range globs {
		if tail, ok := strings.CutPrefix(g, "~/"); ok && anyGlob([]string{tail}, rest) {
			return true
		}
	}
	return false
}

// matchesEverything reports whether a glob's first segment with a
// wildcard may match every entry of the directory before it: one made of
// wildcards alone (*, ?*, .*, [!.]*), where one with a literal character
// in it (*.log, coverage*) matches only some.
func matchesEverything(glob string) bool {
	for _, seg := range strings.Split(glob, "/") {
		if !strings.ContainsAny(seg, "*?[") {
			continue
		}
		for i := 0; i < len(seg); i++ {
			switch seg[i] {
			case '*', '?', '.':
			case '[':
				end := strings.IndexByte(seg[i+1:], ']')
				if end < 0 {
					return true // not a bracket expression the analysis reads: as everything
				}
				i += end + 1
			default:
				return false
			}
		}
		return true
	}
	return true
}
