package toolingrc

import (
	"path/filepath"
	"strings"
)

// The keys magehook reads. Each has a kind that says how its value is
// checked, and a default.
const (
	KeyWikiDir            = "wiki.dir"
	KeyWikiOrigin         = "wiki.origin"
	KeyWikiProject        = "wiki.project"
	KeyWikiProjects       = "wiki.projects"
	KeyWorktreeBase       = "worktree.base"
	KeyWorktreeBootstrap  = "worktree.bootstrap"
	KeyHookBinary         = "hook.binary"
	KeyHookEnable         = "hook.enable"
	KeyHookWarn           = "hook.warn"
	KeyHookStartBudget    = "hook.startbudget"
	KeyStateDir           = "state.dir"
	KeyGuardProtect       = "guard.protect"
	KeyGuardStopcheck     = "guard.stopcheck"
	KeyCommitConventional = "commit.conventional"

	// The catalogue handlers' keys (hooks/*; docs/configuration.md).
	KeyContextFile         = "context.file"
	KeyDocdriftWatch       = "docdrift.watch"
	KeyDocdriftBlocking    = "docdrift.blocking"
	KeyDocorphanSkip       = "docorphan.skip"
	KeyStopreminderText    = "stopreminder.text"
	KeyNotifyCommand       = "notify.command"
	KeyNotifyEvents        = "notify.events"
	KeySubagentgateTypes   = "subagentgate.types"
	KeySubagentgateCheck   = "subagentgate.check"
	KeySubagentgateScope   = "subagentgate.scope"
	KeySubagentgateSecrets = "subagentgate.secrets"
	KeyDevserverCommand    = "devserver.command"
	KeyDevserverPort       = "devserver.port"
	KeyDevserverPidfile    = "devserver.pidfile"
	KeyGuardStopagents     = "guard.stopagents"
	KeyCmdguardRule        = "cmdguard.rule"
	KeyCmdguardAllow       = "cmdguard.allow"
	KeyCmdguardDeny        = "cmdguard.deny"
	KeyCmdguardWarn        = "cmdguard.warn"
	KeyCmdguardOff         = "cmdguard.off"
	KeyDeployCeiling       = "deploy.ceiling"
	KeyDeployEnvironments  = "deploy.environments"
)

type kind int

const (
	kindDir   kind = iota // a relative directory inside the home
	kindPath              // a relative file path inside the home
	kindURL               // a URL with a scheme
	kindToken             // a name: letters, digits, '.', '-', '_'
	kindWord              // any single word
	kindText              // free text (a command line)
	kindBool              // yes or no
	kindPort              // a TCP port number, 1-65535
)

type keySpec struct {
	kind kind
	def  []string // nil: no default
}

// additive reports the gate keys: lists that add up inside the root's
// repository, so that a file below the top one adds to their values and
// cannot remove them.
func additive(key string) bool {
	switch key {
	case KeyHookEnable, KeyGuardProtect:
		return true
	}
	return false
}

