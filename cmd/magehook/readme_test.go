package main

// The README's runnable blocks, run by first_hour.txtar: the README's
// "Writing a new hook" says this file runs them, so it cannot rot.

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
)

// readme module-path writes the README's marked blocks into the work
// directory: each ```go block after a "<!-- file: path -->" line to its
// path (example.com/repo replaced by the module path), and every block
// after a "<!-- run -->" line, in order, to run.sh.
func cmdReadme(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: readme module-path")
	}
	blocks, err := readmeBlocks(filepath.Join(ts.Getenv("MAGEHOOK_SRC"), "README.md"))
	if err != nil {
		ts.Fatalf("readme: %v", err)
	}
	var run strings.Builder
	files := 0
	for _, b := range blocks {
		text := strings.ReplaceAll(b.text, "example.com/repo", args[0])
		if b.file == "" {
			run.WriteString(text)
			continue
		}
		path := ts.MkAbs(b.file)
		ts.Check(os.MkdirAll(filepath.Dir(path), 0o755))
		ts.Check(os.WriteFile(path, []byte(text), 0o644))
		files++
	}
	if files == 0 || run.Len() == 0 {
		ts.Fatalf("readme: found %d file blocks and %d bytes to run; the README lost its marks", files, run.Len())
	}
	ts.Check(os.WriteFile(ts.MkAbs("run.sh"), []byte("set -eu\n"+run.String()), 0o644))
}

type block struct{ file, text string }

func readmeBlocks(path string) ([]block, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var (
		blocks  []block
		pending *block
		inside  bool
		text    strings.Builder
	)
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case inside && line == "```":
			inside = false
			pending.text = text.String()
			blocks = append(blocks, *pending)
			pending = nil
		case inside:
			text.WriteString(line + "\n")
		case pending != nil && strings.HasPrefix(line, "```"):
			inside = true
			text.Reset()
		case strings.HasPrefix(line, "<!-- file: ") && strings.HasSuffix(line, " -->"):
			pending = &block{file: strings.TrimSuffix(strings.TrimPrefix(line, "<!-- file: "), " -->")}
		case line == "<!-- run -->":
			pending = &block{}
		}
	}
	return blocks, sc.Err()
}
