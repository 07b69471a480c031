// Package shellcall is the shell analysis of a call's command, made once
// per event for every handler that needs it: branchguard, configguard and
// the other gates on Bash read the same gitcmd.Analysis, computed with the
// same world (the payload's cwd, HOME and environment, scripts read only
// when they are regular files, the call's budget), instead of parsing the
// command once each.
package shellcall

import (
	"fmt"
	"os"

	"github.com/magehook/magehook/pkg/gitcmd"
	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/regfile"
)

// MaxScript is the largest script a command runs that the analysis reads.
const MaxScript = 1 << 20

// Analyze returns the analysis of the call's tool_input.command (shared:
// read it, never change it). Its error
// is the analysis's (gitcmd.ErrTooLarge, gitcmd.ErrBudget: fail closed on
// both), or a payload without a command.
func Analyze(c *hook.Call) (*gitcmd.Analysis, error) {
	v, err := c.Memo("shellcall", func() (any, error) {
		command, ok := c.Payload.InputString("command")
		if !ok {
			return nil, fmt.Errorf("a %s payload without tool_input.command", c.Payload.ToolName)
		}
		home := ""
		if c.Getenv != nil {
			home = c.Getenv("HOME")
		}
		return gitcmd.Analyze(command, gitcmd.Options{Dir: c.Payload.CWD, Home: home, Getenv: c.Getenv,
			ReadFile: func(path string) ([]byte, error) { return regfile.ReadFile(path, MaxScript) },
			Stat:     os.Stat, Deadline: c.Budget.Until(), MaxBytes: c.Budget.Limit()})
	})
	a, _ := v.(*gitcmd.Analysis)
	if a == nil && err == nil {
		err = fmt.Errorf("no analysis of the command")
	}
	return a, err
}
