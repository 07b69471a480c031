package gitcmd

import (
	"errors"
	"io/fs"
	"strings"
	"time"
)

// Options is the world a command is analysed in. The zero value is
// usable: no starting directory (every relative path is undecidable), no
// environment, no file system access, the default size cap and depth.
type Options struct {
	// Dir is the directory the shell starts in (absolute).
	Dir string
	// Home is $HOME, for cd without an argument and ~.
	Home string
	// Getenv reads the environment the shell starts with; nil: every
	// variable the command does not assign itself is computed at run time
	// (except HOME, PWD and OLDPWD).
	Getenv func(string) string
	// ReadFile reads a script the command runs or sources (sh x.sh,
	// ./deploy.sh, . ./env.sh) or a git configuration file, so that it is
	// analysed too; nil: scripts are reported as opaque.
	ReadFile func(string) ([]byte, error)
	// Stat tells whether a path exists and is a directory (cd's targets
	// and CDPATH, cp and mv destinations); nil: nothing exists, so cd to a
	// directory is trusted only when what follows runs after it succeeds
	// (cd x && ...).
	Stat func(string) (fs.FileInfo, error)
	// Deadline, when set, is checked at every statement and word list:
	// past it the analysis stops with ErrBudget. It is a value, not a
	// timer: nothing runs in the background.
	Deadline time.Time
	// Check, when set, is called at the same points; an error it returns
	// stops the analysis and is returned (a gate's shared budget).
	Check func() error
	// MaxBytes caps the size of the command and of every script read
	// (DefaultMaxBytes when 0); a larger one is ErrTooLarge.
	MaxBytes int
	// MaxDepth bounds nested shells, eval, functions, scripts and git
	// aliases (DefaultMaxDepth when 0); deeper is ErrBudget.
	MaxDepth int
	// MaxCommands bounds the number of commands recorded (loops are
	// walked twice, for lists once per word): DefaultMaxCommands when 0.
	MaxCommands int
	// PowerShell: the command is PowerShell's, not Bash's (the
	// PowerShell tool): read by pkg/pwsh into the same model, its cmdlets
	// by their specs (cmdlets.go), its native programs as Bash's are.
	PowerShell bool
}

// Defaults of Options.
const (
	DefaultMaxBytes    = 1 << 20
	DefaultMaxDepth    = 12
	DefaultMaxCommands = 4096
)

// ErrBudget is returned when the deadline, the depth or the number of
// commands is exceeded; ErrTooLarge when the command (or a script it
// runs) is over MaxBytes. A gate must then fail closed.
var (
	ErrBudget   = errors.New("the command is too complex to analyse within the budget")
	ErrTooLarge = errors.New("the command is too large to analyse")
)

// Analysis is everything a command would run and write.
type Analysis struct {
	// Commands are the simple commands the shell would run, in the order
	// they appear in the text (a loop body twice, a function body at each
	// call), wrappers unwrapped: sudo -u x git push is recorded as the
	// sudo command and the git command it runs (Via "sudo").
	Commands []Command
	// Writes are the files the commands write, create, delete or change
	// the mode of: redirections and the operands of tee, cp, mv, sed -i,
	// ... A write whose path cannot be decided has Dynamic set.
	Writes []Write
	// SyntaxError is set when the command does not parse to its end.
	// Bash runs the complete lines before the broken one, so Commands
	// and Writes describe them; Unparsed is the text bash never runs.
	SyntaxError error
	Unparsed    string
	// GitConfig are the name=value pairs git config commands in the
	// command set (an unset leaves "name="), in order; GitConfigDynamic
	// says why the configuration may change in ways not listed (git config
	// --edit, a write to a configuration file).
	GitConfig        []string
	GitConfigDynamic string
	// InFiles are the files redirected into commands (< f, <> f, $(< f));
	// Reads (reads.go) adds what the commands read themselves.
	InFiles []InFile
}

