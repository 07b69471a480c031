// Package configguard keeps the agent from switching its own gates off.
//
// # PURPOSE
//
// The agent is not trusted to keep its gates on: a prompt-injected or
// careless agent that can edit .toolingrc, the settings file that runs
// magehook, or the hook binary can turn every gate off with the very tools
// the gates watch. This gate denies those writes, on every branch, and
// tells the agent to ask the user to make the change by hand.
//
// # HOW IT WORKS
//
//  1. It needs no hook.enable line: it runs wherever some enabled handler
//     is a gatekeeper (hook.Handler.Implied), and from a checkout without
//     one for a call that writes into another repository whose policy
//     enables handlers (hook.Handler.Reach; reach.go).
//  2. The files it guards: any file named .toolingrc (every one on the
//     walk, the home directory's and those above the repository included,
//     and any new one); every file that wires magehook into a harness, at
//     any depth, as pkg/settings lists them (settings.WiringPatterns:
//     .claude/settings*.json, .codex/hooks.json, .gemini/settings.json,
//     .github/hooks/*.json, .cursor/hooks.json,
//     .opencode/plugins/magehook.js; under the home directory they are the
//     user-scope files); Codex's .codex/config.toml, which holds its hook
//     trust (hooks.state) and can switch hooks off; the system and managed
//     files each harness reads hooks or their switches from (Claude Code's
//     managed-settings.json and managed-settings.d, Codex's
//     requirements.toml, Copilot's .github/copilot/settings*.json,
//     ~/.copilot hooks and policy.d, Cursor's and Gemini's system files);
//     and the hook binary (hook.binary, the main
//     checkout's for a linked worktree, and the binary answering the call),
//     with what magehook runs or builds it from (artefacts.go): the OTel
//     shipper and the build's sidecars beside each binary, everything under
//     magefiles/ (the hook module's go.mod and go.sum included) and the
//     directories its go.mod replaces modules with, and the commit-msg git
//     hook that holds magehook's line.
//     Also the files of the clients magehook may not wire yet (Qwen Code's
//     .qwen/settings.json, Factory Droid's .factory/hooks.json and
//     settings, Cline's hooks and plugins, Auggie's, Kilo's and Pi's
//     settings and plugins), and everything a later shell or git reads as
//     configuration (persistent.go): Claude Code's shell snapshots and
//     session env files, the shell start-up files of the home and the
//     system (~/.bashrc, ~/.profile, ~/.zshrc, /etc/profile.d, ...) and
//     the files BASH_ENV and ENV name, and git's configuration files
//     (.git/config, ~/.gitconfig, ...), which choose the programs git
//     starts.
//  3. Every tool is judged (the matcher is empty): one it does not know
//     (an MCP tool mcp__<server>__<tool>, another client's own) by the
//     paths its arguments name (pkg/toolargs), each taken for a write, a
//     directory for the tree it holds, unless the tool only reads (a known
//     reader, a read-only MCP annotation, a query's name); another
//     client's shell tool, or an MCP tool with a command, as Bash.
//     The files a call changes: the file of Edit, MultiEdit, Write and
//     NotebookEdit, and every file of an apply_patch patch, moves included,
//     whether it comes as Codex's tool or through a shell (payload
//     EditedPaths); the files a Bash command writes, as the shared shell
//     analysis finds them (pkg/gitcmd: redirections, tee, sed -i, cp, mv,
//     rm, ...; a tree such as rm -r of a directory holding a guarded
//     file; a pattern matching one; a computed path in a command that
//     names a guarded file); the files a PowerShell command writes (its cmdlets and
//     redirections, pkg/pwsh; a directory as the tree it holds), the
//     native commands it runs (git, python -c, tar, ... read as the shell
//     analysis reads them), and a PowerShell command that names a
//     guarded file in a part that reader cannot see into. Each path is judged as written (a Bash
//     write's link/.. included: gitcmd's Write.Written, not its cleaned
//     Path) and after its symbolic links are resolved as the operating
//     system will, so a link never hides a guarded file; a file that is a
//     hard link of a guarded one is guarded too.
//  4. Names are compared as the most forgiving file system compares them,
//     on every system (fold): case-insensitively both ways (.TOOLINGRC,
//     Settings.JSON, BIN/MAGEHOOK, the dotless ı), without the trailing
//     dots and spaces Windows strips, an NTFS stream suffix (::$DATA) or
//     the zero-width code points HFS+ ignores. Asking each directory how
//     it compares names would cost a probe per call and per directory (a
//     checkout can mix them: casefold directories on Linux, shares); a
//     false deny of a file literally named .TOOLINGRC on Linux is cheap.
//  5. Relative paths start in the harness's working-directory argument
//     (payload.WorkDir: workdir, dir_path, ...), else the payload's cwd,
//     never this process's directory; an edited file's relative path is
//     judged from both when they differ.
//  6. Patterns are expanded as the shell would ({a,b}, [!x]) and more (a *
//     matches dot files too, names fold); a tree written through one (rm
//     -rf .c*) is judged as a tree. What find selects (-delete, -exec rm
//     {}, piped into xargs) is judged by the names its tests allow against
//     the guarded files that exist; a directory's mode or owner changed in
//     a way that can take access away (chmod 000 bin) is judged as the
//     tree below it; a symbolic link the command makes to a guarded file,
//     in a command that writes anything else, is denied (ln -s .claude c
//     && rm c/settings.json). A path the analysis cannot name is judged by
//     the string literals of the code that writes it (os.rename('bin',
//     ...)), and denied when the command names a guarded file, also cut
//     into pieces, base64-encoded or otherwise obfuscated.
//  7. PowerShell: a writing cmdlet fed paths by a pipeline or a (...) is
//     judged by what the producing cmdlet lists (Get-ChildItem with its
//     path, -Recurse, -Filter and -Include; Get-Item; literal strings);
//     one fed paths the reader cannot follow ($files | Remove-Item,
//     Get-Content list | rm) is denied whatever it names, because a
//     relative path from there or an absolute one anywhere can reach a
//     guarded file. pwsh -Command and -EncodedCommand are read as the
//     scripts they run.
//  8. A git command that runs hooks writes what its hooks are seen to
//     write: each executable shell hook of the subcommand
//     (gitrepo.HookNames; core.hooksPath, else hooks/) is analysed as a
//     script, and its writes of guarded files count (what it leaves to run
//     time does not: hook managers such as pre-commit and husky do that);
//     one in another language that names a guarded file, and one the
//     command writes first, are denied.
//
// # EXIT CODES
//
//	0  allowed (no output), or denied with the decision on stdout
//	2  the gate failed (a path that does not resolve): the call is blocked
package configguard

