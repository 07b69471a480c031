package settings

import (
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/magehook/magehook/pkg/harness"
	"github.com/magehook/magehook/pkg/toolingrc"
)

// Owner decides which entries of a configuration file are magehook's: an
// entry is ours only when it runs the checkout's hook binary with a hook:
// target — in the command form install writes today (which runs
// cmd/ensure and execs the binary), or in a form earlier versions wrote
// ("$CLAUDE_PROJECT_DIR/bin/magehook" hook:x, "$GEMINI_PROJECT_DIR/...",
// the git rev-parse --git-common-dir form, the absolute path of the user
// scope, a project-relative path). Any other command is foreign, however
// much it looks like ours: "$CLAUDE_PROJECT_DIR/.claude/hooks/notify.sh"
// hook:stop and ./scripts/policy hook:bash stay.
type Owner struct {
	// Root is the checkout.
	Root string
	// Binaries are the hook binaries whose entries are ours: hook.binary,
	// and the ones an earlier hook.binary left in the file or its backups
	// (see OwnerFor). Relative to Root, or absolute.
	Binaries []string
}

// OwnerFor is the owner of a checkout's entries: the configured binary,
// plus every binary the documents show magehook ran under an earlier
// hook.binary (docs are the file and its backups). A binary counts when
// the documents show it in an entry only magehook writes: the cmd/ensure
// form, a command naming a -harness=, or the SessionStart and
// WorktreeCreate entries magehook installs in every Claude Code file.
func OwnerFor(cfg *toolingrc.Config, docs ...[]byte) Owner {
	return ownerAt(cfg, cfg.Root(), docs...)
}

// ownerAt is OwnerFor for the binary of the checkout at root, which for a
// user-scope install (Installer.Dir) is not the configuration's root.
func ownerAt(cfg *toolingrc.Config, root string, docs ...[]byte) Owner {
	o := Owner{Root: root}
	if v, err := cfg.Get(toolingrc.KeyHookBinary); err == nil {
		o.Binaries = append(o.Binaries, v.String())
	}
	seen := map[string]map[string]bool{}
	for _, data := range docs {
		if data == nil {
			continue
		}
		tree, err := Parse(data)
		if err != nil {
			continue
		}
		walkCommands(tree, func(cmd string) {
			bin, target, ok := o.parse(cmd)
			if !ok || !insideRoot(bin, o.Root) {
				return
			}
			if seen[bin] == nil {
				seen[bin] = map[string]bool{}
			}
			seen[bin][target] = true
			if strings.Contains(cmd, harness.EnsurePackage) || strings.Contains(cmd, " -harness=") {
				seen[bin]["*"] = true
			}
		})
	}
	var extra []string
	for bin, targets := range seen {
		if targets["*"] || targets["sessionStart"] && targets["worktreeCreate"] {
			extra = append(extra, bin)
		}
	}
	sort.Strings(extra)
	o.Binaries = append(o.Binaries, extra...)
	return o
}

// walkCommands calls f with every "command" and "bash" string in a tree.
func walkCommands(v any, f func(string)) {
	switch x := v.(type) {
	case *Object:
		for _, m := range x.Members {
			if s, ok := m.Value.(string); ok && (m.Key == "command" || m.Key == "bash") {
				f(s)
				continue
			}
			walkCommands(m.Value, f)
		}
	case []any:
		for _, e := range x {
			walkCommands(e, f)
		}
	}
}

// Owns reports whether a handler or flat entry object is ours.
func (o Owner) Owns(handler *Object) bool {
	if t, _ := handler.Get("type"); t != nil && t != "command" {
		return false
	}
	for _, key := range []string{"command", "bash"} {
		cv, _ := handler.Get(key)
		s, ok := cv.(string)
		if !ok {
			continue
		}
		if args, ok := handler.Get("args"); ok {
			if list, ok := args.([]any); ok && len(list) > 0 {
				first, _ := list[0].(string)
				s = `"` + strings.ReplaceAll(s, `"`, `\"`) + `" ` + first
			}
		}
		if o.OwnsCommand(s) {
			return true
		}
	}
	return false
}

// OwnsCommand reports whether a command runs the hook binary with a hook:
// target.
func (o Owner) OwnsCommand(cmd string) bool {
	bin, _, ok := o.parse(cmd)
	if !ok {
		return false
	}
	for _, b := range o.Binaries {
		want := filepath.FromSlash(b)
		if !filepath.IsAbs(want) {
			want = filepath.Join(o.Root, want)
		}
		if filepath.Clean(want) == bin {
			return true
		}
	}
	return false
}

