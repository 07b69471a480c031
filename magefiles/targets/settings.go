package targets

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/magehook/magehook/hooks/commitmsg"
	"github.com/magehook/magehook/pkg/buildinfo"
	harnesspkg "github.com/magehook/magehook/pkg/harness"
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
func (Hook) Install(ctx context.Context,
	scope *string, // project (default), local or user
	dryrun *bool, // print the diff, write nothing
	githook *bool, // also install git's commit-msg hook
	harness *string, // claude (default), any harness of docs/harnesses.md, or all
) error {
	return osWorld().install(ctx, installArgs{scope: deref(scope), dryRun: derefBool(dryrun), githook: derefBool(githook), harness: deref(harness)})
}

// installArgs are the options hook:install and hook:uninstall share.
type installArgs struct {
	scope, harness  string
	dryRun, githook bool
}

func (w world) install(ctx context.Context, a installArgs) error {
	ins, err := w.installers(a)
	if err != nil {
		return err
	}
	cfg := ins[0].Config
	w.warnUnknown(cfg)
	root := cfg.Root()
	bin, err := cfg.Get(toolingrc.KeyHookBinary)
	if err != nil {
		return configErr(err)
	}
	if !a.dryRun {
		// Every file is checked before anything is built or written, so a
		// file install refuses (one it cannot parse, say) leaves the
		// checkout as it was: no binary that no ignore line covers, no
		// other harness's file written.
		refused := 0
		var first error
		for _, in := range ins {
			check := in
			check.DryRun = true
			if _, err := check.Install(); err != nil {
				if len(ins) > 1 {
					fmt.Fprintf(w.stderr, "magehook: %v\n", err)
				}
				first = err
				refused++
			}
		}
		switch {
		case refused == 1 && len(ins) == 1:
			return w.report(settings.Outcome{}, fmt.Errorf("%w; nothing was built or written: run hook:install again once it is fixed", first), false)
		case refused > 0:
			return failure(fmt.Errorf("%d of %d files refused (above); nothing was built or written: fix them, then run hook:install again", refused, len(ins)))
		}
		// The ignore lines go first too: a build that fails or is
		// stopped leaves no binary git would offer to commit.
		w.ensureIgnored(ctx, cfg, false)
	}
	switch {
	case a.dryRun:
	case buildinfo.HasMagefiles(root):
		first := ""
		if _, err := os.Stat(bin.Abs()); err != nil {
			first = " (a first build compiles every dependency: tens of seconds)"
		}
		fmt.Fprintf(w.stderr, "magehook: building %s from %s%s\n", bin.Abs(), filepath.Join(root, "magefiles"), first)
		if err := buildinfo.Build(ctx, root, bin.Abs(), w.stderr); err != nil {
			return failure(err)
		}
		fmt.Fprintf(w.stderr, "magehook: built %s\n", bin.Abs())
	default:
		if _, err := os.Stat(bin.Abs()); err != nil {
			fmt.Fprintf(w.stderr, "magehook: warning: %s does not exist and this checkout has no magefiles to build it; the entries will fail until it does\n", bin.Abs())
		}
	}
	var wrote []string
	for _, in := range ins {
		out, err := in.Install()
		if err := w.report(out, err, in.DryRun); err != nil {
			return err
		}
		if out.Changed && !in.DryRun {
			wrote = append(wrote, out.Target)
			if in.Harness != nil && in.Harness.Review != "" {
				fmt.Fprintln(w.stderr, "magehook: "+in.Harness.Review)
			}
		}
	}
	if len(ins) > 1 && !a.dryRun {
		if len(wrote) == 0 {
			fmt.Fprintln(w.stderr, "magehook: every file was up to date; nothing was written")
		} else {
			fmt.Fprintf(w.stderr, "magehook: wrote %d of %d files: %s\n", len(wrote), len(ins), strings.Join(wrote, ", "))
		}
	}
	if a.dryRun {
		w.ensureIgnored(ctx, cfg, true)
		return nil
	}
	if a.githook {
		path, changed, err := commitmsg.Install(ctx, root, bin.Abs())
		if err != nil {
			return failure(err)
		}
		if changed {
			fmt.Fprintf(w.stderr, "magehook: wrote the commit-msg hook %s\n", path)
		}
	}
	if err := cfg.GateTypo(); err != nil {
		// The entries are in place, and they block every tool call until
		// the key is fixed: said as the configuration error it is.
		return configErr(fmt.Errorf("%w; the entries are installed, and every tool call is blocked until this is fixed", err))
	}
	next := "start a session in this checkout"
	if len(wrote) > 0 {
		next = "commit the settings file, " + next
	}
	typed := buildinfo.Typed(root, bin.Abs())
	fmt.Fprintln(w.stderr, "magehook: next: "+next+"; "+typed+" doctor checks the wiring, "+typed+" hook:replay PreToolUse -tool=Bash -command='git push' tries a gate")
	if enabled, err := cfg.Get(toolingrc.KeyHookEnable); err == nil && slices.Contains(enabled.Values, "branchguard") {
		protect, _ := cfg.Get(toolingrc.KeyGuardProtect)
		fmt.Fprintln(w.stderr, "magehook: branchguard protects "+strings.Join(protect.Values, ", ")+": there the agent's edits and commits are denied, and work happens in a worktree on its own branch (claude --worktree <name>, the agent's EnterWorktree tool, or "+typed+" worktree:create <name>); a session that starts on a protected branch is told so in its context")
	}
	return nil
}

