package targets

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/magehook/magehook/hooks/commitmsg"
	"github.com/magehook/magehook/pkg/buildinfo"
	harnesspkg "github.com/magehook/magehook/pkg/harness"
	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/settings"
	"github.com/magehook/magehook/pkg/toolingrc"
)

// Install builds the hook binary (in a checkout with magefiles) and writes
// this checkout's hook entries into the agent's configuration, keeping
// every foreign key and hook. -scope=project (.claude/settings.json, the
// default), local (.claude/settings.local.json) or user
// (~/.claude/settings.json); -harness=claude (the default), codex,
// copilot, cursor, gemini, opencode or all; -dryrun prints the diff and
// writes nothing; -githook also installs the git commit-msg hook
// (hooks/commitmsg) into the hooks directory git uses, chaining into an
// existing one. The checkout's .gitignore gets a line for each of the
// binary, the state directory, the library clone and the worktree base
// that git does not ignore yet (shown in -dryrun).
func (Hook) Install(ctx context.Context, scope *string, dryrun *bool, githook *bool, harness *string) {
	ins := installers(scope, dryrun, harness)
	cfg := ins[0].Config
	warnUnknown(cfg)
	root := cfg.Root()
	bin, err := cfg.Get(toolingrc.KeyHookBinary)
	if err != nil {
		fail(hook.ExitConfig, err)
	}
	switch {
	case ins[0].DryRun:
	case buildinfo.HasMagefiles(root):
		fmt.Fprintf(os.Stderr, "magehook: building %s from %s (a first build compiles every dependency: tens of seconds)\n", bin.Abs(), filepath.Join(root, "magefiles"))
		if err := buildinfo.Build(ctx, root, bin.Abs(), os.Stderr); err != nil {
			fail(hook.ExitFail, err)
		}
		fmt.Fprintf(os.Stderr, "magehook: built %s\n", bin.Abs())
	default:
		if _, err := os.Stat(bin.Abs()); err != nil {
			fmt.Fprintf(os.Stderr, "magehook: warning: %s does not exist and this checkout has no magefiles to build it; the entries will fail until it does\n", bin.Abs())
		}
	}
	if len(ins) > 1 && !ins[0].DryRun {
		// -harness=all: every file is checked before any is written, so a
		// refused file leaves all of them as they were.
		refused := 0
		for _, in := range ins {
			check := in
			check.DryRun = true
			if _, err := check.Install(); err != nil {
				fmt.Fprintf(os.Stderr, "magehook: %v\n", err)
				refused++
			}
		}
		if refused > 0 {
			fail(hook.ExitFail, fmt.Errorf("%d of %d files refused; nothing was written", refused, len(ins)))
		}
	}
	var wrote []string
	for _, in := range ins {
		out, err := in.Install()
		report(out, err, in.DryRun)
		if out.Changed && !in.DryRun {
			wrote = append(wrote, out.Target)
			if in.Harness != nil && in.Harness.Review != "" {
				fmt.Fprintln(os.Stderr, "magehook: "+in.Harness.Review)
			}
		}
	}
	if len(ins) > 1 && !ins[0].DryRun {
		if len(wrote) == 0 {
			fmt.Fprintln(os.Stderr, "magehook: every file was up to date; nothing was written")
		} else {
			fmt.Fprintf(os.Stderr, "magehook: wrote %d of %d files: %s\n", len(wrote), len(ins), strings.Join(wrote, ", "))
		}
	}
	ensureIgnored(ctx, cfg, ins[0].DryRun)
	if !ins[0].DryRun {
		defer fmt.Fprintln(os.Stderr, "magehook: next: commit the settings file, start a session in this checkout; go tool mage doctor checks the wiring, go tool mage hook:replay PreToolUse -tool=Bash -command='git push' tries a gate")
	}
	if githook != nil && *githook && !ins[0].DryRun {
		path, changed, err := commitmsg.Install(ctx, root, bin.Abs())
		if err != nil {
			fail(hook.ExitFail, err)
		}
		if changed {
			fmt.Fprintf(os.Stderr, "magehook: wrote the commit-msg hook %s\n", path)
		}
	}
}

// Uninstall removes this checkout's hook entries from the agent's
// configuration, and the groups and event keys that leaves empty;
// everything else stays. Takes -scope, -harness, -dryrun and -githook as
// install does.
func (Hook) Uninstall(ctx context.Context, scope *string, dryrun *bool, githook *bool, harness *string) {
	ins := installers(scope, dryrun, harness)
	for _, in := range ins {
		out, err := in.Uninstall()
		report(out, err, in.DryRun)
	}
	if githook != nil && *githook && !ins[0].DryRun {
		if _, _, err := commitmsg.Uninstall(ctx, ins[0].Config.Root()); err != nil {
			fail(hook.ExitFail, err)
		}
	}
}

// installers resolves the options: one installer per harness named.
func installers(scope *string, dryrun *bool, harness *string) []settings.Installer {
	hs0 := checkedHandlers()
	cfg, err := toolingrc.Discover(startDir())
	if err != nil {
		fail(hook.ExitConfig, err)
	}
	s, err := settings.ParseScope(deref(scope))
	if err != nil {
		fail(hook.ExitBlock, err)
	}
	var hs []*harnesspkg.Harness
	switch name := deref(harness); name {
	case "all":
		hs = harnesspkg.All()
	default:
		h, ok := harnesspkg.Lookup(name)
		if !ok {
			fail(hook.ExitBlock, fmt.Errorf("unknown harness %q; use %s or all", name, strings.Join(harnesspkg.Names(), ", ")))
		}
		hs = []*harnesspkg.Harness{h}
	}
	var out []settings.Installer
	for _, h := range hs {
		if !h.IsClaude() && s != settings.Project {
			fail(hook.ExitBlock, fmt.Errorf("-scope=%s is Claude Code's; %s has one project file (%s)", s, h.Name, settings.HarnessFile(h)))
		}
		out = append(out, settings.Installer{Config: cfg, Handlers: hs0, Scope: s, Harness: h, DryRun: dryrun != nil && *dryrun})
	}
	return out
}

func report(out settings.Outcome, err error, dryRun bool) {
	if err != nil {
		code := hook.ExitFail
		var cerr *toolingrc.Error
		if errors.As(err, &cerr) {
			code = hook.ExitConfig
		}
		fail(code, err)
	}
	switch {
	case dryRun && out.Reformatted && out.Diff == "":
		fmt.Fprintf(os.Stderr, "magehook: %s: no hook changes; install would only re-sort its keys (install writes keys sorted, two-space indented)\n", out.Target)
	case dryRun && out.Changed:
		if out.Reformatted {
			fmt.Fprintf(os.Stderr, "magehook: %s: install would also re-sort its keys (install writes keys sorted, two-space indented); the diff shows the change from the re-sorted file\n", out.Target)
		}
		fmt.Print(out.Diff)
	case !out.Changed:
		fmt.Fprintf(os.Stderr, "magehook: %s is up to date\n", out.Target)
	default:
		fmt.Fprintf(os.Stderr, "magehook: wrote %s", out.Target)
		if out.Backup != "" {
			fmt.Fprintf(os.Stderr, " (previous version kept in %s)", out.Backup)
		}
		fmt.Fprintln(os.Stderr)
	}
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
