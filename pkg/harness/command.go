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
// is missing and cannot be built, these block; every other event goes on
// with the reason on stderr.
func Gates(event string) bool { return event == "PreToolUse" || event == "PermissionRequest" }

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
}

// Command is the shell command of an entry. When the hook binary exists
// it costs one shell test builtin before exec; when it does not, go run
// builds it (once, under a lock, atomically, within the entry's timeout,
// progress on stderr) and then the binary answers. SessionStart always
// asks for the build, which rebuilds a binary older than its sources. A
// binary that cannot be built blocks a tool-gating event (exit 2) with
// the reason and the fix; any other event goes on (exit 1: a visible,
// non-blocking hook error).
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
	ensure := `m="$d"; [ -f "$d/magefiles/go.mod" ] && m="$d/magefiles"; go -C "$m" run ` + EnsurePackage + ` -timeout=` + strconv.Itoa(budget) + `s`
	code := "1"
	if Gates(c.Event) {
		code = "2"
	}
	if c.Event == "SessionStart" {
		b.WriteString(`b=$(` + ensure + ` -fresh "` + quoted + `" </dev/null) || b="$d/` + quoted + `"; `)
		b.WriteString(`[ -x "$b" ] || { echo "magehook: $b is missing; run go tool mage hook:build" >&2; exit ` + code + `; }; `)
	} else {
		b.WriteString(`b="$d/` + quoted + `"; [ -x "$b" ] || b=$(` + ensure + ` "` + quoted + `" </dev/null) || `)
		b.WriteString(`{ echo "magehook: ` + quoted + ` is missing and could not be built; run go tool mage hook:build" >&2; exit ` + code + `; }; `)
	}
	b.WriteString(`exec "$b" hook:` + c.Target)
	if !h.IsClaude() {
		b.WriteString(" -harness=" + h.Name)
	}
	return b.String()
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