import (
	"fmt"
	"github.com/magehook/magehook/pkg/lazy"
	"os"
	"path/filepath"
	"strings"
	"unicode"

	"github.com/magehook/magehook/pkg/gitcmd"
	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/payload"
	"github.com/magehook/magehook/pkg/realpath"
	"github.com/magehook/magehook/pkg/settings"
	"github.com/magehook/magehook/pkg/toolargs"
	"github.com/magehook/magehook/pkg/toolingrc"
)

// shellCommand is the command of a call that runs one in a shell: Bash,
// or another client's shell tool or an MCP tool with a command argument
// (toolargs.Shell), judged as Bash is.
func shellCommand(p *payload.Payload) (string, bool) {
	if p.IsTool("Bash") {
		command, _ := p.InputString("command")
		return command, true
	}
	return toolargs.Shell(p)
}

// isBash reports a call judged as a shell command: Bash's (or another
// client's shell tool) or PowerShell's.
func isBash(p *payload.Payload) bool {
	_, ok := shellCommand(p)
	return ok || p.IsTool("PowerShell")
}

// Handler is the catalogue entry.
var Handler = hook.Handler{
	Name:    "configguard",
	Purpose: "deny the agent's own changes to the gates' configuration (.toolingrc, the settings that run magehook, the hook binary); implied by any gatekeeper",
	Events:  []string{"PreToolUse"},
	Matcher: "",                                     // every tool: an MCP tool or another client's may write a guarded file
	Passes:  []string{"Read", "Grep", "Glob", "LS"}, // they read; the guarded files are written
	Policy:  hook.Gatekeeper,
	Implied: true,
	Reach:   true, // another repository's gates are guarded from a checkout without any (reach.go)
	Run:     run,
}

const byHand = "the agent may not change the configuration of the gates that watch it; ask the user to make this change by hand"

