package jsonlog_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"testing"

	"github.com/magehook/magehook/pkg/jsonlog"
)

func TestParallelAppendsWithRotation(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state", "audit.jsonl")
	l := jsonlog.Log{Path: path, MaxBytes: 4096, Keep: 1000}
	const writers, each = 16, 50
	var wg sync.WaitGroup
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := 0; i < each; i++ {
				if err := l.Append(map[string]any{"w": w, "i": i, "pad": fmt.Sprintf("%0200d", i)}); err != nil {
					t.Error(err)
				}
			}
		}(w)
	}
	wg.Wait()
	files, _ := filepath.Glob(path + "*")
	var seen []string
	for _, f := range files {
		if filepath.Ext(f) == ".lock" {
			continue
		}
		fh, _ := os.Open(f)
		sc := bufio.NewScanner(fh)
		for sc.Scan() {
			var rec struct{ W, I int }
			if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
				t.Fatalf("%s: a torn line: %q", f, sc.Text())
			}
			seen = append(seen, fmt.Sprintf("%02d-%03d", rec.W, rec.I))
		}
		fh.Close()
	}
	sort.Strings(seen)
	if len(seen) != writers*each {
		t.Fatalf("%d lines, want %d (lines lost or duplicated)", len(seen), writers*each)
	}
	for i := 1; i < len(seen); i++ {
		if seen[i] == seen[i-1] {
			t.Fatalf("line %s twice", seen[i])
		}
	}
	if len(files) < 3 {
		t.Errorf("no rotation happened: %v", files)
	}
}
