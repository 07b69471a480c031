package hook

import (
	"slices"
	"strings"
)

// Event is one Claude Code hook event and what the contract lets a hook
// answer to it. The table below is the only place these facts live: the
// dispatcher, the output writer, the installer and the doctor all read it.
type Event struct {
	// Name is the wire name, as in hook_event_name and the settings keys.
	Name string
	// Target is the Mage target that answers the event, "hook:" + Target.
	Target string
	// MatcherField is the payload field a settings matcher is tested
	// against; empty when the event takes no matcher.
	MatcherField string
	// Block says how a blocking decision reaches Claude Code.
	Block BlockMode
	// ExitBlocks reports whether exit code 2 blocks the event's action.
	ExitBlocks bool
	// Output says what stdout may carry.
	Output OutputKind
	// Context reports whether hookSpecificOutput.additionalContext is accepted.
	Context bool
	// Lifecycle marks the session and worktree events that a sub-agent's
	// payload (one holding agent_id) must not act on.
	Lifecycle bool
	// PlainContext reports whether plain (non-JSON) stdout on exit 0 is
	// added to Claude's context.
	PlainContext bool
	// Specific lists the hookSpecificOutput fields the event accepts besides
	// hookEventName and additionalContext.
	Specific []string
}

// BlockMode is the way an event expresses "no" on the wire.
type BlockMode int

const (
	// BlockNone: the event cannot be blocked; a deny is dropped with a warning.
	BlockNone BlockMode = iota
	// BlockPermission: hookSpecificOutput.permissionDecision (PreToolUse).
	BlockPermission
	// BlockBehavior: hookSpecificOutput.decision.behavior (PermissionRequest).
	BlockBehavior
	// BlockDecision: top-level decision "block" with a reason.
	BlockDecision
	// BlockExit: exit code 2 with the reason on stderr, the only way.
	BlockExit
)

// OutputKind is what an event's stdout carries.
type OutputKind int

const (
	// OutputJSON: one JSON object, or nothing.
	OutputJSON OutputKind = iota
	// OutputPath: a filesystem path as the only line (WorktreeCreate).
	OutputPath
	// OutputNone: Claude Code discards stdout; the writer prints nothing.
	OutputNone
)

