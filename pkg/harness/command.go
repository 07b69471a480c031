package harness

import (
	"path/filepath"
	"strconv"
	"strings"
)

// EnsurePackage is the program an installed command runs, through go run,
// when the hook binary is missing (and, at SessionStart, to rebuild a
// stale one): see cmd/ensure.
const EnsurePackage = "github.com/magehook/magehook/cmd/ensure"

// Gates reports whether a common event gates a tool call: when the binary
// cannot answer, these block where a gatekeeper watches the tool; every
// other event goes on with the reason on stderr.
func Gates(event string) bool { return event == "PreToolUse" || event == "PermissionRequest" }

// SealEnv names the variable an installed command sets for the hook
// binary: its value is the command's shell's process id, and a binary
// whose parent has that id adds SealBase to its exit code. The command
// passes on only sealed codes (less SealBase); any other end — 126 (a
// directory, a build for another system, a truncated file), 127, a
// signal (an OOM kill, a crash), or an answer from a file that is not
// magehook's binary (an empty file exits 0) — is a failure, which blocks
// a gated tool call. The parent check confines the seal to the command
// that asked for it: a variable inherited from elsewhere changes nothing.
const SealEnv = "MAGEHOOK_SEAL"

// SealBase is what a sealed exit code adds to the binary's answer.
const SealBase = 100

// Seal is the exit code the hook binary ends with: code plus SealBase
// when the installed command asked for it (getenv(SealEnv) is the
// parent's process id), code itself otherwise.
func Seal(code int, getenv func(string) string, ppid int) int {
	if v := getenv(SealEnv); v != "" && code >= 0 && code < 20 && v == strconv.Itoa(ppid) {
		return code + SealBase
	}
	return code
}

// CommandSpec is what an installed command runs.
type CommandSpec struct {
	// Dir is the shell expression of the checkout; empty means the
	// harness's own (ProjectDir, or a walk up to the checkout's .git).
	Dir string
	// Binary is hook.binary, relative to the checkout.
	Binary string
	// Event is the common event; Target its Mage target (hook:<Target>).
	Event, Target string
	// Timeout is the entry's timeout in seconds.
	Timeout int
	// GateAll says a gatekeeper watches every tool at this (tool-gating)
	// event; Gated lists the harness's tool names gatekeepers watch
	// otherwise. With neither, no gate watches: a binary that cannot
	// answer lets the call go on, with the reason on stderr.
	GateAll bool
	Gated   []string
	// Passes, with GateAll, are the harness's tool names no gatekeeper
	// can deny (hook.Handler.Passes): with the binary missing, their calls
	// go on with the reason on stderr, and every other call is blocked.
	Passes []string
	// User: the entry is a user-scope one (magehook init -user), in the
	// harness's UserFile, running Dir's binary in every project; the
	// command tells the binary so (UserEnv).
	User bool
}

// UserEnv names the variable a user-scope command sets for the hook
// binary: its value is the command's shell's process id, as SealEnv's
// is, so only the command that set it makes the binary a user-scope one
// (UserScope); a variable inherited from elsewhere changes nothing. A
// user-scope binary takes its policy from the user's .toolingrc, adds it
// to the project's own, and stands aside in a checkout that runs
// magehook of its own (docs/adopting.md).
const UserEnv = "MAGEHOOK_USER_SCOPE"

// UserScope reports whether the installed command that started this
// process is a user-scope one.
func UserScope(getenv func(string) string, ppid int) bool {
	v := getenv(UserEnv)
	return v != "" && v == strconv.Itoa(ppid)
}

// gated reports whether a gate watches the entry's event.
func (c CommandSpec) gated() bool { return Gates(c.Event) && (c.GateAll || len(c.Gated) > 0) }

