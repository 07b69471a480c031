package settings_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/magehook/magehook/pkg/settings"
)

// foreignWrite replaces path the way an editor does (a new file renamed
// over it) with a counter key set to n and everything else kept.
func foreignWrite(t *testing.T, path string, n int) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	doc["editorCounter"] = n
	out, _ := json.MarshalIndent(doc, "", "  ")
	tmp := path + ".editor"
	if err := os.WriteFile(tmp, out, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
}

func counter(t *testing.T, path string) float64 {
	t.Helper()
	var doc map[string]any
	data, _ := os.ReadFile(path)
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatalf("%s is not JSON: %v", path, err)
	}
	n, _ := doc["editorCounter"].(float64)
	return n
}

// TestForeignWritesRacingAnInstallAreKept puts an editor's write at each
// point of the install's write where another program's write can land
// (the moment injected, not timed): the editor's change is never lost, and
// the install's entries are there too.
func TestForeignWritesRacingAnInstallAreKept(t *testing.T) {
	for _, step := range settings.Steps[:4] {
		t.Run("a write after the step "+step, func(t *testing.T) {
			cfg := checkout(t, "hook.enable gate")
			in := settings.Installer{Config: cfg, Handlers: handlers, Scope: settings.Project}
			path := in.Path()
			writeFile(t, path, foreign, 0o644)
			fired := 0
			defer settings.SetStepHook(func(s string) error {
				if s == step && fired == 0 {
					fired++
					foreignWrite(t, path, 7)
				}
				return nil
			})()
			out, err := in.Install()
			if err != nil || fired != 1 {
				t.Fatalf("install: %v (the editor wrote %d times)", err, fired)
			}
			if n := counter(t, path); n != 7 {
				t.Fatalf("the editor's write was lost: counter %v", n)
			}
			if data, _ := os.ReadFile(path); !strings.Contains(string(data), "bin/magehook") {
				t.Errorf("the install's entries are missing:\n%s", data)
			}
			if out.Backup == "" {
				t.Errorf("no backup of the replaced version")
			} else if b, _ := os.ReadFile(out.Backup); !strings.Contains(string(b), "editorCounter") {
				t.Errorf("the backup %s is not the version the install replaced:\n%s", out.Backup, b)
			}
		})
	}
}

// TestAnEditorThatNeverStopsWinsOverInstall: when every attempt finds the
// file changed, install gives up without writing, and the editor's
// counter never went backwards.
func TestAnEditorThatNeverStopsWinsOverInstall(t *testing.T) {
	cfg := checkout(t, "hook.enable gate")
	in := settings.Installer{Config: cfg, Handlers: handlers, Scope: settings.Project}
	path := in.Path()
	writeFile(t, path, foreign, 0o644)
	n := 0
	defer settings.SetStepHook(func(s string) error {
		if s == "checked" {
			n++
			foreignWrite(t, path, n)
		}
		// Between the swap and its undoing the file holds install's
		// version for a moment (see Rewrite.Run); at every other point
		// it holds the editor's last write.
		if got := counter(t, path); got != float64(n) && s != "swapped" {
			t.Fatalf("at %s the counter is %v, the editor last wrote %d", s, got, n)
		}
		return nil
	})()
	_, err := in.Install()
	if err == nil || !strings.Contains(err.Error(), "kept changing") || !strings.Contains(err.Error(), "run again") {
		t.Fatalf("install: %v, want it to give up", err)
	}
	if got := counter(t, path); got != float64(n) || n == 0 {
		t.Fatalf("counter %v after %d editor writes", got, n)
	}
	if data, _ := os.ReadFile(path); strings.Contains(string(data), "bin/magehook") {
		t.Errorf("install wrote although it gave up")
	}
}

func backupNames(t *testing.T, dir string) []string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*.bak"))
	return files
}

