// Package payload decodes the JSON object a coding-agent harness writes to a
// hook's standard input.
//
// Every event's input is treated as an open structure: the fields below are
// the ones the Claude Code contract documents (see
// ../shared/reference/claude-code-hooks.md §2 and §4), any of them may be
// absent, and unknown fields are ignored by the typed view but kept in Raw,
// so a field a newer harness adds never breaks decoding. Fields whose JSON
// type varies between events or harness versions (tool_input, tool_response,
// model, ...) are kept as raw JSON and read through typed accessors.
package payload

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
)

// DefaultCap is the largest payload Decode reads by default: 64 MiB.
const DefaultCap = 64 << 20

// Payload is the typed view of one hook payload.
type Payload struct {
	// Common fields.
	SessionID      string          `json:"session_id"`
	TranscriptPath string          `json:"transcript_path"`
	CWD            string          `json:"cwd"`
	HookEventName  string          `json:"hook_event_name"`
	PermissionMode string          `json:"permission_mode"`
	PromptID       string          `json:"prompt_id"`
	AgentID        string          `json:"agent_id"`
	AgentType      string          `json:"agent_type"`
	Effort         json.RawMessage `json:"effort"`
	Model          json.RawMessage `json:"model"`

	// Tool events (PreToolUse, PermissionRequest, PermissionDenied,
	// PostToolUse, PostToolUseFailure).
	ToolName     string          `json:"tool_name"`
	ToolInput    json.RawMessage `json:"tool_input"`
	ToolResponse json.RawMessage `json:"tool_response"`
	// ToolOutput is the legacy PostToolUse result some older harnesses sent;
	// read it only as a fallback to ToolResponse (see Succeeded).
	ToolOutput            json.RawMessage `json:"tool_output"`
	ToolUseID             string          `json:"tool_use_id"`
	PermissionSuggestions json.RawMessage `json:"permission_suggestions"`
	DurationMS            json.RawMessage `json:"duration_ms"`
	// Error is PostToolUseFailure's error text and StopFailure's error kind.
	Error       string          `json:"error"`
	IsInterrupt bool            `json:"is_interrupt"`
	ToolCalls   json.RawMessage `json:"tool_calls"`

	// Session, prompt and stop events.
	Source               string          `json:"source"`
	Reason               string          `json:"reason"`
	Prompt               string          `json:"prompt"`
	StopHookActive       bool            `json:"stop_hook_active"`
	LastAssistantMessage string          `json:"last_assistant_message"`
	AgentTranscriptPath  string          `json:"agent_transcript_path"`
	BackgroundTasks      json.RawMessage `json:"background_tasks"`
	Trigger              string          `json:"trigger"`
	CustomInstructions   string          `json:"custom_instructions"`
	CompactSummary       string          `json:"compact_summary"`
	CommandName          string          `json:"command_name"`
	CommandArgs          string          `json:"command_args"`
	ExpansionType        string          `json:"expansion_type"`

	// SessionStart on resume (Claude Code 2.1.328).
	SecondsSinceLastResponse json.RawMessage `json:"seconds_since_last_response"`
	PromptCacheLikelyExpired bool            `json:"prompt_cache_likely_expired"`
	// ContextTokens is the conversation's size (SessionStart on resume,
	// PreModelSwitch, PostModelSwitch).
	ContextTokens json.RawMessage `json:"context_tokens"`
	// SessionCrons lists the session's scheduled prompts (Stop, SubagentStop).
	SessionCrons json.RawMessage `json:"session_crons"`
	// CommandSource says where a slash command is defined
	// (UserPromptExpansion: projectSettings, ...).
	CommandSource string `json:"command_source"`
	// MemoryType is the kind of instructions file (InstructionsLoaded:
	// Project, User, ...).
	MemoryType string `json:"memory_type"`

	// Model switches (PreModelSwitch, PostModelSwitch); to_model is the
	// matcher. The cost and cache fields (pricing, cache_ttl,
	// estimated_cache_write_usd, prompt_cache_warm) are left untyped: see
	// Untyped.
	FromModel      string `json:"from_model"`
	ToModel        string `json:"to_model"`
	RequestedModel string `json:"requested_model"`

	// MessageDisplay: one piece of an assistant message as it is shown.
	MessageID string          `json:"message_id"`
	TurnID    string          `json:"turn_id"`
	Index     json.RawMessage `json:"index"`
	Delta     json.RawMessage `json:"delta"`
	Final     bool            `json:"final"`

	// Notification.
	NotificationType string `json:"notification_type"`
	Message          string `json:"message"`
	Title            string `json:"title"`

	// Worktree events: WorktreeCreate sends name, WorktreeRemove worktree_path.
	Name         string `json:"name"`
	WorktreePath string `json:"worktree_path"`

	// Files and directories.
	FilePath   string `json:"file_path"`
	Event      string `json:"event"`
	LoadReason string `json:"load_reason"`
	OldCWD     string `json:"old_cwd"`
	NewCWD     string `json:"new_cwd"`
	Directory  string `json:"directory"`

	// Tasks and teams.
	TaskID          string `json:"task_id"`
	TaskSubject     string `json:"task_subject"`
	TaskDescription string `json:"task_description"`
	TeammateName    string `json:"teammate_name"`

	// MCP elicitation.
	MCPServerName string          `json:"mcp_server_name"`
	Action        string          `json:"action"`
	Content       json.RawMessage `json:"content"`

	// Raw is the whole payload as read, unknown fields included.
	Raw json.RawMessage `json:"-"`

	// succeeded remembers Succeeded's answer for the tool_response it read:
	// every PostToolUse handler asks, and the response may be megabytes.
	succeeded struct {
		resp []byte
		ok   bool
	}
	// input is tool_input split into its members, for InputString.
	input struct {
		of      []byte
		split   bool
		members []rawMember
	}
}

