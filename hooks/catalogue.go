// Package hooks lists the ready-made handlers. The list is explicit (no
// init-time registration): a handler exists for hook.enable when, and only
// when, it appears in All.
package hooks

import (
	"github.com/magehook/magehook/hooks/sessionclock"
	"github.com/magehook/magehook/pkg/hook"
)

// All returns the catalogue, in the order hook:list prints it.
func All() []hook.Handler {
	return []hook.Handler{
		sessionclock.Handler,
	}
}
