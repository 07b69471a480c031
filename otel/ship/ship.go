// Package ship sends the records of a magehook spool (package
// github.com/magehook/magehook/pkg/spool) to an OpenTelemetry collector
// with the official OpenTelemetry Go SDK: each record as an OTLP log
// record, and a few metrics computed from them. It is configured as every
// OpenTelemetry program is, by the standard variables
// (OTEL_EXPORTER_OTLP_ENDPOINT, _PROTOCOL, _HEADERS, _TIMEOUT, their
// _LOGS_ and _METRICS_ forms, OTEL_RESOURCE_ATTRIBUTES), which the SDK's
// exporters read themselves.
//
// Delivery is at least once: a segment of the spool is removed only after
// the collector has acknowledged the export that carried it, so a
// collector down or unreachable leaves it for the next run; an export
// whose acknowledgement is lost (a timeout after the collector took it)
// is sent again by the next run, and then the collector sees its records
// twice, each with the same log.record.uid. go tool mage fleet counts a
// uid once.
package ship

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlplog/otlploggrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlplog/otlploghttp"
	"go.opentelemetry.io/otel/exporters/otlp/otlpmetric/otlpmetricgrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlpmetric/otlpmetrichttp"
	otellog "go.opentelemetry.io/otel/log"
	"go.opentelemetry.io/otel/metric"
	sdklog "go.opentelemetry.io/otel/sdk/log"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	"go.opentelemetry.io/otel/sdk/resource"
	semconv "go.opentelemetry.io/otel/semconv/v1.43.0"

	"github.com/magehook/magehook/pkg/spool"
)

// ScopeName is the instrumentation scope of every record.
const ScopeName = "github.com/magehook/magehook"

// Options are one run's world.
type Options struct {
	// Spool is the spool directory.
	Spool string
	// Wait waits for a running shipper instead of leaving it the work.
	Wait bool
	// Getenv reads the OTEL_ variables the shipper itself reads (the
	// exporters read the process's own); nil means os.Getenv.
	Getenv func(string) string
	// Version runs a client's version command (nil: the client on PATH,
	// with a timeout), for magehook.harness.version.
	Version func(ctx context.Context, harness string) string
	Stderr  io.Writer
}

// Result is what a run sent.
type Result struct {
	Records, Segments int
	// Unreadable counts lines of the spool that did not parse (sent as
	// nothing; said on stderr).
	Unreadable int
	// Busy is set when another shipper held the spool (and Wait was off).
	Busy bool
}

// Run ships every record of the spool: the live file is made a segment,
// then each segment, oldest first, goes out in one export and is removed
// once the collector has acknowledged it. It stops at the first export
// that fails, leaving that segment and the later ones in the spool, and
// returns the error.
func Run(ctx context.Context, opt Options) (Result, error) {
	if opt.Getenv == nil {
		opt.Getenv = os.Getenv
	}
	if opt.Stderr == nil {
		opt.Stderr = io.Discard
	}
	if opt.Version == nil {
		opt.Version = clientVersion
	}
	var res Result
	release, ok, err := claim(opt.Spool, opt.Wait)
	if err != nil {
		return res, err
	}
	if !ok {
		res.Busy = true
		return res, nil
	}
	defer release()
	s := spool.Spool{Dir: opt.Spool}
	if err := s.Rotate(); err != nil {
		return res, err
	}
	segs, err := s.Segments()
	if err != nil {
		return res, err
	}
	dropped := s.Dropped() - shippedDropped(opt.Spool)
	if len(segs) == 0 && dropped <= 0 {
		return res, nil
	}
	logs, err := logExporter(ctx, opt.Getenv)
	if err != nil {
		return res, err
	}
	defer logs.Shutdown(context.WithoutCancel(ctx))
	sh := &shipper{opt: opt, ctx: ctx, exporter: logs, providers: map[string]*provider{}, versions: map[string]string{}}
	defer sh.shutdown()
	m, err := newMeters()
	if err != nil {
		return res, err
	}
	for _, g := range segs {
		data, err := s.ReadSegment(g)
		if err != nil {
			return res, err
		}
		var recs []spool.Record
		for _, line := range bytes.Split(data, []byte("\n")) {
			if len(bytes.TrimSpace(line)) == 0 {
				continue
			}
			r, err := spool.Parse(line)
			if err != nil {
				res.Unreadable++
				fmt.Fprintf(opt.Stderr, "magehook-ship: %s: a line that does not parse is not sent: %v\n", g.Name, err)
				continue
			}
			recs = append(recs, r)
		}
		if err := sh.export(recs); err != nil {
			return res, fmt.Errorf("export %s (%d records): %w; it waits in %s for the next run", g.Name, len(recs), err, opt.Spool)
		}
		if err := s.Remove(g); err != nil {
			return res, err
		}
		m.observe(ctx, recs)
		res.Records += len(recs)
		res.Segments++
	}
	if dropped > 0 {
		rec := spool.Record{ID: spool.NewID(time.Now()), Time: time.Now(), Kind: spool.KindDropped, Severity: spool.Warn,
			Body:  fmt.Sprintf("the spool's bound dropped %d records before they could be shipped", dropped),
			Attrs: []spool.Attr{spool.Int("magehook.spool.dropped", dropped)}}
		if err := sh.export([]spool.Record{rec}); err != nil {
			return res, fmt.Errorf("export the dropped count: %w", err)
		}
		writeShippedDropped(opt.Spool, s.Dropped())
	}
	m.dropped.Record(ctx, s.Dropped())
	if err := m.export(ctx, sh.base(), opt.Getenv); err != nil {
		// The logs are the record; the metrics are derived from them.
		fmt.Fprintf(opt.Stderr, "magehook-ship: the metrics were not sent: %v\n", err)
	}
	return res, nil
}

