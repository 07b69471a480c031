package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"

	"github.com/bitfield/script"

	"github.com/magehook/magehook/pkg/harness"
)

// MinGo is the go line of magehook's go.mod: the least a consumer's go.mod
// may say (a test keeps the two in step).
const MinGo = "1.26.0"

// olderGo reports whether Go version a ("1.21", "1.22.3") is older than b,
// comparing the numeric parts (a release candidate counts as its release).
func olderGo(a, b string) bool {
	pa, pb := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < max(len(pa), len(pb)); i++ {
		var x, y int
		if i < len(pa) {
			x = leadingInt(pa[i])
		}
		if i < len(pb) {
			y = leadingInt(pb[i])
		}
		if x != y {
			return x < y
		}
	}
	return false
}

func leadingInt(s string) int {
	n := 0
	for _, r := range s {
		if r < '0' || r > '9' {
			break
		}
		n = n*10 + int(r-'0')
	}
	return n
}

// modInfo is what go mod edit -json prints, as far as init reads it.
type modInfo struct {
	Module  struct{ Path string }
	Go      string
	Require []struct{ Path, Version string }
	Replace []struct {
		Old struct{ Path string }
		New struct{ Path, Version string }
	}
	Tool []struct{ Path string }
}

func (m modInfo) requires(path string) bool {
	for _, r := range m.Require {
		if r.Path == path {
			return true
		}
	}
	return false
}

func (m modInfo) hasTool(path string) bool {
	for _, t := range m.Tool {
		if t.Path == path {
			return true
		}
	}
	return false
}

// replacement is what go.mod replaces path with: a directory (Version
// "") or another module.
func (m modInfo) replacement(path string) (struct{ Path, Version string }, bool) {
	for _, r := range m.Replace {
		if r.Old.Path == path {
			return r.New, true
		}
	}
	return struct{ Path, Version string }{}, false
}

// hookModule reports whether init adopts root with a hook module of its
// own (magefiles/go.mod), leaving the repository's own go.mod, if any, as
// it was: always, unless the repository's module already requires magehook
// (adopted before hook modules) or already holds magefiles of its own,
// which belong to it (Mage's usual layout): magehook then joins that
// module, as it always did.
func hookModule(root string) bool {
	if regular(filepath.Join(root, "magefiles", "go.mod")) {
		return true
	}
	if !regular(filepath.Join(root, "go.mod")) {
		return true
	}
	if data, err := os.ReadFile(filepath.Join(root, "go.mod")); err == nil && strings.Contains(string(data), Module) {
		return false
	}
	entries, _ := os.ReadDir(filepath.Join(root, "magefiles"))
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".go") {
			return false
		}
	}
	return true
}

// hookModulePath names a new hook module: the repository module's path
// with /magefiles, or the directory's name with it.
func hookModulePath(root string) string {
	if path, err := modulePathOf(filepath.Join(root, "go.mod")); err == nil {
		return path + "/magefiles"
	}
	return modulePath(filepath.Base(root)) + "/magefiles"
}

// hookGoMod is a new hook module's go.mod before the go command adds the
// requirements: magehook's own floor as its go line.
func hookGoMod(path string) string {
	return "// The hook module: Mage, magehook and this repository's hook\n// handlers, built into bin/magehook. The repository's own go.mod (if\n// any) does not see it. Written by magehook init.\nmodule " + path + "\n\ngo " + MinGo + "\n"
}

// workspaceStep keeps a hook module out of a workspace around it. Below
// a go.work that does not list magefiles/, every go command there fails
// ("no such tool", "not one of the workspace modules"), the installed
// hook commands included; that go.work is the repository's build, not
// init's to edit. A go.work in magefiles/ that uses only the hook module
// is the one the go command finds first there.
func workspaceStep(root, in string) (step, bool) {
	if _, err := os.Lstat(filepath.Join(in, "go.work")); err == nil {
		return step{}, false
	}
	out, err := script.Exec("go env GOWORK").WithStderr(io.Discard).String()
	work := strings.TrimSpace(out)
	if err != nil || work == "" || work == "off" {
		return step{}, false
	}
	if regular(filepath.Join(in, "go.mod")) {
		// An existing hook module the workspace lists already builds.
		if err := script.Exec("go -C " + shellArg(in) + " list -m").WithStdout(io.Discard).WithStderr(io.Discard).Wait(); err == nil {
			return step{}, false
		}
	}
	text := workText(rel(root, work))
	return step{what: "write magefiles/go.work (" + rel(root, work) + " does not list the hook module, and every go command in magefiles/ would use it; this one lists magefiles/ alone, and " + rel(root, work) + " stays as it is)", text: text, do: func() error {
		if err := os.MkdirAll(in, 0o755); err != nil {
			return err
		}
		return writeNew(filepath.Join(in, "go.work"), text)
	}}, true
}

