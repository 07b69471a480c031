// Package devserver starts the project's dev server with the session and
// stops it with the session, when it started it.
//
// # PURPOSE
//
// An agent that edits a web app wants the dev server running to check its
// work, and a person does not want a second one, or one left behind. This
// observer (seed 002, dev-auto-start) starts devserver.command in the
// background at session start when the server is not already running, and
// stops it at the end of the last session using it — only a server it
// started.
//
// # HOW IT WORKS
//
//  1. SessionStart (every source; sub-agents' session events are skipped
//     by the dispatcher). Without devserver.command nothing happens.
//  2. The server is running when the one this handler started is alive
//     (<state.dir>/devserver/server.json), when the pid in
//     devserver.pidfile is alive, or when something listens on
//     devserver.port (read from /proc/net/tcp on Linux, lsof elsewhere: no
//     connection is made, nothing waits). A server this handler started
//     records the session as one of its users; any other is left alone.
//  3. Otherwise devserver.command (split into words, run as an argument
//     list in the checkout root) is started detached, in a session and
//     process group of its own, with its output in
//     <state.dir>/devserver/server.log; the hook returns at once, without
//     waiting for the server to be ready, so the session is never delayed
//     by more than a fork. server.json records its pid, its command and its
//     users.
//  4. SessionEnd removes the session from the users. When none is left, the
//     server's process group gets SIGTERM, then SIGKILL after Grace (3 s),
//     and server.json goes. A recorded pid that no longer leads its
//     process group, or (on Linux) whose process started at another time
//     than the recorded one, is not the server this handler started, and
//     is not touched.
//
// # EXIT CODES
//
//	0  always: a session event never stops a session; failures go to stderr
package devserver

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/magehook/magehook/pkg/cmdline"
	"github.com/magehook/magehook/pkg/confined"
	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/lockfile"
	"github.com/magehook/magehook/pkg/proc"
	"github.com/magehook/magehook/pkg/regfile"
	"github.com/magehook/magehook/pkg/toolingrc"
)

// Handler is the catalogue entry.
var Handler = hook.Handler{
	Name:    "devserver",
	Purpose: "start devserver.command in the background at session start unless it runs (pid file or port); stop it after the last session it served",
	Events:  []string{"SessionStart", "SessionEnd"},
	Policy:  hook.Observer,
	Run:     run,
}

// Grace is how long the server has to stop after SIGTERM.
var Grace = 3 * time.Second

// Server is what server.json records about the server this handler started.
type Server struct {
	PID int `json:"pid"`
	// StartTime tells the process from a later one reusing its id (Linux).
	StartTime uint64   `json:"start_time,omitempty"`
	Command   []string `json:"command"`
	Started   string   `json:"started"`
	Sessions  []string `json:"sessions"`
}