// TestFailedAttemptsKeepTheBackups: refused writes (the filesystem
// refusing the swap, injected) neither add a backup nor rotate a real one
// out; a write whose old bytes are the newest backup's adds none.
func TestFailedAttemptsKeepTheBackups(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "settings.json")
	backups := filepath.Join(dir, "backups")
	writeFile(t, path, `{"v":0}`, 0o644)
	rw := func(v int) (settings.Outcome, error) {
		return settings.Rewrite{Path: path, BackupDir: backups, BackupPrefix: "p", Keep: 3,
			Edit: func([]byte) ([]byte, error) { return []byte(fmt.Sprintf(`{"v":%d}`, v)), nil }}.Run()
	}
	for v := 1; v <= 3; v++ {
		if _, err := rw(v); err != nil {
			t.Fatal(err)
		}
	}
	real := backupNames(t, backups)
	if len(real) != 3 {
		t.Fatalf("%d backups, want 3", len(real))
	}
	refuse := errors.New("refused")
	restore := settings.SetStepHook(func(s string) error {
		if s == "checked" {
			return refuse
		}
		return nil
	})
	for i := 0; i < 12; i++ {
		if _, err := rw(100 + i); !errors.Is(err, refuse) {
			t.Fatalf("attempt %d: %v", i, err)
		}
	}
	restore()
	if got := backupNames(t, backups); fmt.Sprint(got) != fmt.Sprint(real) {
		t.Fatalf("failed attempts changed the backups:\n%v\nwant\n%v", got, real)
	}
	if data, _ := os.ReadFile(path); string(data) != `{"v":3}` {
		t.Fatalf("a refused write changed the file: %s", data)
	}
	// The file goes back to the newest backup's bytes by another hand:
	// replacing it again needs no second copy of them.
	newest, _ := os.ReadFile(real[2])
	os.WriteFile(path, newest, 0o644)
	out, err := rw(4)
	if err != nil {
		t.Fatal(err)
	}
	if got := backupNames(t, backups); fmt.Sprint(got) != fmt.Sprint(real) || out.Backup != real[2] {
		t.Fatalf("backups %v (outcome %q), want %v unchanged with the newest holding the replaced bytes", got, out.Backup, real)
	}
}

func TestRefusedTargets(t *testing.T) {
	edit := func([]byte) ([]byte, error) { return []byte("{}\n"), nil }
	t.Run("a dangling symbolic link", func(t *testing.T) {
		dir := t.TempDir()
		path := filepath.Join(dir, "repo", ".claude", "settings.json")
		os.MkdirAll(filepath.Dir(path), 0o755)
		outside := filepath.Join(dir, "outside", "deep", "settings.json")
		os.Symlink(outside, path)
		_, err := settings.Rewrite{Path: path, Edit: edit}.Run()
		if err == nil || !strings.Contains(err.Error(), "symbolic link to "+outside+", which does not exist; create that file") {
			t.Fatalf("Run: %v", err)
		}
		if _, err := os.Stat(filepath.Join(dir, "outside")); err == nil {
			t.Errorf("a directory was made outside the repository")
		}
	})
	t.Run("a directory on the way that is a link to nothing", func(t *testing.T) {
		dir := t.TempDir()
		repo := filepath.Join(dir, "repo")
		os.MkdirAll(repo, 0o755)
		outside := filepath.Join(dir, "outside", "gone")
		os.Symlink(outside, filepath.Join(repo, ".claude"))
		_, err := settings.Rewrite{Path: filepath.Join(repo, ".claude", "settings.json"), Edit: edit}.Run()
		if err == nil || !strings.Contains(err.Error(), "which does not exist; create that directory") {
			t.Fatalf("Run: %v", err)
		}
		if _, err := os.Stat(filepath.Join(dir, "outside")); err == nil {
			t.Errorf("a directory was made outside the repository")
		}
	})
	t.Run("a FIFO", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "settings.json")
		if err := syscall.Mkfifo(path, 0o644); err != nil {
			t.Skip(err)
		}
		_, err := settings.Rewrite{Path: path, Edit: edit}.Run()
		if err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Fatalf("Run: %v", err)
		}
	})
	t.Run("a file with another hard link", func(t *testing.T) {
		dir := t.TempDir()
		path := filepath.Join(dir, "settings.json")
		writeFile(t, path, `{"a":1}`, 0o644)
		os.Link(path, filepath.Join(dir, "other-name.json"))
		_, err := settings.Rewrite{Path: path, Edit: edit}.Run()
		if err == nil || !strings.Contains(err.Error(), "2 hard links") || !strings.Contains(err.Error(), "symbolic links") {
			t.Fatalf("Run: %v", err)
		}
		if data, _ := os.ReadFile(filepath.Join(dir, "other-name.json")); string(data) != `{"a":1}` {
			t.Errorf("the file changed: %s", data)
		}
	})
	t.Run("a name too long for the temporary file", func(t *testing.T) {
		dir := t.TempDir()
		path := filepath.Join(dir, strings.Repeat("n", 250)+".json")
		writeFile(t, path, `{"a":1}`, 0o644)
		_, err := settings.Rewrite{Path: path, Edit: edit}.Run()
		if err == nil || !strings.Contains(err.Error(), "name is too long") || !strings.Contains(err.Error(), "shorten") {
			t.Fatalf("Run: %v", err)
		}
		if data, _ := os.ReadFile(path); string(data) != `{"a":1}` {
			t.Errorf("the file changed: %s", data)
		}
	})
}