// workText is the hook module's own go.work.
func workText(outer string) string {
	return "// The hook module's own workspace: the go command finds it before\n// " + outer + ", which does not list this module. Written by magehook init.\ngo " + MinGo + "\n\nuse .\n"
}

func plan(root string, o options) (steps []step, notes []note, err error) {
	// in is where the go command edits the module the hook binary is
	// built from: magefiles/ for a hook module, else the root.
	in, inArgs := root, func(args ...string) []string { return args }
	var mod modInfo
	if hookModule(root) {
		in = filepath.Join(root, "magefiles")
		inArgs = func(args ...string) []string { return append([]string{"-C", "magefiles"}, args...) }
	}
	gomod := filepath.Join(in, "go.mod")
	if _, err := os.Stat(gomod); errors.Is(err, os.ErrNotExist) {
		if in != root {
			path := hookModulePath(root)
			text := hookGoMod(path)
			steps = append(steps, step{what: "write magefiles/go.mod (the hook module " + path + ": Mage and magehook are required there; the repository's own go.mod, if any, stays as it is)", text: text, do: func() error {
				if err := os.MkdirAll(in, 0o755); err != nil {
					return err
				}
				return writeNew(gomod, text)
			}})
		} else {
			name := modulePath(filepath.Base(root))
			steps = append(steps, step{what: "go mod init " + name, do: func() error { return goCommand(o, "mod", "init", name) }})
		}
	} else {
		out, err := script.Exec("go " + strings.Join(inArgs("mod", "edit", "-json"), " ")).WithStderr(o.Stderr).String()
		if err != nil {
			return nil, nil, fmt.Errorf("read %s: %w (fix it, then run init again)", rel(root, gomod), err)
		}
		if err := json.Unmarshal([]byte(out), &mod); err != nil {
			return nil, nil, fmt.Errorf("read %s: %w", rel(root, gomod), err)
		}
	}
	if mod.Module.Path == Module {
		return nil, nil, errors.New("this is magehook's own repository: init adopts magehook in another one")
	}
	if in != root {
		if s, ok := workspaceStep(root, in); ok {
			steps = append(steps, s)
		}
	}
	prefix := "go "
	if in != root {
		prefix = "go -C magefiles "
	}
	// The go command would raise an older go line on its own (go get,
	// go mod tidy) without a word; raising it is a step the user sees.
	// (A hook module's go line is magehook's from the start.)
	if mod.Go != "" && olderGo(mod.Go, MinGo) {
		old := mod.Go
		steps = append(steps, step{what: prefix + "mod edit -go=" + MinGo + " (" + rel(root, gomod) + " said go " + old + "; magehook needs Go " + MinGo + ")", do: func() error {
			return goCommand(o, inArgs("mod", "edit", "-go="+MinGo)...)
		}})
	}
	if !mod.hasTool(MageModule) {
		steps = append(steps, step{what: prefix + "get -tool " + MageModule + "@" + MageVersion, do: func() error {
			return goCommand(o, inArgs("get", "-tool", MageModule+"@"+MageVersion)...)
		}})
	}
	rep, replaced := mod.replacement(Module)
	switch {
	case o.Replace != "":
		dir := o.replaceDir
		if path, err := modulePathOf(filepath.Join(dir, "go.mod")); err != nil {
			return nil, nil, fmt.Errorf("-replace=%s: no go.mod there; name a checkout of %s", o.Replace, Module)
		} else if path != Module {
			return nil, nil, fmt.Errorf("-replace=%s: its go.mod is module %s, not %s; name a checkout of magehook", o.Replace, path, Module)
		}
		var edits, what []string
		if !mod.requires(Module) {
			edits = append(edits, "-require="+Module+"@"+zeroVersion)
			what = append(what, "-require "+Module+"@"+zeroVersion)
		}
		if !replaced || rep.Version != "" || !sameFile(resolve(in, rep.Path), dir) {
			edits = append(edits, "-replace="+Module+"="+dir)
			w := "-replace " + Module + "=" + dir
			if replaced {
				w += " (it pointed at " + rep.Path + ")"
			}
			what = append(what, w+" (a directory replace: every clone needs magehook at that path, or its own -replace)")
		}
		if len(edits) > 0 {
			steps = append(steps, step{what: prefix + "mod edit " + strings.Join(what, " "), do: func() error {
				return goCommand(o, inArgs(append([]string{"mod", "edit"}, edits...)...)...)
			}})
		}
	case replaced && rep.Version == "":
		if _, err := os.Stat(filepath.Join(resolve(in, rep.Path), "go.mod")); err != nil {
			return nil, nil, fmt.Errorf("%s replaces %s with %s, which holds no checkout of it here: clone magehook there, or point the replace at your copy (%smod edit -replace=%s=<dir>, or magehook init -replace=<dir>)", rel(root, gomod), Module, rep.Path, prefix, Module)
		}
		if !mod.requires(Module) {
			steps = append(steps, step{what: prefix + "mod edit -require " + Module + "@" + zeroVersion + " (" + rel(root, gomod) + " replaces it with " + rep.Path + ")", do: func() error {
				return goCommand(o, inArgs("mod", "edit", "-require="+Module+"@"+zeroVersion)...)
			}})
		}
	case !mod.requires(Module):
		v := ownVersion()
		if v == "" {
			return nil, nil, fmt.Errorf("this init was not run as go run %s/cmd/magehook@<version>, so it cannot tell which version to require: pass -replace=<a checkout of magehook>", Module)
		}
		steps = append(steps, step{what: prefix + "get " + Module + "@" + v, do: func() error { return goCommand(o, inArgs("get", Module+"@"+v)...) }})
	}

	s, n, err := magefileStep(root, o)
	if err != nil {
		return nil, nil, err
	}
	steps, notes = append(steps, s...), append(notes, n...)
	for _, n := range n {
		if n.blocking {
			return steps, notes, nil // nothing will run: ask nothing
		}
	}

	if !o.User {
		// The user scope's policy is the user's own ~/.toolingrc
		// (initUser), not one in its build directory.
		s, n, err = toolingrcStep(root, o)
		if err != nil {
			return nil, nil, err
		}
		steps, notes = append(steps, s...), append(notes, n...)
	}

	// A vendored module builds from vendor/: magehook, Mage and the
	// ensure command the first hook runs (go run, so a tool line) must be
	// vendored, or every go command stops at "inconsistent vendoring". (A
	// hook module has no vendor/ of its own: the repository's is not its.)
	vendored := regular(filepath.Join(in, "vendor", "modules.txt"))
	if vendored && !mod.hasTool(harness.EnsurePackage) {
		steps = append(steps, step{what: "go mod edit -tool=" + harness.EnsurePackage + " (a vendored repository: the first hook runs it with go run)", do: func() error {
			return goCommand(o, "mod", "edit", "-tool="+harness.EnsurePackage)
		}})
	}
	if len(steps) > 0 {
		steps = append(steps, step{what: prefix + "mod tidy", do: func() error { return goCommand(o, inArgs("mod", "tidy")...) }})
	}
	if vendored && (len(steps) > 0 || !vendors(filepath.Join(root, "vendor", "modules.txt"), Module)) {
		steps = append(steps, step{what: "go mod vendor (the repository vendors its dependencies)", do: func() error { return goCommand(o, "mod", "vendor") }})
	}
	return steps, notes, nil
}

