// Package buildinfo builds the hook binary and says whether a built binary
// is stale.
//
// The binary is the checkout's magefiles compiled by Mage (go tool mage
// -compile), never go run (which turns exit 2 into 1) nor plain mage
// (parallel runs race on magefiles/mage_output_file.go). Build stamps the
// binary with a hash of the sources it was compiled from — go.mod, go.sum
// and every Go file of the main module that the magefiles import — and
// SourceHash computes the same hash from the working tree, so the doctor
// can tell a stale binary from a current one.
package buildinfo

import (
	"bufio"
	"bytes"
	"context"
	"encoding/hex"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/magehook/magehook/pkg/gitx"
	"github.com/magehook/magehook/pkg/proc"
)

// Source is the hash of the sources the running binary was built from. The
// linker sets it (-X); it is empty in a binary Build did not make.
var Source string

// sourceVar is the linker path of Source.
const sourceVar = "github.com/magehook/magehook/pkg/buildinfo.Source"

// Build compiles the magefiles of root into out (made absolute: Mage
// resolves a relative -compile path against magefiles/). It compiles into
// a temporary file next to out, with GCEnv's environment, and puts it over
// out with Place, so a hook running at that moment runs the old binary or
// the new one, never half of one.
// The go command's output goes to log.
func Build(ctx context.Context, root, out string, log io.Writer) error {
	if !filepath.IsAbs(out) {
		out = filepath.Join(root, out)
	}
	removeBrokenMainfile(root)
	hash, err := SourceHash(ctx, root)
	if err != nil {
		return err
	}
	return build(ctx, root, out, hash, log)
}

// stopGrace is how long a build stopped by its context has between
// SIGTERM and SIGKILL: the hook's own timeout is a few seconds past the
// build's.
const stopGrace = time.Second

func build(ctx context.Context, root, out, hash string, log io.Writer) error {
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return err
	}
	tmp := tempPath(out, os.Getpid())
	defer os.Remove(tmp)
	dir, args := Mage(root, "-compile", tmp, "-ldflags", strings.TrimSpace("-s -w -X "+sourceVar+"="+hash+" "+gitx.LinkerFlag()))
	removeBrokenMainfile(root)
	// In a process group of its own, stopped whole: go tool mage runs
	// Mage, which runs the compiler, and a build that outlived a timeout
	// would go on writing the mainfile and the binary's temporary file.
	err := proc.RunGroupGrace(ctx, stopGrace, dir, GCEnv(ctx, dir), log, "go", args...)
	removeBrokenMainfile(root) // a build that failed writing it leaves it
	if err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("go tool mage -compile %s in %s: %w", out, root, ctx.Err())
		}
		return fmt.Errorf("go tool mage -compile %s in %s: %w", out, root, err)
	}
	// The handler set is fixed at build: it is checked here, once, and a
	// binary this build made does not check it again on every call.
	check := exec.CommandContext(ctx, tmp, "hook:check")
	check.Dir = root
	var msg bytes.Buffer
	check.Stdout, check.Stderr = &msg, &msg
	if err := check.Run(); err != nil {
		return fmt.Errorf("the handler set compiled into %s does not hold (%v): %s", out, err, strings.TrimSpace(msg.String()))
	}
	if err := Place(tmp, out); err != nil {
		return fmt.Errorf("put the new binary in place: %w", err)
	}
	return nil
}

// GCEnv is the environment the hook binary is built with beyond the
// caller's: GOEXPERIMENT=nogreenteagc where the go command in dir knows
// that experiment and the caller sets none.
//
// Why: a hook call ends before its heap is ever collected, and the Green
// Tea collector (Go 1.26's default) keeps the mark bits of each span of
// small objects at the span's end, so every size class a call allocates
// in touches one more fresh page; a hook call touches about 25 pages fewer
// with the classic collector, and its fresh pages are most of what it
// costs (docs/performance.md). A Go that no longer knows the experiment
// (the opt-out is to go in a later release) builds with its default.
func GCEnv(ctx context.Context, dir string) []string {
	if os.Getenv("GOEXPERIMENT") != "" {
		return nil
	}
	probe := exec.CommandContext(ctx, "go", "env", "GOEXPERIMENT")
	probe.Dir = dir
	probe.Env = append(os.Environ(), "GOEXPERIMENT=nogreenteagc")
	if out, err := probe.Output(); err != nil || !strings.Contains(string(out), "nogreenteagc") {
		return nil
	}
	return []string{"GOEXPERIMENT=nogreenteagc"}
}

// mainfile is the file Mage generates next to the magefiles while it
// compiles them; it starts with an ignore constraint, so that go list and
// the next Mage run skip it.
const mainfile = "mage_output_file.go"

// Mainfile is where Mage writes the generated main of root's magefiles
// while it compiles them (and removes it after): a build that is stopped
// leaves it there, so it is one of the paths install ignores.
func Mainfile(root string) string {
	if HasMagefiles(root) {
		return filepath.Join(root, "magefiles", mainfile)
	}
	return filepath.Join(root, mainfile)
}

