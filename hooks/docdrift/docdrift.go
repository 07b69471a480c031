// Package docdrift notices a commit that changed tooling but no document.
//
// # PURPOSE
//
// Documentation drifts one commit at a time: the build changes, the README
// still describes the old one. This handler looks at every real, successful
// git commit the agent makes (seed 002, doc-drift-warning): when the commit
// touched paths matching docdrift.watch but no Markdown file, it tells the
// model, which can then update the docs while it still remembers the change.
//
// # HOW IT WORKS
//
//  1. PostToolUse on Bash. The call must have succeeded (the PostToolUse
//     success test; a failing Bash arrives as PostToolUseFailure, which
//     this handler does not subscribe to), or come from Codex, whose
//     output string does not say (the reflog decides, step 3).
//  2. The command is analysed from its shell syntax tree (pkg/gitcmd, the
//     analysis branchguard uses): only a git commit the shell would run
//     counts — never the word in an echo, a message or a here-document. A
//     commit in a directory computed at run time is skipped.
//  3. For each repository committed to, one git log -g -1 --name-only reads
//     the reflog's newest entry and the files of its commit. It counts only
//     when it is a commit ("commit:", "commit (amend):", ...) made during
//     the call (not before duration_ms, or ten minutes, before now), so a
//     "nothing to commit" run never reports an older commit.
//  4. When a file of the commit matches a docdrift.watch glob (pkg/glob:
//     "magefiles/**", "*.go", "/go.mod") and none is Markdown (.md, .mdx,
//     .markdown), the answer names the commit and the files: as
//     additionalContext (an advisory, the default), or with docdrift.blocking
//     yes as a block decision, which Claude Code feeds back to the model as
//     an error it must act on. Without docdrift.watch nothing is checked.
//
// # EXIT CODES
//
//	0  always: no output, the advisory, or the block decision on stdout; as
//	   an observer, its own failure only reaches stderr
package docdrift

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/magehook/magehook/pkg/gitcmd"
	"github.com/magehook/magehook/pkg/gitrepo"
	"github.com/magehook/magehook/pkg/glob"
	"github.com/magehook/magehook/pkg/harness"
	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/proc"
	"github.com/magehook/magehook/pkg/toolingrc"
)

// Handler is the catalogue entry.
var Handler = hook.Handler{
	Name:    "docdrift",
	Purpose: "after a commit that touched docdrift.watch paths but no Markdown, tell the model (or block, docdrift.blocking yes)",
	Events:  []string{"PostToolUse"},
	Matcher: "Bash",
	Policy:  hook.Observer,
	Run:     run,
}

// Window is how far back a reflog entry may be when the payload has no
// duration_ms.
const Window = 10 * time.Minute

func run(c *hook.Call) (hook.Result, error) {
	watch, err := c.Config.Get(toolingrc.KeyDocdriftWatch)
	if err != nil || len(watch.Values) == 0 {
		return hook.Result{}, err
	}
	blocking, err := c.Config.Get(toolingrc.KeyDocdriftBlocking)
	if err != nil {
		return hook.Result{}, err
	}
	p := c.Payload
	if !p.Succeeded() && !unreported(c.Harness, p.ToolResponse) {
		return hook.Result{}, nil
	}
	command, ok := p.InputString("command")
	if !ok {
		return hook.Result{}, nil
	}
	a, err := gitcmd.Shared(command, gitcmd.HookOptions(p.WorkDir(c.Getenv("HOME")), c.Getenv("HOME"), c.Getenv, c.Budget.Until(), c.Budget.Limit()))
	if err != nil {
		return hook.Result{}, nil // a command the shell could not run committed nothing
	}
	since := c.Now().Add(-window(p.DurationMS))
	seen := map[string]bool{}
	var notes []string
	for _, cmd := range a.Commands {
		if !cmd.Runs("commit") {
			continue
		}
		dir, gitDir, dynamic := cmd.Git.Where()
		if dynamic != "" {
			continue
		}
		var repo gitrepo.Repo
		if gitDir != "" {
			repo, err = gitrepo.Open(dir, gitDir)
		} else {
			repo, err = gitrepo.Find(dir)
		}
		if err != nil || seen[repo.Root] {
			continue
		}
		seen[repo.Root] = true
		commit, files, err := lastCommit(repo, since)
		if err != nil {
			return hook.Result{}, err
		}
		if commit == "" {
			continue
		}
		if note := drift(watch.Values, commit, files); note != "" {
			notes = append(notes, note)
		}
	}
	if len(notes) == 0 {
		return hook.Result{}, nil
	}
	msg := strings.Join(notes, "\n")
	if blocking.String() == "yes" {
		return hook.Deny(msg), nil
	}
	return hook.Context(msg), nil
}

