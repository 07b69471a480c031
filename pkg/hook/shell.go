package hook

import "github.com/magehook/magehook/pkg/gitcmd"

// Shell is the command model's reading of the call's shell command (a
// Bash tool call's tool_input.command): every simple command the shell
// would run, now or later in the line, with its arguments as the shell
// passes them, the directory it runs in and the files it writes. It is
// the analysis every gate of the hook run shares, within the call's
// budget. A call that carries no shell command gives nil and no error;
// an error (a command over the budget's size or time) is for a gatekeeper
// to return, which blocks the call.
//
// A handler judges what a command does from it, never the words of the
// text:
//
//	a, err := c.Shell()
//	if err != nil || a == nil {
//		return hook.Result{}, err
//	}
//	for _, cmd := range a.Commands {
//		argv := cmd.Argv() // argv[0] is the program, as the shell finds it
//		...
//	}
func (c *Call) Shell() (*gitcmd.Analysis, error) {
	if c.Payload == nil || !c.Payload.IsTool("Bash") {
		return nil, nil
	}
	command, ok := c.Payload.InputString("command")
	if !ok {
		return nil, nil
	}
	home := ""
	if c.Getenv != nil {
		home = c.Getenv("HOME")
	}
	return gitcmd.ForGate(command, c.Payload.WorkDir(home), home, c.Getenv, c.Budget, false)
}
