package targets

import (
	"fmt"

	"github.com/magehook/magehook/hooks/lastpayload"
	"github.com/magehook/magehook/pkg/toolingrc"
)

// Last prints the newest payload the lastpayload handler kept, of the
// event -event names (hook:last -event=PreToolUse) or of any event, from
// -session or any session: redacted JSON that hook:replay takes. Exit 1
// when none is stored, 2 for an event or session of the wrong shape.
func (Hook) Last(
	event *string, // the event (default: any)
	session *string, // the session id (default: any)
) error {
	return osWorld().last(deref(event), deref(session))
}

func (w world) last(event, session string) error {
	if err := lastpayload.CheckQuery(event, session); err != nil {
		return usage(err)
	}
	cfg, err := toolingrc.Discover(w.start())
	if err != nil {
		return configErr(err)
	}
	state, err := cfg.Get(toolingrc.KeyStateDir)
	if err != nil {
		return configErr(err)
	}
	path, err := lastpayload.Find(state.Abs(), event, session)
	if err != nil {
		return failure(err) // lastpayload.ErrNone: nothing stored
	}
	data, err := lastpayload.Read(path)
	if err != nil {
		return failure(err)
	}
	fmt.Fprintln(w.stderr, "magehook: "+path)
	_, err = w.stdout.Write(data)
	return failure(err)
}