// Command is the shell command of an entry. When the hook binary exists
// it costs one shell test builtin and the shell's wait for the binary;
// when it does not, go run builds it (once, under a lock, atomically,
// within the entry's timeout, progress on stderr) and then the binary
// answers. SessionStart always asks for the build, which rebuilds a
// binary older than its sources.
//
// The shell passes on only the binary's sealed answers (see SealEnv).
// Every other end of the binary, and a binary that is missing and cannot
// be built, blocks a tool call a gatekeeper watches (exit 2) with the
// reason and the fix; any other call or event goes on (exit 1: a visible,
// non-blocking hook error). When the binary is missing, the tool's name
// is read from the payload to tell a watched tool from one only
// observers see (a payload whose tool cannot be told blocks); once a
// binary ran, the payload is spent, and a failure blocks every call of a
// gated event.
//
// Every harness runs the checkout's own binary: in a linked worktree (a
// claude --worktree session, whose CLAUDE_PROJECT_DIR is the worktree) that
// is the worktree's bin/, built from the worktree's sources on first need
// or by its bootstrap — the binary always matches the .toolingrc and
// handlers it is asked to run, and nothing has to read git to find the
// main checkout.
func (h *Harness) Command(c CommandSpec) string {
	dir := c.Dir
	if dir == "" {
		dir = h.ProjectDir
	}
	var b strings.Builder
	if dir == "" {
		// No project variable: the nearest directory holding .git (a file
		// in a linked worktree) above the hook's working directory.
		b.WriteString(`d=$PWD; while [ -n "$d" ] && [ ! -e "$d/.git" ]; do d=${d%/*}; done; d=${d:-.}; `)
	} else {
		b.WriteString(`d="` + dir + `"; `)
	}
	bin := filepath.ToSlash(c.Binary)
	quoted := shellQuoteInner(bin)
	budget := c.Timeout * 3 / 4
	if budget < 5 {
		budget = c.Timeout
	}
	// go run starts in the module that requires magehook: magefiles/ when
	// it is a module of its own (the checkout's own module, if any, left
	// as it was), else the checkout. Only a missing binary pays the test.
	// It runs inside $(...): without Go the subshell ends there, before
	// the shell's own "go: not found" would be a second line.
	module := `m="$d"; [ -f "$d/magefiles/go.mod" ] && m="$d/magefiles"; `
	ensure := `command -v go >/dev/null || exit 1; ` + module + `go -C "$m" run ` + EnsurePackage + ` -timeout=` + strconv.Itoa(budget) + `s`
	// The fix a failure names is the build as it is typed in this
	// checkout: go tool mage runs where the tool line is (magefiles/ when
	// the hook build is a module of its own), on the checkout (-w).
	fix := `run go -C '$m' tool mage -w '$d' hook:build`
	code := "1"
	if c.gated() {
		code = "2"
	}
	// block is what a blocking end prints first: the deny answer, for a
	// client that reads no exit code.
	block := ""
	if a := h.blockAnswer(); a != "" {
		block = "echo " + a + "; "
	}
	blockIf := ""
	if c.gated() {
		blockIf = block
	}
	missing := func(what string) string {
		if c.gated() && c.GateAll && len(c.Passes) > 0 {
			return `{ ` + module + h.toolSniff() + `case $t in ` + shellAlternatives(c.Passes) + `) echo "magehook: ` + what +
				`; no gate denies $t: it goes on; ` + fix + `" >&2; exit 1;; esac; ` +
				`echo "magehook: ` + what + `; a gate watches ${t:-this tool}: the call is blocked; ` + fix + `" >&2; exit 2; }`
		}
		if !c.gated() || c.GateAll {
			return `{ ` + module + `echo "magehook: ` + what + `; ` + fix + `" >&2; ` + blockIf + `exit ` + code + `; }`
		}
		return `{ ` + module + h.toolSniff() + `case $t in ` + shellAlternatives(c.Gated) + `|"") echo "magehook: ` + what +
			`; a gate watches ${t:-this tool}: the call is blocked; ` + fix + `" >&2; ` + block + `exit 2;; esac; ` +
			`echo "magehook: ` + what + `; no gate watches $t: it goes on; ` + fix + `" >&2; exit 1; }`
	}
	if c.Event == "SessionStart" {
		b.WriteString(`b=$(` + ensure + ` -fresh "` + quoted + `" </dev/null) || b="$d/` + quoted + `"; `)
		b.WriteString(`[ -x "$b" ] || ` + missing(`$b is missing`) + `; `)
	} else {
		b.WriteString(`b="$d/` + quoted + `"; [ -x "$b" ] || b=$(` + ensure + ` "` + quoted + `" </dev/null) || `)
		b.WriteString(missing(quoted+` is missing and could not be built`) + `; `)
	}
	if c.User {
		b.WriteString(UserEnv + `=$$ `)
	}
	b.WriteString(SealEnv + `=$$ "$b" hook:` + c.Target)
	if !h.IsClaude() {
		b.WriteString(" -harness=" + h.Name)
	}
	b.WriteString(`; c=$?; [ $c -ge ` + strconv.Itoa(SealBase) + ` ] && [ $c -lt ` + strconv.Itoa(SealBase+20) + ` ] && exit $((c-` + strconv.Itoa(SealBase) + `)); `)
	b.WriteString(`if [ $c -gt 128 ]; then w="was killed by signal $((c-128))"; elif [ $c -eq 126 ]; then w="cannot be executed here (a directory or a build for another system or a truncated file)"; ` +
		`elif [ $c -eq 127 ]; then w="or its interpreter was not found"; else w="answered without magehook's seal (exit $c: not magehook's hook binary or one built before this install)"; fi; `)
	b.WriteString(module + `echo "magehook: ` + quoted + ` $w; ` + fix + `" >&2; ` + blockIf + `exit ` + code)
	if h.BracesSubstituted {
		return strings.ReplaceAll(b.String(), "${", `\${`)
	}
	return b.String()
}

// ShellText is the text the shell runs for one of the harness's installed
// commands: with BracesSubstituted, what is left once the harness has read
// each \${ as ${ (no ${NAME} is left for it to replace).
func (h *Harness) ShellText(command string) string {
	if h.BracesSubstituted {
		return strings.ReplaceAll(command, `\${`, "${")
	}
	return command
}

// toolSniff is the shell that reads the payload's tool name into t (empty
// when the payload names none, or more than one: nothing can be told).
// Harnesses send compact JSON; a field name cannot appear raw inside a
// JSON string, where its quotes are escaped.
func (h *Harness) toolSniff() string {
	f := `"` + h.toolField() + `"`
	return `p=$(cat 2>/dev/null); t=; case $p in *'` + f + `'*'` + f + `'*) ;; *'` + f + `:"'*) t=${p#*'` + f + `:"'}; t=${t%%'"'*};; ` +
		`*'` + f + `: "'*) t=${p#*'` + f + `: "'}; t=${t%%'"'*};; esac; `
}

// toolField is the payload field that names the tool.
func (h *Harness) toolField() string {
	if h.ToolField != "" {
		return h.ToolField
	}
	return "tool_name"
}

// shellAlternatives is a case pattern matching exactly the names; a name
// with a character a pattern would read is quoted.
func shellAlternatives(names []string) string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = "'" + strings.ReplaceAll(n, "'", `'\''`) + "'"
	}
	return strings.Join(out, "|")
}

// shellQuoteInner escapes the characters that keep their meaning inside
// double quotes in sh.
func shellQuoteInner(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r == '"' || r == '\\' || r == '$' || r == '`' {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// QuoteDir is an absolute directory as the Dir of a CommandSpec.
func QuoteDir(dir string) string { return shellQuoteInner(filepath.ToSlash(dir)) }
