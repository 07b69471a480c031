// Package targets is magehook's Mage plugin. A repository gets every target
// by importing it from its magefile:
//
//	//mage:import
//	_ "github.com/magehook/magehook/magefiles/targets"
//
// The operator targets are thin: each reads its arguments and calls one
// function that takes its world (working directory, environment, streams:
// a world value) and returns an error carrying its exit code, as
// mg.Fatal's errors do. Mage's generated main is the one place that reads
// it: it prints "Error: <message>" on stderr and exits with the error's
// ExitStatus (docs/commands.md's table: 1 failure, 2 usage, 3 configuration). A
// magefile that calls a target (a Bootstrap calling Hook{}.Build) gets the
// error back instead of a process that ends under it.
//
// Each hook:<event> target answers one agent event and sets the process's
// exit code itself, message first, so that Mage's own error printing never
// reaches the harness and the hot path pays for nothing more.
package targets

import (
	"context"
	"errors"
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
func checkedHandlers() ([]hook.Handler, error) {
	hs := handlers()
	if err := hook.ValidateSet(hs, lifecycleHandlers()); err != nil {
		return nil, configErr(err)
	}
	return hs, nil
}

func lifecycleHandlers() []hook.Handler { return append(lifecycle.Handlers(), otelHandlers()...) }

func answer(ctx context.Context, event string, agent *string) {
	os.Exit(harness.Seal(resume(ctx, event, agent), os.Getenv, os.Getppid()))
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
	return hook.Set{Handlers: hs, Builtin: lifecycleHandlers(), Installed: settings.Installed, Harnesses: harness.Hook,
		Checked: buildinfo.Source != "", User: userScope()}
}

// userScope is the user scope of a binary a user-scope entry started
// (magehook init -user; harness.UserScope), nil for any other start.
func userScope() *hook.UserScope {
	if !harness.UserScope(os.Getenv, os.Getppid()) {
		return nil
	}
	home, _ := os.UserHomeDir()
	return &hook.UserScope{Home: home, RunsOwn: settings.RunsOwn}
}

// List prints the hook catalogue: name, events, matcher, failure policy,
// whether this checkout enables it, and its purpose.
func (Hook) List() error { return osWorld().list() }

func (w world) list() error {
	hs, err := checkedHandlers()
	if err != nil {
		return err
	}
	// The catalogue is listed whatever the configuration says; a
	// configuration that does not read (which closes the gates) is said
	// after it, with exit 3, and the ENABLED column shows "?".
	var enabled map[string]bool
	cfg, cerr := toolingrc.Discover(w.start())
	if cerr == nil {
		w.warnUnknown(cfg)
		var on []hook.Handler
		if on, cerr = hook.Enabled(cfg, hs); cerr == nil {
			cerr = cfg.GateTypo()
			enabled = map[string]bool{}
			for _, h := range on {
				enabled[h.Name] = true
			}
		}
	}
	if err := hook.List(w.stdout, hs, enabled); err != nil {
		return failure(fmt.Errorf("hook:list: %w", err))
	}
	if cerr != nil && !errors.Is(cerr, toolingrc.ErrNotFound) {
		return configErr(cerr)
	}
	return nil
}

// Check checks the handler set compiled into this binary — each handler's
// name, events, matcher and policy, and no name given twice — and exits 3
// naming the handler at fault. Every binary hook:build makes passes it
// first, and does not check its set again on each call.
func (Hook) Check() error {
	_, err := checkedHandlers()
	return err
}

// Version prints the source hash this binary was built from (empty for a
// binary hook:build did not make).
func (Hook) Version() {
	fmt.Println(buildinfo.Source)
}

// Build compiles this checkout's magefiles into the hook binary
// (hook.binary in .toolingrc, bin/magehook by default), stamped with the
// hash of its sources.
func (Hook) Build(ctx context.Context) error { return osWorld().build(ctx) }

func (w world) build(ctx context.Context) error {
	cfg, err := toolingrc.Discover(w.start())
	if err != nil {
		return configErr(err)
	}
	bin, err := cfg.Get(toolingrc.KeyHookBinary)
	if err != nil {
		return configErr(err)
	}
	if err := buildinfo.Build(ctx, cfg.Root(), bin.Abs(), w.stderr); err != nil {
		return failure(err)
	}
	fmt.Fprintln(w.stderr, "magehook: built", bin.Abs())
	return nil
}