// specOf returns a known key's kind and default. (A switch rather than a
// map: a package-level map is built at every start of the hook binary.)
func specOf(key string) (keySpec, bool) {
	switch key {
	case KeyWikiDir:
		return keySpec{kindDir, []string{"Wiki"}}, true
	case KeyWikiOrigin:
		return keySpec{kindURL, nil}, true
	case KeyWikiProject:
		return keySpec{kindToken, nil}, true // default: the root's directory name
	case KeyWikiProjects:
		return keySpec{kindDir, []string{"Projects"}}, true
	case KeyWorktreeBase:
		return keySpec{kindDir, []string{".claude/worktrees"}}, true
	case KeyWorktreeBootstrap:
		return keySpec{kindWord, []string{"bootstrap"}}, true
	case KeyHookBinary:
		return keySpec{kindPath, []string{"bin/magehook"}}, true
	case KeyHookEnable:
		return keySpec{kindToken, []string{}}, true
	case KeyHookWarn:
		return keySpec{kindToken, []string{}}, true
	case KeyHookStartBudget:
		return keySpec{kindWord, nil}, true // a ratio; the doctor checks it
	case KeyStateDir:
		return keySpec{kindDir, []string{".magehook"}}, true
	case KeyGuardProtect:
		return keySpec{kindWord, []string{"main", "master"}}, true
	case KeyGuardStopcheck:
		return keySpec{kindText, nil}, true
	case KeyCommitConventional:
		return keySpec{kindBool, []string{"no"}}, true
	case KeyContextFile:
		return keySpec{kindPath, []string{}}, true
	case KeyDocdriftWatch, KeyDocorphanSkip, KeySubagentgateScope:
		return keySpec{kindWord, []string{}}, true // globs
	case KeyDocdriftBlocking:
		return keySpec{kindBool, []string{"no"}}, true
	case KeyStopreminderText, KeyNotifyCommand, KeyDevserverCommand:
		return keySpec{kindText, nil}, true
	case KeyNotifyEvents:
		return keySpec{kindWord, []string{"Stop", "Notification"}}, true
	case KeySubagentgateTypes:
		return keySpec{kindWord, []string{}}, true
	case KeySubagentgateCheck:
		return keySpec{kindText, []string{}}, true
	case KeySubagentgateSecrets:
		return keySpec{kindBool, []string{"yes"}}, true
	case KeyDevserverPort:
		return keySpec{kindPort, nil}, true
	case KeyDevserverPidfile:
		return keySpec{kindPath, nil}, true
	case KeyGuardStopagents:
		return keySpec{kindWord, []string{"*"}}, true
	case KeyCmdguardRule, KeyCmdguardAllow, KeyCmdguardDeny:
		return keySpec{kindText, []string{}}, true
	case KeyCmdguardWarn, KeyCmdguardOff:
		return keySpec{kindToken, []string{}}, true
	case KeyDeployCeiling:
		return keySpec{kindToken, nil}, true
	case KeyDeployEnvironments:
		return keySpec{kindToken, []string{"dev", "staging", "production"}}, true
	}
	return keySpec{}, false
}

// Value is a key's value with where it came from.
type Value struct {
	Key    string
	Values []string
	// Home is the directory the value is relative to: the directory of the
	// file that holds the key, or the root for a default.
	Home string
	// File and Line locate the first entry; both are empty for a default.
	File string
	Line int
	// Origins locate each of Values (an empty Origin for a default).
	Origins []Origin
}

// Origin is the file and line a value was read from.
type Origin struct {
	File string
	Line int
}

// String is the first value, or "".
func (v Value) String() string {
	if len(v.Values) == 0 {
		return ""
	}
	return v.Values[0]
}

// Abs joins a directory or path value with its home.
func (v Value) Abs() string {
	if v.String() == "" {
		return ""
	}
	return filepath.Join(v.Home, filepath.FromSlash(v.String()))
}

// Get returns a key's checked value: from the nearest file holding it, else
// its default at the root. An additive key (a gate key) is the value the
// top .toolingrc of the root's repository has (from that file, the files
// above it or the default) plus the entries of the files below it in the
// repository, each value once. An unknown key is looked up without a check.
// A bad value is an *Error naming the key, the file and the line.
func (c *Config) Get(key string) (Value, error) {
	spec, known := specOf(key)
	if !known || !additive(key) {
		return c.getFrom(0, key, spec, known)
	}
	top := c.repoFiles() - 1
	v, err := c.getFrom(top, key, spec, known)
	if err != nil {
		return Value{}, err
	}
	seen := map[string]bool{}
	for _, s := range v.Values {
		seen[s] = true
	}
	// The files below the top, the top's nearest child first.
	for i := top - 1; i >= 0; i-- {
		f := c.Files[i]
		for _, e := range f.Entries {
			if e.Key != key {
				continue
			}
			if msg := check(spec.kind, e.Value); msg != "" {
				return Value{}, &Error{File: f.Path, Line: e.Line, Key: key, Msg: msg}
			}
			if !seen[e.Value] {
				seen[e.Value] = true
				v.Values = append(v.Values, e.Value)
				v.Origins = append(v.Origins, Origin{f.Path, e.Line})
			}
			if v.File == "" {
				v.File, v.Line = f.Path, e.Line
			}
		}
	}
	return v, nil
}

// repoFiles is the number of files, from the nearest, inside the root's
// git repository (at least the nearest one).
func (c *Config) repoFiles() int {
	if c.RepoTop == "" {
		return 1
	}
	n := 0
	for _, f := range c.Files {
		if !within(f.Dir(), c.RepoTop) {
			break
		}
		n++
	}
	return max(n, 1)
}

