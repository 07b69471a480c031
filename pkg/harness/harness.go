// Package harness holds one value per coding agent that runs magehook's
// hooks: Claude Code, Auggie, Cline, Codex, Copilot CLI, Cursor, Factory
// Droid, Gemini CLI, Kilo Code, OpenCode, Pi and Qwen Code.
// A value declares everything that differs between them — its
// configuration file and its layout, its event and tool names, how its
// payload maps onto the common one (Claude Code's), how an answer renders
// for each event, how its command finds the checkout and the binary, its
// timeout unit and what its answer schema rejects — so the dispatcher, the
// installer and the doctor hold no comparisons of harness names. Adding a
// harness is adding one file here and its captured fixtures.
//
// The values are built by functions on lookup, never in package-level
// maps: the hook binary starts on every tool call and pays only for the
// harness it runs under.
package harness

import (
	"sort"
	"strings"

	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/payload"
)

// Layout is the shape of a harness's configuration file.
type Layout int

const (
	// Grouped: hooks.<Event> is a list of matcher groups, each holding a
	// list of command handlers (Claude Code, Codex, Gemini).
	Grouped Layout = iota
	// Flat: hooks.<event> is a list of command entries, each with its own
	// matcher (Copilot, Cursor).
	Flat
	// Plugin: a program the harness loads, written whole (OpenCode's
	// plugin, Pi's extension): Harness.Plugin writes it.
	Plugin
	// Scripts: File is a directory holding one executable per event, named
	// by the event (Cline's .clinerules/hooks/PreToolUse), each written
	// whole.
	Scripts
)

// Name pairs a harness's own name for an event or a tool with the common
// (Claude Code) one.
type Name struct{ Native, Common string }

// MatcherStyle is how a harness reads a group's tool matcher.
type MatcherStyle int

const (
	// MatchClaude: Claude Code's rules (an exact list a|b, else a
	// regular expression); the harness also accepts Claude's tool names.
	MatchClaude MatcherStyle = iota
	// MatchNativeList: a|b of the harness's own tool names only.
	MatchNativeList
	// MatchRegexp: an anchored regular expression over its own names.
	MatchRegexp
)

// Setting is a key install sets in the configuration file (a dotted path
// of object keys) besides the hooks.
type Setting struct {
	Path  string
	Value any
}

