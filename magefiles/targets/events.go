// One target per event of the table in pkg/hook/event.go; TestEveryEventHasATarget keeps them in step.

package targets

import "context"

// ConfigChange is an agent hook, not a command to type: the agent runs it at its ConfigChange event, payload on stdin, answer on stdout. -harness names the agent (claude by default; every other is a row of docs/harnesses.md); hook:replay tries a payload by hand.
func (Hook) ConfigChange(ctx context.Context, harness *string) { answer(ctx, "ConfigChange", harness) }

// CwdChanged is an agent hook, not a command to type: the agent runs it at its CwdChanged event, payload on stdin, answer on stdout. -harness names the agent (claude by default; every other is a row of docs/harnesses.md); hook:replay tries a payload by hand.
func (Hook) CwdChanged(ctx context.Context, harness *string) { answer(ctx, "CwdChanged", harness) }

// DirectoryAdded is an agent hook, not a command to type: the agent runs it at its DirectoryAdded event, payload on stdin, answer on stdout. -harness names the agent (claude by default; every other is a row of docs/harnesses.md); hook:replay tries a payload by hand.
func (Hook) DirectoryAdded(ctx context.Context, harness *string) {
	answer(ctx, "DirectoryAdded", harness)
}

// Elicitation is an agent hook, not a command to type: the agent runs it at its Elicitation event, payload on stdin, answer on stdout. -harness names the agent (claude by default; every other is a row of docs/harnesses.md); hook:replay tries a payload by hand.
func (Hook) Elicitation(ctx context.Context, harness *string) { answer(ctx, "Elicitation", harness) }

// ElicitationResult is an agent hook, not a command to type: the agent runs it at its ElicitationResult event, payload on stdin, answer on stdout. -harness names the agent (claude by default; every other is a row of docs/harnesses.md); hook:replay tries a payload by hand.
func (Hook) ElicitationResult(ctx context.Context, harness *string) {
	answer(ctx, "ElicitationResult", harness)
}

// FileChanged is an agent hook, not a command to type: the agent runs it at its FileChanged event, payload on stdin, answer on stdout. -harness names the agent (claude by default; every other is a row of docs/harnesses.md); hook:replay tries a payload by hand.
func (Hook) FileChanged(ctx context.Context, harness *string) { answer(ctx, "FileChanged", harness) }

// InstructionsLoaded is an agent hook, not a command to type: the agent runs it at its InstructionsLoaded event, payload on stdin, answer on stdout. -harness names the agent (claude by default; every other is a row of docs/harnesses.md); hook:replay tries a payload by hand.
func (Hook) InstructionsLoaded(ctx context.Context, harness *string) {
	answer(ctx, "InstructionsLoaded", harness)
}

// MessageDisplay is an agent hook, not a command to type: the agent runs it at its MessageDisplay event, payload on stdin, answer on stdout. -harness names the agent (claude by default; every other is a row of docs/harnesses.md); hook:replay tries a payload by hand.
func (Hook) MessageDisplay(ctx context.Context, harness *string) {
	answer(ctx, "MessageDisplay", harness)
}

// Notification is an agent hook, not a command to type: the agent runs it at its Notification event, payload on stdin, answer on stdout. -harness names the agent (claude by default; every other is a row of docs/harnesses.md); hook:replay tries a payload by hand.
func (Hook) Notification(ctx context.Context, harness *string) { answer(ctx, "Notification", harness) }

// PermissionDenied is an agent hook, not a command to type: the agent runs it at its PermissionDenied event, payload on stdin, answer on stdout. -harness names the agent (claude by default; every other is a row of docs/harnesses.md); hook:replay tries a payload by hand.
func (Hook) PermissionDenied(ctx context.Context, harness *string) {
	answer(ctx, "PermissionDenied", harness)
}

// PermissionRequest is an agent hook, not a command to type: the agent runs it at its PermissionRequest event, payload on stdin, answer on stdout. -harness names the agent (claude by default; every other is a row of docs/harnesses.md); hook:replay tries a payload by hand.
func (Hook) PermissionRequest(ctx context.Context, harness *string) {
	answer(ctx, "PermissionRequest", harness)
}

