// Package commitmsg is a git commit-msg hook: it strips AI boilerplate from
// commit messages and, in a project with automated versioning (or when the
// checkout asks for it), refuses a subject that is not a Conventional
// Commit. It is not a Claude Code event: git runs it for every commit, the
// agent's and a human's alike.
//
// # PURPOSE
//
// Commit messages are the project's history, not an advertisement: lines
// such as "Co-Authored-By: Claude <noreply@anthropic.com>" and
// "🤖 Generated with [Claude Code](...)" are removed. A project whose
// releases are computed from its commits (seed 002: .versionrc.json or a
// commitlint configuration present) gets its subjects checked as
// Conventional Commits (type(scope)!: description) — by commitlint when it
// is installed, by a built-in check otherwise; a refusal says why.
//
// # HOW IT WORKS
//
//  1. git runs the commit-msg hook with the message file; the hook runs
//     "<hook binary>" git:commitMsg <file>.
//  2. Co-Authored-By lines naming Claude or Anthropic, "Generated with
//     Claude Code" lines and a lone robot-emoji line are removed, then
//     repeated and trailing blank lines; the file is rewritten only when
//     it changed.
//  3. Whether subjects are checked: commit.conventional, when .toolingrc
//     sets it, decides (yes or no). Otherwise they are checked in a
//     versioned project — the root holds .versionrc.json, or a commitlint
//     configuration (commitlint.config.{js,cjs,mjs,ts,cts,mts},
//     .commitlintrc, .commitlintrc.{json,yaml,yml,js,cjs,mjs,ts}) — and
//     not elsewhere (strip only).
//  4. The check is commitlint's when it is installed (node_modules/.bin
//     of the root, then PATH): commitlint --edit <file>, in the root,
//     within 60 s; its output is the reason. Otherwise the built-in check:
//     the first line must read <type>[(<scope>)][!]: <description>, type
//     one of feat, fix, docs, style, refactor, perf, test, build, ci,
//     chore, revert. Merge, Revert, fixup! and squash! subjects pass.
//  5. hook:install -githook installs the hook into the directory git
//     really uses (core.hooksPath, or the common hooks directory of linked
//     worktrees). An existing commit-msg hook of another tool is kept and
//     chained: one line calling magehook is inserted after its #! line. It
//     is never overwritten or renamed.
//
// # EXIT CODES
//
//	0  the message is fine (and was cleaned)
//	1  the subject is refused, or the file cannot be read: git aborts the
//	   commit and prints the reason
package commitmsg

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"github.com/magehook/magehook/pkg/lazy"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/magehook/magehook/pkg/atomicfile"
	"github.com/magehook/magehook/pkg/gitx"
)

var boilerplate = lazy.Value[[]*regexp.Regexp]{New: func() []*regexp.Regexp {
	return []*regexp.Regexp{
		regexp.MustCompile(`(?i)^\s*co-authored-by:.*\b(claude|anthropic)\b`),
		regexp.MustCompile(`(?i)generated (with|by) \[?claude( code)?\]?`),
		regexp.MustCompile(`^\s*🤖\s*$`),
	}
}}

// Clean removes AI boilerplate lines and the blank lines they leave at the
// end, keeping everything else (git's # comments included).
func Clean(msg string) string {
	lines := strings.Split(msg, "\n")
	var kept []string
	for _, l := range lines {
		drop := false
		for _, re := range boilerplate.Get() {
			if re.MatchString(l) {
				drop = true
				break
			}
		}
		if !drop {
			kept = append(kept, l)
		}
	}
	// Collapse the runs of blank lines the removals leave, and the end's.
	var out []string
	for _, l := range kept {
		if strings.TrimSpace(l) == "" && len(out) > 0 && strings.TrimSpace(out[len(out)-1]) == "" {
			continue
		}
		out = append(out, l)
	}
	kept = out
	for len(kept) > 0 && strings.TrimSpace(kept[len(kept)-1]) == "" {
		kept = kept[:len(kept)-1]
	}
	if len(kept) == 0 {
		return ""
	}
	return strings.Join(kept, "\n") + "\n"
}

