package gitcmd

import (
	"slices"
	"strings"
)

// What the analysis knows of the programs other than git and the shells:
// one spec per program (or per programs that share a grammar and a
// behaviour), read by every side of the analysis: the wrappers it follows
// (unwrap), the files a command writes (commandWrites), the files it reads
// and hands on (Reads), and whether a program is known at all (Knows).
// Each spec carries examples that TestProgramSpecs runs: adding a program
// is one reviewed entry here and its examples.

// progSpec is one program's grammar and the roles of its words.
type progSpec struct {
	names []string

	// The option grammar. short are the short options that take a value
	// (attached, -n5, or as the next word; a cluster -rn5 is split into
	// its letters until one that takes a value); long the long options
	// (without "--") that take a value written apart (--lines 5; --lines=5
	// is always read). singleDash: every option is one word with one dash
	// (openssl -in f, sqlite3 -cmd x, xxd -cols 8), and long lists those
	// taking a value, without the dash.
	short      string
	long       []string
	singleDash bool
	// flags are the long options without a value; with them, a spec
	// lists every long option, and an unambiguous prefix of one
	// (--in-pl, --rec, --targ=d) is read as it, as GNU getopt_long does.
	flags []string

	// The read side (reads.go): which operands and option values name
	// files whose contents the program hands on.
	role readRole
	// valueReads are options whose value is a file it reads ("-f" of
	// grep, "-in" of openssl, written as in argv).
	valueReads []string
	// atReads are options whose value names a file after '@' (curl -d
	// @file, -F name=@file).
	atReads []string
	// recursive are the options that make operand directories trees
	// (grep -r); tree: directories are always trees (rg, tar, zip -r).
	recursive []string
	tree      bool
	// quiet are the options with which nothing is read out (sed -i: the
	// file is changed in place, not printed).
	quiet []string

	// The write side (writes.go).
	write writeSide

	// The wrapper side (wrappers.go): a program that runs another given
	// as its arguments.
	wrap wrapSide

	examples []example
}

// example is a command and what the analysis must find, run in /w: reads
// as readForm renders them, writes as writeForm does, and (for a wrapper)
// runs, the argument vector of the last command, with @DIR when it runs
// elsewhere than /w. Each is a space-separated list; "" is none.
type example struct{ command, reads, writes, runs string }

// writeKind is which operands a program writes.
type writeKind int

const (
	wkUnknown  writeKind = iota // not modelled: Knows is false, a gate fails closed on it
	wkNone                      // no operand is written (option values may be)
	wkOperands                  // every operand (after skip)
	wkFirst                     // the first operand (sqlite3's database, zip's archive)
	wkSecond                    // the second operand (uniq IN OUT, xxd IN OUT)
	wkLast                      // the last operand (mount's mount point)
	wkCustom                    // computed by customWrites (cp, tar, find, sed, go, ...)
)

// writeSide is the files a program changes.
type writeSide struct {
	kind writeKind
	// op is the Write.Op recorded; the program's name when empty.
	op string
	// when: nothing is written unless one of these options is given
	// (sed -i, gofmt -w, yq -i); unless: nothing is written when one is
	// (prettier --check).
	when, unless []string
	// skip is the number of leading operands that name no file (chmod's
	// mode, yq's expression); modeChars, when set, are the letters of a
	// mode that may start with '-' (chmod -x f, chattr -i f): such a word
	// is the mode, so nothing more is skipped.
	skip      int
	modeChars string
	// trees are options that make every written operand a tree (rm -r);
	// treeAll: operands are always trees (gofmt -w dir, rename).
	trees   []string
	treeAll bool
	// values are options whose value is a file written (sort -o, curl
	// -o, openssl -out); valueTrees options whose value is a directory
	// written into (unzip -d, wget -P, cmake -B).
	values, valueTrees []string
	// dot: when nothing else is written, the directory it runs in is
	// (unzip, wget, split, gofmt -w without operands); dotWhen: it is
	// when one of these options is given (curl -O).
	dot     bool
	dotWhen []string
	// skipUnless: the skip does not apply when one of these options is
	// given (awk's program comes from -f then, not the first operand).
	skipUnless []string
	// whenSub: the first operand is a subcommand (not a file), and one of
	// these makes the program write as a when option does (ruff format).
	whenSub []string
	// keyValues are operand keys whose value is a file written (dd's
	// of=FILE).
	keyValues []string
	// local: an operand that names another host (host:path) is not
	// written here (rsync, scp); atLeast: nothing is written with fewer
	// operands than this (rsync SRC only lists it).
	local   bool
	atLeast int
	// moves are options with which the operands not written are moved
	// away, deleted as trees (rsync --remove-source-files, zip -m).
	moves []string
	// urlNames: what dot (or a valueTrees directory) receives is one file
	// per URL operand, named after the URL's last path segment (urlIndex
	// when it has none; no file when urlIndex is empty), not a tree of
	// any names; urlTrees are the options that fetch trees or take names
	// from elsewhere (wget -r, --content-disposition, -i), with which
	// the directory is a tree again.
	urlNames bool
	urlIndex string
	urlTrees []string
}

// wrapSide is how a wrapper finds the command it runs.
type wrapSide struct {
	on bool
	// operands before the command (timeout's duration, chroot's root).
	operands int
	// assigns: NAME=value words may precede the command (env, sudo).
	assigns bool
	// joins: the command words are joined and run by sh -c (watch).
	joins bool
	// appends: words read at run time are appended (xargs, parallel);
	// with joins they are not read from a known input (parallel reads
	// lines its own way), without (xargs) they are split as the shell
	// would. argLists: ::: lists give the arguments (parallel).
	appends  bool
	argLists bool
	// subcmds: a subcommand word that must come first (uv run, npm exec).
	subcmds []string
	// chdir are options naming the directory it runs in (env -C, sudo
	// -D); unset options naming a variable it removes (env -u); split
	// options whose value is split into leading words (env -S); shell
	// options whose value is a command string a shell runs (su -c).
	chdir, unset, split, shell []string
	// shellFlags make the command words a shell's command string (sudo
	// -s, sudo -i).
	shellFlags []string
	// printsOnly: with one of these the command is only printed (command
	// -v).
	printsOnly []string
	// dashOption: a lone "-" is an option, not the command (env - is env
	// -i).
	dashOption bool
}

