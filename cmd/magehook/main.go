// Command magehook adopts magehook in a repository in one step:
//
//	go run github.com/magehook/magehook/cmd/magehook@latest init
//
// init writes what a repository needs to run its Mage build as its
// coding-agent hook runner, then runs `go tool mage hook:install`:
//
//   - go.mod: the Mage tool line (go get -tool) and the magehook requirement
//     (and the go line, when it is older than magehook's);
//   - magefiles/magefile.go: the plugin's //mage:import, named so the
//     magefile can add handlers (targets.Register), and a Bootstrap target
//     that builds the hook binary in every new worktree;
//   - .toolingrc: the handlers to enable (-enable, a prompt on a terminal,
//     or the defaults).
//
// It is idempotent: a second run finds everything in place and changes
// nothing. It never overwrites a file it did not write: a .toolingrc of the
// user's own is left alone, with the lines to add printed (again after the
// install's output); a magefile of the user's own that does not import the
// plugin, or one at the root (the hook binary is built from magefiles/),
// stops init before it changes anything. -dryrun prints every step, the
// text of each file it would write and the install, and writes nothing.
//
// It runs in the repository's top directory, whose module the hook binary
// is built from: started inside a module of its own below the top, it
// refuses rather than make a second module, and it makes the top's go.mod
// only when started there (the top of a home directory kept in git is not
// the project the user stands in).
//
// Until the module is published, -replace=<dir> points the requirement at a
// local copy of magehook (relative to the directory init is started in).
// The replace is written as an absolute path, which the repository's
// worktrees share; a clone on a machine where magehook is elsewhere points
// it at its own copy with -replace (or go mod edit -replace).
//
// Each step is named before it runs, and a go command still silent after
// 5 s (compiling Mage, the magefiles, magehook's dependencies on a fresh
// machine) is said to be still running every 5 s.
//
// This program is not linked into any hook binary, so it uses
// bitfield/script to run the go and git commands it drives.
//
// Exit codes: 0 done (or nothing to do, or -h), 1 a step failed or init
// refused (the message says what to change), 2 a usage error (a bad flag
// or -harness).
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/magehook/magehook/pkg/harness"
	"github.com/magehook/magehook/pkg/toolingrc"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

