// One target per event of the table in pkg/hook/event.go; TestEveryEventHasATarget keeps them in step.

package targets

import "context"

// ConfigChange answers the ConfigChange event: the payload on stdin, the answer on stdout. -harness names the agent (claude by default; codex, copilot, cursor, gemini, opencode).
func (Hook) ConfigChange(ctx context.Context, harness *string) { answer(ctx, "ConfigChange", harness) }

// CwdChanged answers the CwdChanged event: the payload on stdin, the answer on stdout. -harness names the agent (claude by default; codex, copilot, cursor, gemini, opencode).
func (Hook) CwdChanged(ctx context.Context, harness *string) { answer(ctx, "CwdChanged", harness) }

// DirectoryAdded answers the DirectoryAdded event: the payload on stdin, the answer on stdout. -harness names the agent (claude by default; codex, copilot, cursor, gemini, opencode).
func (Hook) DirectoryAdded(ctx context.Context, harness *string) {
	answer(ctx, "DirectoryAdded", harness)
}

// Elicitation answers the Elicitation event: the payload on stdin, the answer on stdout. -harness names the agent (claude by default; codex, copilot, cursor, gemini, opencode).
func (Hook) Elicitation(ctx context.Context, harness *string) { answer(ctx, "Elicitation", harness) }

// ElicitationResult answers the ElicitationResult event: the payload on stdin, the answer on stdout. -harness names the agent (claude by default; codex, copilot, cursor, gemini, opencode).
func (Hook) ElicitationResult(ctx context.Context, harness *string) {
	answer(ctx, "ElicitationResult", harness)
}

// FileChanged answers the FileChanged event: the payload on stdin, the answer on stdout. -harness names the agent (claude by default; codex, copilot, cursor, gemini, opencode).
func (Hook) FileChanged(ctx context.Context, harness *string) { answer(ctx, "FileChanged", harness) }

// InstructionsLoaded answers the InstructionsLoaded event: the payload on stdin, the answer on stdout. -harness names the agent (claude by default; codex, copilot, cursor, gemini, opencode).
func (Hook) InstructionsLoaded(ctx context.Context, harness *string) {
	answer(ctx, "InstructionsLoaded", harness)
}

// MessageDisplay answers the MessageDisplay event: the payload on stdin, the answer on stdout. -harness names the agent (claude by default; codex, copilot, cursor, gemini, opencode).
func (Hook) MessageDisplay(ctx context.Context, harness *string) {
	answer(ctx, "MessageDisplay", harness)
}

// Notification answers the Notification event: the payload on stdin, the answer on stdout. -harness names the agent (claude by default; codex, copilot, cursor, gemini, opencode).
func (Hook) Notification(ctx context.Context, harness *string) { answer(ctx, "Notification", harness) }

// PermissionDenied answers the PermissionDenied event: the payload on stdin, the answer on stdout. -harness names the agent (claude by default; codex, copilot, cursor, gemini, opencode).
func (Hook) PermissionDenied(ctx context.Context, harness *string) {
	answer(ctx, "PermissionDenied", harness)
}

// PermissionRequest answers the PermissionRequest event: the payload on stdin, the answer on stdout. -harness names the agent (claude by default; codex, copilot, cursor, gemini, opencode).
func (Hook) PermissionRequest(ctx context.Context, harness *string) {
	answer(ctx, "PermissionRequest", harness)
}

// PostCompact answers the PostCompact event: the payload on stdin, the answer on stdout. -harness names the agent (claude by default; codex, copilot, cursor, gemini, opencode).
func (Hook) PostCompact(ctx context.Context, harness *string) { answer(ctx, "PostCompact", harness) }

// PostToolBatch answers the PostToolBatch event: the payload on stdin, the answer on stdout. -harness names the agent (claude by default; codex, copilot, cursor, gemini, opencode).
func (Hook) PostToolBatch(ctx context.Context, harness *string) {
	answer(ctx, "PostToolBatch", harness)
}

// PostToolUse answers the PostToolUse event: the payload on stdin, the answer on stdout. -harness names the agent (claude by default; codex, copilot, cursor, gemini, opencode).
func (Hook) PostToolUse(ctx context.Context, harness *string) { answer(ctx, "PostToolUse", harness) }

// PostToolUseFailure answers the PostToolUseFailure event: the payload on stdin, the answer on stdout. -harness names the agent (claude by default; codex, copilot, cursor, gemini, opencode).
func (Hook) PostToolUseFailure(ctx context.Context, harness *string) {
	answer(ctx, "PostToolUseFailure", harness)
}

// PreCompact answers the PreCompact event: the payload on stdin, the answer on stdout. -harness names the agent (claude by default; codex, copilot, cursor, gemini, opencode).
func (Hook) PreCompact(ctx context.Context, harness *string) { answer(ctx, "PreCompact", harness) }