// Harness is one coding agent. The zero value is not a harness; use
// Lookup or All.
type Harness struct {
	// Name is what -harness= names.
	Name string
	// Client is the agent's own name, for messages.
	Client string
	// File is the configuration file, relative to the checkout root,
	// slash-separated.
	File string
	// UserFile is the file the harness reads hooks from for every project
	// of one user, relative to the home directory, slash-separated, in the
	// same layout as File; "" when magehook knows none (magehook init
	// -user then leaves the harness out and says so).
	UserFile string
	Layout   Layout
	// CommandKey and TimeoutKey are the entry fields of the command and of
	// its timeout; TimeoutScale converts seconds into the timeout's unit
	// (1000 for milliseconds).
	CommandKey, TimeoutKey string
	TimeoutScale           int
	// HandlerName, when set, is written as each handler's "name".
	HandlerName string
	// Settings are set by install next to the hooks.
	Settings []Setting
	// ProjectDir is the shell expression of the checkout directory the
	// harness gives its hooks, "" when it gives none (the command then
	// walks up from its working directory to the checkout's .git).
	ProjectDir string
	Matchers   MatcherStyle
	// EventKey reports whether a key of the file's hooks object is an
	// event (Gemini keeps settings such as hooks.disabled among them);
	// nil means every key is.
	EventKey func(key string) bool
	// Trust says how the user lets the harness run a project's hooks.
	Trust string
	// NotLive, when set, is why the live suite cannot run the client
	// offline, with the evidence: its pinned package is read, not run.
	NotLive string
	// Review, when set, is what install says after writing the file: the
	// harness runs a new or changed hook only once the user reviewed it.
	Review string
	// ReviewedByPosition: the harness keeps the user's review of each
	// hook, by its position in the file, in $CODEX_HOME/config.toml
	// (Codex); the doctor checks it.
	ReviewedByPosition bool
	// OffSwitches are settings of the harness's file that stop every hook
	// from running; the doctor reports each one set.
	OffSwitches []Setting
	// Overrides, when set, is a second file of the checkout holding a hooks
	// object on its own, whose events replace the same events of File
	// (Droid's .factory/hooks.json): the doctor reports each event of
	// magehook's it holds, and each off switch (a "hooks." path of
	// OffSwitches) set at its top; the agent's own gates protect it as they
	// protect File.
	Overrides string
	// Guarded are other files of the checkout through which the harness
	// can be told to skip magehook (Pi's .pi/settings.json can disable an
	// extension, Auggie's .augment/settings.local.json holds hooks too):
	// the agent's own gates protect them as they protect File.
	Guarded []string
	// WayOut is the sentence a deny on a protected branch ends with: how
	// the model in this harness moves its work to a worktree.
	WayOut string
	// SessionWayOut, when set, is the harness's own way to a worktree that
	// SessionStart's note on a protected branch names before magehook's
	// worktree:create (Claude Code's EnterWorktree tool).
	SessionWayOut string
	// MCPTextResponse: an MCP tool's PostToolUse tool_response is the
	// server's text or its content blocks, a failed call going to
	// PostToolUseFailure (Claude Code), so a success unless it says
	// isError.
	MCPTextResponse bool
	// Program is the client's executable, whose --version prints the
	// client's version ("" when none is known).
	Program string
	// OpaqueResponse: a PostToolUse tool_response may be a bare string
	// that says nothing about whether the tool succeeded (Codex's shell
	// output), so a handler must not read it as a failure.
	OpaqueResponse bool
	// WorkDirFields are the tool input fields the harness's shell tools
	// take their working directory from (Gemini's dir_path, ...); the
	// payload read moves the first one present to tool_input.workdir,
	// where payload.WorkDir looks.
	WorkDirFields []string
	// BracesSubstituted: the harness replaces ${NAME} and ${NAME:-x} in
	// the command text with its own environment's values before a shell
	// sees it, and reads \${ as a literal ${ (Auggie): the command writes
	// each of its ${ as \${.
	BracesSubstituted bool
	// ToolField is the payload field naming the tool ("" is tool_name),
	// which an installed command reads when the binary is missing.
	ToolField string
	// BlocksByAnswer: the client reads no exit code (Cline), so a block —
	// the binary's when a gate cannot decide, the installed command's when
	// the binary cannot answer — is written as the deny answer on stdout.
	BlocksByAnswer bool
	// NativePayload: the client's payload is a dialect of its own, not
	// Claude Code's with other names (Cline's preToolUse/toolName/...);
	// Normalize turns it into Claude Code's, which is what handlers read.
	NativePayload bool
	// MaxTimeout is the longest timeout, in seconds, the harness allows an
	// event's hook (0: no limit); install writes no more.
	MaxTimeout func(common string) int

	// Plugin writes the program of a Plugin layout from its spec; its first
	// line starts with PluginMarker, which marks the file as magehook's.
	Plugin       func(PluginSpec) string
	PluginMarker string

	events    func() []Name
	tools     func() []Name
	normalize func(h *Harness, in map[string]any, common string)
	render    func(ev hook.Event, r hook.Result, native string) hook.Answer
	worktree  string
}

// PluginSpec is what a Plugin harness's program is generated from.
type PluginSpec struct {
	// Binary is hook.binary, relative to the checkout.
	Binary string
	// Gated are the (Claude Code) tool names a PreToolUse gate watches;
	// nil means every tool.
	Gated []string
}

// OwnsPlugin reports whether a Plugin harness's file is magehook's.
func (h *Harness) OwnsPlugin(data []byte) bool {
	return h.PluginMarker != "" && strings.HasPrefix(string(data), h.PluginMarker)
}

// Lookup returns a harness by name; "" is Claude Code.
func Lookup(name string) (*Harness, bool) {
	var h Harness
	switch name {
	case "", "claude":
		h = claude()
	case "auggie":
		h = auggie()
	case "codex":
		h = codex()
	case "copilot":
		h = copilot()
	case "cursor":
		h = cursor()
	case "droid":
		h = droid()
	case "gemini":
		h = gemini()
	case "kilo":
		h = kilo()
	case "opencode":
		h = opencode()
	case "pi":
		h = pi()
	case "qwen":
		h = qwen()
	case "cline":
		h = cline()
	default:
		return nil, false
	}
	return &h, true
}