var types = []string{"feat", "fix", "docs", "style", "refactor", "perf", "test", "build", "ci", "chore", "revert"}

var conventional = lazy.Value[*regexp.Regexp]{New: func() *regexp.Regexp {
	return regexp.MustCompile(`^([a-z]+)(\([^()\s][^()]*\))?(!)?: (\S.*)$`)
}}

// CheckConventional reports why the message's subject is not a
// Conventional Commit, or nil.
func CheckConventional(msg string) error {
	subject := ""
	for _, l := range strings.Split(msg, "\n") {
		if strings.HasPrefix(l, "#") || strings.TrimSpace(l) == "" {
			continue
		}
		subject = strings.TrimRight(l, " \t\r")
		break
	}
	if subject == "" {
		return errors.New("the commit message is empty")
	}
	for _, pass := range []string{"Merge ", "Revert \"", "fixup! ", "squash! ", "amend! "} {
		if strings.HasPrefix(subject, pass) {
			return nil
		}
	}
	m := conventional.Get().FindStringSubmatch(subject)
	if m == nil {
		head, _, found := strings.Cut(subject, ":")
		switch {
		case !found:
			return fmt.Errorf("the subject %q has no type: write <type>: <description>, e.g. \"fix: handle an empty payload\"", subject)
		case strings.ToLower(head) != head:
			return fmt.Errorf("the subject %q: the type must be lower case", subject)
		default:
			return fmt.Errorf("the subject %q is not <type>[(<scope>)][!]: <description> (one space after the colon, a description after it)", subject)
		}
	}
	for _, t := range types {
		if m[1] == t {
			return nil
		}
	}
	return fmt.Errorf("the subject %q: %q is not a Conventional Commit type; use one of %s", subject, m[1], strings.Join(types, ", "))
}

// Process cleans the message file in place and, when conventional is set,
// checks its subject.
func Process(file string, conventional bool) error {
	data, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	clean := Clean(string(data))
	if clean != string(data) {
		info, err := os.Stat(file)
		if err != nil {
			return err
		}
		if err := os.WriteFile(file, []byte(clean), info.Mode().Perm()); err != nil {
			return err
		}
	}
	if conventional {
		return CheckConventional(clean)
	}
	return nil
}

// VersionFiles are the files that mark a project with automated
// versioning, whose commit subjects are checked.
func VersionFiles() []string {
	return []string{".versionrc.json",
		"commitlint.config.js", "commitlint.config.cjs", "commitlint.config.mjs", "commitlint.config.ts", "commitlint.config.cts", "commitlint.config.mts",
		".commitlintrc", ".commitlintrc.json", ".commitlintrc.yaml", ".commitlintrc.yml", ".commitlintrc.js", ".commitlintrc.cjs", ".commitlintrc.mjs", ".commitlintrc.ts"}
}

// Versioned returns the file that marks root as a versioned project, or "".
func Versioned(root string) string {
	for _, f := range VersionFiles() {
		if info, err := os.Stat(filepath.Join(root, f)); err == nil && info.Mode().IsRegular() {
			return f
		}
	}
	return ""
}

// Commitlint returns the commitlint program for root: the project's own
// (node_modules/.bin), else one on PATH, else "".
func Commitlint(root string) string {
	local := filepath.Join(root, "node_modules", ".bin", "commitlint")
	if info, err := os.Stat(local); err == nil && !info.IsDir() && info.Mode()&0o111 != 0 {
		return local
	}
	if p, err := exec.LookPath("commitlint"); err == nil {
		return p
	}
	return ""
}

// CommitlintTimeout bounds a commitlint run.
const CommitlintTimeout = 60 * time.Second

