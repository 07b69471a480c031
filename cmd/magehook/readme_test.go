package main

// The documentation's runnable blocks (README.md's and docs/*.md's), run
// by first_hour.txtar, published.txtar and unpublished.txtar, and the
// output they show: the README's "The first gate" says this file runs
// them, so they cannot rot.

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// readme [-group=name] module-path writes the documentation's marked blocks
// into the work directory: each ```go block after a
// "<!-- file: path -->" line to its path (example.com/repo replaced by the
// module path), every block after a "<!-- run -->" line, in order, to
// run.sh, and every block after an "<!-- output -->" line to run.want (see
// readmeout). -group=name takes the blocks marked "<!-- name file: ... -->",
// "<!-- name run -->" instead (the by-hand recipe).
func cmdReadme(ts *testscript.TestScript, neg bool, args []string) {
	group := ""
	if len(args) == 2 && strings.HasPrefix(args[0], "-group=") {
		group, args = strings.TrimPrefix(args[0], "-group="), args[1:]
	}
	if neg || len(args) != 1 {
		ts.Fatalf("usage: readme [-group=name] module-path")
	}
	all, err := docBlocks(ts.Getenv("MAGEHOOK_SRC"))
	if err != nil {
		ts.Fatalf("readme: %v", err)
	}
	var blocks []block
	for _, b := range all {
		if b.group == group {
			// The test has no network: copysrc puts the clone there.
			b.text = strings.ReplaceAll(b.text, "git clone "+cloneURL+" ", "test -d ")
			blocks = append(blocks, b)
		}
	}
	var run, want strings.Builder
	files := 0
	for _, b := range blocks {
		text := strings.ReplaceAll(b.text, "example.com/repo", args[0])
		switch b.mark {
		case "run":
			run.WriteString(text)
			continue
		case "output":
			want.WriteString(text)
			continue
		}
		path := ts.MkAbs(b.file)
		ts.Check(os.MkdirAll(filepath.Dir(path), 0o755))
		ts.Check(os.WriteFile(path, []byte(text), 0o644))
		files++
	}
	if run.Len() == 0 || (group == "" && (files == 0 || want.Len() == 0)) {
		ts.Fatalf("readme: found %d file blocks, %d bytes to run and %d of output (group %q); the README lost its marks", files, run.Len(), want.Len(), group)
	}
	ts.Check(os.WriteFile(ts.MkAbs("run.sh"), []byte("set -eu\n"+run.String()), 0o644))
	ts.Check(os.WriteFile(ts.MkAbs("run.want"), []byte(want.String()), 0o644))
}

// readmeout file checks that the README's output blocks (run.want) are
// what the run printed to file: every line but "...", in order, with any
// lines between, the handlers' times and runs of spaces aside.
func cmdReadmeOut(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: readmeout file")
	}
	got := strings.Split(ts.ReadFile(args[0]), "\n")
	i := 0
	for _, w := range strings.Split(strings.TrimSuffix(ts.ReadFile("run.want"), "\n"), "\n") {
		if w == "..." {
			continue
		}
		w = normalizeOutput(w)
		for i < len(got) && normalizeOutput(got[i]) != w {
			i++
		}
		if i == len(got) {
			ts.Fatalf("readmeout: the README shows %q, which %s does not have (in that order): update the README's output block", w, args[0])
		}
		i++
	}
}

// duration matches a handler's time in replay's trace lines.
var duration = regexp.MustCompile(`\b[0-9]+(\.[0-9]+)?(ns|µs|ms|s)$`)

func normalizeOutput(line string) string {
	return duration.ReplaceAllString(strings.Join(strings.Fields(line), " "), "<time>")
}

// cloneURL is the README's clone of magehook, which a test replaces with
// copysrc.
const cloneURL = "https://github.com/magehook/magehook"