// Binary returns the absolute hook binary a command of ours runs, and
// false for a command that is not ours.
func (o Owner) Binary(cmd string) (string, bool) {
	if !o.OwnsCommand(cmd) {
		return "", false
	}
	bin, _, _ := o.parse(cmd)
	return bin, true
}

// parse returns the absolute binary and the hook: target a command runs,
// in any form magehook wrote.
func (o Owner) parse(cmd string) (bin, target string, ok bool) {
	if strings.Contains(cmd, harness.EnsurePackage) {
		// d=<dir>; ... exec "$b" hook:<target> ...: the binary is the
		// quoted argument after the ensure flags.
		// (earlier versions exec'd the binary; now the shell waits for its
		// sealed answer: MAGEHOOK_SEAL=$$ "$b" hook:<target>).
		i := strings.Index(cmd, `"$b" hook:`)
		if i < 0 || !strings.HasPrefix(cmd, "d=") {
			return "", "", false
		}
		target = strings.Fields(strings.NewReplacer(";", " ").Replace(cmd[i+len(`"$b" hook:`):]) + " ")[0]
		words := ShellWords(cmd[strings.Index(cmd, harness.EnsurePackage)+len(harness.EnsurePackage):])
		for _, w := range words {
			if !strings.HasPrefix(w, "-") {
				bin = w
				break
			}
		}
		if bin == "" {
			return "", "", false
		}
		return filepath.Join(commandDir(cmd, o.Root), filepath.FromSlash(bin)), target, true
	}
	// Earlier versions' harness commands found the main checkout from git.
	cmd = strings.Replace(cmd, `"$(dirname "$(git rev-parse --path-format=absolute --git-common-dir)")/`, `"$CLAUDE_PROJECT_DIR/`, 1)
	words := ShellWords(cmd)
	if len(words) < 2 || !strings.HasPrefix(words[1], "hook:") {
		return "", "", false
	}
	b := ExpandProjectDir(words[0], o.Root)
	if !filepath.IsAbs(b) {
		if !strings.Contains(b, "/") {
			return "", "", false // a name looked up on PATH is not the checkout's binary
		}
		b = filepath.Join(o.Root, b)
	}
	return filepath.Clean(b), strings.TrimPrefix(words[1], "hook:"), true
}

// commandDir is the checkout a command in the cmd/ensure form runs: the
// absolute directory its d="..." names (a user-scope entry, which runs one
// checkout's binary in every project), or root when d is the harness's
// project directory or the walk up to .git (a project's own file, whose
// checkout is root). In a shared scope two checkouts' entries differ only
// there: reading it is what keeps one checkout from owning another's.
func commandDir(cmd, root string) string {
	rest, ok := strings.CutPrefix(cmd, `d="`)
	if !ok {
		return root
	}
	var b strings.Builder
	expr := false // an unescaped $ or `: the harness's variable, not a path
	for i := 0; i < len(rest); i++ {
		c := rest[i]
		switch {
		case c == '"':
			dir := filepath.FromSlash(b.String())
			if !expr && filepath.IsAbs(dir) {
				return filepath.Clean(dir)
			}
			return root
		case c == '\\' && i+1 < len(rest) && strings.IndexByte("\"\\$`", rest[i+1]) >= 0:
			i++
			c = rest[i]
		case c == '$' || c == '`':
			expr = true
		}
		b.WriteByte(c)
	}
	return root
}

// ExpandProjectDir replaces the project directory expressions the
// harnesses give hooks (each harness's ProjectDir, and its variable
// braced or not: $CLAUDE_PROJECT_DIR, ${GEMINI_PROJECT_DIR}, ...) with
// the checkout root.
func ExpandProjectDir(s, root string) string {
	for _, h := range harness.All() {
		if h.ProjectDir == "" {
			continue
		}
		s = strings.ReplaceAll(s, h.ProjectDir, root)
		if v := h.ProjectVar(); v != "" {
			s = strings.ReplaceAll(s, "${"+v+"}", root)
			s = strings.ReplaceAll(s, "$"+v, root)
		}
	}
	return s
}

// readBackups returns the backups kept of a file, newest last.
func readBackups(dir, prefix string) [][]byte {
	names, _ := filepath.Glob(filepath.Join(dir, prefix+".*.bak"))
	sort.Strings(names)
	var out [][]byte
	for _, n := range names {
		if data, err := os.ReadFile(n); err == nil {
			out = append(out, data)
		}
	}
	return out
}
