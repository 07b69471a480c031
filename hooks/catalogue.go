// Package hooks lists the ready-made handlers. The list is explicit (no
// init-time registration): a handler exists for hook.enable when, and only
// when, it appears in All. (hooks/commitmsg is a git hook, not a Claude
// Code handler; hook:install -githook installs it.)
package hooks

import (
	"github.com/magehook/magehook/hooks/auditlog"
	"github.com/magehook/magehook/hooks/branchguard"
	"github.com/magehook/magehook/hooks/cmdguard"
	"github.com/magehook/magehook/hooks/configguard"
	"github.com/magehook/magehook/hooks/contextfile"
	"github.com/magehook/magehook/hooks/decisionlog"
	"github.com/magehook/magehook/hooks/devserver"
	"github.com/magehook/magehook/hooks/docdrift"
	"github.com/magehook/magehook/hooks/docorphan"
	"github.com/magehook/magehook/hooks/lastpayload"
	"github.com/magehook/magehook/hooks/ledger"
	"github.com/magehook/magehook/hooks/notify"
	"github.com/magehook/magehook/hooks/sessionclock"
	"github.com/magehook/magehook/hooks/stopguard"
	"github.com/magehook/magehook/hooks/stopreminder"
	"github.com/magehook/magehook/hooks/subagentgate"
	"github.com/magehook/magehook/pkg/hook"
)

// All returns the catalogue, in the order hook:list prints it and the
// dispatcher runs the enabled handlers.
func All() []hook.Handler {
	return []hook.Handler{
		sessionclock.Handler,
		branchguard.Handler,
		branchguard.SessionHandler,
		cmdguard.Handler,
		configguard.Handler,
		stopguard.Handler,
		auditlog.Handler,
		decisionlog.Handler,
		contextfile.Handler,
		docdrift.Handler,
		docorphan.Handler,
		ledger.Handler,
		stopreminder.Handler,
		notify.Handler,
		lastpayload.Handler,
		subagentgate.Handler,
		devserver.Handler,
	}
}
