// Package gitcmd is magehook's shell analysis: from the syntax tree of a
// Bash command (mvdan.cc/sh/v3/syntax, never substrings), every simple
// command the shell would run and every file those commands would write,
// with what could not be decided said in words. Gates build on it:
// branchguard (protected refs and their worktrees), the destructive-command
// guard, the configuration self-protection gate.
//
// # The API
//
//	a, err := gitcmd.Analyze(command, gitcmd.Options{
//		Dir: cwd, Home: home, Getenv: getenv,     // the shell's start
//		ReadFile: os.ReadFile, Stat: os.Stat,     // scripts, config, cd targets
//		Deadline: deadline,                       // optional budget
//	})
//
// One parse per command (and one per nested string or script it runs);
// Shared keeps the last analysis so that every gate of one hook run reads
// the same one (HookOptions are the options they agree on).
// err is only ErrTooLarge (over Options.MaxBytes) or ErrBudget (past the
// deadline, MaxDepth or MaxCommands): fail closed on both. The deadline is
// a value checked at loop points, never a timer or a goroutine.
//
// a.Commands lists every simple command in text order, after expansion:
//
//   - Args are the words as the shell would pass them: quotes removed,
//     escapes and $'...' decoded, known variables substituted (literal
//     assignments earlier in the command, for-loop words, function and
//     bash -c arguments, ~, ~+, ~-, $HOME, $PWD, and the starting
//     environment through Getenv), unquoted values split. A word only
//     known at run time has Word.Dynamic set to the reason, and keeps its
//     source text as Value; a word with unquoted pattern characters or a
//     brace list has Word.Glob.
//   - Dir is the directory it runs in (absolute), after cd, pushd, popd,
//     CDPATH, cdable_vars, env -C, sudo -D, ...; DirDynamic says why it is
//     unknown (cd "$x", find -execdir, a cd through a link the command
//     makes). A cd is judged as the shell runs it: to a directory an
//     earlier command makes (mkdir, git init, git clone, git worktree
//     add) it goes there; to one that does not exist and that nothing in
//     the command makes it fails, and every later command runs where the
//     shell was; to one something else may make (a tar -x, a cp -r, code
//     that writes) a command it does not guard (';' rather than '&&') runs
//     in an unknown directory, and so do its relative writes.
//   - Env is what the command line exported to it (VAR=v prefixes, export,
//     declare -x, typeset -x, set -a, env NAME=v, env -u, sourced files
//     that were read); EnvDynamic says why it may hold more (a file sourced
//     and not read, export of a computed name). Command.Getenv looks up.
//   - Via is the chain of what runs it: wrappers (env, command, exec,
//     sudo, doas, nice, nohup, timeout, time, stdbuf, flock, xargs,
//     parallel, watch, setsid, su -c, script -c, uv run, ...), shells
//     (bash -c, sh reading a here-document or a pipe of echo/printf/cat,
//     eval), functions, scripts read from the checkout, and commands git
//     runs itself (aliases with !, -c core.editor and friends, submodule
//     foreach, rebase --exec, bisect run, filter-branch filters,
//     for-each-repo, --upload-pack). The wrapper itself is recorded too.
//   - Opaque is set when the command runs code that is not followed and
//     may start other programs: inline interpreter code (python -c, node
//     -e, perl -e, ruby -e, php -r, awk programs, ...) whose text holds a
//     process-spawning or evaluating token, a script that could not be
//     read, a shell reading a stdin that is not known (curl ... | sh),
//     eval or bash -c of a computed string.
//   - After lists the earlier commands that must have succeeded for it to
//     run (a && b, if a; then b, set -e); any earlier command may have run.
//   - Stdin is what it reads on standard input when that is known (a
//     here-document, a here-string, echo or printf piped in, a file
//     redirected in): git update-ref --stdin, patch, a shell reading it.
//   - A program is known by its folded name (progName): GIT, git.exe and
//     C:\Git\bin\git.exe are git, as a case-insensitive file system or
//     Git Bash would run them.
//   - Git is set for git (git, a full path, git-<cmd>): global options (-C,
//     -c, --git-dir, --work-tree, --config-env, GIT_DIR, GIT_WORK_TREE,
//     GIT_CONFIG_COUNT/KEY/VALUE), the subcommand after alias expansion
//     (-c alias.x, aliases an earlier git config in the same command set,
//     the repository's and the user's configuration with includes),
//     help.autocorrect guesses, and whether it only prints (--version,
//     --exec-path, -h, --help, git help).
//
// a.Writes lists the paths the commands would change, absolute and clean
// (relative to the writing command's directory): redirections (>, >>, &>,
// &>>, >|, <>, >&file), tee, sed -i, perl -i, cp, mv (source and
// destination), rm, rmdir, ln, install, touch, truncate, mkdir, dd of=,
// rsync, tar -x, unzip, curl -o, wget, sort -o, chmod/chown/chgrp,
// formatters writing in place (gofmt -w, prettier --write, ...), find
// -delete, patch, git apply and apply_patch (paths read from the patch in a
// here-document or file), compressors that replace their files (gzip, xz,
// zstd --rm, gunzip writing the name without the suffix), dos2unix, gawk
// -i inplace, yq -i, sed's own w/W commands, emacs --batch, mount (its
// mount point), git config -f FILE, the source of a hard link (ln without
// -s, cp -l, link: the new name is the same file), and git's own
// working-tree writes (checkout, restore, reset --hard, stash, merge, ...:
// Write.Repo). A write whose path cannot be decided has Dynamic set (a
// computed word, a relative path in an unknown directory, inline code that
// can write files, a patch the analysis cannot see); Tree means anything
// under Path; Glob a pattern (a loop variable over a pattern, "$f" of for f
// in *.go, is one); Match narrows a tree to what find selects by name
// (-delete, -exec on {} or {}.suffix, and a find printing into xargs); an
// ls or git ls-files printing into xargs (through grep, sort, head, ...)
// writes the trees it lists, and $(ls) stands for the pattern *.
// Devices (/dev/null, /dev/stderr, fd duplications) are not writes.
// Decoded returns what a command's base64 words hide, for a gate that asks
// what a command it cannot follow names.
//
// a.GitConfig lists what git config commands in the command set (aliases
// used later in the same command resolve through them); a script an
// earlier part of the command writes is analysed from what it writes
// (echo, printf, a here-document) or is opaque. Options.Check is the
// caller's own budget function, called where the deadline is.
//
// A command that does not parse is not an error: bash runs the complete
// lines before the broken one, so those are analysed, and SyntaxError and
// Unparsed describe the rest, which bash never runs.
//
// # What it knows of other programs
//
// Everything the analysis knows of a program other than git, the shells
// and the interpreters is one entry of programTable (programs.go): its
// option grammar (which short and long options take a value, one-dash
// options), which operands and option values it reads and hands on, which
// it writes, deletes or runs, how a wrapper finds the command it runs, and
// examples TestProgramSpecs runs. unwrap, commandWrites, Reads and Knows all
// read that one entry; programs whose writes are computed (cp, tar, find,
// sed, go, npm, ...) have a handler that reads the entry's grammar. git's
// subcommands have theirs in gitGrammar (gitgrammar.go), which the gates'
// ref rules read too. A program without an entry, or whose entry leaves
// its writes unmodelled, is not known (Knows): a gate fails closed on it
// when it names a guarded file.
//
// # What it does not see
//
// Programs' own behaviour (make, npm scripts, go run, compiled binaries),
// aliases and functions from the user's shell start-up files, a variable
// the starting environment leaves empty (taken as only known at run time),
// and the exact matches of globs. Loops are walked twice, so that a later
// iteration sees what an earlier one changed.
package gitcmd
