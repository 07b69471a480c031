package gitcmd_test

import (
	"fmt"
	"testing"

	"github.com/magehook/magehook/pkg/gitcmd"
)

func TestStashEffect(t *testing.T) {
	for cmd, want := range map[string]string{
		"git stash":                                 "push",
		"git stash -q":                              "push",
		"git stash push -u -m wip -- src":           "push untracked [src]",
		"git stash save 'work in progress'":         "push",
		"git stash --patch":                         "push ?",
		"git stash pop":                             "restore 0",
		"git stash pop -q 'stash@{2}'":              "restore 2",
		"git stash drop":                            "drop [0]",
		"git stash drop -q 1":                       "drop [1]",
		"git stash drop refs/stash@{3}":             "drop [3]",
		"git stash drop \"$s\"":                     "drop [0] ?",
		"git stash clear":                           "all",
		"git update-ref -d refs/stash":              "all",
		"git update-ref -d stash":                   "all",
		"git reflog delete --rewrite 'stash@{0}'":   "drop [0]",
		"git reflog expire --expire=now refs/stash": "all",
		"git stash list":                            "none",
		"git stash apply":                           "apply 0", "git stash apply --index 1": "apply 1",
		"git stash show -p":                   "none",
		"git update-ref -d refs/heads/old":    "none",
		"git reflog expire --expire=now HEAD": "none",
		"git status":                          "none",
	} {
		a, err := gitcmd.Analyze(cmd, gitcmd.Options{Dir: "/r"})
		if err != nil {
			t.Fatal(err)
		}
		e, ok := a.Commands[0].Git.Stash()
		got := "none"
		if ok {
			switch {
			case e.Push:
				got = "push"
				if e.Untracked {
					got += " untracked"
				}
				if e.Paths != nil {
					got += fmt.Sprint(" ", e.Paths)
				}
			case e.Restore >= 0:
				got = fmt.Sprint("restore ", e.Restore)
			case e.Apply >= 0:
				got = fmt.Sprint("apply ", e.Apply)
			case e.All:
				got = "all"
			default:
				got = fmt.Sprint("drop ", e.Drop)
			}
			if e.Unknown != "" {
				got += " ?"
			}
		}
		if got != want {
			t.Errorf("%s: %s, want %s", cmd, got, want)
		}
	}
}