func run(c *hook.Call) (hook.Result, error) {
	p := c.Payload
	g, err := newGuard(c)
	if err != nil {
		return hook.Result{}, err
	}
	if c.ReachOnly && !g.reachesGated(c) {
		return hook.Result{}, nil // no gate here, and none elsewhere reached (reach.go)
	}
	// Where the call's relative paths start: the shell's working-directory
	// argument, else the payload's cwd (never this process's directory,
	// which need not be the agent's). An edited file's relative path is
	// judged from both when they differ.
	dir := g.dir
	var reasons []string
	if command, ok := shellCommand(p); ok {
		more, err := g.shell(c, command, dir)
		if err != nil {
			return hook.Result{}, err
		}
		reasons = append(reasons, more...)
	}
	if p.IsTool("PowerShell") {
		// The same model as Bash's (gitcmd.Options.PowerShell): its
		// cmdlets by their specs, its native programs as a shell's.
		command, _ := p.InputString("command")
		more, err := g.shellIn(c, command, dir, true)
		if err != nil {
			return hook.Result{}, err
		}
		reasons = append(reasons, more...)
	}
	judge := func(path string, dirs []string) error {
		if err := c.Budget.Check(); err != nil {
			return err
		}
		for _, d := range dirs {
			what, err := g.guarded(d, path)
			if err != nil {
				return err
			}
			if what != "" {
				reasons = append(reasons, fmt.Sprintf("%s would change %s, %s", p.ToolName, path, what))
				return nil
			}
			if filepath.IsAbs(path) {
				return nil
			}
		}
		return nil
	}
	for _, path := range p.EditedPaths() {
		if err := judge(path, g.editDirs); err != nil {
			return hook.Result{}, err
		}
	}
	if !toolargs.Known(p.ToolName) {
		// Every other tool (an MCP tool, another client's own) by what
		// its arguments name: a tool that does not only read is taken to
		// write each path it names, a directory as the tree it holds.
		tc := toolargs.Of(p, g.home)
		for _, a := range tc.Paths {
			if tc.ReadOnly {
				break
			}
			if err := c.Budget.Check(); err != nil {
				return hook.Result{}, err
			}
			path := a.Value
			if !filepath.IsAbs(path) {
				path = dir + string(filepath.Separator) + path
			}
			var what string
			var err error
			if isDir(path) {
				what, err = g.under(path)
			} else {
				what, err = g.guarded(dir, path)
			}
			if err != nil {
				return hook.Result{}, err
			}
			if what != "" {
				reasons = append(reasons, fmt.Sprintf("%s (%s) may change %s, %s (a tool the gates do not know as a reader is judged as a write of every path it names)", p.ToolName, a.Arg, a.Value, what))
			}
		}
	}
	if len(reasons) == 0 {
		return hook.Result{}, nil
	}
	return hook.Deny(strings.Join(reasons, "; ") + "; " + byHand + "."), nil
}

func isDir(path string) bool {
	info, err := os.Stat(path)
	return err == nil && info.IsDir()
}

func homeOf(c *hook.Call) string {
	if c.Getenv == nil {
		return ""
	}
	return c.Getenv("HOME")
}

// guard holds what is guarded for one call.
type guard struct {
	// bin is hook.binary (nil without a configuration). The binary's
	// paths are resolved (and the main checkout's added) only when a
	// command or an edit is judged against them, which an ordinary call
	// never needs.
	bin      *toolingrc.Value
	c        *hook.Call
	binary   []string // the hook binary, as configured and resolved
	fbinary  []string // the same, folded
	resolved bool
	cfg      *toolingrc.Config
	home     string
	// dir is where the shell's relative paths start, editDirs where an
	// edited file's may (the working-directory argument and the cwd).
	dir      string
	editDirs []string
	have     []string // existing, once computed
	haveSet  bool
	// gitChanged: what each git command of the call changes, as git
	// lists it (gitChanges), by command index.
	gitChanged map[int]*gitChange
	// roots are the checkouts whose magefiles/ the hook binary is built
	// from, replaced the hook module's local replacements (buildRoots).
	roots    []string
	replaced []string
	rootsSet bool
}

