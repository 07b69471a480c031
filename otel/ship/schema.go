package ship

import (
	"fmt"
	"strings"
)

// Attribute is one attribute of the exported records, as docs/fleet.md's
// schema table lists it (generated from Schema and tested).
type Attribute struct {
	Name string
	// On is where it is: resource, or the kinds of record that carry it.
	On string
	// Semconv is true for an OpenTelemetry semantic convention (the
	// rest are in the magehook. namespace, or the user's own).
	Semconv bool
	Meaning string
}

// Schema lists every attribute the shipper exports. The end-to-end test
// fails on an exported attribute it does not list.
func Schema() []Attribute {
	return []Attribute{
		{"service.name", "resource", true, "`magehook`, whatever OTEL_SERVICE_NAME or OTEL_RESOURCE_ATTRIBUTES say (they configure Claude Code too)"},
		{"service.version", "resource", true, "magehook's module version the shipper was built with (absent in a development build)"},
		{"host.name", "resource", true, "the machine (OTEL_RESOURCE_ATTRIBUTES may set it, e.g. a farm worker's name)"},
		{"user.name", "resource", true, "the user the shipper runs as"},
		{"os.type", "resource", true, "the operating system"},
		{"vcs.repository.url.full", "resource", true, "the checkout's origin URL, any user or password removed"},
		{"vcs.repository.name", "resource", true, "the origin's last path element, without .git"},
		{"vcs.ref.head.name", "resource", true, "the branch checked out when the record was shipped"},
		{"magehook.checkout", "resource", false, "the checkout's root directory on the machine"},
		{"magehook.harness", "resource", false, "the agent whose hook call made the record (claude, codex, ...); absent on the doctor's records"},
		{"magehook.harness.version", "resource", false, "that agent's version, from its client's --version on the machine (absent when the client is not on PATH)"},
		{"magehook.binary.hash", "resource", false, "the source hash the hook binary was stamped with (hook:version; the doctor's records: the binary's, not the doctor's)"},
		{"(OTEL_RESOURCE_ATTRIBUTES)", "resource", false, "every attribute the variable names, as the SDK reads it"},
		{"log.record.uid", "every record", true, "unique per record: a record exported twice (a retry after a lost acknowledgement) has the same one"},
		{"magehook.record.kind", "every record", false, "decision, health, call, drift or dropped (also the event name, magehook.<kind>)"},
		{"session.id", "decision, health, call", true, "the agent session's id"},
		{"magehook.event", "decision, health, call", false, "the hook event (PreToolUse, ...)"},
		{"magehook.tool", "decision, call", false, "the tool the call is about (Bash, Edit, an MCP tool, ...)"},
		{"magehook.handler", "decision, health", false, "the handler that decided or failed"},
		{"magehook.decision", "decision, call", false, "allow, ask, defer, deny or failed (a decision); the call's strongest, or none"},
		{"magehook.reason", "decision", false, "the reason's first line, redacted as the audit log is, at most 500 bytes"},
		{"magehook.policy", "health", false, "the failed handler's policy (gatekeeper or observer)"},
		{"magehook.error", "health", false, "the failure, redacted as the health log is"},
		{"magehook.exit_code", "call", false, "the hook binary's exit code"},
		{"magehook.call.duration_us", "call", false, "the dispatch, payload read to answer written, in µs (not the process's start)"},
		{"magehook.handler.time_us", "call", false, "the handlers' time together, in µs"},
		{"magehook.handler.times", "call", false, "each handler's time, `name=µs`"},
		{"magehook.drift.source", "drift", false, "session-start or doctor"},
		{"magehook.settings.scope", "drift", false, "project, local, user, or another harness's name"},
		{"magehook.settings.file", "drift", false, "the settings file compared"},
		{"magehook.settings.present", "drift", false, "whether that file exists"},
		{"magehook.drift.missing", "drift", false, "hooks declared and not wired (the seed's `-`), `<event>[<matcher>] <hook>`"},
		{"magehook.drift.undeclared", "drift", false, "hooks wired and declared nowhere (`+`)"},
		{"magehook.drift.local", "drift", false, "intentional local hooks, under _hooks_local and wired (`~`)"},
		{"magehook.drift.problem", "drift", false, "why the file could not be compared"},
		{"magehook.drift.untrusted", "drift", false, "the doctor's trust problems (a Codex hook not trusted, ...); doctor records only"},
		{"magehook.binary.stale", "drift", false, "the hook binary was built from other sources than the checkout's; doctor records only"},
		{"magehook.handlers", "drift", false, "the enabled handlers"},
		{"magehook.config.hash", "drift", false, "a hash of the .toolingrc files that configure them"},
		{"magehook.drifted", "drift", false, "any of missing, undeclared, problem, untrusted or stale"},
		{"magehook.spool.dropped", "dropped", false, "records the spool's bound dropped since the last report"},
	}
}

// SchemaTable is the schema as docs/fleet.md shows it.
func SchemaTable() string {
	var b strings.Builder
	b.WriteString("| attribute | on | convention | meaning |\n| --- | --- | --- | --- |\n")
	for _, a := range Schema() {
		conv := "magehook"
		if a.Semconv {
			conv = "OTel semconv"
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", a.Name, a.On, conv, a.Meaning)
	}
	return b.String()
}