const usage = `usage: magehook init [-enable=a,b,...] [-replace=dir] [-harness=name] [-dryrun] [-noinstall]
       magehook init -user [-enable=a,b,...] [-replace=dir] [-harness=name|all] [-dryrun]
       magehook uninstall [-user] [-dryrun]

init wires magehook into the git repository around the current directory;
uninstall undoes it: what init wrote and nobody changed since goes back to
what it was, and what it leaves it names. With -user, init protects you in
every repository without changing any: entries in your agents' user files,
the binary in your cache, the policy in ~/.toolingrc; uninstall -user
undoes that.`

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 1 && (args[0] == "-h" || args[0] == "-help" || args[0] == "--help") {
		fmt.Fprintln(stdout, usage)
		return 0
	}
	if len(args) > 0 && args[0] == "uninstall" {
		fs := flag.NewFlagSet("uninstall", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		var o options
		fs.BoolVar(&o.DryRun, "dryrun", false, "print what would be undone and change nothing")
		fs.BoolVar(&o.User, "user", false, "undo magehook init -user")
		if err := fs.Parse(args[1:]); err != nil || fs.NArg() > 0 {
			fmt.Fprintln(stderr, "magehook uninstall: takes only -user and -dryrun"+flagHint(fs, err)+" (magehook -h shows the usage)")
			return 2
		}
		o.Stdin, o.Stdout, o.Stderr = stdin, stdout, stderr
		undo := uninstall
		if o.User {
			undo = uninstallUser
		}
		if err := undo(o); err != nil {
			fmt.Fprintln(stderr, "magehook uninstall:", err)
			return 1
		}
		return 0
	}
	if len(args) == 0 || args[0] != "init" {
		if len(args) > 0 {
			hint := ""
			if near := toolingrc.Nearest([]string{"init", "uninstall"}, strings.ToLower(strings.TrimLeft(args[0], "-"))); near != "" {
				hint = "; did you mean " + near + "?"
			}
			fmt.Fprintf(stderr, "magehook: unknown command %q%s (magehook -h shows the usage)\n", args[0], hint)
			return 2
		}
		fmt.Fprintln(stderr, usage)
		return 2
	}
	fs := flag.NewFlagSet("init", flag.ContinueOnError)
	fs.SetOutput(io.Discard) // errors are printed below, in init's words
	var o options
	enable := fs.String("enable", "", "handlers to enable, comma-separated (default: ask on a terminal, else "+strings.Join(defaultHandlers, ",")+")")
	fs.StringVar(&o.Replace, "replace", "", "a local copy of magehook to use through a go.mod replace (until the module is published)")
	fs.StringVar(&o.Harness, "harness", "claude", "the agent to wire: "+strings.Join(harness.Names(), ", ")+" or all")
	fs.BoolVar(&o.DryRun, "dryrun", false, "print every step and write nothing")
	fs.BoolVar(&o.NoInstall, "noinstall", false, "stop before go tool mage hook:install")
	fs.BoolVar(&o.User, "user", false, "protect you in every repository without changing any (undo: magehook uninstall -user)")
	fs.Usage = func() {}
	if err := fs.Parse(args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			// Asked for: the usage is the answer, on stdout.
			fs.SetOutput(stdout)
			fmt.Fprintln(stdout, usage)
			fs.PrintDefaults()
			return 0
		}
		fmt.Fprintf(stderr, "magehook init: %v%s (magehook init -h lists the flags)\n", err, flagHint(fs, err))
		return 2
	}
	if fs.NArg() > 0 {
		hint := ""
		if *enable != "" {
			hint = " (-enable takes one comma-separated list: -enable=" + strings.Join(append([]string{*enable}, fs.Args()...), ",") + ")"
		}
		fmt.Fprintf(stderr, "magehook init: unexpected argument %q%s\n", fs.Arg(0), hint)
		return 2
	}
	fs.Visit(func(f *flag.Flag) { o.harnessSet = o.harnessSet || f.Name == "harness" })
	if _, ok := harnessFiles(o.Harness); !ok {
		fmt.Fprintf(stderr, "magehook init: -harness=%s: no such agent; name one of %s or all\n", o.Harness, strings.Join(harness.Names(), ", "))
		return 2
	}
	if *enable != "" {
		for _, name := range strings.Split(*enable, ",") {
			if name = strings.TrimSpace(name); name != "" {
				o.Enable = append(o.Enable, name)
			}
		}
	}
	o.Stdin, o.Stdout, o.Stderr = stdin, stdout, stderr
	o.ticker, o.terminal = realTicker, stdinTerminal
	if o.User {
		if o.NoInstall {
			fmt.Fprintln(stderr, "magehook init: -user and -noinstall: the user scope is its install; drop -noinstall (or use -dryrun)")
			return 2
		}
		err := initUser(o)
		var uerr usageError
		switch {
		case errors.As(err, &uerr):
			fmt.Fprintln(stderr, "magehook init:", err)
			return 2
		case err != nil:
			fmt.Fprintln(stderr, "magehook init:", err)
			return 1
		}
		return 0
	}
	if err := adopt(o); err != nil {
		fmt.Fprintln(stderr, "magehook init:", err)
		return 1
	}
	return 0
}

// flagHint is "; did you mean -x?" for a flag the set does not define
// and one of its flags is within two edits of, else "".
func flagHint(fs *flag.FlagSet, err error) string {
	const undefined = "flag provided but not defined: -"
	if err == nil || !strings.HasPrefix(err.Error(), undefined) {
		return ""
	}
	var names []string
	fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	if near := toolingrc.Nearest(names, strings.ToLower(strings.TrimPrefix(err.Error(), undefined))); near != "" {
		return "; did you mean -" + near + "?"
	}
	return ""
}