func TestTheFileAsTheUserWroteIt(t *testing.T) {
	t.Run("CRLF line endings are kept", func(t *testing.T) {
		cfg := checkout(t, "hook.enable gate")
		in := settings.Installer{Config: cfg, Handlers: handlers, Scope: settings.Project}
		crlf := strings.ReplaceAll(foreign, "\n", "\r\n")
		writeFile(t, in.Path(), crlf, 0o644)
		if _, err := in.Install(); err != nil {
			t.Fatal(err)
		}
		data, _ := os.ReadFile(in.Path())
		if bytes.Count(data, []byte("\n")) != bytes.Count(data, []byte("\r\n")) {
			t.Fatalf("line endings not kept:\n%q", data)
		}
		out, err := in.Install()
		if err != nil || out.Changed {
			t.Fatalf("a second install changed a CRLF file: %v %+v", err, out)
		}
	})
	t.Run("owner and group are kept", func(t *testing.T) {
		if os.Geteuid() != 0 {
			t.Skip("only root can give a file away")
		}
		cfg := checkout(t, "hook.enable gate")
		in := settings.Installer{Config: cfg, Handlers: handlers, Scope: settings.Project}
		writeFile(t, in.Path(), foreign, 0o644)
		os.Chmod(in.Path(), 0o664)
		os.Chown(in.Path(), 4321, 8765)
		if _, err := in.Install(); err != nil {
			t.Fatal(err)
		}
		info, _ := os.Stat(in.Path())
		st := info.Sys().(*syscall.Stat_t)
		if st.Uid != 4321 || st.Gid != 8765 || info.Mode().Perm() != 0o664 {
			t.Fatalf("owner %d:%d mode %v, want 4321:8765 0664", st.Uid, st.Gid, info.Mode().Perm())
		}
	})
	t.Run("a re-sort shows as one", func(t *testing.T) {
		cfg := checkout(t, "hook.enable gate")
		in := settings.Installer{Config: cfg, Handlers: handlers, Scope: settings.Project}
		writeFile(t, in.Path(), foreign, 0o644)
		if _, err := in.Install(); err != nil {
			t.Fatal(err)
		}
		installed, _ := os.ReadFile(in.Path())
		// The same document, keys in another order and other indentation.
		var doc map[string]any
		json.Unmarshal(installed, &doc)
		shuffled := []byte("{\"worktree\": " + mustJSON(doc["worktree"]) + ", \"model\": \"opus\"")
		for k, v := range doc {
			if k != "worktree" && k != "model" {
				shuffled = append(shuffled, []byte(", "+mustJSON(k)+": "+mustJSON(v))...)
			}
		}
		shuffled = append(shuffled, "}\n"...)
		writeFile(t, in.Path(), string(shuffled), 0o644)
		in.DryRun = true
		out, err := in.Install()
		if err != nil || !out.Changed || !out.Reformatted || out.Diff != "" {
			t.Fatalf("dry run: %v %+v, want a re-sort with no change of content", err, out)
		}
	})
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestLeftoversOfKilledRunsAreCleaned: the next write removes the
// temporary files of magehook runs that died, and only those.
func TestLeftoversOfKilledRunsAreCleaned(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "settings.json")
	writeFile(t, path, `{}`, 0o644)
	dead := filepath.Join(dir, ".settings.json.99999999.magehook-tmp") // above any pid Linux hands out
	legacy := filepath.Join(dir, ".settings.json5577006791947779410")  // renameio's name, from earlier versions
	mine := filepath.Join(dir, fmt.Sprintf(".settings.json.%d.magehook-tmp", os.Getppid()))
	theirs := filepath.Join(dir, ".settings.json.swp")
	for _, f := range []string{dead, legacy, mine, theirs} {
		writeFile(t, f, "x", 0o644)
	}
	if _, err := (settings.Rewrite{Path: path, Edit: func([]byte) ([]byte, error) { return []byte(`{"a":1}`), nil }}).Run(); err != nil {
		t.Fatal(err)
	}
	backupTmp := filepath.Join(dir, "b", ".p.20261130T010203.000000000Z.bak8674665223082153551") // a killed backup write
	writeFile(t, backupTmp, "x", 0o600)
	if _, err := (settings.Rewrite{Path: path, BackupDir: filepath.Join(dir, "b"), BackupPrefix: "p", Edit: func([]byte) ([]byte, error) { return []byte(`{"a":2}`), nil }}).Run(); err != nil {
		t.Fatal(err)
	}
	for f, want := range map[string]bool{dead: false, legacy: false, mine: true, theirs: true, backupTmp: false} {
		if _, err := os.Stat(f); (err == nil) != want {
			t.Errorf("%s: exists %v, want %v", filepath.Base(f), err == nil, want)
		}
	}
}

