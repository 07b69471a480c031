// Package hook is the one place that knows the hook wire protocol: the
// events and what each accepts (Event), the answers a handler may give
// (Result), the writer that renders them in a harness's dialect (Render),
// and the fail-safe dispatcher that runs a checkout's enabled handlers on
// one event (Dispatcher).
//
// A handler never writes JSON: it returns a Result that names intentions
// (deny with a reason, add context, ...) and Render turns the merged
// results into the single shape the firing event accepts — hookEventName
// always equal to the event, hookSpecificOutput only for events that define
// one, a top-level "block" only where the contract has it. Fields an event
// cannot take are dropped with a warning on stderr rather than sent.
//
// Failure policy: a handler that returns an error or panics is recovered
// and logged to state.dir/health.jsonl. A Gatekeeper then blocks the event
// (exit 2 with the reason on stderr; a PermissionRequest deny through JSON,
// since that event ignores exit 2); an Observer lets it proceed. Stop and
// SubagentStop never block while stop_hook_active is true.
package hook