type provider struct {
	lp  *sdklog.LoggerProvider
	log otellog.Logger
}

type shipper struct {
	opt       Options
	ctx       context.Context
	exporter  sdklog.Exporter
	collected []sdklog.Record
	mu        sync.Mutex
	providers map[string]*provider
	versions  map[string]string
	baseRes   *resource.Resource
}

// OnEmit, Enabled, Shutdown and ForceFlush make the shipper the
// processor of its logger providers: it keeps every record emitted, and
// export sends them in one call whose error it sees.
func (s *shipper) OnEmit(_ context.Context, r *sdklog.Record) error {
	s.mu.Lock()
	s.collected = append(s.collected, r.Clone())
	s.mu.Unlock()
	return nil
}
func (s *shipper) Enabled(context.Context, sdklog.EnabledParameters) bool { return true }
func (s *shipper) Shutdown(context.Context) error                         { return nil }
func (s *shipper) ForceFlush(context.Context) error                       { return nil }

func (s *shipper) shutdown() {
	for _, p := range s.providers {
		p.lp.Shutdown(context.WithoutCancel(s.ctx))
	}
}

// export emits recs through a logger provider per resource and sends
// them in one export.
func (s *shipper) export(recs []spool.Record) error {
	s.collected = s.collected[:0]
	for _, r := range recs {
		p, err := s.provider(r)
		if err != nil {
			return err
		}
		p.log.Emit(s.ctx, logRecord(r))
	}
	if len(s.collected) == 0 {
		return nil
	}
	return s.exporter.Export(s.ctx, s.collected)
}

func logRecord(r spool.Record) otellog.Record {
	var lr otellog.Record
	lr.SetTimestamp(r.Time)
	lr.SetObservedTimestamp(time.Now())
	lr.SetEventName("magehook." + r.Kind)
	lr.SetSeverityText(r.Severity)
	switch r.Severity {
	case spool.Warn:
		lr.SetSeverity(otellog.SeverityWarn)
	case spool.Error:
		lr.SetSeverity(otellog.SeverityError)
	default:
		lr.SetSeverity(otellog.SeverityInfo)
	}
	lr.SetBody(attribute.StringValue(r.Body))
	attrs := []attribute.KeyValue{
		semconv.LogRecordUID(r.ID),
		attribute.String("magehook.record.kind", r.Kind),
	}
	for _, a := range r.Attrs {
		attrs = append(attrs, kv(a))
	}
	lr.AddAttributes(attrs...)
	return lr
}

func kv(a spool.Attr) attribute.KeyValue {
	switch v := a.Value.(type) {
	case string:
		return attribute.String(a.Key, v)
	case int64:
		return attribute.Int64(a.Key, v)
	case bool:
		return attribute.Bool(a.Key, v)
	case []string:
		return attribute.StringSlice(a.Key, v)
	}
	return attribute.String(a.Key, fmt.Sprint(a.Value))
}

