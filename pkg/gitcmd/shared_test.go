package gitcmd_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/magehook/magehook/pkg/budget"
	"github.com/magehook/magehook/pkg/gitcmd"
)

func TestSharedAnalysesACommandOnce(t *testing.T) {
	opts := gitcmd.HookOptions("/tmp", "/home/u", func(string) string { return "" }, time.Time{}, 0)
	a, err := gitcmd.Shared("git commit -m x && rm -rf build", opts)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := gitcmd.Shared("git commit -m x && rm -rf build", opts)
	if a != b || len(a.Commands) != 2 {
		t.Errorf("the second gate should get the first analysis: %p %p %d", a, b, len(a.Commands))
	}
	opts.Dir = "/srv"
	if c, _ := gitcmd.Shared("git commit -m x && rm -rf build", opts); c == a || c.Commands[0].Dir != "/srv" {
		t.Error("another directory is another analysis")
	}
	if d, _ := gitcmd.Shared("ls", opts); len(d.Commands) != 1 || d.Commands[0].Name() != "ls" {
		t.Error("another command is another analysis")
	}
	opts.PowerShell = true
	if e, _ := gitcmd.Shared("ls", opts); len(e.Commands) != 1 || e.Commands[0].Cmdlet() != "get-childitem" {
		t.Error("the same text in PowerShell is another analysis")
	}
}

func TestForGate(t *testing.T) {
	getenv := func(string) string { return "" }
	b := &budget.Budget{MaxInput: 64}
	if a, err := gitcmd.ForGate("git status && rm -rf build", "/tmp", "/home/u", getenv, b, false); err != nil || len(a.Commands) != 2 {
		t.Fatalf("an ordinary command: %v %v", a, err)
	}
	long := "echo " + strings.Repeat("x", 100)
	for _, ps := range []bool{false, true} {
		// Over the budget's size: an error for Bash and PowerShell (fail closed).
		if a, err := gitcmd.ForGate(long, "/tmp", "/home/u", getenv, b, ps); a != nil || !errors.Is(err, budget.ErrExceeded) {
			t.Errorf("PowerShell %v: a command over the size limit gives %v %v", ps, a, err)
		}
	}
	if a, err := gitcmd.ForGate("Remove-Item -Recurse x", "/tmp", "/home/u", getenv, b, true); err != nil || len(a.Commands) != 1 || a.Commands[0].Cmdlet() != "remove-item" || len(a.Writes) != 1 || !a.Writes[0].Tree {
		t.Errorf("a PowerShell command is read as PowerShell: %+v %v", a, err)
	}
	past := &budget.Budget{Deadline: time.Unix(1, 0)}
	// (The deadline is checked every few statements: a command of many.)
	many := strings.Repeat("ls x; ", 40)
	if _, err := gitcmd.ForGate(many+"ls /nowhere-else", "/tmp", "/home/u", getenv, past, false); !errors.Is(err, gitcmd.ErrBudget) {
		t.Errorf("past the deadline: %v", err)
	}
	if _, err := gitcmd.ForGate(many+"ls /nowhere-at-all", "/tmp", "/home/u", getenv, past, true); !errors.Is(err, gitcmd.ErrBudget) {
		t.Errorf("PowerShell past the deadline: %v", err)
	}
}