// Command is one simple command as the shell would run it.
type Command struct {
	// Args is the argument vector after expansion. A word whose value
	// is only known at run time has Dynamic set.
	Args []Word
	// Dir is the absolute directory the command runs in, when known.
	// DirDynamic says why it is not (cd "$x", pushd/popd, find -execdir,
	// a cd to a directory that may not exist followed by ';').
	Dir        string
	DirDynamic string
	// Env are the variables the command line itself exports to this
	// command (VAR=v prefixes, export, declare -x, set -a, env NAME=v,
	// env -u): the difference from the starting environment, latest
	// last. EnvDynamic says why the environment may hold more (a sourced
	// file that was not read, export of a computed name, env -i ...).
	Env        []Var
	EnvDynamic string
	// Via lists what runs this command, outermost first: wrappers
	// ("sudo", "xargs", "timeout"), shells ("bash -c", "eval"), scripts
	// ("script ./deploy.sh"), functions ("function ship"), git ("git
	// alias sync", "git submodule foreach", "git rebase --exec").
	Via []string
	// Opaque is set when the command runs code this analysis does not
	// follow and that may start other commands: inline interpreter code
	// that can spawn processes (python -c 'import os; os.system(..)'), a
	// script that could not be read, ssh. It says what and why.
	Opaque string
	// After lists the indexes (in Analysis.Commands) of earlier commands
	// that must have succeeded for this one to run (cmd1 && cmd2, if
	// cmd1; then cmd2, set -e). Every earlier command may have run.
	After []int
	// Stdin is the text the command reads on its standard input when it
	// is known (a here-document, a here-string, echo or printf piped in,
	// a file redirected in and read); StdinKnown says so.
	Stdin      string
	StdinKnown bool
	// cmdlet is a PowerShell cmdlet's spec (its index in cmdletTable, plus
	// one), 0 for a program: a byte beside StdinKnown, so that Bash's
	// commands are no larger for it.
	cmdlet uint8
	// Git is set for a git command (git, /usr/bin/git, git-commit): its
	// global options, subcommand and alias expansion.
	Git *Git
	// Text is the command's source text.
	Text string
}

// Word is one argument after expansion.
type Word struct {
	// Value is the word's value; for a dynamic word, its source text.
	Value string
	// Dynamic says why the value is only known at run time ("$cmd is
	// set at run time", "command substitution"), or is empty.
	Dynamic string
	// Glob marks a word with unquoted pattern characters (*, ?, [...],
	// {a,b}): the shell replaces it with the matching paths.
	Glob bool
}

// Var is one variable the command line exports (or unsets).
type Var struct {
	Name, Value string
	// Dynamic says why Value is not known.
	Dynamic string
	Unset   bool
}

// Write is a path a command would change.
type Write struct {
	// Path is absolute and clean, or empty when Dynamic is set.
	Path string
	// Written is Path as the command wrote it, made absolute but not
	// cleaned: the kernel resolves "link/.." through the link, so a
	// reader judging symbolic links must start from Written, not Path.
	Written string
	// Dynamic says why the path cannot be decided: a computed word, a
	// relative path in an unknown directory, inline code that can write
	// any file.
	Dynamic string
	// Op is what writes it: ">", ">>", "&>", "<>", ">|", "tee", "sed -i",
	// "cp", "mv", "rm", "ln", "chmod", "git checkout", "python -c", ...
	Op string
	// Command is the index in Analysis.Commands of the command that
	// writes, or -1 for a redirection of a compound command ({ ...; } >f).
	Command int
	// Tree: anything under Path may change (rm -r, cp -r, rsync, tar -x
	// -C, find -delete).
	Tree bool
	// Repo: the write is git's, to the working tree of the repository
	// that holds Path (git checkout, reset --hard, stash, merge, ...); Path
	// is the directory git runs in, or a path it names.
	Repo bool
	// Glob: Path is a pattern; the files it matches at run time change.
	Glob bool
	// Dir is the directory a relative path is resolved in, empty when
	// it is only known at run time.
	Dir string
	// Match, when set, narrows a Tree write to what find selects: only
	// entries under Path that it matches change (find -name x -delete,
	// find -name x -exec rm {} +).
	Match *Match
	// At is where in Analysis.Commands the write happens: before the
	// command of that index runs (Command itself, or the first command of
	// the compound whose redirection it is).
	At int
}