func within(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// getFrom is Get over the files from index from up.
func (c *Config) getFrom(from int, key string, spec keySpec, known bool) (Value, error) {
	entries, file, ok := (&Config{Files: c.Files[from:]}).Lookup(key)
	if !ok {
		v := Value{Key: key, Home: c.Root()}
		if known {
			v.Values = append([]string(nil), spec.def...)
			v.Origins = make([]Origin, len(v.Values))
		}
		if key == KeyWikiProject {
			v.Values = []string{filepath.Base(c.Root())}
			v.Origins = []Origin{{}}
		}
		return v, nil
	}
	v := Value{Key: key, Home: file.Dir(), File: file.Path, Line: entries[0].Line}
	for _, e := range entries {
		if known {
			if msg := check(spec.kind, e.Value); msg != "" {
				return Value{}, &Error{File: file.Path, Line: e.Line, Key: key, Msg: msg}
			}
		}
		v.Values = append(v.Values, e.Value)
		v.Origins = append(v.Origins, Origin{file.Path, e.Line})
	}
	return v, nil
}

// Validate checks every known key in every file of the chain, for the
// doctor; a hook run checks only the keys it reads.
func (c *Config) Validate() error {
	for _, f := range c.Files {
		for _, e := range f.Entries {
			if spec, ok := specOf(e.Key); ok {
				if msg := check(spec.kind, e.Value); msg != "" {
					return &Error{File: f.Path, Line: e.Line, Key: e.Key, Msg: msg}
				}
			}
		}
	}
	return nil
}

func check(k kind, v string) string {
	switch k {
	case kindDir, kindPath:
		return checkRelative(v)
	case kindURL:
		i := strings.Index(v, "://")
		if i <= 0 || !isScheme(v[:i]) || len(v) == i+3 {
			return "value " + quote(v) + " is not a URL with a scheme; write e.g. https://host/repo.git or file:///path/repo.git"
		}
	case kindToken:
		if !IsToken(v) {
			return "value " + quote(v) + " is not a name; use letters, digits, '.', '-' and '_', starting with a letter or digit"
		}
	case kindWord:
		if strings.ContainsAny(v, " \t") {
			return "value " + quote(v) + " must be one word"
		}
	case kindBool:
		if v != "yes" && v != "no" {
			return "value " + quote(v) + " must be yes or no"
		}
	case kindPort:
		n := 0
		for i := 0; i < len(v) && n <= 65535; i++ {
			if v[i] < '0' || v[i] > '9' {
				n = -1
				break
			}
			n = n*10 + int(v[i]-'0')
		}
		if v == "" || n < 1 || n > 65535 {
			return "value " + quote(v) + " is not a TCP port; write a number from 1 to 65535"
		}
	}
	return ""
}

func checkRelative(v string) string {
	slashed := filepath.ToSlash(v)
	switch {
	case strings.HasPrefix(slashed, "/") || filepath.IsAbs(v):
		return "value " + quote(v) + " is absolute; write a path relative to the file's directory"
	case strings.ContainsRune(v, 0):
		return "value holds a NUL byte"
	}
	clean := true
	for _, seg := range strings.Split(slashed, "/") {
		if seg == ".." {
			return "value " + quote(v) + " has a '..' segment; write a path inside the file's directory"
		}
		if seg == "." || seg == "" {
			clean = false
		}
	}
	if !clean && strings.Trim(slashed, "./") == "" {
		return "value " + quote(v) + " names the directory itself; write a subdirectory"
	}
	return ""
}

// IsToken reports whether s is a name: letters, digits, '.', '-' and '_',
// starting with a letter or digit, with no "..".
func IsToken(s string) bool {
	if s == "" || strings.Contains(s, "..") || !isAlnum(s[0]) {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !isAlnum(c) && c != '.' && c != '-' && c != '_' {
			return false
		}
	}
	return true
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func isScheme(s string) bool {
	if s == "" || !(s[0] >= 'a' && s[0] <= 'z' || s[0] >= 'A' && s[0] <= 'Z') {
		return false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if !isAlnum(c) && c != '+' && c != '-' && c != '.' {
			return false
		}
	}
	return true
}

func quote(s string) string { return "\"" + s + "\"" }
