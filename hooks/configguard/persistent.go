package configguard

import (
	"path/filepath"
	"strings"
)

// clientFiles are the hook and settings files of the clients magehook's
// harness list may not know yet, each at every scope (a tail of the path,
// as the wiring patterns are matched): Qwen Code's settings (hooks,
// disableAllHooks), Factory Droid's hooks.json (re-read mid-session) and
// settings, Cline's hook scripts and plugins, Augment's (Auggie's)
// settings, Kilo's configuration and plugins, Pi's settings and
// extensions; and the state a later shell or git call reads as
// configuration: Claude Code's shell snapshots (sourced before every Bash
// command) and session env files, and git's own configuration files,
// which choose the programs git starts (core.fsmonitor, core.pager,
// filters, ...).
func clientFiles() [][]string {
	return [][]string{
		{".qwen", "settings.json"}, {"qwen-code", "settings.json"}, {"qwen-code", "system-defaults.json"},
		{".factory", "hooks.json"}, {".factory", "settings*.json"}, {".factory", "hooks", "*"},
		{".clinerules", "hooks", "*"}, {".cline", "hooks", "*"}, {".cline", "plugins", "*"}, {"Cline", "Hooks", "*"},
		{".cline", "data", "settings", "*.json"},
		{".augment", "settings*.json"}, {"augment", "settings.json"},
		{"kilo.json"}, {"kilo.jsonc"}, {".kilo", "plugin*", "*"}, {"kilo", "config.json"}, {"kilo", "kilo.json*"}, {"kilo", "plugin*", "*"},
		{".pi", "settings.json"}, {".pi", "extensions", "*"}, {".pi", "agent", "settings.json"}, {".pi", "agent", "extensions", "*"},
		{".claude", "shell-snapshots", "*"}, {".claude", "session-env", "*"}, {".claude", "session-env", "*", "*"},
		{".git", "config"}, {".git", "config.worktree"}, {".git", "worktrees", "*", "config.worktree"}, {".git", "modules", "*", "config"},
		{".gitconfig"}, {".config", "git", "config"}, {"etc", "gitconfig"},
	}
}

// homeStartup are the files, relative to the home directory, that a
// later shell sources: the user's start-up files of bash, zsh, ksh and
// fish. A function or export added to one reaches every later shell (and
// Claude Code's next snapshot).
var homeStartup = []string{
	".bashrc", ".bash_profile", ".bash_login", ".bash_logout", ".profile", ".zshrc", ".zshenv", ".zprofile", ".zlogin",
	".kshrc", ".mkshrc", ".config/fish/config.fish", ".config/fish/conf.d/*", ".config/environment.d/*",
}

// systemStartup are the system-wide start-up files (an agent running as
// root could write them).
var systemStartup = []string{
	"/etc/profile", "/etc/profile.d/*", "/etc/bash.bashrc", "/etc/bashrc", "/etc/zshenv", "/etc/zshrc", "/etc/zprofile",
	"/etc/zsh/*", "/etc/environment", "/etc/fish/config.fish",
}

// startupFiles are the start-up files' paths (patterns for the
// directories of them): the home's, the system's, and the files BASH_ENV
// and ENV name (a non-interactive bash and sh source them).
func (g *guard) startupFiles() []string {
	var out []string
	if g.home != "" {
		for _, f := range homeStartup {
			out = append(out, filepath.Join(g.home, filepath.FromSlash(f)))
		}
	}
	out = append(out, systemStartup...)
	if g.c != nil && g.c.Getenv != nil {
		for _, name := range []string{"BASH_ENV", "ENV"} {
			if v := g.c.Getenv(name); v != "" && filepath.IsAbs(v) {
				out = append(out, v)
			}
		}
	}
	return out
}

// startup says what a path is when it is a shell start-up file ("" when
// it is not); parts are the path's folded components.
func (g *guard) startup(parts []string) string {
	for _, f := range g.startupFiles() {
		pat := foldParts(f)
		if len(pat) != len(parts) {
			continue
		}
		if tailMatches(parts, pat) {
			return "a file a later shell sources (" + strings.TrimPrefix(f, g.home+string(filepath.Separator)) + "), which can change what every later command runs"
		}
	}
	return ""
}
