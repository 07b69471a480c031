package branchguard_test

import (
	"testing"

	"github.com/magehook/magehook/hooks/branchguard"
	"github.com/magehook/magehook/hooks/noverify"
	"github.com/magehook/magehook/pkg/hook"
)

// TestExpansionsBashMakesFirst: the words a gate judges are the ones bash
// runs after brace expansion and "$@", on main as anywhere: git
// {commit,} -m x is a commit, and so is "$@" holding one.
func TestExpansionsBashMakesFirst(t *testing.T) {
	gates := []hook.Handler{branchguard.Handler, noverify.Handler}
	root, feature := setup(t, "hook.enable noverify")
	judge(t, gates, root, []verdict{
		{"git {commit,} --allow-empty -m x", root, true},
		{"git {commit,--allow-empty} -m x", root, true},
		{`sh -c '"$@"' _ git commit --allow-empty -m x`, root, true},
		{`set -- git commit --allow-empty -m x; "$@"`, root, true},
		{`set -- x git commit -m x; shift; "${@}"`, root, true},
		{`f() { git "$@"; }; f commit --allow-empty -m x`, root, true},
		{`sh -c 'git "$@"' sh update-ref refs/heads/main feat`, root, true},
		{"git commit {--no-verify,} -m x", feature, true},
		{"echo {a,b}.go && ls src/{a,b}.go", root, false},
		{`set -- status --short; git "$@"`, root, false},
		{"git {commit,} --allow-empty -m x", feature, false},
	})
}
