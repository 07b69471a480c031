// Package decisionlog records the user's answers to the agent's questions.
//
// # PURPOSE
//
// Every answer a user gives to AskUserQuestion is a decision about the
// project: which library, which trade-off, which name. Kept as data, the
// stream can later be distilled into written instructions so the agent
// stops asking (seed 002, decision log).
//
// # HOW IT WORKS
//
//  1. PostToolUse on AskUserQuestion fires once the user has answered.
//  2. The questions (text, header, option labels, multiSelect) come from
//     tool_input; the answers from tool_response's "answers" object, else
//     tool_input's.
//  3. One JSON line (schema "magehook-decision/1") is appended to
//     <state.dir>/decisions.jsonl with one O_APPEND write, under a lock; the
//     file rotates at 5 MB, ten kept. Secret-looking values are redacted.
//
// Each line: {"schema": "magehook-decision/1", "time", "session",
// "tool_use_id", "questions": [{"question", "header", "options": [label],
// "multiSelect"}], "answers": {question: answer}}. The JSON Schema is
// schemas/decision-log.schema.json (the source of truth); the tests
// validate testdata/decisions/sample.jsonl and the handler's own lines
// against it.
//
// # ROTATION
//
// Before a line would take decisions.jsonl past 5 MB, the file is rotated
// under the log's lock: decisions.jsonl.9 becomes .10 (the old .10 is
// dropped), ..., decisions.jsonl.1 becomes .2, decisions.jsonl becomes .1,
// and the line starts a new decisions.jsonl. So the newest decisions are
// in decisions.jsonl and the oldest kept in decisions.jsonl.10; read them
// newest last with: cat decisions.jsonl.{10..1} decisions.jsonl. No line
// is lost to a rotation, even with parallel hooks. The log is runtime
// state: keep state.dir out of git; what you distil from it is what gets
// committed.
//
// # EXIT CODES
//
//	0  always, with nothing on stdout: an observer never stops a session
package decisionlog

import (
	"encoding/json"
	"path/filepath"
	"time"

	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/jsonlog"
	"github.com/magehook/magehook/pkg/redact"
)

// Handler is the catalogue entry.
var Handler = hook.Handler{
	Name:    "decisionlog",
	Purpose: "append the user's answers to AskUserQuestion to the state dir's decision log",
	Events:  []string{"PostToolUse"},
	Matcher: "AskUserQuestion",
	Policy:  hook.Observer,
	Run:     run,
}

// Schema versions the decision log's lines.
const Schema = "magehook-decision/1"

// Question is one question as logged.
type Question struct {
	Question    string   `json:"question"`
	Header      string   `json:"header,omitempty"`
	Options     []string `json:"options,omitempty"`
	MultiSelect bool     `json:"multiSelect,omitempty"`
}

// Record is one line of the decision log.
type Record struct {
	Schema    string            `json:"schema"`
	Time      string            `json:"time"`
	Session   string            `json:"session"`
	ToolUseID string            `json:"tool_use_id,omitempty"`
	Questions []Question        `json:"questions"`
	Answers   map[string]string `json:"answers"`
}

type askInput struct {
	Questions []struct {
		Question string `json:"question"`
		Header   string `json:"header"`
		Options  []struct {
			Label string `json:"label"`
		} `json:"options"`
		MultiSelect bool `json:"multiSelect"`
	} `json:"questions"`
	Answers map[string]any `json:"answers"`
}

func run(c *hook.Call) (hook.Result, error) {
	p := c.Payload
	var in, out askInput
	json.Unmarshal(p.ToolInput, &in)
	json.Unmarshal(p.ToolResponse, &out)
	answers := out.Answers
	if len(answers) == 0 {
		answers = in.Answers
	}
	if len(in.Questions) == 0 {
		in.Questions = out.Questions
	}
	rec := Record{Schema: Schema, Time: c.Now().UTC().Format(time.RFC3339), Session: p.SessionID, ToolUseID: p.ToolUseID,
		Questions: []Question{}, Answers: map[string]string{}}
	for _, q := range in.Questions {
		lq := Question{Question: redact.String(q.Question), Header: q.Header, MultiSelect: q.MultiSelect}
		for _, o := range q.Options {
			lq.Options = append(lq.Options, o.Label)
		}
		rec.Questions = append(rec.Questions, lq)
	}
	for q, a := range answers {
		text, ok := a.(string)
		if !ok {
			b, _ := json.Marshal(a)
			text = string(b)
		}
		rec.Answers[redact.String(q)] = redact.Head(text, 2000)
	}
	state, err := c.StateDir()
	if err != nil {
		return hook.Result{}, err
	}
	log := jsonlog.Log{Path: filepath.Join(state, "decisions.jsonl"), Root: state, MaxBytes: 5 << 20, Keep: 10}
	return hook.Result{}, log.Append(rec)
}