func run(c *hook.Call) (hook.Result, error) {
	v, err := c.Config.Get(toolingrc.KeyDevserverCommand)
	if err != nil {
		return hook.Result{}, err
	}
	args := cmdline.Words(v.String())
	if len(args) == 0 {
		return hook.Result{}, nil
	}
	pidfile, err := c.Config.Get(toolingrc.KeyDevserverPidfile)
	if err != nil {
		return hook.Result{}, err
	}
	port, err := c.Config.Get(toolingrc.KeyDevserverPort)
	if err != nil {
		return hook.Result{}, err
	}
	state, err := c.StateDir()
	if err != nil {
		return hook.Result{}, err
	}
	dir, err := confined.Dir(state, "devserver") // never through a link out
	if err != nil {
		return hook.Result{}, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return hook.Result{}, err
	}
	unlock, err := lock(filepath.Join(dir, "lock"))
	if err != nil {
		return hook.Result{}, err
	}
	defer unlock()
	session := c.Payload.SessionID
	if session == "" {
		session = "unknown-session"
	}
	file := filepath.Join(dir, "server.json")
	srv, err := load(file)
	if err != nil {
		return hook.Result{}, err
	}
	ours := srv != nil && proc.Alive(srv.PID) && (srv.StartTime == 0 || srv.StartTime == proc.StartTime(srv.PID))
	if srv != nil && !ours {
		os.Remove(file) // it ended on its own
		srv = nil
	}
	if c.Event.Name == "SessionEnd" {
		if srv == nil {
			return hook.Result{}, nil
		}
		srv.Sessions = without(srv.Sessions, session)
		if len(srv.Sessions) > 0 {
			return hook.Result{}, save(file, srv)
		}
		if err := proc.StopGroup(srv.PID, Grace, time.Sleep); err != nil {
			os.Remove(file)
			return hook.Result{}, err
		}
		fmt.Fprintf(c.Stderr, "magehook: devserver: stopped %s (pid %d)\n", strings.Join(srv.Command, " "), srv.PID)
		return hook.Result{}, os.Remove(file)
	}
	if srv != nil {
		if !contains(srv.Sessions, session) {
			srv.Sessions = append(srv.Sessions, session)
		}
		return hook.Result{}, save(file, srv)
	}
	if running, why := elsewhere(pidfile, port); running {
		fmt.Fprintf(c.Stderr, "magehook: devserver: %s; not starting another\n", why)
		return hook.Result{}, nil
	}
	root := c.Config.Root()
	name := args[0]
	if strings.ContainsRune(name, '/') && !filepath.IsAbs(name) {
		name = filepath.Join(root, name)
	}
	if _, err := exec.LookPath(name); err != nil {
		return hook.Result{}, fmt.Errorf("devserver.command: %v", err)
	}
	log, err := confined.OpenIn(dir, "server.log", os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return hook.Result{}, err
	}
	defer log.Close()
	pid, err := proc.Detach(root, nil, nil, log, 0, name, args[1:]...)
	if err != nil {
		return hook.Result{}, fmt.Errorf("devserver.command: %v", err)
	}
	fmt.Fprintf(c.Stderr, "magehook: devserver: started %s (pid %d, log %s)\n", v.String(), pid, filepath.Join(dir, "server.log"))
	return hook.Result{}, save(file, &Server{PID: pid, StartTime: proc.StartTime(pid), Command: args, Started: c.Now().UTC().Format(time.RFC3339), Sessions: []string{session}})
}

// elsewhere reports a server this handler did not start: a live pid in
// devserver.pidfile, or a listener on devserver.port.
func elsewhere(pidfile, port toolingrc.Value) (bool, string) {
	if v := pidfile; v.String() != "" {
		if data, err := regfile.ReadFile(v.Abs(), regfile.MaxGitFile); err == nil {
			if pid, err := strconv.Atoi(strings.TrimSpace(string(data))); err == nil && proc.Alive(pid) {
				return true, fmt.Sprintf("%s names the running process %d", v.String(), pid)
			}
		}
	}
	if port.String() != "" {
		n, _ := strconv.Atoi(port.String())
		if on, err := proc.Listening(n); err == nil && on {
			return true, fmt.Sprintf("port %d is already listening", n)
		}
	}
	return false, ""
}

func load(file string) (*Server, error) {
	data, err := regfile.ReadFile(file, regfile.MaxText)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var s Server
	if err := json.Unmarshal(data, &s); err != nil || s.PID <= 0 {
		return nil, fmt.Errorf("%s is not a server record (%v); remove it", file, err)
	}
	return &s, nil
}

func save(file string, s *Server) error {
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	tmp := file + ".tmp"
	f, err := confined.OpenIn(filepath.Dir(file), filepath.Base(tmp), os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	_, err = f.Write(append(data, '\n'))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	return os.Rename(tmp, file)
}

// lock waits up to 5 s for the devserver lock (parallel session events).
func lock(path string) (func(), error) {
	for i := 0; ; i++ {
		unlock, held, err := lockfile.TryLock(path)
		if err != nil || !held {
			return unlock, err
		}
		if i == 500 {
			return nil, fmt.Errorf("%s is held by another hook", path)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func without(list []string, s string) []string {
	var out []string
	for _, v := range list {
		if v != s {
			out = append(out, v)
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
