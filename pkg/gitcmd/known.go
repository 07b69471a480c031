package gitcmd

// Knows reports whether the analysis has a model of what a program does
// to the files it names: a writer whose operands it reads (cp, sed -i,
// tar, gofmt -w, ...), a reader that changes none (cat, grep, diff, ...),
// a wrapper or shell it follows, an interpreter whose code it reads, a
// shell builtin, git. A program it does not know that names a guarded
// file may write it: a gate fails closed on it (configguard does).
func Knows(name string) bool {
	if s := specOf(name); s != nil && (s.write.kind != wkUnknown || s.wrap.on) {
		return true
	}
	if _, ok := interpreter(name); ok {
		return true
	}
	if isShell(name) || knownReader(name) || cmdletOf(name) != nil {
		return true
	}
	return name == "git" || len(name) > 4 && name[:4] == "git-"
}

// knownReader: programs without a spec that read the files they name and
// write none of them (their output goes to stdout, which a redirection
// judges), and the shell's builtins.
func knownReader(name string) bool {
	switch name {
	case "cat", "tac", "less", "more", "most", "head", "tail", "grep", "egrep", "fgrep", "rg", "ag", "ack", "wc", "diff", "cmp",
		"comm", "file", "stat", "ls", "ll", "tree", "du", "df", "md5sum", "sha1sum", "sha256sum", "sha512sum", "shasum", "b2sum", "cksum",
		"jq", "gojq", "bat", "batcat", "od", "hexdump", "strings", "cut", "tr", "nl", "paste", "join", "column", "fold", "fmt", "pr",
		"readlink", "realpath", "basename", "dirname", "base64", "base32", "basenc", "envsubst", "echo", "printf", "test", "[", "[[",
		"true", "false", ":", "cd", "pushd", "popd", "pwd", "export", "declare", "typeset", "local", "readonly", "set", "unset",
		"shopt", "alias", "unalias", "source", ".", "eval", "trap", "exit", "return", "wait", "type", "hash", "which", "whereis",
		"read", "let", "shift", "getopts", "umask", "ulimit", "jobs", "fg", "bg", "disown", "kill", "sleep", "date", "env", "printenv",
		"id", "whoami", "uname", "hostname", "tput", "clear", "seq", "yes", "expr", "bc", "dc", "xargs", "look",
		"lsblk", "blkid", "lsof", "ps", "top", "htop", "free", "uptime", "w", "who", "last", "ss", "netstat", "ip", "ping", "dig",
		"nslookup", "host", "psql", "mysql", "mongosh", "redis-cli", "sqlcmd", "duckdb", "delta", "difft", "colordiff", "vimdiff", "wdiff", "sdiff", "diff3", "lsattr", "getfacl", "namei", "cloc", "tokei",
		"shellcheck", "hadolint", "yamllint", "jsonlint", "markdownlint", "actionlint", "staticcheck", "golangci-lint":
		return true
	}
	return false
}
