package targets

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/magehook/magehook/hooks/lastpayload"
	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/toolingrc"
)

// Last prints the newest payload the lastpayload handler kept, of the
// event named after the target (hook:last PreToolUse) or of any event,
// from -session or any session: redacted JSON that hook:replay takes.
func (Hook) Last(session *string) {
	extra := hook.ExtraArgs(os.Args, "hook:last")
	if len(extra) > 1 {
		fail(hook.ExitBlock, fmt.Errorf("hook:last takes at most one event name, got %q", strings.Join(extra, " ")))
	}
	event := ""
	if len(extra) == 1 {
		event = extra[0]
	}
	cfg, err := toolingrc.Discover(startDir())
	if err != nil {
		fail(hook.ExitConfig, err)
	}
	state, err := cfg.Get(toolingrc.KeyStateDir)
	if err != nil {
		fail(hook.ExitConfig, err)
	}
	path, err := lastpayload.Find(state.Abs(), event, deref(session))
	if err != nil {
		code := hook.ExitBlock // a bad event name or session id
		if errors.Is(err, lastpayload.ErrNone) {
			code = hook.ExitFail
		}
		fail(code, err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		fail(hook.ExitFail, err)
	}
	fmt.Fprintln(os.Stderr, "magehook: "+path)
	os.Stdout.Write(data)
	os.Exit(hook.ExitOK) // the event name is not a target for Mage to run next
}
