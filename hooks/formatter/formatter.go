// Package formatter formats the files the agent changed, right after it
// changed them, and tells the model what changed.
//
// # PURPOSE
//
// Every harness's hook guide starts with the same hook: prettier after an
// edit of a .ts file, gofmt after one of a .go file. Formatting at once
// keeps a turn's diff free of whitespace noise and the agent from a
// failing format check at the end; telling the model keeps its picture of
// the file true (a file formatted behind its back fails its next Edit).
//
//	formatter.run '*.go' gofmt -w        # <glob> <command...>: the file is appended
//	formatter.run '*.ts' npx prettier --write
//	formatter.run 'web/**/*.css' npx prettier --write {}   # {} places the file
//	formatter.run '*.go' -               # "-": no formatter for these
//	formatter.budget 20s                 # all formatting of one call, at most
//
// A glob without a slash matches a file name at any depth; one with a slash
// is anchored at the checkout root. The first line whose glob matches a
// file formats it. In a Go module (a go.mod at or above the file, within
// the checkout) a .go file no line matches gets gofmt -w.
//
// # HOW IT WORKS
//
//  1. PostToolUse of a successful Edit, MultiEdit, Write, NotebookEdit or
//     apply_patch (every file of the patch, whatever the harness calls
//     the tool), and of a Bash call whose changed files the harness
//     reports (Claude Code's tool_response.bashEditDiff.changedFiles).
//  2. Each changed file is formatted only when it is a regular file inside
//     the checkout (symbolic links resolved), not ignored by git, and not
//     the output this formatter left there (a fingerprint of each file it
//     wrote, in <state.dir>/formatter: a harness that reports the
//     formatter's own write as a change gets no second run, and no loop).
//  3. The command runs as an argument list (never a shell) in the checkout
//     root, in its own process group, with MAGEHOOK_FORMATTER=1 in its
//     environment, within what is left of formatter.budget (a command
//     past it is stopped and reported); files after the budget is spent
//     are left alone and named.
//  4. The model is told (additionalContext) which files were reformatted
//     (their contents on disk changed: read them again before editing
//     them) and which formatter failed, with its last lines of output. The
//     tool call itself is never failed: formatter is an observer, and a
//     formatter that fails to start is reported the same way.
//
// # EXIT CODES
//
//	0  always (the report, if any, on stdout); a failure of the handler
//	   itself is logged and the tool call goes on
package formatter

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/magehook/magehook/pkg/atomicfile"
	"github.com/magehook/magehook/pkg/cmdline"
	"github.com/magehook/magehook/pkg/gitx"
	"github.com/magehook/magehook/pkg/glob"
	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/proc"
	"github.com/magehook/magehook/pkg/realpath"
	"github.com/magehook/magehook/pkg/tail"
	"github.com/magehook/magehook/pkg/toolingrc"
)

// Handler is the catalogue entry.
var Handler = hook.Handler{
	Name:    "formatter",
	Purpose: "format the files an edit changed (formatter.run; gofmt in a Go module) within a budget, and tell the model what changed or failed",
	Events:  []string{"PostToolUse"},
	Matcher: "Edit|MultiEdit|Write|NotebookEdit|apply_patch|Bash",
	Policy:  hook.Observer,
	Timeout: 30,
	Run:     run,
}

// Env is set in a formatter's environment; a hook run that finds it in its
// own formats nothing (a formatter that drives an agent cannot loop).
const Env = "MAGEHOOK_FORMATTER"

// MaxFiles bounds the files of one call that are formatted.
const MaxFiles = 50

// OutputLines is how many last lines of a failing formatter's output the
// model is given.
const OutputLines = 15

type line struct {
	glob string
	argv []string // nil: no formatter ("-")
}

