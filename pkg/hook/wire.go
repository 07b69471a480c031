package hook

// Wire names of the output protocol. Every JSON key a hook writes to stdout is
// spelled here and nowhere else, so a contract change is a one-file edit.
const (
	wireContinue          = "continue"
	wireStopReason        = "stopReason"
	wireSystemMessage     = "systemMessage"
	wireDecision          = "decision"
	wireReason            = "reason"
	wireHookSpecific      = "hookSpecificOutput"
	wireHookEventName     = "hookEventName"
	wireAdditionalContext = "additionalContext"

	wirePermissionDecision       = "permissionDecision"
	wirePermissionDecisionReason = "permissionDecisionReason"
	wireUpdatedInput             = "updatedInput"
	wireBehavior                 = "behavior"
	wireMessage                  = "message"
	wireRetry                    = "retry"
	wireUpdatedToolOutput        = "updatedToolOutput"
	wireSessionTitle             = "sessionTitle"
	wireWatchPaths               = "watchPaths"
	wireDisplayContent           = "displayContent"
	wireInterrupt                = "interrupt"
	wireUpdatedPermissions       = "updatedPermissions"
	wireInitialUserMessage       = "initialUserMessage"
	wireReloadSkills             = "reloadSkills"
	wireSuppressOriginalPrompt   = "suppressOriginalPrompt"
	wireAction                   = "action"
	wireContent                  = "content"
	wireTerminalSequence         = "terminalSequence"

	// The only value of the top-level decision field.
	valueBlock = "block"
)
