// One target per event of the table in pkg/hook/event.go; TestEveryEventHasATarget keeps them in step.

package targets

import "context"

// ConfigChange answers Claude Code's ConfigChange event: the payload on stdin, the answer on stdout.
func (Hook) ConfigChange(ctx context.Context) { answer(ctx, "ConfigChange") }

// CwdChanged answers Claude Code's CwdChanged event: the payload on stdin, the answer on stdout.
func (Hook) CwdChanged(ctx context.Context) { answer(ctx, "CwdChanged") }

// DirectoryAdded answers Claude Code's DirectoryAdded event: the payload on stdin, the answer on stdout.
func (Hook) DirectoryAdded(ctx context.Context) { answer(ctx, "DirectoryAdded") }

// Elicitation answers Claude Code's Elicitation event: the payload on stdin, the answer on stdout.
func (Hook) Elicitation(ctx context.Context) { answer(ctx, "Elicitation") }

// ElicitationResult answers Claude Code's ElicitationResult event: the payload on stdin, the answer on stdout.
func (Hook) ElicitationResult(ctx context.Context) { answer(ctx, "ElicitationResult") }

// FileChanged answers Claude Code's FileChanged event: the payload on stdin, the answer on stdout.
func (Hook) FileChanged(ctx context.Context) { answer(ctx, "FileChanged") }

// InstructionsLoaded answers Claude Code's InstructionsLoaded event: the payload on stdin, the answer on stdout.
func (Hook) InstructionsLoaded(ctx context.Context) { answer(ctx, "InstructionsLoaded") }

// MessageDisplay answers Claude Code's MessageDisplay event: the payload on stdin, the answer on stdout.
func (Hook) MessageDisplay(ctx context.Context) { answer(ctx, "MessageDisplay") }

// Notification answers Claude Code's Notification event: the payload on stdin, the answer on stdout.
func (Hook) Notification(ctx context.Context) { answer(ctx, "Notification") }

// PermissionDenied answers Claude Code's PermissionDenied event: the payload on stdin, the answer on stdout.
func (Hook) PermissionDenied(ctx context.Context) { answer(ctx, "PermissionDenied") }

// PermissionRequest answers Claude Code's PermissionRequest event: the payload on stdin, the answer on stdout.
func (Hook) PermissionRequest(ctx context.Context) { answer(ctx, "PermissionRequest") }

// PostCompact answers Claude Code's PostCompact event: the payload on stdin, the answer on stdout.
func (Hook) PostCompact(ctx context.Context) { answer(ctx, "PostCompact") }

// PostToolBatch answers Claude Code's PostToolBatch event: the payload on stdin, the answer on stdout.
func (Hook) PostToolBatch(ctx context.Context) { answer(ctx, "PostToolBatch") }

// PostToolUse answers Claude Code's PostToolUse event: the payload on stdin, the answer on stdout.
func (Hook) PostToolUse(ctx context.Context) { answer(ctx, "PostToolUse") }

// PostToolUseFailure answers Claude Code's PostToolUseFailure event: the payload on stdin, the answer on stdout.
func (Hook) PostToolUseFailure(ctx context.Context) { answer(ctx, "PostToolUseFailure") }

// PreCompact answers Claude Code's PreCompact event: the payload on stdin, the answer on stdout.
func (Hook) PreCompact(ctx context.Context) { answer(ctx, "PreCompact") }

// PreToolUse answers Claude Code's PreToolUse event: the payload on stdin, the answer on stdout.
func (Hook) PreToolUse(ctx context.Context) { answer(ctx, "PreToolUse") }

// SessionEnd answers Claude Code's SessionEnd event: the payload on stdin, the answer on stdout.
func (Hook) SessionEnd(ctx context.Context) { answer(ctx, "SessionEnd") }

// SessionStart answers Claude Code's SessionStart event: the payload on stdin, the answer on stdout.
func (Hook) SessionStart(ctx context.Context) { answer(ctx, "SessionStart") }

// Setup answers Claude Code's Setup event: the payload on stdin, the answer on stdout.
func (Hook) Setup(ctx context.Context) { answer(ctx, "Setup") }

// Stop answers Claude Code's Stop event: the payload on stdin, the answer on stdout.
func (Hook) Stop(ctx context.Context) { answer(ctx, "Stop") }

// StopFailure answers Claude Code's StopFailure event: the payload on stdin, the answer on stdout.
func (Hook) StopFailure(ctx context.Context) { answer(ctx, "StopFailure") }

// SubagentStart answers Claude Code's SubagentStart event: the payload on stdin, the answer on stdout.
func (Hook) SubagentStart(ctx context.Context) { answer(ctx, "SubagentStart") }

// SubagentStop answers Claude Code's SubagentStop event: the payload on stdin, the answer on stdout.
func (Hook) SubagentStop(ctx context.Context) { answer(ctx, "SubagentStop") }

// TaskCompleted answers Claude Code's TaskCompleted event: the payload on stdin, the answer on stdout.
func (Hook) TaskCompleted(ctx context.Context) { answer(ctx, "TaskCompleted") }

// TaskCreated answers Claude Code's TaskCreated event: the payload on stdin, the answer on stdout.
func (Hook) TaskCreated(ctx context.Context) { answer(ctx, "TaskCreated") }

// TeammateIdle answers Claude Code's TeammateIdle event: the payload on stdin, the answer on stdout.
func (Hook) TeammateIdle(ctx context.Context) { answer(ctx, "TeammateIdle") }

// UserPromptExpansion answers Claude Code's UserPromptExpansion event: the payload on stdin, the answer on stdout.
func (Hook) UserPromptExpansion(ctx context.Context) { answer(ctx, "UserPromptExpansion") }

// UserPromptSubmit answers Claude Code's UserPromptSubmit event: the payload on stdin, the answer on stdout.
func (Hook) UserPromptSubmit(ctx context.Context) { answer(ctx, "UserPromptSubmit") }

// WorktreeCreate answers Claude Code's WorktreeCreate event: the payload on stdin, the answer on stdout.
func (Hook) WorktreeCreate(ctx context.Context) { answer(ctx, "WorktreeCreate") }

// WorktreeRemove answers Claude Code's WorktreeRemove event: the payload on stdin, the answer on stdout.
func (Hook) WorktreeRemove(ctx context.Context) { answer(ctx, "WorktreeRemove") }