func run(c *hook.Call) (hook.Result, error) {
	p := c.Payload
	if c.Config == nil || getenv(c, Env) != "" || !p.Succeeded() {
		return hook.Result{}, nil
	}
	files := changed(c)
	if len(files) == 0 {
		return hook.Result{}, nil
	}
	lines, budget, err := load(c.Config)
	if err != nil {
		return hook.Result{}, err
	}
	root := c.Config.Root()
	state, err := c.StateDir()
	if err != nil {
		return hook.Result{}, err
	}
	marks := filepath.Join(state, "formatter")
	// The budget's clock starts at the first file formatted: a call whose
	// files all pass by starts no timer.
	var b *deadline
	defer func() {
		if b != nil {
			b.stop()
		}
	}()
	var done, failed, skipped []string
	seen := map[string]bool{}
	for _, f := range files {
		if len(seen) >= MaxFiles {
			skipped = append(skipped, rel(root, f))
			continue
		}
		path, ok := inside(root, f)
		if !ok || seen[path] {
			continue
		}
		seen[path] = true
		argv := formatterOf(lines, root, path)
		if argv == nil {
			continue
		}
		before, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		if string(readMark(marks, path)) == digest(before) {
			continue // this formatter's own output, reported back
		}
		if gitx.Ignored(root, path, false) {
			continue
		}
		if b == nil {
			b = startBudget(c.Context, budget)
		}
		ctx := b.ctx
		if ctx.Err() != nil {
			skipped = append(skipped, rel(root, path))
			continue
		}
		out := &tail.Tail{Max: 64 << 10}
		args := withFile(argv, path)
		err = proc.RunGroupGrace(ctx, time.Second, root, []string{Env + "=1"}, out, args[0], args[1:]...)
		after, rerr := os.ReadFile(path)
		if rerr == nil {
			if werr := writeMark(marks, path, digest(after)); werr != nil {
				fmt.Fprintf(c.Stderr, "magehook: formatter: %v\n", werr)
			}
		}
		name := strings.Join(argv, " ")
		switch {
		case err != nil && ctx.Err() != nil:
			failed = append(failed, fmt.Sprintf("%s on %s did not finish within formatter.budget (%s) and was stopped", name, rel(root, path), budget))
		case err != nil:
			msg := fmt.Sprintf("%s failed on %s (%v)", name, rel(root, path), err)
			if tail := strings.TrimSpace(tail.LastLines(out.String(), OutputLines)); tail != "" {
				msg += ":\n" + tail
			}
			failed = append(failed, msg)
		case rerr == nil && !bytes.Equal(before, after):
			done = append(done, fmt.Sprintf("%s (%s)", rel(root, path), name))
		}
	}
	if len(done)+len(failed)+len(skipped) == 0 {
		return hook.Result{}, nil
	}
	var parts []string
	if len(done) > 0 {
		parts = append(parts, "formatter reformatted "+strings.Join(done, ", ")+"; the files on disk changed, so read them again before editing them")
	}
	if len(failed) > 0 {
		parts = append(parts, "formatter: "+strings.Join(failed, "; "))
	}
	if len(skipped) > 0 {
		parts = append(parts, "formatter left unformatted (over its budget or file limit): "+strings.Join(skipped, ", "))
	}
	return hook.Result{Context: strings.Join(parts, ". ") + "."}, nil
}

func getenv(c *hook.Call, k string) string {
	if c.Getenv == nil {
		return ""
	}
	return c.Getenv(k)
}

// load reads formatter.run and formatter.budget.
func load(cfg *toolingrc.Config) ([]line, time.Duration, error) {
	v, err := cfg.Get(toolingrc.KeyFormatterRun)
	if err != nil {
		return nil, 0, err
	}
	var lines []line
	for i, text := range v.Values {
		words := cmdline.Words(text)
		if len(words) < 2 || !glob.Valid(words[0]) {
			return nil, 0, fmt.Errorf("%s:%d: formatter.run %s: write formatter.run '<glob>' <command> [args...], e.g. formatter.run '*.go' gofmt -w", v.Origins[i].File, v.Origins[i].Line, text)
		}
		l := line{glob: words[0]}
		if !(len(words) == 2 && words[1] == "-") {
			l.argv = words[1:]
		}
		lines = append(lines, l)
	}
	b, err := cfg.Get(toolingrc.KeyFormatterBudget)
	if err != nil {
		return nil, 0, err
	}
	budget, err := time.ParseDuration(b.String())
	if err != nil || budget <= 0 {
		return nil, 0, fmt.Errorf("%s:%d: formatter.budget %q is not a duration; write e.g. formatter.budget 20s", b.File, b.Line, b.String())
	}
	return lines, budget, nil
}

