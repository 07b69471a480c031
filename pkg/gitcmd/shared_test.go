package gitcmd_test

import (
	"testing"
	"time"

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
}
