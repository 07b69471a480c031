package hook

import (
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/magehook/magehook/pkg/buildinfo"
	"github.com/magehook/magehook/pkg/jsonlog"
	"github.com/magehook/magehook/pkg/payload"
	"github.com/magehook/magehook/pkg/redact"
	"github.com/magehook/magehook/pkg/spool"
	"github.com/magehook/magehook/pkg/toolingrc"
)

// SpoolFor is the OpenTelemetry spool of a checkout whose .toolingrc sets
// otel.export yes (<state.dir>/otel), or nil: export is off by default,
// and then nothing below is done on a call.
func SpoolFor(cfg *toolingrc.Config) *spool.Spool {
	if !exporting(cfg) {
		return nil
	}
	return spoolIn(StateDir(cfg))
}

func exporting(cfg *toolingrc.Config) bool {
	if cfg == nil {
		return false
	}
	v, err := cfg.Get(toolingrc.KeyOtelExport)
	return err == nil && len(v.Values) > 0 && v.Values[0] == "yes"
}

func spoolIn(state string, err error) *spool.Spool {
	if err != nil {
		return nil
	}
	return &spool.Spool{Dir: filepath.Join(state, "otel")}
}

// spoolFor is SpoolFor with the state directory resolved once per
// dispatch (the handlers' Call.StateDir shares it).
func (d *Dispatcher) spoolFor(cfg *toolingrc.Config) *spool.Spool {
	if !exporting(cfg) {
		return nil
	}
	c := Call{Config: cfg, memo: d.memo}
	return spoolIn(c.StateDir())
}

// ShipperFor is the shipper binary a checkout's hook binary starts: the
// file spool.ShipperName beside hook.binary.
func ShipperFor(cfg *toolingrc.Config) string {
	v, err := cfg.Get(toolingrc.KeyHookBinary)
	if err != nil {
		return ""
	}
	return filepath.Join(filepath.Dir(v.Abs()), spool.ShipperName)
}

// Export appends recs to the checkout's spool when export is on, in one
// write, filling each one's ID, time and resource (the checkout, the
// harness when not empty, and the running binary's source hash unless the
// record names one), and starts the shipper when the append made a
// segment. Best effort: a record that cannot be spooled never fails a
// hook.
func Export(cfg *toolingrc.Config, harness string, now time.Time, recs ...spool.Record) {
	if s := SpoolFor(cfg); s != nil {
		export(s, cfg, harness, now, recs)
	}
}

func export(s *spool.Spool, cfg *toolingrc.Config, harness string, now time.Time, recs []spool.Record) {
	out := make([]jsonlog.Appender, len(recs))
	for i, rec := range recs {
		rec.ID = spool.NewID(now)
		rec.Time = now
		rec.Resource = append(rec.Resource, spool.String("magehook.checkout", cfg.Root()))
		if harness != "" {
			rec.Resource = append(rec.Resource, spool.String("magehook.harness", harness))
		}
		hashed := false
		for _, a := range rec.Resource {
			hashed = hashed || a.Key == "magehook.binary.hash"
		}
		if !hashed {
			rec.Resource = append(rec.Resource, spool.String("magehook.binary.hash", buildinfo.Source))
		}
		out[i] = rec
	}
	if rotated, err := s.Append(out...); err == nil && rotated {
		s.Kick(ShipperFor(cfg), os.Environ())
	}
}

// handlerTime is one handler's run on a call, kept for the export.
type handlerTime struct {
	name   string
	policy Policy
	r      Result
	err    error
	took   time.Duration
}

// exportCall spools what one call did: a decision record for each gate
// that decided or failed, and one call record with the call's duration
// and each handler's time.
func (d *Dispatcher) exportCall(c *call, code int) {
	if c.spool == nil {
		return
	}
	now := d.Now()
	harness := HarnessName(d.Harness)
	base := func(attrs ...spool.Attr) []spool.Attr {
		out := []spool.Attr{spool.String("magehook.event", c.ev.Name)}
		if c.p.ToolName != "" {
			out = append(out, spool.String("magehook.tool", c.p.ToolName))
		}
		if c.p.SessionID != "" {
			out = append(out, spool.String("session.id", c.p.SessionID))
		}
		return append(out, attrs...)
	}
	var total time.Duration
	var times []string
	var recs []spool.Record
	decision := "none"
	for _, t := range c.times {
		total += t.took
		times = append(times, t.name+"="+strconv.FormatInt(t.took.Microseconds(), 10))
		if t.policy != Gatekeeper || (t.err == nil && t.r.Decision == NoDecision) {
			continue
		}
		sev, dec, reason := spool.Info, t.r.Decision.String(), t.r.Reason
		switch {
		case t.err != nil:
			sev, dec, reason = spool.Error, "failed", t.err.Error()
		case t.r.Decision == DecisionDeny:
			sev = spool.Warn
		}
		reason = redact.Head(oneLine(reason), 500)
		recs = append(recs, spool.Record{Kind: spool.KindDecision, Severity: sev,
			Body: t.name + " " + dec + " " + c.ev.Name + " " + c.p.ToolName + ": " + reason,
			Attrs: base(spool.String("magehook.handler", t.name), spool.String("magehook.decision", dec),
				spool.String("magehook.reason", reason))})
		if dec == "deny" || dec == "failed" || decision == "none" {
			decision = dec
		}
	}
	took := now.Sub(c.start)
	recs = append(recs, spool.Record{Kind: spool.KindCall, Severity: spool.Info,
		Body: c.ev.Name + " " + c.p.ToolName + " " + strconv.FormatInt(took.Microseconds(), 10) + "µs",
		Attrs: base(spool.String("magehook.decision", decision), spool.Int("magehook.exit_code", int64(code)),
			spool.Int("magehook.call.duration_us", took.Microseconds()),
			spool.Int("magehook.handler.time_us", total.Microseconds()),
			spool.Strings("magehook.handler.times", times))})
	export(c.spool, c.cfg, harness, now, recs)
}

// exportHealth spools a failure the health log records.
func (d *Dispatcher) exportHealth(cfg *toolingrc.Config, ev Event, p *payload.Payload, handler string, policy Policy, msg string) {
	s := SpoolFor(cfg)
	if s == nil {
		return
	}
	attrs := []spool.Attr{spool.String("magehook.event", ev.Name), spool.String("magehook.error", msg)}
	if handler != "" {
		attrs = append(attrs, spool.String("magehook.handler", handler), spool.String("magehook.policy", policy.String()))
	}
	if p != nil && p.SessionID != "" {
		attrs = append(attrs, spool.String("session.id", p.SessionID))
	}
	export(s, cfg, HarnessName(d.Harness), d.Now(), []spool.Record{{Kind: spool.KindHealth, Severity: spool.Error,
		Body: ev.Name + " " + handler + " failed: " + oneLine(msg), Attrs: attrs}})
}