// copysrc dir copies this tree's files (tracked, and untracked but not
// ignored, as they are in the working tree) into dir: the README's clone,
// with the changes under test.
func cmdCopySrc(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: copysrc dir")
	}
	src, dst := ts.Getenv("MAGEHOOK_SRC"), ts.MkAbs(args[0])
	names, err := sourceFiles(src)
	ts.Check(err)
	for _, name := range names {
		data, err := os.ReadFile(filepath.Join(src, filepath.FromSlash(name)))
		ts.Check(err)
		path := filepath.Join(dst, filepath.FromSlash(name))
		ts.Check(os.MkdirAll(filepath.Dir(path), 0o755))
		ts.Check(os.WriteFile(path, data, 0o644))
	}
}

type block struct{ group, mark, file, text string }

// docBlocks reads the marked blocks of README.md, then of docs/*.md in
// name order: a group's blocks may sit in any one file.
func docBlocks(src string) ([]block, error) {
	paths, err := filepath.Glob(filepath.Join(src, "docs", "*.md"))
	if err != nil {
		return nil, err
	}
	var all []block
	for _, path := range append([]string{filepath.Join(src, "README.md")}, paths...) {
		blocks, err := readmeBlocks(path)
		if err != nil {
			return nil, err
		}
		all = append(all, blocks...)
	}
	return all, nil
}

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
		case strings.HasPrefix(line, "<!-- ") && strings.HasSuffix(line, " -->"):
			if m := readmeMark(strings.TrimSuffix(strings.TrimPrefix(line, "<!-- "), " -->")); m != nil {
				pending = m
			}
		}
	}
	return blocks, sc.Err()
}

// readmeMark reads a mark's text ("file: path", "run", "output", each
// optionally after a group name), nil for any other comment.
func readmeMark(text string) *block {
	group := ""
	if name, rest, ok := strings.Cut(text, " "); ok && name != "file:" {
		group, text = name, rest
	}
	switch {
	case strings.HasPrefix(text, "file: "):
		return &block{group: group, mark: "file", file: strings.TrimPrefix(text, "file: ")}
	case text == "run", text == "output":
		return &block{group: group, mark: text}
	}
	return nil
}

// The fixture names the README's first gate and docs/handlers.md give are
// the fixtures there are: every `Event/name` they quote exists, and
// handlers.md's list of PreToolUse fixtures is all of them.
func TestDocsNameTheFixtures(t *testing.T) {
	var readme string
	for _, name := range []string{"README.md", "docs/handlers.md"} {
		data, err := os.ReadFile(filepath.Join("..", "..", filepath.FromSlash(name)))
		if err != nil {
			t.Fatal(err)
		}
		readme += string(data)
	}
	payloads := filepath.Join("..", "..", "testdata", "payloads")
	quoted := regexp.MustCompile("`([A-Z][A-Za-z]+)/([a-z][a-z-]*)`")
	for _, m := range quoted.FindAllStringSubmatch(readme, -1) {
		if _, err := os.Stat(filepath.Join(payloads, m[1])); err != nil {
			continue // not an event: some other path
		}
		if _, err := os.Stat(filepath.Join(payloads, m[1], m[2]+".json")); err != nil {
			t.Errorf("the docs name fixture %s/%s, which testdata/payloads does not have", m[1], m[2])
		}
	}
	_, list, ok := strings.Cut(readme, "`PreToolUse/` has ")
	if !ok {
		t.Fatal("docs/handlers.md lost its list of PreToolUse fixtures")
	}
	list, _, _ = strings.Cut(list, ";")
	named := map[string]bool{}
	for _, m := range regexp.MustCompile("`([a-z-]+)`").FindAllStringSubmatch(list, -1) {
		named[m[1]] = true
	}
	entries, err := os.ReadDir(filepath.Join(payloads, "PreToolUse"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		name := strings.TrimSuffix(e.Name(), ".json")
		if !named[name] {
			t.Errorf("fixture PreToolUse/%s is missing from the list in docs/handlers.md", name)
		}
		delete(named, name)
	}
	for name := range named {
		t.Errorf("docs/handlers.md lists PreToolUse/%s, which testdata/payloads does not have", name)
	}
}
