package gitcmd

import "sync"

// shared is the last analysis Shared made: the gates of one hook run
// (branchguard, cmdguard, docorphan) ask about the same command, and one
// parse serves them all. A zero value: nothing is built at start-up.
var shared struct {
	mu                 sync.Mutex
	command, dir, home string
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
	if shared.set && shared.command == command && shared.dir == opts.Dir && shared.home == opts.Home {
		return shared.analysis, shared.err
	}
	a, err := Analyze(command, opts)
	shared.command, shared.dir, shared.home, shared.analysis, shared.err, shared.set = command, opts.Dir, opts.Home, a, err, true
	return a, err
}