// workDirs returns the directory a tool call's relative paths start in
// (the harness's working-directory argument, else the payload's cwd) and
// every directory an edited file's relative path may be relative to. A
// payload with no directory at all falls back to this process's.
func workDirs(c *hook.Call) (string, []string) {
	p := c.Payload
	dir := p.WorkDir(homeOf(c))
	var dirs []string
	for _, d := range []string{dir, p.CWD} {
		if d == "" {
			continue
		}
		if !filepath.IsAbs(d) {
			if abs, err := filepath.Abs(d); err == nil {
				d = abs
			}
		}
		if len(dirs) == 0 || dirs[0] != d {
			dirs = append(dirs, d)
		}
	}
	if len(dirs) == 0 {
		wd, err := os.Getwd()
		if err != nil {
			wd = string(filepath.Separator)
		}
		dirs = []string{wd}
	}
	return dirs[0], dirs
}

// wiring is settings.WiringPatterns split into components, and the same
// folded, made once per process.
var wiring = lazy.Value[patterns]{New: func() patterns {
	var out, folded [][]string
	for _, pat := range settings.WiringPatterns() {
		out = append(out, split(filepath.ToSlash(pat)))
	}
	// Codex keeps its hook trust (hooks.state) and its feature switches in
	// config.toml: writing it can untrust or disable every hook. The other
	// files each harness reads hooks or their switches from, at every
	// scope (the reference's list): the system and managed ones (an agent
	// running as root could write them), Copilot's settings and user
	// hooks.
	out = append(out, []string{".codex", "config.toml"},
		[]string{"codex", "config.toml"}, []string{"codex", "requirements.toml"}, []string{"codex", "managed_config.toml"},
		[]string{"claude-code", "managed-settings*.json"}, []string{"claude-code", "managed-settings.d", "*.json"},
		[]string{"ClaudeCode", "managed-settings*.json"}, []string{"ClaudeCode", "managed-settings.d", "*.json"},
		[]string{".github", "copilot", "settings*.json"}, []string{".copilot", "settings*.json"}, []string{".copilot", "config.json"},
		[]string{".copilot", "hooks", "*.json"}, []string{"github-copilot", "policy.d", "*.json"}, []string{"Copilot", "policy.d", "*.json"},
		[]string{"cursor", "hooks.json"}, []string{"gemini-cli", "settings.json"}, []string{"gemini-cli", "system-defaults.json"})
	out = append(out, clientFiles()...)
	for _, pat := range out {
		f := make([]string, len(pat))
		for i, c := range pat {
			f[i] = fold(c)
		}
		folded = append(folded, f)
	}
	return patterns{out, folded}
}}

// patterns are paths' components, and the same folded.
type patterns struct{ exact, folded [][]string }

// wiring is settings.WiringPatterns and the other harness files, split
// into components (foldedWiring: each folded), made on first use: an
// ordinary call whose command writes nothing never needs them.
func (g *guard) wiring() [][]string {
	return wiring.Get().exact
}

func (g *guard) foldedWiring() [][]string {
	return wiring.Get().folded
}

func newGuard(c *hook.Call) (*guard, error) {
	g := &guard{c: c, cfg: c.Config, home: homeOf(c)}
	g.dir, g.editDirs = workDirs(c)
	if c.Config != nil {
		v, err := c.Config.Get(toolingrc.KeyHookBinary)
		if err != nil {
			return nil, err
		}
		g.bin = &v
	}
	return g, nil
}

// binaries are the hook binary's paths: the configured one, the main
// checkout's for a linked worktree, and the one answering this call, each
// as written and resolved.
func (g *guard) binaries() []string {
	if g.resolved {
		return g.binary
	}
	g.resolved = true
	add := func(path string) {
		g.binary = append(g.binary, filepath.Clean(path))
		if r, err := realpath.Resolve(path); err == nil {
			g.binary = append(g.binary, r)
		}
	}
	if g.bin != nil {
		add(g.bin.Abs())
		// A linked worktree's sessions may run the main checkout's binary.
		if main := mainCheckout(g.c, g.cfg.Root()); main != "" {
			add(filepath.Join(main, filepath.FromSlash(g.bin.String())))
		}
	}
	// The binary answering this call is the hook binary, wherever it lives.
	if exe, err := os.Executable(); err == nil {
		add(exe)
	}
	for _, b := range g.binary {
		g.fbinary = append(g.fbinary, foldPath(b))
	}
	return g.binary
}