// Destroys reports a write that removes what is at Path, moves it away,
// or takes its permissions or owner (rm, find -delete, mv, shred, chmod,
// chown, chgrp), as against one that only adds or replaces files in it.
func (w Write) Destroys() bool {
	switch w.Op {
	case "rm", "rmdir", "unlink", "find -delete", "mv", "shred", "srm", "chmod", "chown", "chgrp", "chcon":
		return true
	}
	return false
}

// ModeOnly reports a write that changes only permissions or the owner.
func (w Write) ModeOnly() bool {
	return w.Op == "chmod" || w.Op == "chown" || w.Op == "chgrp" || w.Op == "chcon"
}

// Match is what find selects under a tree it writes.
type Match struct {
	// Names are shell patterns that the base name of every entry changed
	// matches, all of them (find -name and -iname before the action).
	Names []string
	// Fold: some pattern is an -iname, compared without case.
	Fold bool
	// Subtree: everything below a matching entry changes too (-exec rm
	// -r {}); otherwise only the entries themselves.
	Subtree bool
}

// Name is the base name of the command word as progName reads it ("git"
// for /usr/bin/git, GIT and git.exe), or "" when it is computed at run
// time.
func (c Command) Name() string {
	if len(c.Args) == 0 || c.Args[0].Dynamic != "" || c.Args[0].Glob && c.Args[0].Value != "[" {
		return "" // (a lone [ is no pattern: bash runs the test builtin)
	}
	return progName(c.Args[0].Value)
}

// progName is the name a program is known by: the base name, without
// Windows' .exe, in lower case, because a case-insensitive file system
// (macOS, Windows) runs git for GIT and rm for RM.exe. A name that is only
// a different case on Linux names no program there, so judging it as the
// program it folds to costs nothing.
func progName(v string) string {
	if i := strings.LastIndexAny(v, `/\`); i >= 0 {
		v = v[i+1:]
	}
	v = strings.Map(func(r rune) rune {
		// HFS+ leaves these out when it looks a name up.
		if r == 0x00ad || r == 0xfeff || r >= 0x200b && r <= 0x200f || r >= 0x202a && r <= 0x202e || r >= 0x2060 && r <= 0x206f {
			return -1
		}
		return r
	}, strings.ToLower(v))
	if len(v) > 4 && strings.HasSuffix(v, ".exe") {
		v = v[:len(v)-4]
	}
	return v
}

// Cmdlet is the name of the PowerShell cmdlet the command is (in lower
// case, as its spec in cmdlets.go lists it first: "remove-item" for rm),
// whose effects that spec computes, or "" for a program (whose spec, if
// any, is programTable's).
func (c Command) Cmdlet() string {
	if c.cmdlet == 0 {
		return ""
	}
	return cmdletTable[c.cmdlet-1].names[0]
}

// Argv returns the argument values (the source text of dynamic words).
func (c Command) Argv() []string {
	argv := make([]string, len(c.Args))
	for i, w := range c.Args {
		argv[i] = w.Value
	}
	return argv
}

// Dynamic returns the reason of the first argument from index i on that is
// computed at run time, or "".
func (c Command) Dynamic(from int) string {
	for i := from; i < len(c.Args); i++ {
		if c.Args[i].Dynamic != "" {
			return c.Args[i].Dynamic
		}
	}
	return ""
}

// Getenv looks a variable up in what the command line exported to the
// command: set reports whether the command line sets (or unsets) it at
// all, dynamic why its value is unknown (including an environment that
// may hold more than Env lists).
func (c Command) Getenv(name string) (value string, set bool, dynamic string) {
	for i := len(c.Env) - 1; i >= 0; i-- {
		if v := c.Env[i]; v.Name == name {
			if v.Unset {
				return "", true, ""
			}
			return v.Value, true, v.Dynamic
		}
	}
	return "", false, c.EnvDynamic
}