// programTable is every program the analysis knows, other than git, the
// shells and the interpreters: constant data the compiler lays out
// statically (nothing runs at start-up or on first use).
var programTable = [...]progSpec{
	// Readers that write nothing.
	{names: []string{"cat", "tac", "nl", "less", "more", "most", "pg", "bat", "batcat", "strings", "rev", "fold", "fmt", "pr",
		"expand", "unexpand", "paste", "column", "comm", "diff", "diff3", "sdiff", "colordiff", "vimdiff", "view"},
		role: rdAll, long: []string{"width", "lines"}, write: writeSide{kind: wkNone},
		examples: []example{{command: "cat .env", reads: ".env"}, {command: "cat -n a b", reads: "a b"}, {command: "less -N src/x.go", reads: "src/x.go"},
			{command: "diff .env .env.example", reads: ".env .env.example"}, {command: "echo x | cat"}, {command: "cat -- -odd", reads: "-odd"}, {command: "strings bin/app", reads: "bin/app"}}},
	{names: []string{"sort"}, role: rdAll, short: "oktTS", long: []string{"output", "key", "field-separator", "temporary-directory", "buffer-size"},
		write: writeSide{kind: wkNone, op: "sort -o", values: []string{"-o", "--output"}},
		examples: []example{{command: "sort -t , -k 2 data.csv", reads: "data.csv"}, {command: "sort -u -o names.txt names.txt", reads: "names.txt", writes: "names.txt"},
			{command: "sort --output=out.txt -k2 in.txt", reads: "in.txt", writes: "out.txt"}}},
	{names: []string{"uniq"}, role: rdAll, short: "fsw", long: []string{"skip-fields", "skip-chars", "check-chars"},
		write:    writeSide{kind: wkSecond},
		examples: []example{{command: "uniq -c log.txt", reads: "log.txt"}, {command: "uniq -f 1 in.txt out.txt", reads: "in.txt out.txt", writes: "out.txt"}}},
	{names: []string{"cut"}, role: rdAll, short: "bcdf", long: []string{"bytes", "characters", "delimiter", "fields", "output-delimiter"},
		write:    writeSide{kind: wkNone},
		examples: []example{{command: "cut -d= -f2 .env", reads: ".env"}, {command: "cut -f 1 a.tsv", reads: "a.tsv"}}},
	{names: []string{"iconv"}, role: rdAll, short: "fto", long: []string{"from-code", "to-code", "output"},
		write:    writeSide{kind: wkNone, op: "iconv -o", values: []string{"-o", "--output"}},
		examples: []example{{command: "iconv -f latin1 -t utf-8 in.txt", reads: "in.txt"}, {command: "iconv -f latin1 -t utf-8 -o out.txt in.txt", reads: "in.txt", writes: "out.txt"}}},
	{names: []string{"head", "tail"}, role: rdAll, short: "ncs", long: []string{"lines", "bytes", "sleep-interval", "pid", "max-unchanged-stats"},
		write:    writeSide{kind: wkNone},
		examples: []example{{command: "head -n 5 .env.local", reads: ".env.local"}, {command: "tail -c 100 log.txt", reads: "log.txt"}, {command: "head -20 a", reads: "a"}}},
	{names: []string{"base64", "base32", "basenc", "uuencode"}, role: rdAll, short: "w", long: []string{"wrap"},
		write:    writeSide{kind: wkNone},
		examples: []example{{command: "base64 -w0 key.pem", reads: "key.pem"}, {command: "base64 -d in.b64", reads: "in.b64"}}},
	{names: []string{"xxd"}, role: rdAll, singleDash: true, long: []string{"c", "cols", "g", "groupsize", "l", "len", "o", "offset", "s", "seek", "n", "name"},
		write:    writeSide{kind: wkSecond},
		examples: []example{{command: "xxd -c 16 id_rsa", reads: "id_rsa"}, {command: "xxd -p key out.hex", reads: "key out.hex", writes: "out.hex"}, {command: "xxd -r -p in.hex bin", reads: "in.hex bin", writes: "bin"}}},
	{names: []string{"od", "hexdump", "hd"}, role: rdAll, short: "AjNStwefns", long: []string{"format", "skip-bytes", "read-bytes", "width", "address-radix", "strings"},
		write:    writeSide{kind: wkNone},
		examples: []example{{command: "od -A x -t x1z .env", reads: ".env"}, {command: "od -c .env", reads: ".env"}, {command: "hexdump -C -n 64 key.p12", reads: "key.p12"}}},
	{names: []string{"grep", "egrep", "fgrep", "zgrep", "rgrep"}, role: rdPattern, short: "efmABCdD",
		long:       []string{"regexp", "file", "max-count", "after-context", "before-context", "context", "include", "exclude", "exclude-dir", "exclude-from", "label", "binary-files", "devices", "directories", "group-separator"},
		valueReads: []string{"-f", "--file"}, recursive: []string{"-r", "-R", "--recursive", "--dereference-recursive", "-d recurse", "--directories=recurse"},
		write: writeSide{kind: wkNone},
		examples: []example{{command: "grep -n DATABASE_URL .env.example", reads: ".env.example"}, {command: "grep -e x -e y a b", reads: "a b"}, {command: "grep -rn TODO src", reads: "tree:src"},
			{command: "grep -r --exclude=.env x .", reads: "tree:.-.env"}, {command: "grep -rl x", reads: "tree:."}, {command: "grep -f .env log", reads: ".env log"}, {command: "ps aux | grep node"}}},
	{names: []string{"rg", "ag", "ack", "ack-grep", "pt", "ugrep", "ug"}, role: rdPattern, tree: true, short: "efmABCgtTMjE",
		long: []string{"regexp", "file", "max-count", "after-context", "before-context", "context", "glob", "iglob", "type", "type-not", "max-columns",
			"threads", "encoding", "ignore-file", "pre", "sort", "sortr", "max-depth", "ignore-dir", "file-search-regex"},
		valueReads: []string{"-f", "--file"}, write: writeSide{kind: wkNone},
		examples: []example{{command: "rg TODO", reads: "rtree:."}, {command: "rg -uu KEY config", reads: "tree:config"}, {command: "rg -n x .env", reads: "rtree:.env"}, {command: "rg -g '!*.env' --hidden x", reads: "htree:.-*.env"}}},
	{names: []string{"sed", "gsed"}, role: rdScript, short: "efl", long: []string{"expression", "file", "line-length"},
		flags: []string{"in-place", "quiet", "silent", "debug", "follow-symlinks", "posix", "regexp-extended", "separate", "sandbox", "unbuffered", "null-data", "zero-terminated", "help", "version"}, valueReads: []string{"-f", "--file"}, quiet: []string{"-i", "--in-place"},
		write: writeSide{kind: wkCustom},
		examples: []example{{command: "sed -n 1,5p .env", reads: ".env"}, {command: "sed -e s/a/b/ -e p x y", reads: "x y"}, {command: "sed -i s/a/b/ .env", writes: ".env"},
			{command: "sed -i.bak -e s/a/b/ x y", writes: "x y"}, {command: "sed --in-place=.orig 's/a/b/' f", writes: "f"}, {command: "sed --in-pl s/a/b/ f", writes: "f"}, {command: "sed --expr=s/a/b/ --in f", writes: "f"}, {command: "sed -n 'w out.txt' in.txt", reads: "in.txt", writes: "out.txt"}}},
	{names: []string{"awk", "gawk", "mawk", "nawk"}, role: rdScript, short: "fvFiE", long: []string{"file", "assign", "field-separator", "include", "load", "exec"},
		valueReads: []string{"-f", "--file"}, quiet: []string{"-i inplace", "--include=inplace"},
		write: writeSide{kind: wkOperands, when: []string{"-i inplace", "--include=inplace"}, skip: 1, skipUnless: []string{"-f", "--file"}},
		examples: []example{{command: "awk '{print}' .env", reads: ".env"}, {command: "awk -F= -v x=1 '{print $2}' a", reads: "a"}, {command: "awk -f prog.awk data", reads: "prog.awk data"},
			{command: "gawk -i inplace '{print}' a b", writes: "a b"}, {command: "gawk -i inplace -f prog.awk a", writes: "a"}, {command: "gawk --include=inplace 1 x", writes: "x"}}},
	{names: []string{"jq", "gojq", "jaq"}, role: rdScript, short: "f", long: []string{"arg", "argjson", "slurpfile", "rawfile", "indent", "from-file"},
		valueReads: []string{"-f", "--from-file"}, write: writeSide{kind: wkNone},
		examples: []example{{command: "jq .token creds.json", reads: "creds.json"}, {command: "jq --arg k v '.[$k]' a.json", reads: "a.json"}}},
	{names: []string{"yq"}, role: rdScript, short: "f", long: []string{"arg", "indent", "from-file", "output-format", "input-format"},
		valueReads: []string{"-f", "--from-file"}, quiet: []string{"-i", "--inplace"},
		write:    writeSide{kind: wkOperands, op: "yq -i", when: []string{"-i", "--inplace"}, skip: 1},
		examples: []example{{command: "yq -i .a=1 x.yaml", writes: "x.yaml"}, {command: "yq .a x.yaml", reads: "x.yaml"}}},
	{names: []string{"source", "."}, role: rdFirst, write: writeSide{kind: wkNone},
		examples: []example{{command: "source .env", reads: ".env"}, {command: ". ./env.sh arg", reads: "env.sh"}}},

	// Copies, moves, links.
	{names: []string{"cp", "gcp"}, role: rdCopy, short: "tS", long: []string{"target-directory", "suffix", "sparse", "no-preserve"},
		flags: []string{"archive", "attributes-only", "backup", "copy-contents", "dereference", "force", "interactive", "link", "no-dereference", "no-clobber",
			"no-target-directory", "one-file-system", "parents", "preserve", "recursive", "reflink", "remove-destination", "strip-trailing-slashes", "symbolic-link", "update", "verbose", "context", "help", "version"},
		recursive: []string{"-r", "-R", "-a", "--recursive", "--archive"}, write: writeSide{kind: wkCustom},
		examples: []example{{command: "cp .env /tmp/x", reads: ".env>/tmp/x", writes: "/tmp/x"}, {command: "cp .env.example .env", reads: ".env.example>.env", writes: ".env"},
			{command: "cp -r keys out", reads: "tree:keys>out", writes: "tree:out"}, {command: "cp -t dest a b", reads: "a>dest b>dest", writes: "dest/a dest/b"},
			{command: "cp --preserve a b", reads: "a>b", writes: "b"}, {command: "cp --targ=d a", reads: "a>d", writes: "d/a"}, {command: "cp --rec a b", reads: "tree:a>b", writes: "tree:b"}, {command: "cp -l a b", reads: "a>b", writes: "a b"}}},
	{names: []string{"mv", "gmv"}, role: rdCopy, short: "tS", long: []string{"target-directory", "suffix"}, write: writeSide{kind: wkCustom},
		flags:    []string{"backup", "force", "interactive", "no-clobber", "no-target-directory", "strip-trailing-slashes", "update", "verbose", "context", "help", "version"},
		examples: []example{{command: "mv .env /tmp/e", reads: ".env>/tmp/e", writes: "tree:.env tree:/tmp/e"}, {command: "mv -t d a", reads: "a>d", writes: "tree:a tree:d/a"}, {command: "mv --target=d a", reads: "a>d", writes: "tree:a tree:d/a"}}},
	{names: []string{"install"}, role: rdCopy, short: "tSmgo", long: []string{"target-directory", "suffix", "mode", "owner", "group", "strip-program"},
		write: writeSide{kind: wkCustom},
		examples: []example{{command: "install -m 755 bin/app /usr/local/bin/app", reads: "bin/app>/usr/local/bin/app", writes: "/usr/local/bin/app"},
			{command: "install -d -m 700 out", writes: "out"}}},
	{names: []string{"ln"}, role: rdCopy, short: "tS", long: []string{"target-directory", "suffix"}, write: writeSide{kind: wkCustom},
		flags:    []string{"backup", "directory", "force", "interactive", "logical", "no-dereference", "no-target-directory", "physical", "relative", "symbolic", "verbose", "help", "version"},
		examples: []example{{command: "ln -s .env e", reads: ".env>e", writes: "e"}, {command: "ln a b", reads: "a>b", writes: "a b"}, {command: "ln -sf ../x", writes: "x"}, {command: "ln --sym .env e", reads: ".env>e", writes: "e"}}},
	{names: []string{"link"}, role: rdCopy, write: writeSide{kind: wkOperands},
		examples: []example{{command: "link a b", reads: "a>b", writes: "a b"}}},
	{names: []string{"scp", "rcp"}, role: rdCopy, short: "cFiJlLoPS", write: writeSide{kind: wkLast, op: "scp cp", treeAll: true, local: true, atLeast: 2},
		examples: []example{{command: "scp .env host:/tmp/", reads: ".env>?"}, {command: "scp host:x .", writes: "tree:."}, {command: "scp -P 22 -i key host:a out", writes: "tree:out"}}},
	{names: []string{"rsync"}, role: rdCopy, short: "eBfT", long: []string{"rsh", "exclude", "include", "filter", "files-from", "temp-dir", "partial-dir", "backup-dir", "chmod", "chown", "rsync-path", "port"},
		recursive: []string{"-r", "-a", "--recursive", "--archive"}, write: writeSide{kind: wkLast, treeAll: true, local: true, atLeast: 2, moves: []string{"--remove-source-files"}},
		examples: []example{{command: "rsync -a --delete src/ /tmp/mirror/", reads: "tree:src>/tmp/mirror", writes: "tree:/tmp/mirror"}, {command: "rsync -t a b", reads: "a>b", writes: "tree:b"},
			{command: "rsync x host:y", reads: "x>?"}, {command: "rsync --remove-source-files a b", reads: "a>b", writes: "tree:b tree:a"}}},
	{names: []string{"rclone"}, long: []string{"config", "exclude", "include", "filter", "transfers", "checkers"}, write: writeSide{kind: wkUnknown},
		role:     rdCopy,
		examples: []example{{command: "rclone copy .env remote:x", reads: "copy>? .env>?"}}},
	{names: []string{"dd"}, role: rdValues, write: writeSide{kind: wkNone, keyValues: []string{"of"}},
		examples: []example{{command: "dd if=.env of=/tmp/x", reads: ".env>/tmp/x", writes: "/tmp/x"}, {command: "dd if=id_rsa", reads: "id_rsa"},
			{command: "dd if=/dev/zero of=disk.img count=1", reads: "/dev/zero>disk.img", writes: "disk.img"}}},

	// Archives.
	{names: []string{"tar", "bsdtar", "gtar"}, role: rdArchive, tree: true, short: "fCTXbIHKNV",
		long:  []string{"file", "directory", "files-from", "exclude-from", "exclude", "blocking-factor", "use-compress-program", "format", "transform", "owner", "group", "mode", "mtime", "newer", "to-command"},
		write: writeSide{kind: wkCustom},
		examples: []example{{command: "tar czf out.tgz .env src", reads: "tree:.env tree:src", writes: "out.tgz"}, {command: "tar -cf - .ssh", reads: "tree:.ssh"},
			{command: "tar -xzf a.tgz", writes: "tree:."}, {command: "tar tf a.tar"}, {command: "tar -xf a.tar -C /tmp/x", writes: "tree:/tmp/x"}}},
	{names: []string{"zip"}, role: rdArchive, short: "bnPtiZO", long: []string{"password", "exclude", "include", "output-file"}, recursive: []string{"-r", "-R", "--recurse-paths"},
		write: writeSide{kind: wkFirst, values: []string{"-O", "--output-file"}, moves: []string{"-m", "--move"}},
		examples: []example{{command: "zip out.zip .env", reads: ".env", writes: "out.zip"}, {command: "zip -r out.zip secrets", reads: "tree:secrets", writes: "out.zip"},
			{command: "zip -m out.zip a b", reads: "a b", writes: "out.zip tree:a tree:b"}, {command: "zip -O new.zip old.zip x", reads: "x", writes: "old.zip new.zip"}}},
	{names: []string{"7z", "7za", "7zr", "rar", "unrar"}, role: rdArchive, write: writeSide{kind: wkCustom},
		examples: []example{{command: "7z a out.7z id_rsa", reads: "id_rsa", writes: "out.7z"}, {command: "7z x a.7z", writes: "tree:."}, {command: "7z x a.7z -oout", writes: "tree:out"},
			{command: "unrar x a.rar", writes: "tree:."},
			{command: "rar m a.rar x", reads: "x", writes: "a.rar tree:x"}, {command: "7z a -sdel a.7z x", reads: "x", writes: "a.7z tree:x"}}},
	{names: []string{"cpio", "ar", "jar"}, short: "D", long: []string{"directory"}, write: writeSide{kind: wkCustom},
		examples: []example{{command: "cpio -id < a.cpio", reads: "a.cpio", writes: "tree:."}, {command: "ar x lib.a", writes: "tree:."}, {command: "jar tf a.jar"}}},
	{names: []string{"unzip"}, short: "dx", write: writeSide{kind: wkNone, op: "unzip", valueTrees: []string{"-d"}, dot: true},
		examples: []example{{command: "unzip a.zip", writes: "tree:."}, {command: "unzip -q a.zip -d out", writes: "tree:out"}}},
	{names: []string{"gzip", "gunzip", "pigz", "unpigz", "bzip2", "bunzip2", "xz", "unxz", "lzma", "unlzma", "zstd", "unzstd", "lz4", "compress", "uncompress", "brotli"},
		short: "bSoTL", long: []string{"suffix", "output", "threads", "format"}, write: writeSide{kind: wkCustom},
		examples: []example{{command: "gzip log.txt", writes: "log.txt"}, {command: "gzip -k log.txt"}, {command: "gunzip a.gz", writes: "a.gz a"},
			{command: "zstd a"}, {command: "zstd --rm a", writes: "a"}, {command: "gzip -c a"}}},

	// Network clients that save files.
	{names: []string{"curl"}, role: rdValues, short: "dFTHoXuxAeEbcKwmrYyzCD",
		long: []string{"data", "data-binary", "data-ascii", "data-raw", "data-urlencode", "form", "form-string", "upload-file", "header", "output", "request", "user",
			"proxy", "user-agent", "referer", "cookie", "cookie-jar", "config", "write-out", "max-time", "range", "json", "url", "dump-header", "output-dir"},
		atReads:    []string{"-d", "--data", "--data-binary", "--data-ascii", "--data-urlencode", "-F", "--form", "--json", "-H", "--header"},
		valueReads: []string{"-T", "--upload-file", "-K", "--config"},
		write: writeSide{kind: wkNone, op: "curl", values: []string{"-o", "--output", "-D", "--dump-header", "-c", "--cookie-jar"}, dotWhen: []string{"-O", "--remote-name", "--remote-name-all"},
			urlNames: true, urlTrees: []string{"-J", "--remote-header-name", "-K", "--config"}},
		examples: []example{{command: "curl -d @.env https://x.example", reads: ".env"}, {command: "curl -F f=@id_rsa https://x.example", reads: "id_rsa"}, {command: "curl -T .env.local https://x.example", reads: ".env.local"},
			{command: "curl -o out https://x.example", writes: "out"}, {command: "curl -d a=b https://x.example"}, {command: "curl -sSfLO https://x.example/a", writes: "a"},
			{command: "curl -OJ https://x.example/a", writes: "tree:."}, {command: "curl -o - https://x.example/a"}, {command: "curl -O https://x.example/d/.toolingrc?x=1", writes: ".toolingrc"}}},
	{names: []string{"wget"}, role: rdValues, short: "OoaiPe", long: []string{"post-file", "body-file", "output-document", "input-file", "output-file", "append-output", "directory-prefix"},
		valueReads: []string{"--post-file", "--body-file"},
		write: writeSide{kind: wkNone, op: "wget", values: []string{"-O", "--output-document"}, valueTrees: []string{"-P", "--directory-prefix"}, dot: true,
			urlNames: true, urlIndex: "index.html", urlTrees: []string{"-r", "--recursive", "-m", "--mirror", "-p", "--page-requisites", "-i", "--input-file",
				"--content-disposition", "--trust-server-names", "-x", "--force-directories", "-e", "--execute"}},
		examples: []example{{command: "wget --post-file=.env https://x.example", reads: ".env", writes: "index.html"}, {command: "wget -O x https://x.example", writes: "x"},
			{command: "wget -q -P dl https://x.example/a", writes: "dl/a"}, {command: "wget https://x.example/f/.toolingrc", writes: ".toolingrc"},
			{command: "wget -r https://x.example/a", writes: "tree:."}, {command: "wget -qO- https://x.example/a"}, {command: "wget -P dl --content-disposition https://x.example/a", writes: "tree:dl"}}},
	{names: []string{"aria2c"}, short: "od", long: []string{"out", "dir"}, write: writeSide{kind: wkNone, values: []string{"-o", "--out"}, valueTrees: []string{"-d", "--dir"}},
		examples: []example{{command: "aria2c -d dl -o a.iso https://x.example/a.iso", writes: "tree:dl a.iso"}}},
	{names: []string{"openssl"}, role: rdValues, singleDash: true, long: []string{"in", "inkey", "key", "kfile", "out", "keyout", "passin", "passout", "config"},
		valueReads: []string{"-in", "-inkey", "-key", "-kfile"}, write: writeSide{kind: wkNone, values: []string{"-out", "-keyout"}},
		examples: []example{{command: "openssl rsa -in key.pem -noout -text", reads: "key.pem"}, {command: "openssl rand -hex 8"},
			{command: "openssl req -new -keyout k.pem -out c.csr", writes: "k.pem c.csr"}}},

	// Files made, removed, changed in mode.
	{names: []string{"tee"}, write: writeSide{kind: wkOperands},
		examples: []example{{command: "echo x | tee -a log.txt >/dev/null", writes: "log.txt"}, {command: "tee a b < in", reads: "in", writes: "a b"}}},
	{names: []string{"rm"}, write: writeSide{kind: wkOperands, trees: []string{"-r", "-R", "--recursive"}},
		flags:    []string{"force", "interactive", "one-file-system", "no-preserve-root", "preserve-root", "recursive", "dir", "verbose", "help", "version"},
		examples: []example{{command: "rm --rec d", writes: "tree:d"}, {command: "rm --force --recursive d", writes: "tree:d"}}},
	{names: []string{"unlink", "rmdir", "shred", "srm"}, write: writeSide{kind: wkOperands, trees: []string{"-r", "-R", "--recursive"}},
		examples: []example{{command: "rm -f a b", writes: "a b"}, {command: "rm -rf build node_modules/.cache", writes: "tree:build tree:node_modules/.cache"}, {command: "rm -- -x", writes: "-x"}}},
	{names: []string{"touch"}, short: "rdt", long: []string{"reference", "date"}, write: writeSide{kind: wkOperands},
		examples: []example{{command: "touch -d yesterday a b", writes: "a b"}, {command: "touch -r ref x", writes: "x"}}},
	{names: []string{"truncate"}, short: "sr", long: []string{"size", "reference"}, write: writeSide{kind: wkOperands},
		examples: []example{{command: "truncate -s 0 log.txt", writes: "log.txt"}}},
	{names: []string{"mkdir", "mkfifo", "sponge"}, short: "m", long: []string{"mode"}, write: writeSide{kind: wkOperands},
		examples: []example{{command: "mkdir -p -m 700 out/x", writes: "out/x"}, {command: "mkfifo .git/commondir", writes: ".git/commondir"}, {command: "sort a | sponge a", reads: "a", writes: "a"}}},
	{names: []string{"mknod"}, short: "m", long: []string{"mode"}, write: writeSide{kind: wkFirst},
		examples: []example{{command: "mknod p c 1 3", writes: "p"}}},
	{names: []string{"fallocate"}, short: "lon", long: []string{"length", "offset"}, write: writeSide{kind: wkOperands},
		examples: []example{{command: "fallocate -l 1G big.img", writes: "big.img"}}},
	{names: []string{"chmod"}, long: []string{"reference"}, flags: []string{"changes", "silent", "quiet", "verbose", "no-preserve-root", "preserve-root", "recursive", "help", "version"}, write: writeSide{kind: wkOperands, skip: 1, modeChars: "rwxXstugoa+-=,", trees: []string{"-R", "--recursive"}},
		examples: []example{{command: "chmod 644 out/.keep", writes: "out/.keep"}, {command: "chmod -x a b", writes: "a b"}, {command: "chmod -R go-w dir", writes: "tree:dir"},
			{command: "chmod --reference=a b", writes: "b"}, {command: "chmod --rec 700 d", writes: "tree:d"}, {command: "chmod --ref=a b", writes: "b"}}},
	{names: []string{"chown", "chgrp", "chcon"}, long: []string{"reference", "from"}, write: writeSide{kind: wkOperands, skip: 1, trees: []string{"-R", "--recursive"}},
		examples: []example{{command: "chown -R u:g dir", writes: "tree:dir"}, {command: "chgrp staff a", writes: "a"}}},
	{names: []string{"chattr"}, short: "pv", write: writeSide{kind: wkOperands, skip: 1, modeChars: "aAcCdDeFijmPsStTux", trees: []string{"-R"}},
		examples: []example{{command: "chattr +i a", writes: "a"}, {command: "chattr -i a", writes: "a"}, {command: "chattr -R -a dir", writes: "tree:dir"}}},
	{names: []string{"setfacl"}, short: "mMxX", long: []string{"modify", "modify-file", "remove", "remove-file", "set", "set-file"}, write: writeSide{kind: wkOperands, trees: []string{"-R", "--recursive"}},
		examples: []example{{command: "setfacl -m u:x:rw a", writes: "a"}, {command: "setfacl -b a", writes: "a"}}},
	{names: []string{"rename", "prename", "perl-rename", "file-rename"}, write: writeSide{kind: wkOperands, op: "rename", treeAll: true},
		examples: []example{{command: "rename s/a/b/ x y", writes: "tree:s/a/b tree:x tree:y"}}},
	{names: []string{"split", "csplit"}, short: "abCln", long: []string{"suffix-length", "bytes", "line-bytes", "lines", "number", "additional-suffix"}, write: writeSide{kind: wkNone, dot: true},
		examples: []example{{command: "split -b 1M big.bin", writes: "tree:."}}},
	{names: []string{"dos2unix", "unix2dos", "mac2unix", "unix2mac"}, write: writeSide{kind: wkOperands},
		examples: []example{{command: "dos2unix -q a.txt", writes: "a.txt"}}},
	{names: []string{"mount"}, short: "tToLU", long: []string{"types", "options", "label", "uuid", "source", "target"}, write: writeSide{kind: wkLast, trees: []string{}, treeAll: true},
		examples: []example{{command: "mount -t tmpfs none /w/src", writes: "tree:src"}}},
	{names: []string{"sqlite3", "sqlite"}, singleDash: true, long: []string{"cmd", "init", "separator", "newline", "nullvalue"}, write: writeSide{kind: wkFirst},
		examples: []example{{command: "sqlite3 -cmd .tables app.db 'select 1'", writes: "app.db"}}},

	// Formatters and editors that write in place.
	{names: []string{"gofmt", "goimports", "shfmt"}, singleDash: true, long: []string{"r", "local", "i", "ln"},
		write:    writeSide{kind: wkOperands, when: []string{"-w"}, treeAll: true, dot: true},
		examples: []example{{command: "gofmt -l .", reads: ""}, {command: "gofmt -w src", writes: "tree:src"}, {command: "gofmt -w", writes: "tree:."}, {command: "shfmt -i 2 -w x.sh", writes: "tree:x.sh"}}},
	{names: []string{"clang-format"}, write: writeSide{kind: wkOperands, when: []string{"-i"}},
		examples: []example{{command: "clang-format -i a.c b.c", writes: "a.c b.c"}, {command: "clang-format a.c"}}},
	// Formatters and fixers: in place, every operand as a tree (the
	// directory they run in without one), unless they only report.
	{names: []string{"prettier", "eslint", "autopep8"}, write: writeSide{kind: wkOperands, op: "", treeAll: true, dot: true,
		when: []string{"--write", "--fix", "--in-place", "-w", "-i"}, unless: []string{"--check", "--diff", "--check-only", "--dry-run"}},
		examples: []example{{command: "prettier --write src", writes: "tree:src"}, {command: "prettier --check src"}, {command: "prettier -w", writes: "tree:."},
			{command: "eslint --fix src", writes: "tree:src"}, {command: "eslint src"}, {command: "autopep8 -i a.py", writes: "tree:a.py"}}},
	{names: []string{"black", "rustfmt"}, write: writeSide{kind: wkOperands, treeAll: true, dot: true, unless: []string{"--check", "--diff", "--check-only", "--dry-run"}},
		examples: []example{{command: "black .", writes: "tree:."}, {command: "black --check ."}, {command: "rustfmt src/main.rs", writes: "tree:src/main.rs"}}},
	{names: []string{"isort"}, write: writeSide{kind: wkOperands, treeAll: true, dot: true, unless: []string{"-c", "--check", "--diff", "--check-only", "--dry-run"}},
		examples: []example{{command: "isort src", writes: "tree:src"}, {command: "isort -c src"}}},
	{names: []string{"ruff", "biome", "dprint"}, write: writeSide{kind: wkOperands, treeAll: true, dot: true, skip: 1, whenSub: []string{"format", "fmt"},
		when: []string{"--write", "--fix", "--in-place", "-w", "-i"}, unless: []string{"--check", "--diff", "--check-only", "--dry-run"}},
		examples: []example{{command: "ruff format", writes: "tree:."}, {command: "ruff check src"}, {command: "ruff check --fix src", writes: "tree:src"},
			{command: "ruff format --check ."}, {command: "biome format --write src", writes: "tree:src"}, {command: "dprint fmt", writes: "tree:."}}},
	{names: []string{"emacs", "emacsclient"}, short: "flLe", long: []string{"funcall", "load", "eval", "execute", "directory", "script", "file", "visit", "insert"}, write: writeSide{kind: wkCustom},
		examples: []example{{command: "emacs --batch a.el -f save-buffer", writes: "a.el"}, {command: "emacs a.txt"}}},
	{names: []string{"ed", "ex", "red"}, short: "p", write: writeSide{kind: wkOperands},
		examples: []example{{command: "ed -s a.txt < script.ed", reads: "script.ed", writes: "a.txt"}}},
	{names: []string{"vim", "vi", "nvim"}, short: "cSuUiTwW", write: writeSide{kind: wkOperands, when: []string{"-c", "-S", "-s", "-W", "-w", "-e", "-E"}},
		examples: []example{{command: "vim -c 'wq' a.txt", writes: "a.txt"}, {command: "vim a.txt"}, {command: "vim -es a.txt < script", reads: "script", writes: "a.txt"},
			{command: "nvim -S fix.vim a b", writes: "a b"}, {command: "vi -R a.txt"}}},

	// Tools with outputs of their own.
	{names: []string{"gpg", "gpg2", "pandoc"}, short: "o", long: []string{"output"}, write: writeSide{kind: wkNone, values: []string{"-o", "--output"}},
		examples: []example{{command: "gpg -o out.gpg -e a", writes: "out.gpg"}, {command: "pandoc -o a.html a.md", writes: "a.html"}}},
	{names: []string{"cmake"}, short: "BSDGC", long: []string{"build"}, write: writeSide{kind: wkNone, valueTrees: []string{"-B", "--build"}},
		examples: []example{{command: "cmake -S . -B build", writes: "tree:build"}, {command: "cmake --build build", writes: "tree:build"}}},
	{names: []string{"cargo"}, long: []string{"target-dir", "out-dir", "manifest-path", "package", "features"}, write: writeSide{kind: wkNone, valueTrees: []string{"--target-dir", "--out-dir"}},
		examples: []example{{command: "cargo build --target-dir /tmp/t", writes: "tree:/tmp/t"}, {command: "cargo test"}}},
	{names: []string{"patch"}, short: "pidDoBrVYzFg", long: []string{"strip", "input", "directory", "output", "prefix", "reject-file", "backup", "suffix"}, write: writeSide{kind: wkCustom},
		examples: []example{{command: "patch -p1 a.txt < fix.diff", reads: "fix.diff", writes: "a.txt"}}},
	{names: []string{"apply_patch", "applypatch"}, write: writeSide{kind: wkCustom},
		examples: []example{{command: "apply_patch <<'EOF'\n*** Begin Patch\n*** Update File: a.go\n*** End Patch\nEOF", writes: "a.go"}}},
	{names: []string{"find"}, write: writeSide{kind: wkCustom},
		examples: []example{{command: "find . -name '*.orig' -delete", writes: "tree:.[*.orig]"}, {command: "find . -name -delete -print"}, {command: "find src -fprint list.txt", writes: "list.txt"}}},
	{names: []string{"go", "mage"}, write: writeSide{kind: wkCustom},
		examples: []example{{command: "go build -o bin/app ./cmd/app", writes: "bin/app"}, {command: "go -C sub build -o bin/app ./cmd/app", writes: "sub/bin/app"}, {command: "go -C=sub mod tidy", writes: "sub/go.mod sub/go.sum"}, {command: "go mod tidy", writes: "go.mod go.sum"}, {command: "go vet ./..."},
			{command: "go fmt ./...", writes: "tree:.[*.go]"}}},
	{names: []string{"docker", "podman", "kubectl"}, short: "", long: []string{"container", "namespace"}, write: writeSide{kind: wkCustom, op: "docker cp"},
		examples: []example{{command: "docker cp c:/etc/x out", writes: "tree:out"}, {command: "docker ps"}}},

	// Package managers: their writes, and the commands they run (npm exec).
	{names: []string{"npm", "pnpm", "yarn", "bun"}, write: writeSide{kind: wkCustom}, wrap: wrapSide{on: true, subcmds: []string{"exec", "x", "dlx"}},
		examples: []example{{command: "npm install", writes: "tree:node_modules"}, {command: "npm install left-pad", writes: "package.json package-lock.json tree:node_modules"},
			{command: "npm pkg set x=1", writes: "package.json"}, {command: "npm install --no-save left-pad", writes: "tree:node_modules"}, {command: "npm exec -- tsc -p .", runs: "tsc -p ."}, {command: "npm test"}}},

	// Wrappers: programs that run the command given as their arguments.
	{names: []string{"env"}, short: "uCSP", long: []string{"unset", "chdir", "split-string", "default-signal", "ignore-signal", "block-signal"},
		write: writeSide{kind: wkNone},
		wrap:  wrapSide{on: true, assigns: true, dashOption: true, chdir: []string{"-C", "--chdir"}, unset: []string{"-u", "--unset"}, split: []string{"-S", "--split-string"}},
		examples: []example{{command: "env FOO=1 git status", runs: "git status"}, {command: "env - PATH=/usr/bin git status", runs: "git status"}, {command: "env -C /x -u HOME make", runs: "make@/x"}, {command: "env -P /usr/bin git reset --hard", writes: "tree:.", runs: "git reset --hard"},
			{command: "env -S 'git push' origin", runs: "git push origin"}}},
	{names: []string{"sudo"}, short: "uUgpCDrthRTc", long: []string{"user", "group", "chdir", "prompt", "close-from", "role", "type", "host", "chroot", "command-timeout", "other-user"},
		write:    writeSide{kind: wkNone},
		wrap:     wrapSide{on: true, assigns: true, chdir: []string{"-D", "--chdir"}, shellFlags: []string{"-s", "-i", "--shell", "--login"}},
		examples: []example{{command: "sudo -u root rm -rf /srv/x", writes: "tree:/srv/x", runs: "rm -rf /srv/x"}, {command: "sudo -D /srv ls", runs: "ls@/srv"}, {command: "sudo -s 'rm -rf /srv/x'", writes: "tree:/srv/x", runs: "rm -rf /srv/x"}}},
	{names: []string{"doas"}, short: "uC", write: writeSide{kind: wkNone}, wrap: wrapSide{on: true},
		examples: []example{{command: "doas -u x make", runs: "make"}}},
	{names: []string{"run0"}, short: "uDg", long: []string{"user", "chdir", "group", "setenv", "unit", "property", "description", "slice", "nice", "machine"},
		write: writeSide{kind: wkNone}, wrap: wrapSide{on: true, chdir: []string{"-D", "--chdir"}},
		examples: []example{{command: "run0 --chdir=/srv ls", runs: "ls@/srv"}}},
	{names: []string{"command"}, write: writeSide{kind: wkNone}, wrap: wrapSide{on: true, printsOnly: []string{"-v", "-V"}},
		examples: []example{{command: "command -v git"}, {command: "command -p git status", runs: "git status"}, {command: "command rm -f x", writes: "x", runs: "rm -f x"}}},
	{names: []string{"nohup", "builtin", "setsid", "caffeinate", "fakeroot", "catchsegv", "unbuffer", "dbus-run-session", "proxychains", "proxychains4", "torsocks", "tsocks", "chronic", "ifne", "sem", "valgrind", "busybox", "toybox"},
		write: writeSide{kind: wkNone}, wrap: wrapSide{on: true},
		examples: []example{{command: "nohup make &", runs: "make"}, {command: "busybox rm x", writes: "x", runs: "rm x"}}},
	{names: []string{"exec", "pkexec"}, short: "a", long: []string{"user"}, write: writeSide{kind: wkNone}, wrap: wrapSide{on: true},
		examples: []example{{command: "exec -a name git push", runs: "git push"}}},
	{names: []string{"time"}, short: "fo", long: []string{"format", "output"}, write: writeSide{kind: wkNone, op: "time -o", values: []string{"-o", "--output"}}, wrap: wrapSide{on: true},
		examples: []example{{command: "/usr/bin/time -o t.txt make", writes: "t.txt", runs: "make"}, {command: "/usr/bin/time -f %e go build -o bin/x .", writes: "bin/x", runs: "go build -o bin/x ."}}},
	{names: []string{"nice"}, short: "n", long: []string{"adjustment"}, write: writeSide{kind: wkNone}, wrap: wrapSide{on: true},
		examples: []example{{command: "nice -n 10 go test ./...", runs: "go test ./..."}}},
	{names: []string{"ionice"}, short: "cnpPu", long: []string{"class", "classdata", "pid", "pgid", "uid"}, write: writeSide{kind: wkNone}, wrap: wrapSide{on: true},
		examples: []example{{command: "ionice -c 3 make", runs: "make"}}},
	{names: []string{"timeout", "gtimeout"}, short: "sk", long: []string{"signal", "kill-after"}, write: writeSide{kind: wkNone}, wrap: wrapSide{on: true, operands: 1},
		examples: []example{{command: "timeout -s KILL 60 git push", runs: "git push"}, {command: "timeout 5m make", runs: "make"}}},
	{names: []string{"xargs"}, short: "aEdILnPsJR", long: []string{"arg-file", "delimiter", "max-args", "max-procs", "max-chars", "process-slot-var"},
		// -i, -e and -l take an optional value, attached only (-i{}): they
		// are flags here; -J and -R are BSD's.
		write: writeSide{kind: wkNone}, wrap: wrapSide{on: true, appends: true},
		examples: []example{{command: "echo a b | xargs rm", writes: "a b", runs: "rm a b"}, {command: "ls | xargs -I{} cp {} /tmp", reads: "? /tmp>?", writes: "tree:.", runs: "cp {} /tmp <input>"}}},
	{names: []string{"parallel"}, short: "jSP", long: []string{"jobs", "sshlogin", "joblog", "results", "delay", "timeout", "retries", "colsep"},
		write: writeSide{kind: wkNone}, wrap: wrapSide{on: true, appends: true, joins: true, argLists: true},
		examples: []example{{command: "parallel ::: 'git push origin main'", runs: "git push origin main"}, {command: "parallel rm {} ::: a b", writes: "a b", runs: "rm b"}}},
	{names: []string{"stdbuf"}, short: "ioe", long: []string{"input", "output", "error"}, write: writeSide{kind: wkNone}, wrap: wrapSide{on: true},
		examples: []example{{command: "stdbuf -oL make", runs: "make"}}},
	{names: []string{"chrt", "taskset"}, write: writeSide{kind: wkNone}, wrap: wrapSide{on: true, operands: 1},
		examples: []example{{command: "taskset 0x1 make", runs: "make"}}},
	{names: []string{"flock"}, short: "wEc", long: []string{"timeout", "conflict-exit-code", "command"}, write: writeSide{kind: wkNone}, wrap: wrapSide{on: true, operands: 1, shell: []string{"-c", "--command"}},
		examples: []example{{command: "flock /tmp/l make", runs: "make"}, {command: "flock /tmp/l -c 'rm a'", writes: "a", runs: "rm a"}}},
	{names: []string{"watch"}, short: "nd", long: []string{"interval", "differences"}, write: writeSide{kind: wkNone}, wrap: wrapSide{on: true, joins: true},
		examples: []example{{command: "watch -n 5 git status", runs: "git status"}}},
	{names: []string{"su", "runuser"}, short: "cgGs", long: []string{"command", "group", "supp-group", "shell", "whitelist-environment"}, write: writeSide{kind: wkNone}, wrap: wrapSide{on: true, shell: []string{"-c", "--command"}},
		examples: []example{{command: "su -c 'rm a' root", writes: "a", runs: "rm a"}}},
	{names: []string{"script"}, short: "cEIOTBmo", long: []string{"command", "echo", "log-in", "log-out", "log-timing", "log-io", "logging-format", "output-limit"},
		write: writeSide{kind: wkCustom}, wrap: wrapSide{on: true, shell: []string{"-c", "--command"}},
		examples: []example{{command: "script -qc 'echo x > a' /dev/null", writes: "a", runs: "echo x"}, {command: "script -q -c 'echo x > a' /dev/null", writes: "a", runs: "echo x"},
			{command: "script", writes: "typescript"}, {command: "script -O log.txt", writes: "log.txt"}}},
	{names: []string{"strace", "ltrace"}, short: "eoOpPsSuIXbaE", long: []string{"output", "trace"}, write: writeSide{kind: wkNone, values: []string{"-o", "--output"}}, wrap: wrapSide{on: true},
		examples: []example{{command: "strace -f -o trace.txt make", writes: "trace.txt", runs: "make"}}},
	{names: []string{"systemd-run"}, short: "pEMuS", long: []string{"unit", "property", "setenv", "uid", "gid", "working-directory", "description", "slice", "nice"},
		write: writeSide{kind: wkNone}, wrap: wrapSide{on: true, chdir: []string{"--working-directory"}},
		examples: []example{{command: "systemd-run --user --working-directory=/srv make", runs: "make@/srv"}}},
	{names: []string{"unshare"}, short: "RwSG", long: []string{"root", "wd", "setuid", "setgid", "map-user", "map-group", "map-users", "map-groups"},
		write: writeSide{kind: wkNone}, wrap: wrapSide{on: true, chdir: []string{"-w", "--wd"}},
		examples: []example{{command: "unshare -r make", runs: "make"}, {command: "unshare -w /srv -m make", runs: "make@/srv"}}},
	// nsenter's -r and -w take a value attached only (-r/dir): flags here.
	{names: []string{"nsenter"}, short: "tSG", long: []string{"target", "setuid", "setgid"}, write: writeSide{kind: wkNone}, wrap: wrapSide{on: true},
		examples: []example{{command: "nsenter -t 1 -m -r make", runs: "make"}}},
	{names: []string{"chroot"}, long: []string{"userspec", "groups"}, write: writeSide{kind: wkNone}, wrap: wrapSide{on: true, operands: 1},
		examples: []example{{command: "chroot /srv/root ls", runs: "ls"}}},
	{names: []string{"direnv"}, write: writeSide{kind: wkNone}, wrap: wrapSide{on: true, subcmds: []string{"exec"}, operands: 1},
		examples: []example{{command: "direnv exec . make", runs: "make"}}},
	{names: []string{"uv", "poetry", "pipenv", "pdm", "hatch", "rye", "pixi"}, long: []string{"with", "python", "project", "directory", "env"},
		write: writeSide{kind: wkNone}, wrap: wrapSide{on: true, subcmds: []string{"run"}, chdir: []string{"--directory"}},
		examples: []example{{command: "uv run --with rich pytest", runs: "pytest"}, {command: "uv run --directory /srv make", runs: "make@/srv"}}},
	{names: []string{"bundle"}, write: writeSide{kind: wkNone}, wrap: wrapSide{on: true, subcmds: []string{"exec"}},
		examples: []example{{command: "bundle exec rake", runs: "rake"}}},
	{names: []string{"npx", "bunx", "pnpx"}, short: "pc", long: []string{"package", "call"}, write: writeSide{kind: wkNone}, wrap: wrapSide{on: true},
		examples: []example{{command: "npx -p typescript tsc", runs: "tsc"}}},
	{names: []string{"nix-shell"}, short: "pI", long: []string{"packages", "command", "run", "arg", "argstr"}, write: writeSide{kind: wkNone}, wrap: wrapSide{on: true, shell: []string{"--run", "--command"}},
		examples: []example{{command: "nix-shell -p go --run 'go test ./...'", runs: "go test ./..."}}},
	{names: []string{"dotenv"}, short: "ecv", long: []string{"env"}, write: writeSide{kind: wkNone}, wrap: wrapSide{on: true},
		examples: []example{{command: "dotenv -e .env.test make", runs: "make"}}},
}

