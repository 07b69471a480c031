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
	"strings"

	"github.com/magefile/mage/mg"

	"github.com/magehook/magehook/hooks"
	"github.com/magehook/magehook/pkg/buildinfo"
	"github.com/magehook/magehook/pkg/harness"
	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/lifecycle"
	"github.com/magehook/magehook/pkg/toolingrc"
)

// Hook answers hook events and manages the checkout's hook wiring.
type Hook mg.Namespace

// Local holds a repository's own handlers, next to the catalogue. A
// magefile adds them in its init function; .toolingrc enables them by name
// with hook.enable, like catalogue entries.
var Local []hook.Handler

func handlers() []hook.Handler { return append(hooks.All(), Local...) }

func lifecycleHandlers() []hook.Handler { return lifecycle.Handlers() }

func answer(ctx context.Context, event string, name *string) {
	h, ok := harness.Lookup(deref(name))
	if !ok {
		fmt.Fprintf(os.Stderr, "magehook: unknown harness %q; use %s\n", deref(name), strings.Join(harness.Names(), ", "))
		os.Exit(hook.ExitBlock)
	}
	os.Exit(hook.Main(ctx, event, h, handlers(), lifecycleHandlers(), os.Args))
}

// List prints the hook catalogue: name, events, matcher, failure policy,
// whether this checkout enables it, and its purpose.
func (Hook) List() {
	var enabled map[string]bool
	if cfg, err := toolingrc.Discover(startDir()); err == nil {
		if v, err := cfg.Get(toolingrc.KeyHookEnable); err == nil {
			enabled = map[string]bool{}
			for _, name := range v.Values {
				enabled[name] = true
			}
		}
	}
	if err := hook.List(os.Stdout, handlers(), enabled); err != nil {
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

func fail(code int, err error) {
	fmt.Fprintln(os.Stderr, "magehook:", err)
	os.Exit(code)
}
