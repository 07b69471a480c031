// Package targets is magehook's Mage plugin. A repository gets every target
// by importing it from its magefile:
//
//	//mage:import
//	_ "github.com/magehook/magehook/magefiles/targets"
//
// The targets are thin: they read arguments, call pkg/, and turn the result
// into an exit code. Each hook:<event> target answers one Claude Code event
// and sets the process's exit code itself, message first, so that Mage's
// own error printing never reaches the harness.
package targets

import (
	"context"
	"fmt"
	"os"

	"github.com/magefile/mage/mg"

	"github.com/magehook/magehook/hooks"
	"github.com/magehook/magehook/pkg/buildinfo"
	"github.com/magehook/magehook/pkg/harness"
	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/lifecycle"
	"github.com/magehook/magehook/pkg/settings"
	"github.com/magehook/magehook/pkg/toolingrc"
)

// Hook answers hook events and manages the checkout's hook wiring.
type Hook mg.Namespace

// Local holds a repository's own handlers, next to the catalogue. A
// magefile adds them in its init function; .toolingrc enables them by name
// with hook.enable, like catalogue entries.
var Local []hook.Handler

func handlers() []hook.Handler { return append(hooks.All(), Local...) }

// checkedHandlers is handlers() after the whole set (builtin ones included)
// is validated: install and list refuse a set that cannot work, naming the
// handler (exit 3), as dispatch does.
func checkedHandlers() []hook.Handler {
	hs := handlers()
	if err := hook.ValidateSet(hs, lifecycleHandlers()); err != nil {
		fail(hook.ExitConfig, err)
	}
	return hs
}

func lifecycleHandlers() []hook.Handler { return lifecycle.Handlers() }

func answer(ctx context.Context, event string, harness *string) {
	os.Exit(resume(ctx, event, harness))
}

// hookSet is what the hook binary answers with: the catalogue and the
// repository's own handlers (local; the catalogue alone before package
// main's init has run), the builtin ones, and the check for installed
// entries.
func hookSet(local bool) hook.Set {
	hs := hooks.All()
	if local {
		hs = handlers()
	}
	return hook.Set{Handlers: hs, Builtin: lifecycleHandlers(), Installed: settings.Installed, Harnesses: harness.Hook}
}

// List prints the hook catalogue: name, events, matcher, failure policy,
// whether this checkout enables it, and its purpose.
func (Hook) List() {
	hs := checkedHandlers()
	var enabled map[string]bool
	if cfg, err := toolingrc.Discover(startDir()); err == nil {
		warnUnknown(cfg)
		if on, err := hook.Enabled(cfg, hs); err == nil {
			enabled = map[string]bool{}
			for _, h := range on {
				enabled[h.Name] = true
			}
		}
	}
	if err := hook.List(os.Stdout, hs, enabled); err != nil {
		fmt.Fprintln(os.Stderr, "magehook: hook:list:", err)
		os.Exit(hook.ExitFail)
	}
}

// Version prints the source hash this binary was built from (empty for a
// binary hook:build did not make).
func (Hook) Version() {
	fmt.Println(buildinfo.Source)
}

// Build compiles this checkout's magefiles into the hook binary
// (hook.binary in .toolingrc, bin/magehook by default), stamped with the
// hash of its sources.
func (Hook) Build(ctx context.Context) {
	cfg, err := toolingrc.Discover(startDir())
	if err != nil {
		fail(hook.ExitConfig, err)
	}
	bin, err := cfg.Get(toolingrc.KeyHookBinary)
	if err != nil {
		fail(hook.ExitConfig, err)
	}
	if err := buildinfo.Build(ctx, cfg.Root(), bin.Abs(), os.Stderr); err != nil {
		fail(hook.ExitFail, err)
	}
	fmt.Fprintln(os.Stderr, "magehook: built", bin.Abs())
}

// startDir is where configuration discovery starts for an operator's
// command: MAGEHOOK_ROOT when set, else the working directory.
func startDir() string {
	if root := os.Getenv(toolingrc.RootEnv); root != "" {
		return root
	}
	return "."
}

// warnUnknown prints a line for every key in magehook's prefixes that
// magehook does not read (a typo), with the key it most likely means.
func warnUnknown(cfg *toolingrc.Config) {
	for _, u := range cfg.Unknowns() {
		fmt.Fprintln(os.Stderr, "magehook: warning:", u)
	}
}

func fail(code int, err error) {
	fmt.Fprintln(os.Stderr, "magehook:", err)
	os.Exit(code)
}
