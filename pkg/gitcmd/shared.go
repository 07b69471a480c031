package gitcmd

import (
	"os"
	"sync"
	"time"

	"github.com/magehook/magehook/pkg/budget"
	"github.com/magehook/magehook/pkg/regfile"
)

// shared is the last analysis Shared made: the gates of one hook run
// (branchguard, cmdguard, docorphan) ask about the same command, and one
// parse serves them all. A zero value: nothing is built at start-up.
var shared struct {
	mu                 sync.Mutex
	command, dir, home string
	powershell         bool
	analysis           *Analysis
	err                error
	set                bool
}

// Shared is Analyze with the result kept for the next caller that asks
// about the same command, starting directory and home in this process:
// one analysis per command, shared by every handler of a hook run. The
// callers of one process must pass the same environment and file-system
// functions (the hook's); the result must not be modified.
func Shared(command string, opts Options) (*Analysis, error) {
	shared.mu.Lock()
	defer shared.mu.Unlock()
	if shared.set && shared.command == command && shared.dir == opts.Dir && shared.home == opts.Home && shared.powershell == opts.PowerShell {
		return shared.analysis, shared.err
	}
	a, err := Analyze(command, opts)
	shared.command, shared.dir, shared.home, shared.powershell, shared.analysis, shared.err, shared.set = command, opts.Dir, opts.Home, opts.PowerShell, a, err, true
	return a, err
}

// HookOptions are the options every gate of a hook run analyses a Bash
// command with, so that Shared serves them all one analysis: the payload's
// cwd, the hook's home and environment, scripts read only as regular files
// (up to 1 MiB, so a FIFO never blocks a gate), os.Stat, and the
// decision's deadline and size limit.
func HookOptions(cwd, home string, getenv func(string) string, deadline time.Time, maxBytes int) Options {
	return Options{Dir: cwd, Home: home, Getenv: getenv, ReadFile: readScript, Stat: os.Stat, Deadline: deadline, MaxBytes: maxBytes}
}

func readScript(path string) ([]byte, error) { return regfile.ReadFile(path, 1<<20) }

// ForGate is where a gate's judgement of a shell command starts: the size
// check against the decision's budget, then the analysis every gate of the
// hook run shares (Shared with HookOptions). powershell: the command is
// the PowerShell tool's, read into the same model (Options.PowerShell). A
// non-nil error fails the gate closed.
func ForGate(command, dir, home string, getenv func(string) string, b *budget.Budget, powershell bool) (*Analysis, error) {
	if err := b.CheckSize("the command", len(command)); err != nil {
		return nil, err
	}
	opts := HookOptions(dir, home, getenv, b.Until(), b.Limit())
	opts.PowerShell = powershell
	return Shared(command, opts)
}