// mainCheckout is the main checkout of the linked worktree holding dir, or
// "" when dir is not in one.
func mainCheckout(c *hook.Call, dir string) string {
	repo, err := c.Repo(dir)
	if err != nil {
		return ""
	}
	gitDir := filepath.ToSlash(repo.GitDir)
	if i := strings.LastIndex(gitDir, "/.git/worktrees/"); i >= 0 {
		return filepath.FromSlash(gitDir[:i])
	}
	return ""
}

// guarded says what a path is when it is guarded ("" when it is not). It
// judges the directory entry the write replaces (the path with its
// directories resolved) and the file a write through it reaches (the path
// fully resolved), both as the operating system resolves them, and a file
// that is a hard link of a guarded one. A relative path starts in dir.
func (g *guard) guarded(dir, path string) (string, error) {
	lit := path
	if !filepath.IsAbs(lit) {
		if dir == "" {
			dir = g.dir
		}
		lit = dir + string(filepath.Separator) + lit
	}
	// The directory as written: filepath.Dir would clean "link/.." away.
	cut := strings.LastIndexAny(lit, `/`+string(filepath.Separator))
	parent, err := realpath.Resolve(lit[:cut+1])
	if err != nil {
		return "", fmt.Errorf("cannot resolve %s: %w", path, err)
	}
	entry := filepath.Join(parent, lit[cut+1:])
	resolved, err := realpath.Resolve(lit)
	if err != nil {
		return "", fmt.Errorf("cannot resolve %s: %w", path, err)
	}
	for _, p := range []string{entry, resolved} {
		if what := g.what(p); what != "" {
			if p != filepath.Clean(lit) {
				what += " (resolved through symbolic links: " + p + ")"
			}
			return what, nil
		}
	}
	if f := g.hardLinked(resolved); f != "" {
		return "which is " + f + ", where a guarded file's link leads or another name of one", nil
	}
	return "", nil
}

// hardLinked returns the guarded file whose content writing path changes,
// or "": path is where a guarded symbolic link points (~/.claude/
// settings.json -> ~/dotfiles/claude.json: writing the dotfile writes the
// settings), or another name of a guarded file (a hard link). A path that
// does not exist costs one stat; only an existing file is compared with
// the guarded files.
func (g *guard) hardLinked(path string) string {
	info, err := os.Lstat(path)
	if err != nil || !info.Mode().IsRegular() {
		return ""
	}
	candidates := g.existing
	if !manyLinks(info) && g.inCheckout(path) {
		// Inside the checkout only the configuration's own files are
		// looked up (an Edit of a file there is the common case; a
		// wiring file linked to another file of the checkout is not).
		candidates = g.configFiles
	}
	for _, f := range candidates() {
		if fp := foldPath(f); fp == foldPath(path) {
			if g.what(path) == "" {
				return f // a guarded name's link resolves here
			}
			continue
		}
		if manyLinks(info) {
			if fi, err := os.Lstat(f); err == nil && os.SameFile(info, fi) {
				return f
			}
		}
	}
	return ""
}

// inCheckout reports a path inside the configuration's checkout.
func (g *guard) inCheckout(path string) bool {
	if g.cfg == nil {
		return false
	}
	for _, root := range []string{g.cfg.Root(), g.cfg.RepoTop} {
		if root != "" && within(path, root) {
			return true
		}
	}
	return false
}

// configFiles are the .toolingrc files of the configuration, resolved.
func (g *guard) configFiles() []string {
	var out []string
	if g.cfg != nil {
		for _, f := range g.cfg.Files {
			if r, err := realpath.Resolve(f.Path); err == nil {
				out = append(out, r)
			}
		}
	}
	return out
}

// mentioned reports whether a command's text names a guarded file: a
// .toolingrc, a directory of the wiring files, or the hook binary, also
// when the name is cut into pieces (".tool"+"ingrc", '.cl”aude') or
// hidden in an encoding (base64, \x escapes, chr()). It judges the parts
// of a command no analysis can see into.
func (g *guard) mentioned(command string) bool {
	return g.names(command) || obfuscated(command)
}