// PostCompact is an agent hook, not a command to type: the agent runs it at its PostCompact event, payload on stdin, answer on stdout. -harness names the agent (claude by default; every other is a row of docs/harnesses.md); hook:replay tries a payload by hand.
func (Hook) PostCompact(ctx context.Context, harness *string) { answer(ctx, "PostCompact", harness) }

// PostToolBatch is an agent hook, not a command to type: the agent runs it at its PostToolBatch event, payload on stdin, answer on stdout. -harness names the agent (claude by default; every other is a row of docs/harnesses.md); hook:replay tries a payload by hand.
func (Hook) PostToolBatch(ctx context.Context, harness *string) {
	answer(ctx, "PostToolBatch", harness)
}

// PostToolUse is an agent hook, not a command to type: the agent runs it at its PostToolUse event, payload on stdin, answer on stdout. -harness names the agent (claude by default; every other is a row of docs/harnesses.md); hook:replay tries a payload by hand.
func (Hook) PostToolUse(ctx context.Context, harness *string) { answer(ctx, "PostToolUse", harness) }

// PostToolUseFailure is an agent hook, not a command to type: the agent runs it at its PostToolUseFailure event, payload on stdin, answer on stdout. -harness names the agent (claude by default; every other is a row of docs/harnesses.md); hook:replay tries a payload by hand.
func (Hook) PostToolUseFailure(ctx context.Context, harness *string) {
	answer(ctx, "PostToolUseFailure", harness)
}

// PreCompact is an agent hook, not a command to type: the agent runs it at its PreCompact event, payload on stdin, answer on stdout. -harness names the agent (claude by default; every other is a row of docs/harnesses.md); hook:replay tries a payload by hand.
func (Hook) PreCompact(ctx context.Context, harness *string) { answer(ctx, "PreCompact", harness) }

// PreToolUse is an agent hook, not a command to type: the agent runs it at its PreToolUse event, payload on stdin, answer on stdout. -harness names the agent (claude by default; every other is a row of docs/harnesses.md); hook:replay tries a payload by hand.
func (Hook) PreToolUse(ctx context.Context, harness *string) { answer(ctx, "PreToolUse", harness) }

// SessionEnd is an agent hook, not a command to type: the agent runs it at its SessionEnd event, payload on stdin, answer on stdout. -harness names the agent (claude by default; every other is a row of docs/harnesses.md); hook:replay tries a payload by hand.
func (Hook) SessionEnd(ctx context.Context, harness *string) { answer(ctx, "SessionEnd", harness) }

// SessionStart is an agent hook, not a command to type: the agent runs it at its SessionStart event, payload on stdin, answer on stdout. -harness names the agent (claude by default; every other is a row of docs/harnesses.md); hook:replay tries a payload by hand.
func (Hook) SessionStart(ctx context.Context, harness *string) { answer(ctx, "SessionStart", harness) }

// Setup is an agent hook, not a command to type: the agent runs it at its Setup event, payload on stdin, answer on stdout. -harness names the agent (claude by default; every other is a row of docs/harnesses.md); hook:replay tries a payload by hand.
func (Hook) Setup(ctx context.Context, harness *string) { answer(ctx, "Setup", harness) }

// Stop is an agent hook, not a command to type: the agent runs it at its Stop event, payload on stdin, answer on stdout. -harness names the agent (claude by default; every other is a row of docs/harnesses.md); hook:replay tries a payload by hand.
func (Hook) Stop(ctx context.Context, harness *string) { answer(ctx, "Stop", harness) }

// StopFailure is an agent hook, not a command to type: the agent runs it at its StopFailure event, payload on stdin, answer on stdout. -harness names the agent (claude by default; every other is a row of docs/harnesses.md); hook:replay tries a payload by hand.
func (Hook) StopFailure(ctx context.Context, harness *string) { answer(ctx, "StopFailure", harness) }

