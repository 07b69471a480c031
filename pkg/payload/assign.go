package payload

import (
	"bytes"
	"encoding/json"
	"fmt"
	"unicode/utf8"
)

// assign sets the typed field of one top-level member of the object.
// It is written out by hand rather than left to json.Unmarshal into the
// struct: the reflection cache encoding/json builds for a struct of this
// size costs more at start-up than the rest of a hook run, and the hook
// binary starts on every tool call. TestAssignMatchesStructTags keeps the
// keys here equal to the struct tags.
func (p *Payload) assign(rawKey, raw []byte) error {
	var key string
	if err := decodeString(rawKey, &key); err != nil {
		return err
	}
	if string(raw) == "null" {
		return nil
	}
	if dst := p.stringField(key); dst != nil {
		if err := decodeString(raw, dst); err != nil {
			return typeError(key, raw, "string")
		}
	} else if dst := p.boolField(key); dst != nil {
		switch string(raw) {
		case "true":
			*dst = true
		case "false":
		default:
			return typeError(key, raw, "boolean")
		}
	} else if dst := p.rawField(key); dst != nil {
		*dst = raw
	}
	return nil
}

func (p *Payload) stringField(key string) *string {
	switch key {
	case "session_id":
		return &p.SessionID
	case "transcript_path":
		return &p.TranscriptPath
	case "cwd":
		return &p.CWD
	case "hook_event_name":
		return &p.HookEventName
	case "permission_mode":
		return &p.PermissionMode
	case "prompt_id":
		return &p.PromptID
	case "agent_id":
		return &p.AgentID
	case "agent_type":
		return &p.AgentType
	case "tool_name":
		return &p.ToolName
	case "tool_use_id":
		return &p.ToolUseID
	case "error":
		return &p.Error
	case "source":
		return &p.Source
	case "reason":
		return &p.Reason
	case "prompt":
		return &p.Prompt
	case "last_assistant_message":
		return &p.LastAssistantMessage
	case "agent_transcript_path":
		return &p.AgentTranscriptPath
	case "trigger":
		return &p.Trigger
	case "custom_instructions":
		return &p.CustomInstructions
	case "compact_summary":
		return &p.CompactSummary
	case "command_name":
		return &p.CommandName
	case "command_args":
		return &p.CommandArgs
	case "expansion_type":
		return &p.ExpansionType
	case "notification_type":
		return &p.NotificationType
	case "message":
		return &p.Message
	case "title":
		return &p.Title
	case "name":
		return &p.Name
	case "worktree_path":
		return &p.WorktreePath
	case "file_path":
		return &p.FilePath
	case "event":
		return &p.Event
	case "load_reason":
		return &p.LoadReason
	case "old_cwd":
		return &p.OldCWD
	case "new_cwd":
		return &p.NewCWD
	case "directory":
		return &p.Directory
	case "task_id":
		return &p.TaskID
	case "task_subject":
		return &p.TaskSubject
	case "task_description":
		return &p.TaskDescription
	case "teammate_name":
		return &p.TeammateName
	case "mcp_server_name":
		return &p.MCPServerName
	case "action":
		return &p.Action
	case "command_source":
		return &p.CommandSource
	case "memory_type":
		return &p.MemoryType
	case "from_model":
		return &p.FromModel
	case "to_model":
		return &p.ToModel
	case "requested_model":
		return &p.RequestedModel
	case "message_id":
		return &p.MessageID
	case "turn_id":
		return &p.TurnID
	}
	return nil
}

func (p *Payload) boolField(key string) *bool {
	switch key {
	case "is_interrupt":
		return &p.IsInterrupt
	case "stop_hook_active":
		return &p.StopHookActive
	case "prompt_cache_likely_expired":
		return &p.PromptCacheLikelyExpired
	case "final":
		return &p.Final
	}
	return nil
}

func (p *Payload) rawField(key string) *json.RawMessage {
	switch key {
	case "effort":
		return &p.Effort
	case "model":
		return &p.Model
	case "tool_input":
		return &p.ToolInput
	case "tool_response":
		return &p.ToolResponse
	case "tool_output":
		return &p.ToolOutput
	case "permission_suggestions":
		return &p.PermissionSuggestions
	case "duration_ms":
		return &p.DurationMS
	case "tool_calls":
		return &p.ToolCalls
	case "background_tasks":
		return &p.BackgroundTasks
	case "content":
		return &p.Content
	case "seconds_since_last_response":
		return &p.SecondsSinceLastResponse
	case "context_tokens":
		return &p.ContextTokens
	case "session_crons":
		return &p.SessionCrons
	case "index":
		return &p.Index
	case "delta":
		return &p.Delta
	}
	return nil
}

// decodeString decodes a JSON string without encoding/json, whose
// Unmarshal scans the text twice and copies it through reflection.
func decodeString(raw json.RawMessage, dst *string) error {
	if len(raw) < 2 || raw[0] != '"' {
		return fmt.Errorf("not a string")
	}
	if bytes.IndexByte(raw, '\\') < 0 && utf8.Valid(raw) {
		*dst = string(raw[1 : len(raw)-1])
		return nil
	}
	v, err := unquote(bytes.TrimRight(raw, " \t\r\n"))
	if err != nil {
		return json.Unmarshal(raw, dst) // for encoding/json's message
	}
	*dst = v
	return nil
}

func typeError(key string, raw json.RawMessage, want string) error {
	got := "value"
	switch raw[0] {
	case '{':
		got = "object"
	case '[':
		got = "array"
	case '"':
		got = "string"
	case 't', 'f':
		got = "boolean"
	default:
		got = "number"
	}
	return fmt.Errorf("payload field %s is a JSON %s, not a %s", key, got, want)
}