// Check is the whole hook for the message file of a commit in root:
// clean it, then check its subject when conventional says so ("yes"),
// or, when conventional is unset (""), when root is a versioned project.
// The check is commitlint's when it is installed, the built-in one
// otherwise.
func Check(ctx context.Context, file, root, conventional string) error {
	enforce := conventional == "yes"
	if conventional == "" {
		enforce = Versioned(root) != ""
	}
	if err := Process(file, false); err != nil {
		return err
	}
	if !enforce {
		return nil
	}
	lint := Commitlint(root)
	if lint == "" {
		data, err := os.ReadFile(file)
		if err != nil {
			return err
		}
		return CheckConventional(string(data))
	}
	ctx, cancel := context.WithTimeout(ctx, CommitlintTimeout)
	defer cancel()
	var out bytes.Buffer
	cmd := exec.CommandContext(ctx, lint, "--edit", file)
	cmd.Dir = root
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(out.String())
		if ctx.Err() != nil {
			msg = fmt.Sprintf("it did not finish in %s", CommitlintTimeout)
		}
		if msg == "" {
			msg = err.Error()
		}
		return fmt.Errorf("commitlint refused the message:\n%s", msg)
	}
	return nil
}

// Marker ends the line magehook adds to a commit-msg hook (configguard
// guards a hook that holds it).
const Marker = "# magehook commit-msg"

// HookPath is the commit-msg hook git uses for the repository holding dir.
func HookPath(ctx context.Context, dir string) (string, error) {
	hooks, err := gitx.Git{Dir: dir}.Output(ctx, "rev-parse", "--path-format=absolute", "--git-path", "hooks")
	if err != nil {
		return "", err
	}
	return filepath.Join(hooks, "commit-msg"), nil
}

func callLine(binary string) string {
	return fmt.Sprintf(`"%s" git:commitMsg "$1" || exit $? %s`, strings.NewReplacer(`"`, `\"`, `$`, `\$`, "`", "\\`", `\`, `\\`).Replace(binary), Marker)
}

// Install makes git run binary's git:commitMsg for the repository holding
// dir, and returns the hook's path and whether it changed anything.
func Install(ctx context.Context, dir, binary string) (string, bool, error) {
	path, err := HookPath(ctx, dir)
	if err != nil {
		return "", false, err
	}
	line := callLine(binary)
	old, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		text := "#!/bin/sh\n# Installed by magehook (go tool mage hook:install -githook).\n" + line + "\n"
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return "", false, err
		}
		return path, true, atomicfile.WriteFile(path, []byte(text), 0o755)
	}
	if err != nil {
		return "", false, err
	}
	lines := strings.Split(string(old), "\n")
	for i, l := range lines {
		if strings.HasSuffix(l, Marker) {
			if l == line {
				return path, false, nil
			}
			lines[i] = line
			return path, true, rewrite(path, []byte(strings.Join(lines, "\n")))
		}
	}
	if !isShellScript(old) {
		return "", false, fmt.Errorf("%s exists and is not a shell script, so magehook cannot chain into it; add this line to it yourself: %s", path, line)
	}
	// Chain: run magehook first, then the foreign hook's own lines.
	out := append([]string{lines[0], line}, lines[1:]...)
	return path, true, rewrite(path, []byte(strings.Join(out, "\n")))
}

// Uninstall removes magehook's line from the commit-msg hook, and the hook
// itself when magehook wrote all of it.
func Uninstall(ctx context.Context, dir string) (string, bool, error) {
	path, err := HookPath(ctx, dir)
	if err != nil {
		return "", false, err
	}
	old, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return path, false, nil
	}
	if err != nil {
		return "", false, err
	}
	var kept []string
	for _, l := range strings.Split(string(old), "\n") {
		if !strings.HasSuffix(l, Marker) {
			kept = append(kept, l)
		}
	}
	text := strings.Join(kept, "\n")
	if text == string(old) {
		return path, false, nil
	}
	if strings.HasPrefix(text, "#!/bin/sh\n# Installed by magehook") && strings.Count(strings.TrimSpace(text), "\n") == 1 {
		return path, true, os.Remove(path)
	}
	return path, true, rewrite(path, []byte(text))
}

func isShellScript(data []byte) bool {
	first, _, _ := bytes.Cut(data, []byte("\n"))
	s := string(first)
	if !strings.HasPrefix(s, "#!") {
		return false
	}
	for _, sh := range []string{"/sh", "/bash", "/zsh", "/dash", "/ksh", "env sh", "env bash", "env zsh"} {
		if strings.Contains(s, sh) {
			return true
		}
	}
	return false
}

func rewrite(path string, data []byte) error {
	return atomicfile.WriteFile(path, data, 0o755)
}
