package toolingrc

// Doc says what a key means and, when its default is not a list of plain
// values (computed, or detected), how a person reads the default; ok is
// false for a key magehook does not read. docs/configuration.md's key
// table is generated from it and from Default (go tool mage docs;
// internal/docgen's test fails when the table drifts).
func Doc(key string) (meaning, defaultText string, ok bool) {
	switch key {
	case KeyHookEnable:
		return "a handler to run; repeat for several", "", true
	case KeyHookBinary:
		return "the hook binary, relative to the root", "", true
	case KeyHookStartBudget:
		return "the doctor's limit on a tool call's start-up CPU, as a multiple of a bare Go program's", "`2`", true
	case KeyStateDir:
		return "logs, backups, state; it must resolve (links followed) inside the directory of the `.toolingrc` that sets it, and nothing below it is written through a symbolic link; the sessions' files there (audit, ledger, reminders, ...) are bounded at 2,000 files and 256 MiB together, the oldest sessions removed first; a session's files are named by its id when that is a plain token of at most 100 bytes (a longer one is cut and ends in a hash of the whole), and an id with a path separator, `..` or a NUL shares `unknown-session`", "", true
	case KeyGuardProtect:
		return "branches branchguard protects; repeat; `<remote>/HEAD` (e.g. `origin/HEAD`) is whatever branch that remote's HEAD names, read from the repository without the network", "", true
	case KeyHookWarn:
		return "a gate in warn-only mode: its denials become warnings to the model and the user (and a line in the health log), nothing is blocked; the doctor lists it; repeat", "", true
	case KeyGuardStopcheck:
		return "stopguard's completion check, run as an argument list", "", true
	case KeyGuardStopagents:
		return "the sub-agent types whose stop stopguard checks (`*`: every named type; internal agents never); repeat", "", true
	case KeyCommitConventional:
		return "the explicit switch: `yes`, the commit-msg hook refuses non-Conventional subjects; `no`, it only strips boilerplate; unset, it checks in a versioned project (`.versionrc.json`, `commitlint.config.*`, `.commitlintrc*`)", "(detected)", true
	case KeyContextFile:
		return "contextfile: a file to add to the context at session start; repeat for several", "", true
	case KeyDocdriftWatch:
		return "docdrift: a glob of paths whose change wants a doc change (`magefiles/**`, `*.go`, `/go.mod`: `**` spans directories, a pattern without `/` matches the file name anywhere); repeat", "", true
	case KeyDocdriftBlocking:
		return "`yes`: docdrift blocks (the model must answer) instead of advising", "", true
	case KeyStopreminderText:
		return "stopreminder: the reminder the model gets", "(see `go doc ./hooks/stopreminder`)", true
	case KeyNotifyCommand:
		return "notify: the notifier, run as an argument list (e.g. `notify-send-summary`, `scripts/ping.sh`)", "", true
	case KeyNotifyEvents:
		return "notify: the events announced; repeat", "", true
	case KeySubagentgateTypes:
		return "subagentgate: the sub-agent types checked (`*`: every named type); repeat", "", true
	case KeySubagentgateCheck:
		return "subagentgate: a check run as an argument list (`go test ./...`, `go vet ./...`); repeat", "", true
	case KeySubagentgateScope:
		return "subagentgate: a glob of the files a worker may change; repeat (none: no scope check)", "", true
	case KeySubagentgateSecrets:
		return "subagentgate: scan the changed files for secret-looking values", "", true
	case KeyDevserverCommand:
		return "devserver: the dev server, run as an argument list in the root (`npm run dev`)", "", true
	case KeyDevserverPort:
		return "devserver: the port the server listens on; a listener there means it runs", "", true
	case KeyDevserverPidfile:
		return "devserver: a pid file the server writes; a live pid there means it runs", "", true
	case KeyCmdguardRule:
		return "cmdguard: a rule of the repository, `<name> <pattern> : <reason>` (e.g. `no-prod kubectl --context=prod* delete|apply : production changes go through the pipeline`); repeat", "", true
	case KeyCmdguardDeny:
		return "cmdguard: `<rule> <command>`, a command the rule must deny; `hook:verify` and the doctor run them; repeat", "", true
	case KeyCmdguardAllow:
		return "cmdguard: `<rule> <command>`, a command the rule must allow; `hook:verify` and the doctor run them; repeat", "", true
	case KeyCmdguardWarn:
		return "cmdguard: a rule (built-in or not) that only warns; repeat", "", true
	case KeyCmdguardOff:
		return "cmdguard: a rule (built-in or not) that is switched off; repeat", "", true
	case KeyDeployCeiling:
		return "cmdguard: the last environment the agent may deploy to; deploys naming a later one are denied", "", true
	case KeyDeployEnvironments:
		return "the environments in promotion order; repeat", "", true
	case KeyDocorphanSkip:
		return "docorphan: a glob of documents that need no link, added to the built-in ones (README.md, CHANGELOG.md, ... and `.claude/**`, `.github/**`); repeat", "", true
	case KeyWorktreeBase:
		return "where worktrees go, relative to the root (not to the file that sets it); it must resolve (links followed) inside the root", "", true
	case KeyWorktreeBootstrap:
		return "the Mage target run in a new worktree; `none` runs none", "", true
	case KeyWikiOrigin:
		return "the learning library's repository (a URL with a scheme)", "", true
	case KeyWikiDir:
		return "the learning library's clone, at `<home of wiki.origin>/<wiki.dir>`", "", true
	case KeyWikiProject:
		return "the learning library's default project", "the root's name", true
	case KeyWikiProjects:
		return "the library's directory whose children are projects", "", true
	}
	return "", "", false
}

// Default returns a known key's default values (none: nil or empty).
func Default(key string) ([]string, bool) {
	spec, ok := specOf(key)
	return spec.def, ok
}