// provider is the logger provider of a record's resource: the machine's
// (base), with what the record carries from where it was made (harness,
// binary hash, checkout) and the harness's version.
func (s *shipper) provider(r spool.Record) (*provider, error) {
	attrs := make([]attribute.KeyValue, 0, len(r.Resource)+1)
	checkout, harness := "", ""
	for _, a := range r.Resource {
		attrs = append(attrs, kv(a))
		switch a.Key {
		case "magehook.checkout":
			checkout, _ = a.Value.(string)
		case "magehook.harness":
			harness, _ = a.Value.(string)
		}
	}
	if harness != "" {
		v, ok := s.versions[harness]
		if !ok {
			v = s.opt.Version(s.ctx, harness)
			s.versions[harness] = v
		}
		if v != "" {
			attrs = append(attrs, attribute.String("magehook.harness.version", v))
		}
	}
	attrs = append(attrs, vcs(checkout)...)
	sort.Slice(attrs, func(i, j int) bool { return attrs[i].Key < attrs[j].Key })
	var key strings.Builder
	for _, a := range attrs {
		key.WriteString(string(a.Key) + "=" + a.Value.String() + "\x00")
	}
	if p := s.providers[key.String()]; p != nil {
		return p, nil
	}
	res, err := resource.Merge(s.base(), resource.NewSchemaless(attrs...))
	if err != nil {
		return nil, err
	}
	lp := sdklog.NewLoggerProvider(sdklog.WithResource(res), sdklog.WithProcessor(s))
	p := &provider{lp: lp, log: lp.Logger(ScopeName)}
	s.providers[key.String()] = p
	return p, nil
}

// base is the machine's resource: service, host, user and OS, then
// OTEL_RESOURCE_ATTRIBUTES (which may add to them or override them,
// service.name excepted: these records are magehook's whatever the
// variables that also configure Claude Code say).
func (s *shipper) base() *resource.Resource {
	if s.baseRes != nil {
		return s.baseRes
	}
	attrs := []attribute.KeyValue{semconv.ServiceName("magehook"), semconv.OSTypeKey.String(runtime.GOOS)}
	if v := moduleVersion(); v != "" {
		attrs = append(attrs, semconv.ServiceVersion(v))
	}
	if h, err := os.Hostname(); err == nil {
		attrs = append(attrs, semconv.HostName(h))
	}
	if u, err := user.Current(); err == nil {
		attrs = append(attrs, semconv.UserName(u.Username))
	}
	res := resource.NewSchemaless(attrs...)
	if env, err := resource.New(context.Background(), resource.WithFromEnv()); err == nil {
		if merged, err := resource.Merge(res, env); err == nil {
			res = merged
		}
	}
	if merged, err := resource.Merge(res, resource.NewSchemaless(semconv.ServiceName("magehook"))); err == nil {
		res = merged
	}
	s.baseRes = res
	return res
}

var vcsCache sync.Map

// vcs names a checkout's repository: its origin's URL (without any user
// or password in it) and name, and the branch checked out when shipped.
func vcs(checkout string) []attribute.KeyValue {
	if checkout == "" {
		return nil
	}
	if v, ok := vcsCache.Load(checkout); ok {
		return v.([]attribute.KeyValue)
	}
	var out []attribute.KeyValue
	git := func(args ...string) string {
		cmd := exec.Command("git", append([]string{"-C", checkout}, args...)...)
		b, err := cmd.Output()
		if err != nil {
			return ""
		}
		return strings.TrimSpace(string(b))
	}
	if origin := git("config", "--get", "remote.origin.url"); origin != "" {
		if u, err := url.Parse(origin); err == nil && u.User != nil {
			u.User = nil
			origin = u.String()
		}
		out = append(out, semconv.VCSRepositoryURLFull(origin),
			semconv.VCSRepositoryName(strings.TrimSuffix(filepath.Base(origin), ".git")))
	}
	if branch := git("symbolic-ref", "--short", "-q", "HEAD"); branch != "" {
		out = append(out, semconv.VCSRefHeadName(branch))
	}
	vcsCache.Store(checkout, out)
	return out
}

// protocol is OTEL_EXPORTER_OTLP_<SIGNAL>_PROTOCOL, else
// OTEL_EXPORTER_OTLP_PROTOCOL, else http/protobuf (the specification's
// default).
func protocol(getenv func(string) string, signal string) (string, error) {
	p := getenv("OTEL_EXPORTER_OTLP_" + signal + "_PROTOCOL")
	if p == "" {
		p = getenv("OTEL_EXPORTER_OTLP_PROTOCOL")
	}
	switch p {
	case "", "http/protobuf":
		return "http/protobuf", nil
	case "grpc":
		return "grpc", nil
	}
	return "", fmt.Errorf("OTEL_EXPORTER_OTLP_PROTOCOL=%q: the shipper speaks http/protobuf and grpc (the Go SDK has no http/json exporter); set one of them", p)
}

