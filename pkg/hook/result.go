package hook

import (
	"encoding/json"
	"strings"
)

// Decision is a handler's verdict on the action the event announces. The
// order of the constants is Claude Code's precedence when several hooks
// answer one event: deny > defer > ask > allow.
type Decision int

const (
	// NoDecision leaves the action to Claude Code and the other hooks.
	NoDecision Decision = iota
	// DecisionAllow approves the action (PreToolUse: skips the prompt).
	DecisionAllow
	// DecisionAsk asks the user (PreToolUse only).
	DecisionAsk
	// DecisionDefer defers the tool call (PreToolUse in -p mode only).
	DecisionDefer
	// DecisionDeny refuses the action: a PreToolUse deny, a PermissionRequest
	// deny, a "block" for the events that take one, or exit 2.
	DecisionDeny
)

// String returns the wire value of a PreToolUse permissionDecision.
func (d Decision) String() string {
	switch d {
	case DecisionAllow:
		return "allow"
	case DecisionAsk:
		return "ask"
	case DecisionDefer:
		return "defer"
	case DecisionDeny:
		return "deny"
	}
	return ""
}

// Result is what one handler answers. It names intentions, not wire fields:
// the writer (Render) turns it into the one shape the firing event accepts,
// so a handler cannot produce a malformed or misaddressed answer. Fields an
// event does not accept are dropped with a warning on stderr.
type Result struct {
	// Decision and Reason: see Decision. Reason is shown to Claude for a
	// deny, to the user for allow and ask.
	Decision Decision
	Reason   string
	// Tool is the call's tool, by its common name (the payload's
	// tool_name): the dispatcher sets it on the merged result before it
	// renders, for a client whose deny depends on the tool; handlers leave
	// it empty, and an answer without it is the one for any tool.
	Tool string
	// Binding: the deny is another repository's policy (Handler.Reach),
	// which the caller's hook.warn does not turn into a warning.
	Binding bool
	// Context is added to Claude's context (additionalContext).
	Context string
	// UpdatedInput replaces the whole tool input (PreToolUse with allow or
	// ask, PermissionRequest with allow).
	UpdatedInput json.RawMessage
	// UpdatedToolOutput replaces the tool's output (PostToolUse).
	UpdatedToolOutput json.RawMessage
	// SystemMessage is a warning shown to the user.
	SystemMessage string
	// Halt stops Claude entirely (continue: false); HaltReason is shown to
	// the user.
	Halt       bool
	HaltReason string
	// SessionTitle names the session (SessionStart, UserPromptSubmit).
	SessionTitle string
	// WatchPaths are absolute paths to watch (SessionStart, CwdChanged,
	// FileChanged).
	WatchPaths []string
	// Retry lets the model retry after an auto-mode denial (PermissionDenied).
	Retry bool
	// DisplayContent replaces the displayed text (MessageDisplay).
	DisplayContent string
	// Path is the worktree path WorktreeCreate prints.
	Path string
	// Interrupt stops Claude with a PermissionRequest deny;
	// UpdatedPermissions applies permission updates with an allow.
	Interrupt          bool
	UpdatedPermissions json.RawMessage
	// InitialUserMessage (non-interactive sessions) and ReloadSkills answer
	// SessionStart; SuppressOriginalPrompt goes with a UserPromptSubmit block.
	InitialUserMessage     string
	ReloadSkills           bool
	SuppressOriginalPrompt bool
	// Action ("accept", "decline" or "cancel") and Content answer an MCP
	// elicitation (Elicitation, ElicitationResult).
	Action  string
	Content json.RawMessage
	// TerminalSequence is an allow-listed escape sequence Claude Code emits
	// (a notification or a title), for any event.
	TerminalSequence string
	// Text is a line for Claude's context. On the events whose plain
	// stdout Claude Code adds to the context (SessionStart,
	// UserPromptSubmit, UserPromptExpansion) it is printed as plain text
	// when it is the whole answer; otherwise it joins additionalContext.
	Text string
}

// Allow approves the action with an optional reason.
func Allow(reason string) Result { return Result{Decision: DecisionAllow, Reason: reason} }

// Ask asks the user to confirm the action, giving a reason.
func Ask(reason string) Result { return Result{Decision: DecisionAsk, Reason: reason} }

// Defer defers a PreToolUse tool call (non-interactive sessions only).
func Defer() Result { return Result{Decision: DecisionDefer} }

// Deny refuses the action; the reason tells Claude why and what to do instead.
func Deny(reason string) Result { return Result{Decision: DecisionDeny, Reason: reason} }

// Context adds text to Claude's context.
func Context(text string) Result { return Result{Context: text} }

// Merge combines the answers of several handlers on one event as Claude
// Code combines several hooks: the strongest decision wins (deny > defer >
// ask > allow) with the reasons of the handlers that gave it; contexts,
// system messages and watch paths are kept in order; for single values
// (updated input, title, path) the last handler wins.
func Merge(results ...Result) Result {
	var m Result
	var reasons, contexts, messages, halts, texts []string
	for _, r := range results {
		if r.Decision > m.Decision {
			m.Decision = r.Decision
			reasons = reasons[:0]
		}
		if r.Decision == m.Decision && r.Decision != NoDecision && r.Reason != "" {
			reasons = append(reasons, r.Reason)
		}
		contexts = appendNonEmpty(contexts, r.Context)
		messages = appendNonEmpty(messages, r.SystemMessage)
		if r.Halt {
			m.Halt = true
			halts = appendNonEmpty(halts, r.HaltReason)
		}
		if r.UpdatedInput != nil {
			m.UpdatedInput = r.UpdatedInput
		}
		if r.UpdatedToolOutput != nil {
			m.UpdatedToolOutput = r.UpdatedToolOutput
		}
		if r.SessionTitle != "" {
			m.SessionTitle = r.SessionTitle
		}
		if r.DisplayContent != "" {
			m.DisplayContent = r.DisplayContent
		}
		if r.Path != "" {
			m.Path = r.Path
		}
		texts = appendNonEmpty(texts, r.Text)
		m.Retry = m.Retry || r.Retry
		m.Interrupt = m.Interrupt || r.Interrupt
		m.ReloadSkills = m.ReloadSkills || r.ReloadSkills
		m.SuppressOriginalPrompt = m.SuppressOriginalPrompt || r.SuppressOriginalPrompt
		if r.UpdatedPermissions != nil {
			m.UpdatedPermissions = r.UpdatedPermissions
		}
		if r.InitialUserMessage != "" {
			m.InitialUserMessage = r.InitialUserMessage
		}
		if r.Action != "" {
			m.Action = r.Action
		}
		if r.Content != nil {
			m.Content = r.Content
		}
		if r.TerminalSequence != "" {
			m.TerminalSequence = r.TerminalSequence
		}
		m.WatchPaths = append(m.WatchPaths, r.WatchPaths...)
	}
	m.Reason = strings.Join(reasons, "\n")
	m.Context = strings.Join(contexts, "\n\n")
	m.SystemMessage = strings.Join(messages, "\n")
	m.HaltReason = strings.Join(halts, "\n")
	m.Text = strings.Join(texts, "\n")
	return m
}

func appendNonEmpty(list []string, s string) []string {
	if s == "" {
		return list
	}
	return append(list, s)
}
