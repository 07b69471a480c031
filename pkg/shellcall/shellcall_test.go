package shellcall_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/magehook/magehook/pkg/budget"
	"github.com/magehook/magehook/pkg/gitcmd"
	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/hooktest"
	"github.com/magehook/magehook/pkg/shellcall"
)

// Every gate on a call reads one analysis; the call's budget bounds it.
func TestOneAnalysisPerCall(t *testing.T) {
	var seen []*gitcmd.Analysis
	gate := func(name string) hook.Handler {
		return hook.Handler{Name: name, Purpose: "p", Events: []string{"PreToolUse"}, Matcher: "Bash", Policy: hook.Gatekeeper,
			Run: func(c *hook.Call) (hook.Result, error) {
				a, err := shellcall.Analyze(c)
				if err != nil {
					return hook.Result{}, err
				}
				seen = append(seen, a)
				if len(a.Writes) != 1 || !strings.HasSuffix(a.Writes[0].Path, "out.txt") {
					t.Errorf("writes %+v", a.Writes)
				}
				return hook.Result{}, nil
			}}
	}
	root := hooktest.Checkout(t, "hook.enable a", "hook.enable b")
	out := hooktest.Run(t, []hook.Handler{gate("a"), gate("b")}, root, "PreToolUse", "PreToolUse/bash",
		map[string]any{"tool_input": map[string]any{"command": "echo hi > out.txt"}})
	if out.Code != 0 || len(seen) != 2 || seen[0] != seen[1] {
		t.Fatalf("%+v; analyses %v: want one, shared", out, seen)
	}
}

func TestTheBudgetBoundsTheAnalysis(t *testing.T) {
	p := hooktest.Payload(t, "PreToolUse/bash", map[string]any{"tool_input": map[string]any{"command": "echo " + strings.Repeat("x", 100)}})
	c := &hook.Call{Payload: p, Budget: &budget.Budget{MaxInput: 50}}
	if _, err := shellcall.Analyze(c); !errors.Is(err, gitcmd.ErrTooLarge) {
		t.Errorf("over MaxInput: %v, want gitcmd.ErrTooLarge", err)
	}
}