func logExporter(ctx context.Context, getenv func(string) string) (sdklog.Exporter, error) {
	p, err := protocol(getenv, "LOGS")
	if err != nil {
		return nil, err
	}
	if p == "grpc" {
		return otlploggrpc.New(ctx)
	}
	return otlploghttp.New(ctx)
}

// meters are the metrics derived from the records a run sends.
type meters struct {
	reader    *sdkmetric.ManualReader
	mp        *sdkmetric.MeterProvider
	duration  metric.Float64Histogram
	handler   metric.Float64Histogram
	decisions metric.Int64Counter
	failures  metric.Int64Counter
	dropped   metric.Int64Gauge
}

func newMeters() (*meters, error) {
	m := &meters{reader: sdkmetric.NewManualReader()}
	m.mp = sdkmetric.NewMeterProvider(sdkmetric.WithReader(m.reader))
	meter := m.mp.Meter(ScopeName)
	var errs []error
	var err error
	m.duration, err = meter.Float64Histogram("magehook.call.duration", metric.WithUnit("s"),
		metric.WithDescription("the dispatch of one hook call, payload read to answer written"))
	errs = append(errs, err)
	m.handler, err = meter.Float64Histogram("magehook.handler.duration", metric.WithUnit("s"),
		metric.WithDescription("one handler's run on one call"))
	errs = append(errs, err)
	m.decisions, err = meter.Int64Counter("magehook.decisions", metric.WithUnit("{decision}"),
		metric.WithDescription("gate decisions, by handler and decision"))
	errs = append(errs, err)
	m.failures, err = meter.Int64Counter("magehook.failures", metric.WithUnit("{failure}"),
		metric.WithDescription("failures the health log records"))
	errs = append(errs, err)
	m.dropped, err = meter.Int64Gauge("magehook.spool.dropped", metric.WithUnit("{record}"),
		metric.WithDescription("records the spool's bound has dropped since the spool was made"))
	errs = append(errs, err)
	return m, errors.Join(errs...)
}

func (m *meters) observe(ctx context.Context, recs []spool.Record) {
	for _, r := range recs {
		get := func(k string) any {
			for _, a := range r.Attrs {
				if a.Key == k {
					return a.Value
				}
			}
			return nil
		}
		str := func(k string) string { s, _ := get(k).(string); return s }
		switch r.Kind {
		case spool.KindCall:
			us, _ := get("magehook.call.duration_us").(int64)
			m.duration.Record(ctx, float64(us)/1e6, metric.WithAttributes(
				attribute.String("magehook.event", str("magehook.event")), attribute.String("magehook.decision", str("magehook.decision"))))
			times, _ := get("magehook.handler.times").([]string)
			for _, t := range times {
				name, v, ok := strings.Cut(t, "=")
				n, err := strconv.ParseInt(v, 10, 64)
				if ok && err == nil {
					m.handler.Record(ctx, float64(n)/1e6, metric.WithAttributes(attribute.String("magehook.handler", name)))
				}
			}
		case spool.KindDecision:
			m.decisions.Add(ctx, 1, metric.WithAttributes(
				attribute.String("magehook.handler", str("magehook.handler")), attribute.String("magehook.decision", str("magehook.decision"))))
		case spool.KindHealth:
			m.failures.Add(ctx, 1, metric.WithAttributes(attribute.String("magehook.handler", str("magehook.handler"))))
		}
	}
}

func (m *meters) export(ctx context.Context, base *resource.Resource, getenv func(string) string) error {
	var rm metricdata.ResourceMetrics
	if err := m.reader.Collect(ctx, &rm); err != nil {
		return err
	}
	rm.Resource = base
	p, err := protocol(getenv, "METRICS")
	if err != nil {
		return err
	}
	var exp sdkmetric.Exporter
	if p == "grpc" {
		exp, err = otlpmetricgrpc.New(ctx)
	} else {
		exp, err = otlpmetrichttp.New(ctx)
	}
	if err != nil {
		return err
	}
	defer exp.Shutdown(context.WithoutCancel(ctx))
	return exp.Export(ctx, &rm)
}

const shippedDroppedName = "dropped.shipped"

func shippedDropped(dir string) int64 {
	b, _ := os.ReadFile(filepath.Join(dir, shippedDroppedName))
	n, _ := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
	return n
}

func writeShippedDropped(dir string, n int64) {
	tmp := filepath.Join(dir, shippedDroppedName+".tmp")
	if os.WriteFile(tmp, []byte(strconv.FormatInt(n, 10)+"\n"), 0o600) == nil {
		os.Rename(tmp, filepath.Join(dir, shippedDroppedName))
	}
}
