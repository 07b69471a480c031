// Package notify tells a person when the agent stops or needs them.
//
// # PURPOSE
//
// A long agent run is watched by nobody; the person comes back when told
// to. This observer runs the repository's notifier command (seed 002,
// stop-notify) when the agent stops or Claude Code raises a notification
// (a permission prompt, an idle prompt), with a short summary on its
// stdin. It never delays or stops the session.
//
// # HOW IT WORKS
//
//  1. Stop and Notification (notify.events narrows them). The handler runs
//     after the others: a stop another hook blocks (the agent goes on) is
//     not announced.
//  2. notify.command is split into words (quotes group) and run as an
//     argument list, never through a shell, in the checkout root. Without
//     it nothing runs.
//  3. Its stdin is the summary: a title line ("Claude Code finished in
//     <dir>", or the notification's title), then the message (the last
//     assistant message, cut to 500 bytes, or the notification's text),
//     redacted. The environment adds MAGEHOOK_EVENT, MAGEHOOK_SESSION,
//     MAGEHOOK_TITLE and MAGEHOOK_NOTIFICATION_TYPE.
//  4. The command is detached (a session of its own; stdin a file, output
//     to <state.dir>/notify.log, which keeps the last run) and the hook
//     returns at once. It is bounded: after Bound (10 s) it and whatever it
//     started are killed. A command that cannot be found is reported on
//     stderr.
//
// # EXIT CODES
//
//	0  always, with nothing on stdout: an observer never stops a session
package notify

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/magehook/magehook/pkg/cmdline"
	"github.com/magehook/magehook/pkg/confined"
	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/payload"
	"github.com/magehook/magehook/pkg/proc"
	"github.com/magehook/magehook/pkg/redact"
	"github.com/magehook/magehook/pkg/toolingrc"
)

// Handler is the catalogue entry.
var Handler = hook.Handler{
	Name:    "notify",
	Purpose: "run notify.command (detached, bounded) with a summary on stdin when the agent stops or needs the user",
	Events:  []string{"Stop", "Notification"},
	Policy:  hook.Observer,
	Late:    true,
	Run:     run,
}

// Bound is how long the notifier may run.
var Bound = 10 * time.Second

func run(c *hook.Call) (hook.Result, error) {
	v, err := c.Config.Get(toolingrc.KeyNotifyCommand)
	if err != nil {
		return hook.Result{}, err
	}
	args := cmdline.Words(v.String())
	if len(args) == 0 {
		return hook.Result{}, nil
	}
	events, err := c.Config.Get(toolingrc.KeyNotifyEvents)
	if err != nil {
		return hook.Result{}, err
	}
	if !contains(events.Values, c.Event.Name) {
		return hook.Result{}, nil
	}
	p := c.Payload
	if c.Event.Name == "Stop" && !p.StopHookActive && (len(c.FailedGates) > 0 || c.Merged != nil && c.Merged.Decision == hook.DecisionDeny) {
		return hook.Result{}, nil // the stop was blocked: the agent goes on
	}
	root := c.Config.Root()
	name := args[0]
	if strings.ContainsRune(name, '/') && !filepath.IsAbs(name) {
		name = filepath.Join(root, name)
	}
	if _, err := exec.LookPath(name); err != nil {
		return hook.Result{}, fmt.Errorf("notify.command: %v", err)
	}
	title, body := Summary(c.Event.Name, p, root)
	state, err := c.StateDir()
	if err != nil {
		return hook.Result{}, err
	}
	if err := os.MkdirAll(state, 0o755); err != nil {
		return hook.Result{}, err
	}
	stdin, err := os.CreateTemp(state, "notify-*.txt")
	if err != nil {
		return hook.Result{}, err
	}
	defer stdin.Close()
	os.Remove(stdin.Name()) // the open file stays readable; nothing is left behind
	if _, err := stdin.WriteString(title + "\n" + body + "\n"); err != nil {
		return hook.Result{}, err
	}
	if _, err := stdin.Seek(0, 0); err != nil {
		return hook.Result{}, err
	}
	out, err := confined.OpenIn(state, "notify.log", os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600) // never through a link
	if err != nil {
		return hook.Result{}, err
	}
	defer out.Close()
	env := []string{"MAGEHOOK_EVENT=" + c.Event.Name, "MAGEHOOK_SESSION=" + p.SessionID, "MAGEHOOK_TITLE=" + title,
		"MAGEHOOK_NOTIFICATION_TYPE=" + p.NotificationType}
	_, err = proc.Detach(root, env, stdin, out, Bound, name, args[1:]...)
	return hook.Result{}, err
}

// Summary is the title line and the message the notifier gets.
func Summary(event string, p *payload.Payload, root string) (title, body string) {
	where := filepath.Base(root)
	if event == "Notification" {
		title = p.Title
		if title == "" {
			title = "Claude Code needs you in " + where
		}
		return oneLine(redact.String(title)), redact.Head(p.Message, 500)
	}
	return "Claude Code finished in " + where, redact.Head(p.LastAssistantMessage, 500)
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
