package targets

import (
	"fmt"
	"os"

	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/toolingrc"
)

// Verify checks the enabled handlers' own configuration, the way a test
// checks code: cmdguard runs every rule's deny and allow examples. One line
// per problem on stdout; exit 1 on any.
func (Hook) Verify() {
	cfg, err := toolingrc.Discover(startDir())
	if err != nil {
		fail(hook.ExitConfig, err)
	}
	v, err := cfg.Get(toolingrc.KeyHookEnable)
	if err != nil {
		fail(hook.ExitConfig, err)
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
				fmt.Printf("problem  %s  %s\n", h.Name, p)
			}
			if len(found) == 0 {
				fmt.Printf("ok       %s\n", h.Name)
			}
			problems += len(found)
		}
	}
	if checked == 0 {
		fmt.Fprintln(os.Stderr, "magehook: hook:verify: no enabled handler has anything to verify (cmdguard does)")
	}
	if problems > 0 {
		os.Exit(hook.ExitFail)
	}
}