// PreToolUse answers the PreToolUse event: the payload on stdin, the answer on stdout. -harness names the agent (claude by default; codex, copilot, cursor, gemini, opencode).
func (Hook) PreToolUse(ctx context.Context, harness *string) { answer(ctx, "PreToolUse", harness) }

// SessionEnd answers the SessionEnd event: the payload on stdin, the answer on stdout. -harness names the agent (claude by default; codex, copilot, cursor, gemini, opencode).
func (Hook) SessionEnd(ctx context.Context, harness *string) { answer(ctx, "SessionEnd", harness) }

// SessionStart answers the SessionStart event: the payload on stdin, the answer on stdout. -harness names the agent (claude by default; codex, copilot, cursor, gemini, opencode).
func (Hook) SessionStart(ctx context.Context, harness *string) { answer(ctx, "SessionStart", harness) }

// Setup answers the Setup event: the payload on stdin, the answer on stdout. -harness names the agent (claude by default; codex, copilot, cursor, gemini, opencode).
func (Hook) Setup(ctx context.Context, harness *string) { answer(ctx, "Setup", harness) }

// Stop answers the Stop event: the payload on stdin, the answer on stdout. -harness names the agent (claude by default; codex, copilot, cursor, gemini, opencode).
func (Hook) Stop(ctx context.Context, harness *string) { answer(ctx, "Stop", harness) }

// StopFailure answers the StopFailure event: the payload on stdin, the answer on stdout. -harness names the agent (claude by default; codex, copilot, cursor, gemini, opencode).
func (Hook) StopFailure(ctx context.Context, harness *string) { answer(ctx, "StopFailure", harness) }

// SubagentStart answers the SubagentStart event: the payload on stdin, the answer on stdout. -harness names the agent (claude by default; codex, copilot, cursor, gemini, opencode).
func (Hook) SubagentStart(ctx context.Context, harness *string) {
	answer(ctx, "SubagentStart", harness)
}

// SubagentStop answers the SubagentStop event: the payload on stdin, the answer on stdout. -harness names the agent (claude by default; codex, copilot, cursor, gemini, opencode).
func (Hook) SubagentStop(ctx context.Context, harness *string) { answer(ctx, "SubagentStop", harness) }

// TaskCompleted answers the TaskCompleted event: the payload on stdin, the answer on stdout. -harness names the agent (claude by default; codex, copilot, cursor, gemini, opencode).
func (Hook) TaskCompleted(ctx context.Context, harness *string) {
	answer(ctx, "TaskCompleted", harness)
}

// TaskCreated answers the TaskCreated event: the payload on stdin, the answer on stdout. -harness names the agent (claude by default; codex, copilot, cursor, gemini, opencode).
func (Hook) TaskCreated(ctx context.Context, harness *string) { answer(ctx, "TaskCreated", harness) }

// TeammateIdle answers the TeammateIdle event: the payload on stdin, the answer on stdout. -harness names the agent (claude by default; codex, copilot, cursor, gemini, opencode).
func (Hook) TeammateIdle(ctx context.Context, harness *string) { answer(ctx, "TeammateIdle", harness) }

// UserPromptExpansion answers the UserPromptExpansion event: the payload on stdin, the answer on stdout. -harness names the agent (claude by default; codex, copilot, cursor, gemini, opencode).
func (Hook) UserPromptExpansion(ctx context.Context, harness *string) {
	answer(ctx, "UserPromptExpansion", harness)
}

// UserPromptSubmit answers the UserPromptSubmit event: the payload on stdin, the answer on stdout. -harness names the agent (claude by default; codex, copilot, cursor, gemini, opencode).
func (Hook) UserPromptSubmit(ctx context.Context, harness *string) {
	answer(ctx, "UserPromptSubmit", harness)
}

// WorktreeCreate answers the WorktreeCreate event: the payload on stdin, the answer on stdout. -harness names the agent (claude by default; codex, copilot, cursor, gemini, opencode).
func (Hook) WorktreeCreate(ctx context.Context, harness *string) {
	answer(ctx, "WorktreeCreate", harness)
}

// WorktreeRemove answers the WorktreeRemove event: the payload on stdin, the answer on stdout. -harness names the agent (claude by default; codex, copilot, cursor, gemini, opencode).
func (Hook) WorktreeRemove(ctx context.Context, harness *string) {
	answer(ctx, "WorktreeRemove", harness)
}

// PreModelSwitch answers the PreModelSwitch event: the payload on stdin, the answer on stdout. -harness names the agent (claude by default; codex, copilot, cursor, gemini, opencode).
func (Hook) PreModelSwitch(ctx context.Context, harness *string) {
	answer(ctx, "PreModelSwitch", harness)
}

// PostModelSwitch answers the PostModelSwitch event: the payload on stdin, the answer on stdout. -harness names the agent (claude by default; codex, copilot, cursor, gemini, opencode).
func (Hook) PostModelSwitch(ctx context.Context, harness *string) {
	answer(ctx, "PostModelSwitch", harness)
}