// SubagentStart is an agent hook, not a command to type: the agent runs it at its SubagentStart event, payload on stdin, answer on stdout. -harness names the agent (claude by default; every other is a row of docs/harnesses.md); hook:replay tries a payload by hand.
func (Hook) SubagentStart(ctx context.Context, harness *string) {
	answer(ctx, "SubagentStart", harness)
}

// SubagentStop is an agent hook, not a command to type: the agent runs it at its SubagentStop event, payload on stdin, answer on stdout. -harness names the agent (claude by default; every other is a row of docs/harnesses.md); hook:replay tries a payload by hand.
func (Hook) SubagentStop(ctx context.Context, harness *string) { answer(ctx, "SubagentStop", harness) }

// TaskCompleted is an agent hook, not a command to type: the agent runs it at its TaskCompleted event, payload on stdin, answer on stdout. -harness names the agent (claude by default; every other is a row of docs/harnesses.md); hook:replay tries a payload by hand.
func (Hook) TaskCompleted(ctx context.Context, harness *string) {
	answer(ctx, "TaskCompleted", harness)
}

// TaskCreated is an agent hook, not a command to type: the agent runs it at its TaskCreated event, payload on stdin, answer on stdout. -harness names the agent (claude by default; every other is a row of docs/harnesses.md); hook:replay tries a payload by hand.
func (Hook) TaskCreated(ctx context.Context, harness *string) { answer(ctx, "TaskCreated", harness) }

// TeammateIdle is an agent hook, not a command to type: the agent runs it at its TeammateIdle event, payload on stdin, answer on stdout. -harness names the agent (claude by default; every other is a row of docs/harnesses.md); hook:replay tries a payload by hand.
func (Hook) TeammateIdle(ctx context.Context, harness *string) { answer(ctx, "TeammateIdle", harness) }

// UserPromptExpansion is an agent hook, not a command to type: the agent runs it at its UserPromptExpansion event, payload on stdin, answer on stdout. -harness names the agent (claude by default; every other is a row of docs/harnesses.md); hook:replay tries a payload by hand.
func (Hook) UserPromptExpansion(ctx context.Context, harness *string) {
	answer(ctx, "UserPromptExpansion", harness)
}

// UserPromptSubmit is an agent hook, not a command to type: the agent runs it at its UserPromptSubmit event, payload on stdin, answer on stdout. -harness names the agent (claude by default; every other is a row of docs/harnesses.md); hook:replay tries a payload by hand.
func (Hook) UserPromptSubmit(ctx context.Context, harness *string) {
	answer(ctx, "UserPromptSubmit", harness)
}

// WorktreeCreate is an agent hook, not a command to type: the agent runs it at its WorktreeCreate event, payload on stdin, answer on stdout. -harness names the agent (claude by default; every other is a row of docs/harnesses.md); hook:replay tries a payload by hand.
func (Hook) WorktreeCreate(ctx context.Context, harness *string) {
	answer(ctx, "WorktreeCreate", harness)
}

// WorktreeRemove is an agent hook, not a command to type: the agent runs it at its WorktreeRemove event, payload on stdin, answer on stdout. -harness names the agent (claude by default; every other is a row of docs/harnesses.md); hook:replay tries a payload by hand.
func (Hook) WorktreeRemove(ctx context.Context, harness *string) {
	answer(ctx, "WorktreeRemove", harness)
}

// PreModelSwitch is an agent hook, not a command to type: the agent runs it at its PreModelSwitch event, payload on stdin, answer on stdout. -harness names the agent (claude by default; every other is a row of docs/harnesses.md); hook:replay tries a payload by hand.
func (Hook) PreModelSwitch(ctx context.Context, harness *string) {
	answer(ctx, "PreModelSwitch", harness)
}

// PostModelSwitch is an agent hook, not a command to type: the agent runs it at its PostModelSwitch event, payload on stdin, answer on stdout. -harness names the agent (claude by default; every other is a row of docs/harnesses.md); hook:replay tries a payload by hand.
func (Hook) PostModelSwitch(ctx context.Context, harness *string) {
	answer(ctx, "PostModelSwitch", harness)
}