// Names lists every harness name, Claude Code first.
func Names() []string {
	return []string{"claude", "auggie", "cline", "codex", "copilot", "cursor", "droid", "gemini", "kilo", "opencode", "pi", "qwen"}
}

// All returns every harness, Claude Code first.
func All() []*Harness {
	var out []*Harness
	for _, n := range Names() {
		h, _ := Lookup(n)
		out = append(out, h)
	}
	return out
}

// WayOutOf is the way-out sentence of a harness named by -harness= (the
// default's for a name it does not know), with create as the command that
// makes the worktree (hook.Call.WorktreeCreate: magehook's worktree:create
// as typed in the checkout, or git's own for a user-scope binary).
func WayOutOf(name, create string) string {
	out := "Do the work in a worktree on its own branch: " + worktreeCreate + " prints its directory; work there."
	if h, ok := Lookup(name); ok && h.WayOut != "" {
		out = h.WayOut
	}
	if create == hook.GitWorktreeAdd {
		// git prints no directory: the sentences name the operand.
		dir := hook.WorktreeDirOf(create)
		out = strings.NewReplacer(" prints its directory; work there", ", then work in "+dir, "the directory it prints", dir, "its directory", dir).Replace(out)
	}
	return strings.ReplaceAll(out, worktreeCreate, create)
}

// SessionWayOutOf is what SessionStart's note on a protected branch tells
// the model of a harness named by -harness= to do before the first
// change: create is the command that makes the worktree, as WayOutOf's.
func SessionWayOutOf(name, create string) string {
	way := "move the work to a worktree on its own branch: "
	then := create + " and work in " + hook.WorktreeDirOf(create)
	if h, ok := Lookup(name); ok && h.SessionWayOut != "" {
		return way + h.SessionWayOut + ", or run " + then
	}
	return way + then
}

// MCPTextResponseOf reports the MCPTextResponse of a harness named by
// -harness= ("" is Claude Code).
func MCPTextResponseOf(name string) bool {
	h, ok := Lookup(name)
	return ok && h.MCPTextResponse
}

// ProgramOf is the Program of a harness named by -harness=.
func ProgramOf(name string) string {
	h, ok := Lookup(name)
	if !ok {
		return ""
	}
	return h.Program
}

// OpaqueResponseOf reports the OpaqueResponse of a harness named by
// -harness=.
func OpaqueResponseOf(name string) bool {
	h, ok := Lookup(name)
	return ok && h.OpaqueResponse
}

// worktreeCreate is magehook's own way to a worktree, in every harness.
const worktreeCreate = "go tool mage worktree:create <name>"

// ProjectVar is the environment variable ProjectDir reads first
// ("${COPILOT_PROJECT_DIR:-$PWD}" reads COPILOT_PROJECT_DIR), "" for none.
func (h *Harness) ProjectVar() string {
	expr := strings.TrimPrefix(strings.TrimPrefix(h.ProjectDir, "$"), "{")
	end := 0
	for end < len(expr) && (expr[end] == '_' || expr[end] >= 'A' && expr[end] <= 'Z' || expr[end] >= '0' && expr[end] <= '9' || expr[end] >= 'a' && expr[end] <= 'z') {
		end++
	}
	return expr[:end]
}

// IsClaude reports whether h is Claude Code (whose file has scopes).
func (h *Harness) IsClaude() bool { return h == nil || h.Name == "claude" }

// BlocksOnlyByAnswer implements hook's optional answer-only harness: a
// gate that cannot decide answers with Render's deny, not exit 2.
func (h *Harness) BlocksOnlyByAnswer() bool { return h.BlocksByAnswer }