// The 33 events of Claude Code 2.1.328: the 31 of the reference contract
// (v2.1.240 docs) and PreModelSwitch and PostModelSwitch (fired by /model),
// seen by the live contract suite (internal/live).
var events = []Event{
	{Name: "SessionStart", Target: "sessionStart", MatcherField: "source", Output: OutputJSON, Context: true, Lifecycle: true, PlainContext: true,
		Specific: []string{wireSessionTitle, wireWatchPaths, wireInitialUserMessage, wireReloadSkills}},
	{Name: "Setup", Target: "setup", MatcherField: "trigger", Output: OutputJSON, Context: true},
	{Name: "UserPromptSubmit", Target: "userPromptSubmit", Block: BlockDecision, ExitBlocks: true, Output: OutputJSON, Context: true, PlainContext: true,
		Specific: []string{wireSessionTitle, wireSuppressOriginalPrompt}},
	{Name: "UserPromptExpansion", Target: "userPromptExpansion", MatcherField: "command_name", Block: BlockDecision, ExitBlocks: true, Output: OutputJSON, Context: true, PlainContext: true},
	{Name: "PreToolUse", Target: "preToolUse", MatcherField: "tool_name", Block: BlockPermission, ExitBlocks: true, Output: OutputJSON, Context: true,
		Specific: []string{wirePermissionDecision, wirePermissionDecisionReason, wireUpdatedInput}},
	{Name: "PermissionRequest", Target: "permissionRequest", MatcherField: "tool_name", Block: BlockBehavior, Output: OutputJSON,
		Specific: []string{wireDecision}},
	{Name: "PermissionDenied", Target: "permissionDenied", MatcherField: "tool_name", Output: OutputJSON,
		Specific: []string{wireRetry}},
	{Name: "PostToolUse", Target: "postToolUse", MatcherField: "tool_name", Block: BlockDecision, Output: OutputJSON, Context: true,
		Specific: []string{wireUpdatedToolOutput}},
	{Name: "PostToolUseFailure", Target: "postToolUseFailure", MatcherField: "tool_name", Block: BlockDecision, Output: OutputJSON, Context: true},
	{Name: "PostToolBatch", Target: "postToolBatch", Block: BlockDecision, ExitBlocks: true, Output: OutputJSON, Context: true},
	{Name: "Notification", Target: "notification", MatcherField: "notification_type", Output: OutputJSON},
	{Name: "MessageDisplay", Target: "messageDisplay", Output: OutputJSON,
		Specific: []string{wireDisplayContent}},
	{Name: "SubagentStart", Target: "subagentStart", MatcherField: "agent_type", Output: OutputJSON, Context: true},
	{Name: "SubagentStop", Target: "subagentStop", MatcherField: "agent_type", Block: BlockDecision, ExitBlocks: true, Output: OutputJSON, Context: true},
	{Name: "TaskCreated", Target: "taskCreated", Block: BlockDecision, ExitBlocks: true, Output: OutputJSON},
	{Name: "TaskCompleted", Target: "taskCompleted", Block: BlockExit, ExitBlocks: true, Output: OutputJSON},
	{Name: "Stop", Target: "stop", Block: BlockDecision, ExitBlocks: true, Output: OutputJSON, Context: true},
	{Name: "StopFailure", Target: "stopFailure", MatcherField: "error", Output: OutputNone},
	{Name: "TeammateIdle", Target: "teammateIdle", Block: BlockExit, ExitBlocks: true, Output: OutputJSON},
	{Name: "InstructionsLoaded", Target: "instructionsLoaded", MatcherField: "load_reason", Output: OutputNone},
	{Name: "ConfigChange", Target: "configChange", MatcherField: "source", Block: BlockDecision, ExitBlocks: true, Output: OutputJSON},
	{Name: "CwdChanged", Target: "cwdChanged", Output: OutputJSON,
		Specific: []string{wireWatchPaths}},
	{Name: "DirectoryAdded", Target: "directoryAdded", MatcherField: "source", Output: OutputJSON},
	{Name: "FileChanged", Target: "fileChanged", MatcherField: "file_path", Output: OutputJSON,
		Specific: []string{wireWatchPaths}},
	{Name: "WorktreeCreate", Target: "worktreeCreate", Block: BlockExit, ExitBlocks: true, Output: OutputPath, Lifecycle: true},
	{Name: "WorktreeRemove", Target: "worktreeRemove", Output: OutputNone, Lifecycle: true},
	{Name: "PreCompact", Target: "preCompact", MatcherField: "trigger", Block: BlockDecision, ExitBlocks: true, Output: OutputJSON},
	{Name: "PostCompact", Target: "postCompact", MatcherField: "trigger", Output: OutputJSON},
	{Name: "Elicitation", Target: "elicitation", MatcherField: "mcp_server_name", Block: BlockExit, ExitBlocks: true, Output: OutputJSON,
		Specific: []string{wireAction, wireContent}},
	{Name: "ElicitationResult", Target: "elicitationResult", MatcherField: "mcp_server_name", Block: BlockExit, ExitBlocks: true, Output: OutputJSON,
		Specific: []string{wireAction, wireContent}},
	{Name: "PreModelSwitch", Target: "preModelSwitch", MatcherField: "to_model", Block: BlockDecision, ExitBlocks: true, Output: OutputJSON},
	{Name: "PostModelSwitch", Target: "postModelSwitch", MatcherField: "to_model", Output: OutputJSON, Context: true, PlainContext: true},
	{Name: "SessionEnd", Target: "sessionEnd", MatcherField: "reason", Output: OutputNone, Lifecycle: true},
}

// Lookup returns the event with the given wire name.
func Lookup(name string) (Event, bool) {
	for i := range events { // by index: an Event is too large to copy per step
		if events[i].Name == name {
			return events[i], true
		}
	}
	return Event{}, false
}

// Events returns every event of the contract, sorted by name.
func Events() []Event {
	// A catalogue handler lists the events at package init, on every start
	// of the hook binary: the indices are sorted, not the Events, which
	// are large to swap.
	idx := make([]int, len(events))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int { return strings.Compare(events[a].Name, events[b].Name) })
	out := make([]Event, len(events))
	for i, j := range idx {
		out[i] = events[j]
	}
	return out
}

// MustLookup is Lookup for names known at compile time; it panics on a typo.
func MustLookup(name string) Event {
	e, ok := Lookup(name)
	if !ok {
		panic("hook: unknown event " + name)
	}
	return e
}

func (e Event) accepts(field string) bool {
	for _, f := range e.Specific {
		if f == field {
			return true
		}
	}
	return false
}

// CanBlock reports whether a deny from a handler has any effect on the event.
func (e Event) CanBlock() bool { return e.Block != BlockNone }

// Gating reports the tool-gating events: those whose answer decides
// whether a tool call runs (PreToolUse, PermissionRequest, and each
// harness's equivalents, which map onto them). A gate that cannot decide
// one of them blocks it.
func (e Event) Gating() bool { return e.Name == "PreToolUse" || e.Name == "PermissionRequest" }
