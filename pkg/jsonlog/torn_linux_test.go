package jsonlog

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A line that does not fit (here a file size limit, RLIMIT_FSIZE, which
// makes the write short as a full disk does) is not left torn: the log
// holds whole lines only, and the next line appends cleanly.
func TestAShortWriteLeavesNoTornLine(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "audit.jsonl")
	log := Log{Path: path}
	if err := log.Append(map[string]string{"n": "1"}); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	var old syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_FSIZE, &old); err != nil {
		t.Skip(err)
	}
	limit := syscall.Rlimit{Cur: uint64(info.Size()) + 20, Max: old.Max}
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &limit); err != nil {
		t.Skip(err)
	}
	err = log.Append(map[string]string{"n": "2", "text": strings.Repeat("x", 200)})
	syscall.Setrlimit(syscall.RLIMIT_FSIZE, &old)
	if err == nil {
		t.Fatal("the write over the limit succeeded")
	}
	if err := log.Append(map[string]string{"n": "3"}); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var got []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var rec map[string]string
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Fatalf("line %q is not JSON: %v", sc.Text(), err)
		}
		got = append(got, rec["n"])
	}
	if strings.Join(got, ",") != "1,3" {
		t.Fatalf("records %v, want 1,3", got)
	}
}