// unreported is a tool_response that says nothing about success (a
// harness's OpaqueResponse: Codex's output as a string): the reflog then
// decides whether a commit was made.
func unreported(agent string, resp []byte) bool {
	resp = bytes.TrimSpace(resp)
	return len(resp) > 0 && resp[0] == '"' && !bytes.HasPrefix(resp, []byte(`"Error`)) && harness.OpaqueResponseOf(agent)
}

func window(durationMS []byte) time.Duration {
	if ms, err := strconv.ParseFloat(strings.TrimSpace(string(durationMS)), 64); err == nil && ms >= 0 {
		return time.Duration(ms)*time.Millisecond + time.Minute
	}
	return Window
}

// lastCommit returns the commit HEAD's newest reflog entry made, and its
// files, when that entry is a commit newer than since.
func lastCommit(repo gitrepo.Repo, since time.Time) (string, []string, error) {
	raw, err := proc.Output(repo.Root, []string{"GIT_DIR=" + repo.GitDir, "GIT_WORK_TREE=" + repo.Root, "GIT_TERMINAL_PROMPT=0", "LC_ALL=C"}, "git", "log", "-g", "-1", "--date=unix", "--format=%h%x09%gd%x09%gs", "--name-only", "-z", "HEAD")
	if err != nil {
		return "", nil, nil // no reflog (a fresh clone, core.logAllRefUpdates off): nothing to tell
	}
	parts := strings.Split(strings.TrimRight(string(raw), "\n"), "\x00")
	head := strings.SplitN(parts[0], "\t", 3)
	if len(head) != 3 || !strings.HasPrefix(head[2], "commit") {
		return "", nil, nil
	}
	sel := head[1]
	ts, err := strconv.ParseInt(strings.TrimSuffix(sel[strings.LastIndexByte(sel, '{')+1:], "}"), 10, 64)
	if err != nil || time.Unix(ts, 0).Before(since) {
		return "", nil, nil
	}
	var files []string
	for _, f := range parts[1:] {
		if f = strings.TrimLeft(f, "\n"); f != "" {
			files = append(files, f)
		}
	}
	return head[0], files, nil
}

// drift is the note for a commit that matched the watch list and changed
// no Markdown, or "".
func drift(watch []string, commit string, files []string) string {
	var hit []string
	for _, f := range files {
		if IsDoc(f) {
			return ""
		}
		if glob.Any(watch, f) {
			hit = append(hit, f)
		}
	}
	if len(hit) == 0 {
		return ""
	}
	list := strings.Join(hit, ", ")
	if len(hit) > 8 {
		list = strings.Join(hit[:8], ", ") + fmt.Sprintf(" and %d more", len(hit)-8)
	}
	return fmt.Sprintf("docdrift: commit %s changed %s (docdrift.watch) but no Markdown file. "+
		"If the change alters what the README or docs/ describe (commands, options, behaviour), update them in a follow-up commit; if it does not, go on.", commit, list)
}

// IsDoc reports whether a path is a Markdown document.
func IsDoc(p string) bool {
	l := strings.ToLower(p)
	return strings.HasSuffix(l, ".md") || strings.HasSuffix(l, ".mdx") || strings.HasSuffix(l, ".markdown")
}
