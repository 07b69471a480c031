package toolingrc

import (
	"fmt"
	"strings"
)

// Keys lists every key magehook reads, in docs/configuration.md's order. (A function,
// not a package-level slice: nothing is built unless something asks.)
func Keys() []string {
	return []string{
		KeyHookEnable, KeyHookWarn, KeyHookBinary, KeyHookStartBudget, KeyStateDir,
		KeyGuardProtect, KeyGuardStopcheck, KeyGuardStopagents,
		KeyCommitConventional,
		KeyWorktreeBase, KeyWorktreeBootstrap,
		KeyWikiOrigin, KeyWikiDir, KeyWikiProject, KeyWikiProjects,
		KeyContextFile,
		KeyDocdriftWatch, KeyDocdriftBlocking, KeyDocorphanSkip,
		KeyStopreminderText,
		KeyNotifyCommand, KeyNotifyEvents,
		KeySubagentgateTypes, KeySubagentgateCheck, KeySubagentgateScope, KeySubagentgateSecrets,
		KeyDevserverCommand, KeyDevserverPort, KeyDevserverPidfile,
		KeyCmdguardRule, KeyCmdguardAllow, KeyCmdguardDeny, KeyCmdguardWarn, KeyCmdguardOff,
		KeyDeployCeiling, KeyDeployEnvironments,
	}
}

// Unknown is a key in one of magehook's own prefixes (hook., guard.,
// wiki., ...) that magehook does not read: a typo that would otherwise
// silently do nothing.
type Unknown struct {
	File string
	Line int
	Key  string
	// Suggest is the known key it most likely means, or "".
	Suggest string
}

// String names the file, line and key, and what the typo does: a key in
// the gates' prefixes closes every gate (GateTypo), which a user told
// "ignored" would only find out at the next tool call.
func (u Unknown) String() string {
	s := fmt.Sprintf("%s:%d: unknown key %s", u.File, u.Line, u.Key)
	if u.Suggest != "" {
		s += "; did you mean " + u.Suggest + "?"
	}
	if gateKey(u.Key) {
		return s + " (until it is fixed, every tool call is blocked; docs/configuration.md lists the keys)"
	}
	return s + " (magehook ignores it; docs/configuration.md lists the keys)"
}

// gateKey reports whether key is in the gates' own prefixes, where a typo
// is a configuration error rather than a key to ignore.
func gateKey(key string) bool {
	return strings.HasPrefix(key, "hook.") || strings.HasPrefix(key, "guard.")
}

// Unknowns returns the unknown keys in magehook's prefixes in every file of
// the chain, nearest file first. Keys of other tools (no dot, or a prefix
// magehook does not use) are not reported: a .toolingrc is shared.
func (c *Config) Unknowns() []Unknown {
	keys := Keys()
	var out []Unknown
	for _, f := range c.Files {
		for _, e := range f.Entries {
			if _, ok := specOf(e.Key); ok || !ownPrefix(keys, e.Key) {
				continue
			}
			out = append(out, Unknown{File: f.Path, Line: e.Line, Key: e.Key, Suggest: nearest(keys, e.Key)})
		}
	}
	return out
}

// ownPrefix reports whether key's prefix (up to its first dot) is one of
// the known keys' prefixes.
func ownPrefix(keys []string, key string) bool {
	dot := strings.IndexByte(key, '.')
	if dot <= 0 {
		return false
	}
	for _, k := range keys {
		if strings.HasPrefix(k, key[:dot+1]) {
			return true
		}
	}
	return false
}

// Nearest is the name within two edits of name (the closest, the first on
// a tie), or "": the did-you-mean of a misspelt key or handler name.
func Nearest(names []string, name string) string { return nearest(names, name) }

// nearest is the known key within two edits of key (the closest, first in
// Keys on a tie), or "".
func nearest(keys []string, key string) string {
	best, bestDist := "", 3
	for _, k := range keys {
		if d := distance(k, key); d < bestDist {
			best, bestDist = k, d
		}
	}
	return best
}

// distance is the optimal string alignment distance: insertions,
// deletions, substitutions and swaps of adjacent bytes each cost one.
func distance(a, b string) int {
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}

// GateTypo returns, as an *Error, the first unknown key in the gates' own
// prefixes (hook., guard.): a misspelt hook.enable or guard.protect would
// otherwise turn a gate off without a word, so a hook run treats it as a
// configuration that cannot be fully read. Other prefixes (wiki.,
// worktree., shared with other tools) only warn. nil when there is none.
func (c *Config) GateTypo() error {
	for _, u := range c.Unknowns() {
		if gateKey(u.Key) {
			msg := "unknown key"
			if u.Suggest != "" {
				msg += "; did you mean " + u.Suggest + "?"
			}
			return &Error{File: u.File, Line: u.Line, Key: u.Key, Msg: msg + " A misspelt gate key would turn a gate off; fix it (docs/configuration.md lists the keys)"}
		}
	}
	return nil
}