// specName is a name of programTable's entry spec (specindex.go).
type specName struct {
	name string
	spec uint16
}

// specOf is the spec of a program known by its folded name, or nil.
func specOf(name string) *progSpec {
	i, ok := slices.BinarySearchFunc(specNames[:], name, func(e specName, name string) int {
		return strings.Compare(e.name, name)
	})
	if !ok {
		return nil
	}
	return &programTable[specNames[i].spec]
}

// wrapperOf is the wrapper side of a program, or nil when it runs no
// command given as its arguments.
func wrapperOf(name string) *progSpec {
	if s := specOf(name); s != nil && s.wrap.on {
		return s
	}
	return nil
}

// canonArgs spells out the abbreviated long options of a program whose
// spec lists all of them (flags set): --in-pl is --in-place, --targ=d
// --target-directory=d. An ambiguous or unknown prefix stays as written.
// args are the words after the program name; nil means nothing changes
// (no allocation on the common path).
func canonArgs(s *progSpec, args []Word) []Word {
	if len(s.flags) == 0 {
		return nil
	}
	var out []Word
	for i, a := range args {
		v := a.Value
		if v == "--" && a.Dynamic == "" {
			if out != nil {
				out = append(out, args[i:]...)
			}
			break
		}
		if a.Dynamic != "" || !strings.HasPrefix(v, "--") {
			if out != nil {
				out = append(out, a)
			}
			continue
		}
		name, val, eq := strings.Cut(v[2:], "=")
		full := ""
		for _, list := range [2][]string{s.long, s.flags} {
			for _, n := range list {
				switch {
				case n == name:
					full = "="
				case strings.HasPrefix(n, name) && full != "=":
					if full != "" {
						full = "?" // ambiguous
					} else {
						full = n
					}
				}
			}
		}
		if full == "" || full == "=" || full == "?" {
			if out != nil {
				out = append(out, a)
			}
			continue
		}
		if out == nil {
			out = append(make([]Word, 0, len(args)), args[:i]...)
		}
		a.Value = "--" + full
		if eq {
			a.Value += "=" + val
		}
		out = append(out, a)
	}
	return out
}