// TestUserScopeNeedsHome: with HOME unset, -scope=user refuses, naming
// HOME, and writes nothing (the user file's path would be relative and
// land in the project's committed settings).
func TestUserScopeNeedsHome(t *testing.T) {
	cfg := checkout(t, "hook.enable gate")
	project := settings.Installer{Config: cfg, Handlers: handlers, Scope: settings.Project}
	writeFile(t, project.Path(), foreign, 0o644)
	t.Setenv("HOME", "")
	t.Chdir(cfg.Root())
	for _, op := range []string{"install", "uninstall"} {
		in := settings.Installer{Config: cfg, Handlers: handlers, Scope: settings.User}
		var err error
		if op == "install" {
			_, err = in.Install()
		} else {
			_, err = in.Uninstall()
		}
		if err == nil || !strings.Contains(err.Error(), "HOME is unset") || !strings.Contains(err.Error(), "set HOME") {
			t.Fatalf("%s: %v, want a refusal naming HOME", op, err)
		}
	}
	if data, _ := os.ReadFile(project.Path()); string(data) != foreign {
		t.Errorf("the project's settings changed:\n%s", data)
	}
}

// TestAnImmutableFileIsRefused is the case on a real filesystem:
// twelve installs into an immutable file (chattr +i) are refused with what
// to do, and the real backups are all still there.
func TestAnImmutableFileIsRefused(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "settings.json")
	backups := filepath.Join(dir, "backups")
	writeFile(t, path, `{"v":0}`, 0o644)
	rw := func(v int) error {
		_, err := settings.Rewrite{Path: path, BackupDir: backups, BackupPrefix: "p", Keep: 3,
			Edit: func([]byte) ([]byte, error) { return []byte(fmt.Sprintf(`{"v":%d}`, v)), nil }}.Run()
		return err
	}
	for v := 1; v <= 3; v++ {
		if err := rw(v); err != nil {
			t.Fatal(err)
		}
	}
	real := backupNames(t, backups)
	if out, err := exec.Command("chattr", "+i", path).CombinedOutput(); err != nil {
		t.Skipf("chattr +i: %v %s", err, out)
	}
	defer exec.Command("chattr", "-i", path).Run()
	for i := 0; i < 12; i++ {
		err := rw(100 + i)
		if err == nil || !strings.Contains(err.Error(), "the filesystem refused to replace it") || !strings.Contains(err.Error(), "immutable (lsattr)") {
			t.Fatalf("attempt %d: %v", i, err)
		}
	}
	if got := backupNames(t, backups); fmt.Sprint(got) != fmt.Sprint(real) {
		t.Errorf("refused installs changed the backups:\n%v\nwant\n%v", got, real)
	}
	if leftovers, _ := filepath.Glob(filepath.Join(dir, ".settings.json*")); len(leftovers) > 0 {
		t.Errorf("temporary files left: %v", leftovers)
	}
}

