package targets

import (
	"fmt"

	"github.com/magehook/magehook/pkg/toolingrc"
)

// Verify checks the enabled handlers' own configuration, the way a test
// checks code: cmdguard runs every rule's deny and allow examples. One line
// per problem on stdout; exit 1 on any.
func (Hook) Verify() error { return osWorld().verify() }

func (w world) verify() error {
	cfg, err := toolingrc.Discover(w.start())
	if err != nil {
		return configErr(err)
	}
	v, err := cfg.Get(toolingrc.KeyHookEnable)
	if err != nil {
		return configErr(err)
	}
	problems, checked := 0, 0
	for _, name := range v.Values {
		for _, h := range handlers() {
			if h.Name != name || h.Verify == nil {
				continue
			}
			checked++
			found := h.Verify(cfg)
			for _, p := range found {
				fmt.Fprintf(w.stdout, "problem  %s  %s\n", h.Name, p)
			}
			if len(found) == 0 {
				fmt.Fprintf(w.stdout, "ok       %s\n", h.Name)
			}
			problems += len(found)
		}
	}
	if checked == 0 {
		fmt.Fprintln(w.stderr, "magehook: hook:verify: no enabled handler has anything to verify (cmdguard does)")
	}
	if problems > 0 {
		return failure(fmt.Errorf("hook:verify: %s in the handlers' configuration (above); fix the rules or their examples in .toolingrc", plural(problems, "problem")))
	}
	return nil
}
