package devserver_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/magehook/magehook/hooks/devserver"
	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/hooktest"
	"github.com/magehook/magehook/pkg/proc"
)

var hs = []hook.Handler{devserver.Handler}

const server = `devserver.command sh -c 'echo $$ > dev.pid.tmp; mv dev.pid.tmp dev.pid; exec sleep 1000'`

// poll waits for cond; the deadline only stops a hung test.
func poll(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); !cond(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting for %s", what)
		}
	}
}

func record(t *testing.T, root string) *devserver.Server {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, ".magehook", "devserver", "server.json"))
	if os.IsNotExist(err) {
		return nil
	}
	var s devserver.Server
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatal(err)
	}
	return &s
}

func session(t *testing.T, root, event, id string) hooktest.Outcome {
	t.Helper()
	fixture := "SessionStart/startup"
	if event == "SessionEnd" {
		fixture = "SessionEnd/exit"
	}
	out := hooktest.Run(t, hs, root, event, fixture, map[string]any{"session_id": id})
	if out.Code != 0 || out.Stdout != "" {
		t.Fatalf("%s: %+v", event, out)
	}
	return out
}

func TestStartedOnceAndStoppedAfterItsLastSession(t *testing.T) {
	root := hooktest.Checkout(t, "hook.enable devserver", server)
	out := session(t, root, "SessionStart", "s1")
	if !strings.Contains(out.Stderr, "devserver: started") {
		t.Errorf("%+v", out)
	}
	var pid int
	poll(t, "the server's pid file", func() bool {
		data, err := os.ReadFile(filepath.Join(root, "dev.pid"))
		pid, _ = strconv.Atoi(strings.TrimSpace(string(data)))
		return err == nil && pid > 0
	})
	t.Cleanup(func() { syscall.Kill(-pid, syscall.SIGKILL) })
	if r := record(t, root); r == nil || r.PID != pid || strings.Join(r.Sessions, ",") != "s1" {
		t.Fatalf("server.json: %+v (pid %d)", r, pid)
	}
	session(t, root, "SessionStart", "s1") // a resume or a compaction: the same server
	session(t, root, "SessionStart", "s2")
	if r := record(t, root); r.PID != pid || strings.Join(r.Sessions, ",") != "s1,s2" {
		t.Fatalf("server.json: %+v", r)
	}
	session(t, root, "SessionEnd", "s1")
	if !proc.Alive(pid) {
		t.Fatal("stopped while s2 still uses it")
	}
	out = session(t, root, "SessionEnd", "s2")
	poll(t, "the server to stop", func() bool { return !proc.Alive(pid) })
	if record(t, root) != nil || !strings.Contains(out.Stderr, "devserver: stopped") {
		t.Errorf("%+v", out)
	}
	session(t, root, "SessionEnd", "s3") // nothing to stop
}

func TestARunningServerIsLeftAlone(t *testing.T) {
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM, 0)
	if err != nil {
		t.Skip(err)
	}
	defer syscall.Close(fd)
	syscall.Bind(fd, &syscall.SockaddrInet4{Addr: [4]byte{127, 0, 0, 1}})
	syscall.Listen(fd, 1)
	sa, _ := syscall.Getsockname(fd)
	port := sa.(*syscall.SockaddrInet4).Port

	root := hooktest.Checkout(t, "hook.enable devserver", server, "devserver.port "+strconv.Itoa(port))
	if out := session(t, root, "SessionStart", "s1"); !strings.Contains(out.Stderr, "already listening") || record(t, root) != nil {
		t.Errorf("port: %+v", out)
	}
	root = hooktest.Checkout(t, "hook.enable devserver", server, "devserver.pidfile run/dev.pid")
	os.MkdirAll(filepath.Join(root, "run"), 0o755)
	os.WriteFile(filepath.Join(root, "run", "dev.pid"), []byte(strconv.Itoa(os.Getpid())+"\n"), 0o644)
	if out := session(t, root, "SessionStart", "s1"); !strings.Contains(out.Stderr, "names the running process") || record(t, root) != nil {
		t.Errorf("pid file: %+v", out)
	}
}

func TestOnlyWhatItStartedIsStopped(t *testing.T) {
	root := hooktest.Checkout(t, "hook.enable devserver", server)
	other := exec.Command("sleep", "1000") // in the test's process group: not one devserver started
	if err := other.Start(); err != nil {
		t.Fatal(err)
	}
	defer other.Process.Kill()
	dir := filepath.Join(root, ".magehook", "devserver")
	os.MkdirAll(dir, 0o755)
	write := func(s devserver.Server) {
		data, _ := json.Marshal(s)
		os.WriteFile(filepath.Join(dir, "server.json"), data, 0o600)
	}
	write(devserver.Server{PID: other.Process.Pid, Command: []string{"sleep"}, Sessions: []string{"s1"}})
	out := hooktest.Run(t, hs, root, "SessionEnd", "SessionEnd/exit", map[string]any{"session_id": "s1"})
	if !strings.Contains(out.Stderr, "does not lead its process group") || !proc.Alive(other.Process.Pid) {
		t.Errorf("%+v", out)
	}
	// A recorded start time that is not the process's: a reused id.
	if st := proc.StartTime(other.Process.Pid); st != 0 {
		write(devserver.Server{PID: other.Process.Pid, StartTime: st + 1, Command: []string{"sleep"}, Sessions: []string{"s1"}})
		session(t, root, "SessionEnd", "s1")
		if !proc.Alive(other.Process.Pid) || record(t, root) != nil {
			t.Error("a process reusing the id was touched, or the stale record kept")
		}
	}
}

func TestMisconfiguredOrUnconfigured(t *testing.T) {
	root := hooktest.Checkout(t, "hook.enable devserver")
	if out := session(t, root, "SessionStart", "s1"); out.Stderr != "" {
		t.Errorf("%+v", out)
	}
	root = hooktest.Checkout(t, "hook.enable devserver", "devserver.command no-such-server-xyz --dev")
	if out := session(t, root, "SessionStart", "s1"); !strings.Contains(out.Stderr, "devserver.command") {
		t.Errorf("%+v", out)
	}
	// A bad value is a configuration error: the session starts, and the
	// user is told (issue 11: tool calls are blocked until it is fixed).
	root = hooktest.Checkout(t, "hook.enable devserver", server, "devserver.port http")
	out := hooktest.Run(t, hs, root, "SessionStart", "SessionStart/startup", map[string]any{"session_id": "s1"})
	if out.Code != 0 || !strings.Contains(out.Stderr, "devserver.port") || !strings.Contains(out.Stderr, "not a TCP port") ||
		!strings.Contains(out.Stdout, `"systemMessage":"magehook cannot read its configuration`) || record(t, root) != nil {
		t.Errorf("a bad port is named, the session still starts, the user is told, and nothing runs: %+v", out)
	}
}