// Uninstall removes this checkout's hook entries from the agent's
// configuration, and the groups and event keys that leaves empty;
// everything else stays. Takes -scope, -harness, -dryrun and -githook as
// install does.
func (Hook) Uninstall(ctx context.Context,
	scope *string, // project (default), local or user
	dryrun *bool, // print the diff, write nothing
	githook *bool, // also remove git's commit-msg hook
	harness *string, // claude (default), any harness of docs/harnesses.md, or all
) error {
	return osWorld().uninstall(ctx, installArgs{scope: deref(scope), dryRun: derefBool(dryrun), githook: derefBool(githook), harness: deref(harness)})
}

func (w world) uninstall(ctx context.Context, a installArgs) error {
	ins, err := w.installers(a)
	if err != nil {
		return err
	}
	for _, in := range ins {
		out, err := in.Uninstall()
		if err := w.report(out, err, in.DryRun); err != nil {
			return err
		}
	}
	if a.githook && !a.dryRun {
		if _, _, err := commitmsg.Uninstall(ctx, ins[0].Config.Root()); err != nil {
			return failure(err)
		}
	}
	return nil
}

// installers resolves the options: one installer per harness named. The
// arguments are checked before the configuration is read, so a command
// line of the wrong shape is a usage error wherever it runs
// (CLI-CHECKOUT-3).
func (w world) installers(a installArgs) ([]settings.Installer, error) {
	s, err := settings.ParseScope(a.scope)
	if err != nil {
		return nil, usage(err)
	}
	var hs []*harnesspkg.Harness
	switch a.harness {
	case "all":
		hs = harnesspkg.All()
	default:
		h, ok := harnesspkg.Lookup(a.harness)
		if !ok {
			return nil, usage(fmt.Errorf("unknown harness %q; use %s or all", a.harness, strings.Join(harnesspkg.Names(), ", ")))
		}
		hs = []*harnesspkg.Harness{h}
	}
	for _, h := range hs {
		if !h.IsClaude() && s != settings.Project {
			return nil, usage(fmt.Errorf("-scope=%s is Claude Code's; %s has one project file (%s): drop -scope or use -harness=claude", s, h.Name, settings.HarnessFile(h)))
		}
	}
	handlers, err := checkedHandlers()
	if err != nil {
		return nil, err
	}
	cfg, err := toolingrc.Discover(w.start())
	if err != nil {
		return nil, configErr(err)
	}
	var out []settings.Installer
	for _, h := range hs {
		out = append(out, settings.Installer{Config: cfg, Handlers: handlers, Scope: s, Harness: h, DryRun: a.dryRun})
	}
	return out, nil
}

// report says what an install or uninstall did to one file, or returns
// its error: 3 for the configuration, 1 otherwise.
func (w world) report(out settings.Outcome, err error, dryRun bool) error {
	if err != nil {
		var cerr *toolingrc.Error
		if errors.As(err, &cerr) {
			return configErr(err)
		}
		return failure(err)
	}
	switch {
	case dryRun && out.Reformatted && out.Diff == "":
		fmt.Fprintf(w.stderr, "magehook: %s: no hook changes; install would only re-sort its keys (install writes keys sorted, two-space indented)\n", out.Target)
	case dryRun && out.Changed:
		if out.Reformatted {
			fmt.Fprintf(w.stderr, "magehook: %s: install would also re-sort its keys (install writes keys sorted, two-space indented); the diff shows the change from the re-sorted file\n", out.Target)
		}
		fmt.Fprint(w.stdout, out.Diff)
	case !out.Changed:
		fmt.Fprintf(w.stderr, "magehook: %s is up to date\n", out.Target)
	default:
		fmt.Fprintf(w.stderr, "magehook: wrote %s", out.Target)
		if out.Backup != "" {
			fmt.Fprintf(w.stderr, " (previous version kept in %s)", out.Backup)
		}
		fmt.Fprintln(w.stderr)
	}
	return nil
}