// TestAFileRemovedDuringTheWriteIsCreatedAgain: another program deleting
// the file between the check and the swap makes the write start over on
// no file, not fail.
func TestAFileRemovedDuringTheWriteIsCreatedAgain(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.json")
	writeFile(t, path, `{"v":1}`, 0o644)
	fired := false
	defer settings.SetStepHook(func(s string) error {
		if s == "checked" && !fired {
			fired = true
			os.Remove(path)
		}
		return nil
	})()
	var seen []string
	_, err := settings.Rewrite{Path: path, Edit: func(old []byte) ([]byte, error) {
		seen = append(seen, string(old))
		return []byte(`{"v":2}`), nil
	}}.Run()
	if err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(path); string(data) != `{"v":2}` || fmt.Sprint(seen) != `[{"v":1} ]` {
		t.Errorf("file %q, edits saw %q", data, seen)
	}
}

// TestTwoForeignWritesInTheSwapLoseNothing: one write lands between the
// check and the swap, a second in the moment before the swap is undone.
// Install refuses, the file holds the newest foreign version, and the
// other is kept in the backups, named in the message.
func TestTwoForeignWritesInTheSwapLoseNothing(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "settings.json")
	writeFile(t, path, `{"v":0}`, 0o644)
	fired := map[string]bool{}
	defer settings.SetStepHook(func(s string) error {
		if (s == "checked" || s == "swapped") && !fired[s] {
			fired[s] = true
			tmp := path + ".editor"
			os.WriteFile(tmp, []byte(`{"editor":"`+s+`"}`), 0o644)
			os.Rename(tmp, path)
		}
		return nil
	})()
	_, err := settings.Rewrite{Path: path, BackupDir: filepath.Join(dir, "b"), BackupPrefix: "p",
		Edit: func(old []byte) ([]byte, error) { return []byte(`{"v":1}`), nil }}.Run()
	if err == nil || !strings.Contains(err.Error(), "wrote it twice") {
		t.Fatalf("Run: %v", err)
	}
	if data, _ := os.ReadFile(path); string(data) != `{"editor":"swapped"}` {
		t.Errorf("the file holds %s, want the newest foreign version", data)
	}
	aside, _ := filepath.Glob(filepath.Join(dir, "b", "*.set-aside.bak"))
	if len(aside) != 1 || !strings.Contains(err.Error(), aside[0]) {
		t.Fatalf("set aside %v; error %v", aside, err)
	}
	if data, _ := os.ReadFile(aside[0]); string(data) != `{"editor":"checked"}` {
		t.Errorf("set aside %s, want the earlier foreign version", data)
	}
}

// TestNoWriteLargerThanItReads: an edit whose result magehook could not
// read back on the next run (over jsontree's bound) is refused before
// anything is written, and the file is left as it was.
func TestNoWriteLargerThanItReads(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "settings.json")
	big := `{"a":"` + strings.Repeat("x", 8<<20-9) + `"}` + "\n"
	if len(big) != 8<<20 {
		t.Fatalf("fixture is %d bytes", len(big))
	}
	if err := os.WriteFile(path, []byte(big), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := settings.Rewrite{Path: path, Edit: func(old []byte) ([]byte, error) {
		return append([]byte(`{"b":1,`), old[1:]...), nil
	}}.Run()
	if err == nil || !strings.Contains(err.Error(), "more than the 8388608 magehook reads back; nothing was written") {
		t.Fatalf("err = %v, want the size refusal", err)
	}
	if data, _ := os.ReadFile(path); string(data) != big {
		t.Fatal("the file changed")
	}
}

// TestPathRefusalsSayWhatToDo: a path the system cannot even look at
// (a name over NAME_MAX, a file where a directory should be) is one line
// that says what to do, not a bare lstat error.
func TestPathRefusalsSayWhatToDo(t *testing.T) {
	dir := t.TempDir()
	edit := func(old []byte) ([]byte, error) { return []byte("{}\n"), nil }
	long := filepath.Join(dir, strings.Repeat("a", 300), "settings.json")
	_, err := settings.Rewrite{Path: long, Edit: edit}.Run()
	if err == nil || !strings.Contains(err.Error(), "the path is too long for this system; shorten it") {
		t.Fatalf("long name: err = %v", err)
	}
	file := filepath.Join(dir, "f")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = settings.Rewrite{Path: filepath.Join(file, "settings.json"), Edit: edit}.Run()
	if err == nil || !strings.Contains(err.Error(), "a directory on its path is a file; move that file away") {
		t.Fatalf("file as directory: err = %v", err)
	}
}
