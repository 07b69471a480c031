package spool

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/magehook/magehook/pkg/payload"
)

// The kinds of record (attribute magehook.record.kind; docs/fleet.md).
const (
	KindDecision = "decision" // a gate's decision on a tool call
	KindHealth   = "health"   // a failure the health log records
	KindCall     = "call"     // one hook call: its duration and handler time
	KindDrift    = "drift"    // a checkout's declared vs wired hooks, per settings scope
	KindDropped  = "dropped"  // records the spool's bound dropped (the shipper's)
)

// Severities, as OpenTelemetry's severity text.
const (
	Info  = "INFO"
	Warn  = "WARN"
	Error = "ERROR"
)

// Record is one log record waiting in the spool. Resource holds what names
// where it was made that the shipper cannot learn later (the harness and
// its version, the binary's hash: the binary may be rebuilt before the
// record ships); the shipper adds the rest of the resource (host, user,
// checkout, OTEL_RESOURCE_ATTRIBUTES).
type Record struct {
	// ID is unique per record (log.record.uid): a consumer that sees a
	// record twice, after a retried export, can tell.
	ID       string
	Time     time.Time
	Kind     string
	Severity string
	Body     string
	Attrs    []Attr
	Resource []Attr
}

// Attr is one attribute: a string, an integer, a boolean or a list of
// strings.
type Attr struct {
	Key   string
	Value any // string, int64, bool or []string
}

// String, Int, Bool and Strings make attributes.
func String(k, v string) Attr           { return Attr{k, v} }
func Int(k string, v int64) Attr        { return Attr{k, v} }
func Bool(k string, v bool) Attr        { return Attr{k, v} }
func Strings(k string, v []string) Attr { return Attr{k, append([]string{}, v...)} }

// AppendJSON encodes the record on one line without reflection (it is
// written on every tool call when export is on).
func (r Record) AppendJSON(b []byte) []byte {
	b = append(b, `{"id":`...)
	b = payload.AppendString(b, r.ID)
	b = append(b, `,"time":`...)
	b = strconv.AppendInt(b, r.Time.UnixNano(), 10)
	b = append(b, `,"kind":`...)
	b = payload.AppendString(b, r.Kind)
	b = append(b, `,"severity":`...)
	b = payload.AppendString(b, r.Severity)
	b = append(b, `,"body":`...)
	b = payload.AppendString(b, r.Body)
	b = append(b, `,"attrs":`...)
	b = appendAttrs(b, r.Attrs)
	b = append(b, `,"resource":`...)
	b = appendAttrs(b, r.Resource)
	return append(b, '}')
}

func appendAttrs(b []byte, attrs []Attr) []byte {
	b = append(b, '{')
	for i, a := range attrs {
		if i > 0 {
			b = append(b, ',')
		}
		b = payload.AppendString(b, a.Key)
		b = append(b, ':')
		switch v := a.Value.(type) {
		case string:
			b = payload.AppendString(b, v)
		case int64:
			b = strconv.AppendInt(b, v, 10)
		case bool:
			b = strconv.AppendBool(b, v)
		case []string:
			b = append(b, '[')
			for j, s := range v {
				if j > 0 {
					b = append(b, ',')
				}
				b = payload.AppendString(b, s)
			}
			b = append(b, ']')
		default:
			b = append(b, "null"...)
		}
	}
	return append(b, '}')
}

// Parse reads one line AppendJSON wrote.
func Parse(line []byte) (Record, error) {
	var w struct {
		ID       string                     `json:"id"`
		Time     int64                      `json:"time"`
		Kind     string                     `json:"kind"`
		Severity string                     `json:"severity"`
		Body     string                     `json:"body"`
		Attrs    map[string]json.RawMessage `json:"attrs"`
		Resource map[string]json.RawMessage `json:"resource"`
	}
	if err := json.Unmarshal(line, &w); err != nil {
		return Record{}, err
	}
	if w.Kind == "" {
		return Record{}, errors.New("a spool record without a kind")
	}
	r := Record{ID: w.ID, Time: time.Unix(0, w.Time), Kind: w.Kind, Severity: w.Severity, Body: w.Body}
	var err error
	if r.Attrs, err = parseAttrs(w.Attrs); err != nil {
		return Record{}, err
	}
	if r.Resource, err = parseAttrs(w.Resource); err != nil {
		return Record{}, err
	}
	return r, nil
}

// parseAttrs decodes an attributes object, sorted by key (a JSON object's
// order is not kept by encoding/json).
func parseAttrs(m map[string]json.RawMessage) ([]Attr, error) {
	out := make([]Attr, 0, len(m))
	for k, v := range m {
		a := Attr{Key: k}
		switch {
		case len(v) > 0 && v[0] == '"':
			var s string
			if err := json.Unmarshal(v, &s); err != nil {
				return nil, err
			}
			a.Value = s
		case len(v) > 0 && v[0] == '[':
			var l []string
			if err := json.Unmarshal(v, &l); err != nil {
				return nil, err
			}
			a.Value = l
		case string(v) == "true" || string(v) == "false":
			a.Value = string(v) == "true"
		default:
			n, err := strconv.ParseInt(string(v), 10, 64)
			if err != nil {
				return nil, fmt.Errorf("attribute %s: %s is not a string, an integer, a boolean or a list of strings", k, v)
			}
			a.Value = n
		}
		out = append(out, a)
	}
	sortAttrs(out)
	return out, nil
}

func sortAttrs(a []Attr) {
	for i := 1; i < len(a); i++ {
		for j := i; j > 0 && a[j].Key < a[j-1].Key; j-- {
			a[j], a[j-1] = a[j-1], a[j]
		}
	}
}