// removeBrokenMainfile removes a mainfile Mage did not finish writing (a
// full disk, a build killed at the wrong moment): one without its ignore
// constraint is a Go file of the magefiles package that does not parse,
// and every later go tool mage fails on it. A whole one, or one that
// another build is writing past its first line, is left alone.
func removeBrokenMainfile(root string) {
	for _, dir := range []string{filepath.Join(root, "magefiles"), root} {
		p := filepath.Join(dir, mainfile)
		f, err := os.Open(p)
		if err != nil {
			continue
		}
		head := make([]byte, len("//go:build ignore\n"))
		n, _ := io.ReadFull(f, head)
		f.Close()
		if string(head[:n]) != "//go:build ignore\n" {
			os.Remove(p)
		}
	}
}

// HookModule reports whether the magefiles of root are a module of their
// own (magefiles/go.mod): the hook build then leaves the checkout's own
// module, if it has one, as it was. Mage, its tool line and magehook's
// requirement live in magefiles/go.mod; Mage runs from there.
func HookModule(root string) bool {
	info, err := os.Stat(filepath.Join(root, "magefiles", "go.mod"))
	return err == nil && info.Mode().IsRegular()
}

// ModuleDir is the directory of the module the hook binary is built from:
// magefiles/ when it is a module of its own, else root.
func ModuleDir(root string) string {
	if HookModule(root) {
		return filepath.Join(root, "magefiles")
	}
	return root
}

// Mage is how to run Mage on root's magefiles with args: the directory
// to start go in and go's arguments. With a hook module, go tool mage runs
// in magefiles/ (where the tool line is), reads the magefiles there and
// runs targets in root (-w); otherwise it runs in root.
func Mage(root string, args ...string) (dir string, goArgs []string) {
	if HookModule(root) {
		return filepath.Join(root, "magefiles"), append([]string{"tool", "mage", "-w", root}, args...)
	}
	return root, append([]string{"tool", "mage"}, args...)
}

// Typed is how a person runs magehook's targets in root, for messages:
// go tool mage where the checkout's module has the tool line, else (a
// hook module) the built hook binary, bin relative to root.
func Typed(root, bin string) string {
	if !HookModule(root) {
		return "go tool mage"
	}
	if r, err := filepath.Rel(root, bin); err == nil && !strings.HasPrefix(r, "..") {
		bin = r
	}
	return filepath.ToSlash(bin)
}

// Run is how a person runs Mage on root's magefiles from root, with or
// without a built hook binary, for the fix a message names: go tool mage
// where the checkout's module has the tool line, else (a hook module)
// go -C magefiles tool mage -w .., which Typed's binary stands for once it
// is built.
func Run(root string) string {
	if !HookModule(root) {
		return "go tool mage"
	}
	return "go -C magefiles tool mage -w .."
}

// InCheckout rewrites the fixes a message names ("run go tool mage
// <target>") to the form that works in root (Run).
func InCheckout(root, msg string) string {
	if !strings.Contains(msg, "go tool mage ") || !HookModule(root) {
		return msg
	}
	return strings.ReplaceAll(msg, "go tool mage ", Run(root)+" ")
}

// HasMagefiles reports whether root holds a magefiles directory.
func HasMagefiles(root string) bool {
	info, err := os.Stat(filepath.Join(root, "magefiles"))
	return err == nil && info.IsDir()
}

// SourceHash hashes (FNV-128a: a change detector, not a security
// measure; crypto/sha256 would add its package inits to every hook start)
// go.mod, go.sum and the Go files of every main-module
// package the magefiles of root depend on (as go list -deps -tags mage
// reports them), by path relative to root and content. With a hook module
// (magefiles/go.mod) the go.mod and go.sum are magefiles/'s.
func SourceHash(ctx context.Context, root string) (string, error) {
	dir, pattern := root, "./magefiles"
	if HookModule(root) {
		dir, pattern = filepath.Join(root, "magefiles"), "."
	}
	cmd := exec.CommandContext(ctx, "go", "list", "-tags", "mage", "-deps",
		"-f", `{{if .Module}}{{if .Module.Main}}{{.Dir}}{{range .GoFiles}}{{"\t"}}{{.}}{{end}}{{range .EmbedFiles}}{{"\t"}}{{.}}{{end}}{{end}}{{end}}`,
		pattern)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	listing, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("go list the magefiles' packages in %s: %v: %s", root, err, strings.TrimSpace(stderr.String()))
	}
	files := []string{filepath.Join(dir, "go.mod"), filepath.Join(dir, "go.sum")}
	sc := bufio.NewScanner(bytes.NewReader(listing))
	for sc.Scan() {
		fields := strings.Split(sc.Text(), "\t")
		for _, f := range fields[1:] {
			files = append(files, filepath.Join(fields[0], f))
		}
	}
	sort.Strings(files)
	h := fnv.New128a()
	for _, f := range files {
		data, err := os.ReadFile(f)
		if os.IsNotExist(err) && strings.HasSuffix(f, "go.sum") {
			continue
		}
		if err != nil {
			return "", err
		}
		rel, _ := filepath.Rel(root, f)
		fmt.Fprintf(h, "%s\x00%d\x00", filepath.ToSlash(rel), len(data))
		h.Write(data)
	}
	return hex.EncodeToString(h.Sum(nil))[:16], nil
}

// BinarySource runs a built binary's hook:version target, which prints the
// source hash the binary was stamped with (empty for a binary Build did not
// make).
func BinarySource(path string) (string, error) {
	cmd := exec.Command(path, "hook:version")
	var out bytes.Buffer
	cmd.Stdout = &out
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("run %s hook:version: %w", path, err)
	}
	return strings.TrimSpace(out.String()), nil
}