// blockAnswer is the deny the installed command prints when the binary
// cannot answer a gated call, as a shell word; "" when exit 2 is the block.
func (h *Harness) blockAnswer() string {
	if !h.BlocksByAnswer {
		return ""
	}
	ev, _ := hook.Lookup("PreToolUse")
	a := h.Render(ev, hook.Deny("magehook: the hook binary could not answer and a gate watches this call: it is blocked (the gate fails closed); see the hook's stderr and run go tool mage hook:build"))
	return "'" + strings.ReplaceAll(strings.TrimSpace(string(a.Stdout)), "'", `'\''`) + "'"
}

// HarnessName implements hook.Protocol.
func (h *Harness) HarnessName() string { return h.Name }

// WorktreeCommand implements hook.Protocol.
func (h *Harness) WorktreeCommand() string { return h.worktree }

// Events returns the harness's events that magehook answers, native and
// common names; nil means the common names themselves, all of them.
func (h *Harness) Events() []Name {
	if h.events == nil {
		return nil
	}
	return h.events()
}

// NativeEvent is the harness's name for a common event, and false when the
// harness has no such event.
func (h *Harness) NativeEvent(common string) (string, bool) {
	if h.events == nil {
		return common, true
	}
	for _, n := range h.events() {
		if n.Common == common {
			return n.Native, true
		}
	}
	return "", false
}

// CommonEvent is the common name of one of the harness's events.
func (h *Harness) CommonEvent(native string) (string, bool) {
	if h.events == nil {
		_, ok := hook.Lookup(native)
		return native, ok
	}
	for _, n := range h.events() {
		if n.Native == native {
			return n.Common, true
		}
	}
	return "", false
}

// CommonTool maps one of the harness's tool names to Claude Code's; a
// name it does not know stays as it is.
func (h *Harness) CommonTool(native string) string {
	if h.tools == nil {
		return native
	}
	for _, n := range h.tools() {
		if n.Native == native {
			return n.Common
		}
	}
	return native
}

// NativeTools maps Claude Code tool names to the harness's, for matchers:
// every native name of each tool, sorted; with MatchClaude the Claude
// names a harness has no own name for stay.
func (h *Harness) NativeTools(claude []string) []string {
	if h.tools == nil {
		return claude
	}
	seen := map[string]bool{}
	var out []string
	add := func(n string) {
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	for _, c := range claude {
		found := false
		for _, n := range h.tools() {
			if payload.SameTool(n.Common, c) {
				found = true
				add(n.Native)
			}
		}
		if !found && h.Matchers == MatchClaude {
			add(c)
		}
	}
	sort.Strings(out)
	return out
}

// Matcher maps a Claude-format tool matcher onto the harness's tool
// names. A regular expression cannot be mapped and becomes no matcher: the
// dispatcher applies each handler's own matcher after the payload is
// mapped, so matching more is safe.
func (h *Harness) Matcher(m string) string {
	if m == "" || h.tools == nil || h.Matchers == MatchClaude {
		return m
	}
	names, ok := hook.ExactNames(m)
	if !ok {
		return ""
	}
	native := h.NativeTools(names)
	if h.Matchers == MatchRegexp {
		return "^(" + strings.Join(native, "|") + ")$"
	}
	return strings.Join(native, "|")
}

// Render implements hook.Protocol: the answer in the harness's dialect.
func (h *Harness) Render(ev hook.Event, r hook.Result) hook.Answer {
	native, _ := h.NativeEvent(ev.Name)
	return h.render(ev, r, native)
}

// IsEventKey reports whether a key of the hooks object names an event.
func (h *Harness) IsEventKey(key string) bool { return h.EventKey == nil || h.EventKey(key) }

// NamesEvent implements hook.Protocol.
func (h *Harness) NamesEvent(sent, common string) bool {
	if strings.EqualFold(sent, common) {
		return true
	}
	for _, n := range h.Events() {
		if n.Common == common && strings.EqualFold(sent, n.Native) {
			return true
		}
	}
	return false
}

// Hook resolves a -harness= name for the hook binary (hook.Set.Harnesses);
// Claude Code's shapes are the common ones, so its protocol is
// hook.ClaudeCode, which builds no tables.
func Hook(name string) (hook.Protocol, bool) {
	h, ok := Lookup(name)
	if !ok {
		return nil, false
	}
	if h.IsClaude() {
		return hook.ClaudeCode, true
	}
	return h, true
}
