// Package stopreminder reminds the model, once per session that did work,
// to record what it learned before it stops.
//
// # PURPOSE
//
// What a session learned — a quirk of the build, a decision, the command
// that finally worked — is lost when it ends unless someone writes it
// down. This handler asks the model to do so (seed 002,
// session-summary-reminder), once, and only in sessions that changed
// something: a read-only question is not worth a summary.
//
// # HOW IT WORKS
//
//  1. PostToolUse on Edit, MultiEdit, Write and NotebookEdit, and on a Bash
//     call that Claude Code reports changed files (its tool_response's
//     bashEditDiff.changedFiles, the way edits are made in auto and bypass
//     modes), marks the session as having done work: an empty file
//     <state.dir>/stopreminder/<session>.worked, created once. A Bash call
//     without that report (a read, a build, another harness) is not work.
//  2. Stop fires when the main agent finishes a turn. In a session marked
//     as working and not yet reminded, the handler creates
//     <session>.reminded (exclusively, so parallel stops remind once) and
//     blocks the stop with the reminder as the reason: Claude Code hands it
//     to the model as its next instruction, the model records its notes,
//     and its next stop goes through. Sub-agents (SubagentStop) are not
//     reminded, and while stop_hook_active is true nothing blocks.
//  3. The reminder is stopreminder.text when set; otherwise it asks for
//     wiki:note on the session's page when the checkout has a learning
//     library (wiki.origin), or for the repository's notes files.
//
// # EXIT CODES
//
//	0  always: nothing, or the block decision with the reminder on stdout;
//	   as an observer, its own failure only reaches stderr
package stopreminder

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"

	"github.com/magehook/magehook/pkg/confined"
	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/jsonlog"
	"github.com/magehook/magehook/pkg/toolingrc"
)

// Handler is the catalogue entry.
var Handler = hook.Handler{
	Name:    "stopreminder",
	Purpose: "once per session that edited files, remind the model at its stop to record what it learned",
	Events:  []string{"PostToolUse", "Stop"},
	Matcher: "Edit|MultiEdit|Write|NotebookEdit|Bash",
	Policy:  hook.Observer,
	Run:     run,
}

// The default reminders, with and without a learning library.
const (
	WikiText = "Before you stop: record what this session learned that the next one should know (decisions and their reasons, quirks of the build or the tests, commands that worked). " +
		"Write it to a file and run `go tool mage wiki:note <page> <file>` with the session's page (named at the session's start); then stop."
	NotesText = "Before you stop: record what this session learned that the next one should know (decisions and their reasons, quirks of the build or the tests, commands that worked) " +
		"in the repository's notes or docs, then stop. If there is nothing worth keeping, say so and stop."
)

func run(c *hook.Call) (hook.Result, error) {
	p := c.Payload
	session, ok := confined.SessionName(p.SessionID)
	if !ok {
		return hook.Result{}, nil // no session to remember it by
	}
	state, err := c.StateDir()
	if err != nil {
		return hook.Result{}, err
	}
	dir := filepath.Join(state, "stopreminder")
	worked := filepath.Join(dir, session+".worked")
	if c.Event.Name == "PostToolUse" {
		if p.IsTool("Bash") && !changedFiles(p.ToolResponse) {
			return hook.Result{}, nil
		}
		if _, err := os.Lstat(worked); err == nil {
			return hook.Result{}, nil
		}
		// No write through a link the repository committed.
		root, err := confined.Open(state)
		if err != nil {
			return hook.Result{}, err
		}
		defer root.Close()
		f, err := root.OpenFile(filepath.Join("stopreminder", session+".worked"), os.O_WRONLY|os.O_CREATE, 0o600)
		if err != nil {
			return hook.Result{}, err
		}
		jsonlog.MarkSessions(root, "stopreminder") // one file per session: bounded with the logs
		return hook.Result{}, f.Close()
	}
	if p.StopHookActive {
		return hook.Result{}, nil
	}
	if _, err := os.Lstat(worked); err != nil {
		return hook.Result{}, nil
	}
	root, err := confined.Open(state)
	if err != nil {
		return hook.Result{}, err
	}
	defer root.Close()
	f, err := root.OpenFile(filepath.Join("stopreminder", session+".reminded"), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, os.ErrExist) {
		return hook.Result{}, nil
	}
	if err != nil {
		return hook.Result{}, err
	}
	f.Close()
	text, err := reminder(c.Config)
	if err != nil {
		return hook.Result{}, err
	}
	return hook.Deny(text), nil
}

// changedFiles reports a Bash tool_response whose bashEditDiff names at
// least one changed file.
func changedFiles(resp []byte) bool {
	if !bytes.Contains(resp, []byte(`"changedFiles"`)) {
		return false // the common case: one scan, no decoding
	}
	var r struct {
		BashEditDiff struct {
			ChangedFiles []string `json:"changedFiles"`
		} `json:"bashEditDiff"`
	}
	return json.Unmarshal(resp, &r) == nil && len(r.BashEditDiff.ChangedFiles) > 0
}

func reminder(cfg *toolingrc.Config) (string, error) {
	v, err := cfg.Get(toolingrc.KeyStopreminderText)
	if err != nil {
		return "", err
	}
	if v.String() != "" {
		return v.String(), nil
	}
	if w, err := cfg.Get(toolingrc.KeyWikiOrigin); err == nil && w.String() != "" {
		// wiki:note as the model types it in this checkout.
		return strings.Replace(WikiText, "go tool mage", (&hook.Call{Config: cfg}).Typed(), 1), nil
	}
	return NotesText, nil
}