// Untyped returns the top-level fields a harness sends that Payload
// deliberately leaves to Raw and Field: cost and cache figures no handler
// acts on, and Qwen Code's bookkeeping (the call's time and id, the
// context's size, its scheduled jobs, the prompt as submitted). The live
// suite's drift test fails on a captured field that is neither typed nor
// listed here.
func Untyped() []string {
	return []string{"pricing", "cache_ttl", "estimated_cache_write_usd", "prompt_cache_warm",
		"timestamp", "tool_call_id", "context_limit", "context_usage", "crons", "input_tokens", "submitted_prompt",
		// Factory Droid's bookkeeping (0.225.2): SessionEnd's message and
		// time counts, Stop's, SessionStart's env file.
		"message_count", "session_duration_ms", "elapsed_time", "tool_execution_count", "CLAUDE_ENV_FILE"}
}

// CapEnv names the environment variable that sets the payload size limit
// in bytes (default DefaultCap).
const CapEnv = "MAGEHOOK_PAYLOAD_CAP"

// Errors Decode returns; each is a payload the hook cannot act on.
var (
	ErrTooLarge  = errors.New("payload is larger than the cap")
	ErrEmpty     = errors.New("payload is empty")
	ErrNotJSON   = errors.New("payload is not JSON")
	ErrNotObject = errors.New("payload is not a JSON object")
)

// Decode reads r to EOF, at most limit bytes (DefaultCap when limit <= 0),
// and decodes one JSON object. The error wraps one of the Err values above,
// or describes a field with the wrong JSON type.
func Decode(r io.Reader, limit int64) (*Payload, error) {
	data, err := ReadAll(r, limit)
	if err != nil {
		return nil, err
	}
	return Parse(data)
}

// ReadAll reads r to EOF, at most limit bytes (DefaultCap when limit <= 0);
// more is ErrTooLarge.
func ReadAll(r io.Reader, limit int64) ([]byte, error) {
	if limit <= 0 {
		limit = DefaultCap
	}
	data, err := readAll(r, limit+1)
	if err != nil {
		return nil, fmt.Errorf("read payload: %w", err)
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%w (%d bytes); set %s=<bytes> to raise it", ErrTooLarge, limit, CapEnv)
	}
	return data, nil
}

// readAll reads to EOF or max bytes. A typical payload fits the first
// 64 KB read; a large one is read in chunks that are joined once, so the
// peak memory is about twice the payload, where io.ReadAll's doubling
// buffer peaks near three times (and copies a dozen times on the way).
func readAll(r io.Reader, max int64) ([]byte, error) {
	var chunks [][]byte
	total := int64(0)
	size := int64(64 << 10)
	if f, ok := r.(*os.File); ok {
		// A hook's stdin: a large payload is read into memory mapped for
		// it, where it is neither copied nor joined (see readMapped).
		first := make([]byte, min(size, max))
		n, err := io.ReadFull(f, first)
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			return first[:n], nil
		}
		if err != nil {
			return nil, err
		}
		if data, ok, err := readMapped(f, first, max); ok {
			return data, err
		}
		chunks, total = append(chunks, first), int64(n)
	}
	for total < max {
		buf := make([]byte, min(size, max-total))
		n, err := io.ReadFull(r, buf)
		chunks = append(chunks, buf[:n])
		total += int64(n)
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			break
		}
		if err != nil {
			return nil, err
		}
		size = min(size*2, 4<<20)
	}
	if len(chunks) == 1 {
		return chunks[0], nil
	}
	out := make([]byte, 0, total)
	for _, c := range chunks {
		out = append(out, c...)
	}
	return out, nil
}

// Parse decodes one payload held in memory. The payload's raw fields (Raw,
// ToolInput, ...) share data's memory rather than copying it.
func Parse(data []byte) (*Payload, error) {
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 {
		return nil, ErrEmpty
	}
	if trimmed[0] != '{' {
		if err := validValue(trimmed); err != nil {
			return nil, fmt.Errorf("%w: %v", ErrNotJSON, err)
		}
		return nil, ErrNotObject
	}
	p := &Payload{Raw: trimmed}
	var ferr error
	err := splitObject(trimmed, func(key, raw []byte) {
		if ferr == nil {
			ferr = p.assign(key, raw)
		}
	})
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNotJSON, err)
	}
	if ferr != nil {
		return nil, ferr
	}
	return p, nil
}

// Field returns the raw JSON of a top-level field, known or not, or nil.
func (p *Payload) Field(name string) json.RawMessage {
	return member(p.Raw, name)
}

// member returns the raw value of an object's member (the last one of that
// name, as encoding/json would), or nil.
func member(object []byte, name string) json.RawMessage {
	var found json.RawMessage
	splitObject(object, func(key, raw []byte) {
		var k string
		if decodeString(key, &k) == nil && k == name {
			found = raw
		}
	})
	return found
}

// EventName returns the event name a payload names at its top level
// (hook_event_name, or Copilot's hookEventName), before any mapping onto
// Claude Code's shape; "" when it names none or is not an object.
func EventName(data []byte) string {
	data = bytes.TrimSpace(data)
	if len(data) == 0 || data[0] != '{' {
		return ""
	}
	for _, key := range []string{"hook_event_name", "hookEventName"} {
		if raw := member(data, key); raw != nil {
			var s string
			if decodeString(raw, &s) == nil {
				return s
			}
		}
	}
	return ""
}
