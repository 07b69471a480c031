package hook

import "strings"

// Protocol is the coding agent's side of the hook protocol: how its
// payload maps onto the common one (Claude Code's) and how an answer
// renders in its dialect. Handlers never see the difference. The values
// live in pkg/harness, one file per agent; the nil Protocol is Claude Code,
// so a Claude Code hook run builds no tables at all.
type Protocol interface {
	// HarnessName is what -harness= names: claude, codex, copilot,
	// cursor, gemini, opencode.
	HarnessName() string
	// Normalize maps the harness's payload onto the common shape, with
	// hook_event_name set to the common event. It never fails on bad
	// input: the dispatcher reports what is wrong with it.
	Normalize(data []byte, common string) ([]byte, error)
	// Render writes a merged result in the harness's dialect.
	Render(ev Event, r Result) Answer
	// NamesEvent reports whether sent, the event name a payload carries
	// as the harness wrote it, is one of the harness's names for the
	// common event (in any letter case: the harnesses differ in casing).
	NamesEvent(sent, common string) bool
	// WorktreeCommand is the harness's own way to start a session in a
	// new worktree ("claude --worktree <name>"), or "" when it has none;
	// the reasons handlers give name it.
	WorktreeCommand() string
}

// claudeCode is the default harness.
type claudeCode struct{}

func (claudeCode) HarnessName() string                             { return "claude" }
func (claudeCode) Normalize(data []byte, _ string) ([]byte, error) { return data, nil }
func (claudeCode) Render(ev Event, r Result) Answer                { return Render(ev, r, Claude) }
func (claudeCode) WorktreeCommand() string                         { return "claude --worktree <name>" }

// ClaudeCode is Claude Code, the harness whose shapes are the common ones.
var ClaudeCode Protocol = claudeCode{}

// sameEvent reports whether the event name a payload carries names ev.
func sameEvent(h Protocol, sent string, ev Event) bool {
	return strings.EqualFold(sent, ev.Name) || h.NamesEvent(sent, ev.Name)
}

// HarnessName is the name of h, "claude" for nil.
func HarnessName(h Protocol) string {
	if h == nil {
		return "claude"
	}
	return h.HarnessName()
}

// MarshalAnswer encodes top (when not empty) as the answer's stdout; an
// encoding failure (only a RawMessage a handler built by hand can fail)
// becomes exit 1 with the reason on stderr. The harness dialects use it.
func MarshalAnswer(ev Event, top map[string]any, a Answer) Answer {
	if len(top) == 0 {
		return a
	}
	out, err := encode(top)
	if err != nil {
		a.Code = 1
		a.Stderr = append(a.Stderr, "magehook: "+ev.Name+": cannot encode the answer: "+err.Error())
		return a
	}
	a.Stdout = out
	return a
}

// ContextOf joins a result's plain text and context.
func ContextOf(r Result) string {
	switch {
	case r.Text == "":
		return r.Context
	case r.Context == "":
		return r.Text
	}
	return r.Text + "\n\n" + r.Context
}

// ReasonOrDefault is the reason given, or a default naming the event.
func ReasonOrDefault(reason string, ev Event) string { return reasonOrDefault(reason, ev) }

func (claudeCode) NamesEvent(sent, common string) bool { return strings.EqualFold(sent, common) }
