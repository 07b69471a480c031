//go:build unix

package proc_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/magehook/magehook/pkg/proc"
)

// waitFor polls until cond holds; the deadline only stops a hung test,
// no result depends on how fast the machine is.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("gave up waiting for %s", what)
}

func pidOf(t *testing.T, file string) int {
	t.Helper()
	var pid int
	waitFor(t, "the pid file", func() bool {
		data, err := os.ReadFile(file)
		if err != nil || !strings.HasSuffix(string(data), "\n") {
			return false
		}
		pid, err = strconv.Atoi(strings.TrimSpace(string(data)))
		return err == nil
	})
	return pid
}

func TestDetachReturnsAtOnceAndStopGroupEndsIt(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	os.WriteFile(in, []byte("the summary\n"), 0o644)
	stdin, _ := os.Open(in)
	defer stdin.Close()
	// The command never ends by itself: Detach returning proves it does not wait.
	leader, err := proc.Detach(dir, []string{"X=1"}, stdin, nil, 0, "sh", "-c", `cat > got; echo $X >> got; echo $$ > pid; exec sleep 1000`)
	if err != nil {
		t.Fatal(err)
	}
	pid := pidOf(t, filepath.Join(dir, "pid"))
	if pid != leader || !proc.Alive(pid) {
		t.Fatalf("pid %d (leader %d) should be running", pid, leader)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "got")); string(got) != "the summary\n1\n" {
		t.Errorf("stdin and env: %q", got)
	}
	if err := proc.StopGroup(pid, 5*time.Second, time.Sleep); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the process to end", func() bool { return !proc.Alive(pid) })
}

func TestABoundKillsTheCommandAndItsChildren(t *testing.T) {
	dir := t.TempDir()
	log, _ := os.Create(filepath.Join(dir, "log"))
	defer log.Close()
	_, err := proc.Detach(dir, nil, nil, log, time.Nanosecond, "sh", "-c", `sleep 1000 & echo $! > child; echo $$ > pid; wait`)
	if err != nil {
		t.Fatal(err)
	}
	pid, child := pidOf(t, filepath.Join(dir, "pid")), pidOf(t, filepath.Join(dir, "child"))
	waitFor(t, "the bound to end the command", func() bool { return !proc.Alive(pid) })
	waitFor(t, "the bound to end the command's child", func() bool { return !proc.Alive(child) })
}

func TestStopGroupRefusesAProcessItDidNotStart(t *testing.T) {
	// The test process is no group leader of its own making: refuse.
	if os.Getpid() == mustPgid(t) {
		t.Skip("the test runs as a process group leader")
	}
	if err := proc.StopGroup(os.Getpid(), 0, time.Sleep); err == nil {
		t.Error("StopGroup accepted a process that does not lead its group")
	}
}

func mustPgid(t *testing.T) int {
	pgid, err := syscall.Getpgid(0)
	if err != nil {
		t.Fatal(err)
	}
	return pgid
}

func TestListening(t *testing.T) {
	// A listener of this test's own: python3 or nc would be a dependency,
	// so bind one with the syscall package.
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM, 0)
	if err != nil {
		t.Skip(err)
	}
	defer syscall.Close(fd)
	if err := syscall.Bind(fd, &syscall.SockaddrInet4{Addr: [4]byte{127, 0, 0, 1}}); err != nil {
		t.Skip(err)
	}
	sa, _ := syscall.Getsockname(fd)
	port := sa.(*syscall.SockaddrInet4).Port
	if on, err := proc.Listening(port); err != nil || on {
		t.Fatalf("bound but not listening: %v %v", on, err)
	}
	if err := syscall.Listen(fd, 1); err != nil {
		t.Fatal(err)
	}
	if on, err := proc.Listening(port); err != nil || !on {
		t.Errorf("listening on %d: %v %v", port, on, err)
	}
}
