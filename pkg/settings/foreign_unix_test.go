//go:build unix

package settings_test

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/magehook/magehook/pkg/settings"
)

// TestForeignChild is the child of TestAnotherUsersFileIsRefused: run as
// another user, it rewrites $FOREIGN_PATH and prints the error, if any.
func TestForeignChild(t *testing.T) {
	path := os.Getenv("FOREIGN_PATH")
	if path == "" {
		t.Skip("run by TestAnotherUsersFileIsRefused")
	}
	_, err := settings.Rewrite{Path: path, NotJSON: true, Edit: func(old []byte) ([]byte, error) {
		return append(old, "changed\n"...), nil
	}}.Run()
	if err != nil {
		os.Stdout.WriteString("refused: " + err.Error() + "\n")
	}
}

// A settings file that belongs to another user (a group-shared checkout,
// a root-owned 0644 file) is refused, naming the owner; a user's own file
// is rewritten with its owner, group (one the user is in: the checkout's
// shared group) and mode kept. The rewrite runs in a child process as
// user 65534 in group 0, so the test needs root.
func TestAnotherUsersFileIsRefused(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to run the child as another user")
	}
	dir := t.TempDir()
	for d := dir; d != filepath.Dir(os.TempDir()) && d != "/"; d = filepath.Dir(d) {
		if d == os.TempDir() {
			break
		}
		os.Chmod(d, 0o777)
	}
	bin := filepath.Join(dir, "settings.test")
	copyFile(t, os.Args[0], bin)
	const nobody = 65534
	run := func(path string) string {
		cmd := exec.Command(bin, "-test.run=^TestForeignChild$", "-test.count=1")
		cmd.Env = append(os.Environ(), "FOREIGN_PATH="+path)
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: nobody, Groups: []uint32{0}}}
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Run(); err != nil {
			t.Fatalf("child: %v\n%s", err, out.String())
		}
		return out.String()
	}

	rootsFile := filepath.Join(dir, "root.json")
	os.WriteFile(rootsFile, []byte("{}\n"), 0o644)
	if out := run(rootsFile); !strings.Contains(out, "refused: "+rootsFile+" belongs to user 0, not to you (user 65534)") {
		t.Errorf("a root-owned 0644 file: %s", out)
	}
	if data, _ := os.ReadFile(rootsFile); string(data) != "{}\n" {
		t.Errorf("the root-owned file was changed: %q", data)
	}
	if info, _ := os.Stat(rootsFile); info.Sys().(*syscall.Stat_t).Uid != 0 {
		t.Errorf("the root-owned file changed owner")
	}

	own := filepath.Join(dir, "own.json")
	os.WriteFile(own, []byte("{}\n"), 0o640)
	os.Chown(own, nobody, 0)
	os.Chmod(own, 0o640)
	if out := run(own); strings.Contains(out, "refused") {
		t.Fatalf("the user's own file: %s", out)
	}
	info, err := os.Stat(own)
	if err != nil {
		t.Fatal(err)
	}
	st := info.Sys().(*syscall.Stat_t)
	if data, _ := os.ReadFile(own); string(data) != "{}\nchanged\n" || st.Uid != nobody || st.Gid != 0 || info.Mode().Perm() != 0o640 {
		t.Errorf("own file: %q, owner %d:%d, mode %v", data, st.Uid, st.Gid, info.Mode().Perm())
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	in, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}