// formatterOf is the command that formats path: the first line whose glob
// matches, else gofmt -w for a .go file in a Go module; nil for none.
func formatterOf(lines []line, root, path string) []string {
	r := rel(root, path)
	for _, l := range lines {
		if glob.Match(l.glob, r) {
			return l.argv
		}
	}
	if strings.HasSuffix(path, ".go") && inModule(root, path) {
		return []string{"gofmt", "-w"}
	}
	return nil
}

func inModule(root, path string) bool {
	for d := filepath.Dir(path); ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return true
		}
		if d == root || filepath.Dir(d) == d {
			return false
		}
	}
}

// withFile places the file: at each {} of the command, else last.
func withFile(argv []string, path string) []string {
	out := make([]string, 0, len(argv)+1)
	placed := false
	for _, a := range argv {
		if strings.Contains(a, "{}") {
			a = strings.ReplaceAll(a, "{}", path)
			placed = true
		}
		out = append(out, a)
	}
	if !placed {
		out = append(out, path)
	}
	return out
}

// changed lists the files a successful call changed, absolute.
func changed(c *hook.Call) []string {
	p := c.Payload
	var files []string
	if p.IsTool("Bash") {
		files = bashChanged(p.ToolResponse)
	} else {
		files = p.EditedPaths()
	}
	for i, f := range files {
		if !filepath.IsAbs(f) {
			files[i] = filepath.Join(p.CWD, f)
		}
	}
	return files
}

// bashChanged reads Claude Code's bashEditDiff (changedFiles, else the
// files' filePath).
func bashChanged(resp []byte) []string {
	if !bytes.Contains(resp, []byte(`"bashEditDiff"`)) {
		return nil
	}
	var r struct {
		BashEditDiff struct {
			ChangedFiles []string `json:"changedFiles"`
			Files        []struct {
				FilePath string `json:"filePath"`
			} `json:"files"`
		} `json:"bashEditDiff"`
	}
	if json.Unmarshal(resp, &r) != nil {
		return nil
	}
	files := r.BashEditDiff.ChangedFiles
	if len(files) == 0 {
		for _, f := range r.BashEditDiff.Files {
			files = append(files, f.FilePath)
		}
	}
	return files
}

// inside resolves a file and reports whether it is a regular file inside
// the checkout.
func inside(root, path string) (string, bool) {
	resolved, err := realpath.Resolve(path)
	if err != nil {
		return "", false
	}
	rootResolved, err := realpath.Resolve(root)
	if err != nil {
		rootResolved = root
	}
	if !realpath.Within(resolved, rootResolved) {
		return "", false
	}
	info, err := os.Lstat(resolved)
	if err != nil || !info.Mode().IsRegular() {
		return "", false
	}
	if r, err := filepath.Rel(rootResolved, resolved); err == nil {
		for _, part := range strings.Split(r, string(filepath.Separator)) {
			if part == ".git" {
				return "", false
			}
		}
		return filepath.Join(root, r), true
	}
	return resolved, true
}

func rel(root, path string) string {
	if r, err := filepath.Rel(root, path); err == nil && !strings.HasPrefix(r, "..") {
		return filepath.ToSlash(r)
	}
	return path
}

// digest fingerprints a file's content (FNV-128a and the length: what
// tells the formatter's own output apart, not a security hash).
func digest(data []byte) string {
	h := fnv.New128a()
	h.Write(data)
	return fmt.Sprintf("%s-%d", hex.EncodeToString(h.Sum(nil)), len(data))
}

func markName(marks, path string) string {
	h := fnv.New128a()
	h.Write([]byte(path))
	return filepath.Join(marks, hex.EncodeToString(h.Sum(nil)))
}

func readMark(marks, path string) []byte {
	data, _ := os.ReadFile(markName(marks, path))
	return bytes.TrimSpace(data)
}

func writeMark(marks, path, sum string) error {
	if err := os.MkdirAll(marks, 0o755); err != nil {
		return err
	}
	return atomicfile.WriteFile(markName(marks, path), []byte(sum+"\n"), 0o644)
}