// names reports whether a text names a guarded file (mentioned, without
// the encodings).
func (g *guard) names(command string) bool {
	lower := fold(strings.ReplaceAll(command, ":", " "))
	// Cut into pieces: the distinctive names read whole from the letters
	// and digits alone; a directory's (.claude) from the text with its
	// quotes and + taken out, where it must start a name (not CLAUDE.md,
	// nor a method call c.cursor()).
	squeezed, joined := squeeze(lower), strings.Map(func(r rune) rune {
		if r == '\'' || r == '"' || r == '`' || r == '+' || unicode.IsSpace(r) {
			return -1
		}
		return r
	}, lower)
	whole := []string{fold(toolingrc.FileName)}
	for _, b := range g.binaries() {
		whole = append(whole, fold(filepath.Base(b)))
	}
	var dirs []string
	for _, pat := range g.wiring() {
		if strings.HasPrefix(pat[0], ".") {
			dirs = append(dirs, fold(pat[0]))
		}
	}
	decoded := fold(strings.ReplaceAll(gitcmd.Decoded(command), ":", " "))
	for _, n := range whole {
		if strings.Contains(lower, n) || strings.Contains(squeezed, squeeze(n)) || strings.Contains(decoded, n) {
			return true
		}
	}
	for _, n := range dirs {
		if startsName(lower, n) || startsName(joined, n) || startsName(decoded, n) {
			return true
		}
	}
	return false
}

// startsName reports n in s where it starts a name: at the start, or
// after a character that cannot be in one (a space, a quote, a slash, a
// bracket).
func startsName(s, n string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], n)
		if j < 0 {
			return false
		}
		at := i + j
		if at == 0 {
			return true
		}
		c := rune(s[at-1])
		if !unicode.IsLetter(c) && !unicode.IsDigit(c) && c != '_' && c != '.' && c != '-' {
			return true
		}
		i = at + 1
	}
}

// squeeze keeps only a text's letters and digits, so that a name cut
// into quoted pieces reads whole.
func squeeze(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return r
		}
		return -1
	}, s)
}

// obfuscated reports code that builds the text it acts on at run time:
// encodings, and escapes of characters by number (\x2e, \u002e, \056; a
// Windows path's \Users or \x is no escape).
func obfuscated(s string) bool {
	for _, t := range []string{"base64", "b64decode", "fromCharCode", "chr(", "decode(", "[::-1]", "reverse", "rot13", "codecs", "unhexlify", "fromhex", "atob", "Buffer.from", "xxd", "printf %b"} {
		if strings.Contains(s, t) {
			return true
		}
	}
	for i := 0; i+3 < len(s); i++ {
		if s[i] != '\\' {
			continue
		}
		switch c := s[i+1]; {
		case c == 'x' && hex(s[i+2]) && hex(s[i+3]):
			return true
		case c == 'u' && i+5 < len(s) && hex(s[i+2]) && hex(s[i+3]) && hex(s[i+4]) && hex(s[i+5]):
			return true
		case c >= '0' && c <= '3' && s[i+2] >= '0' && s[i+2] <= '7' && s[i+3] >= '0' && s[i+3] <= '7':
			return true
		}
	}
	return false
}

func hex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func (g *guard) what(path string) string {
	parts := foldParts(path)
	if len(parts) > 0 && component(parts[len(parts)-1], fold(toolingrc.FileName)) {
		return "a " + toolingrc.FileName + " (magehook's configuration)"
	}
	if what := g.startup(parts); what != "" {
		return what
	}
	for i, pat := range g.foldedWiring() {
		if tailMatches(parts, pat) {
			return "a settings file that runs magehook (" + strings.Join(g.wiring()[i], "/") + ")"
		}
	}
	fp := "/" + strings.Join(parts, "/")
	g.binaries()
	for _, b := range g.fbinary {
		if fp == b || samePath(fp, b) {
			return "the hook binary"
		}
	}
	return g.artefact(path, fp, parts)
}

// tailMatches reports whether the last components of a path match a
// pattern's, component by component.
func tailMatches(parts, pat []string) bool {
	if len(parts) < len(pat) {
		return false
	}
	tail := parts[len(parts)-len(pat):]
	for i, p := range pat {
		if !component(tail[i], p) {
			return false
		}
	}
	return true
}

// split cuts a path into its components, at a backslash too: Windows and
// PowerShell take one for a separator, and a name holding one elsewhere
// is rare enough to judge as if it were.
func split(p string) []string {
	return strings.FieldsFunc(p, func(r rune) bool { return r == '/' || r == '\\' || r == os.PathSeparator })
}