func regular(path string) bool {
	info, err := os.Stat(path)
	return err == nil && info.Mode().IsRegular()
}

// vendors reports whether vendor/modules.txt lists module.
func vendors(modulesTxt, module string) bool {
	data, err := os.ReadFile(modulesTxt)
	if err != nil {
		return false
	}
	for _, line := range strings.Split(string(data), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "#" && f[1] == module {
			return true
		}
	}
	return false
}

// modulePathOf reads the module line of a go.mod file.
func modulePathOf(gomod string) (string, error) {
	data, err := os.ReadFile(gomod)
	if err != nil {
		return "", err
	}
	for _, line := range strings.Split(string(data), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "module" {
			return strings.Trim(f[1], `"`), nil
		}
	}
	return "", fmt.Errorf("%s: no module line", gomod)
}

// zeroVersion is the version a requirement satisfied by a directory
// replace names.
const zeroVersion = "v0.0.0-00010101000000-000000000000"

// resolve makes a go.mod replace path absolute: a relative one is relative
// to the module's directory.
func resolve(root, path string) string {
	if filepath.IsAbs(path) {
		return path
	}
	return filepath.Join(root, path)
}

// ownVersion is the version go run module@version built this program at,
// or "" for a development build.
func ownVersion() string {
	info, ok := debug.ReadBuildInfo()
	if !ok || info.Main.Path != Module || info.Main.Version == "" || info.Main.Version == "(devel)" {
		return ""
	}
	return info.Main.Version
}

// modulePath makes a module path out of a directory name.
func modulePath(base string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(base) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '-', r == '_', r == '.':
			b.WriteRune(r)
		default:
			b.WriteByte('-')
		}
	}
	if b.Len() == 0 {
		return "hooks"
	}
	return b.String()
}

// localReplace is the directory go.mod's replace of magehook names, when
// it names one.
func localReplace(root string) (string, bool) {
	cmd := "go mod edit -json"
	if regular(filepath.Join(root, "magefiles", "go.mod")) {
		cmd = "go -C magefiles mod edit -json"
	}
	out, err := script.Exec(cmd).WithStderr(io.Discard).String()
	if err != nil {
		return "", false
	}
	var mod modInfo
	if json.Unmarshal([]byte(out), &mod) != nil {
		return "", false
	}
	r, ok := mod.replacement(Module)
	if !ok || r.Version != "" {
		return "", false
	}
	return r.Path, true
}
