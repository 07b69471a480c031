// Package fleet reads magehook's exported records back from what an
// OpenTelemetry Collector's file exporter writes (OTLP JSON, one export
// request a line) and says, per machine and checkout, what the newest
// drift and health records say: when it was last seen, the binary's hash,
// the harnesses and their versions, the hooks declared and not wired (-),
// wired and not declared (+), intentional local ones (~), a stale binary
// and untrusted entries. A record seen twice (an export retried after its
// acknowledgement was lost) counts once, by its log.record.uid.
package fleet

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Schema versions the JSON report.
const Schema = "magehook-fleet/1"

// Scope is the newest drift record of one settings scope.
type Scope struct {
	Name       string    `json:"name"`
	File       string    `json:"file,omitempty"`
	Present    bool      `json:"present"`
	Missing    []string  `json:"missing"`
	Undeclared []string  `json:"undeclared"`
	Local      []string  `json:"local"`
	Problem    string    `json:"problem,omitempty"`
	Source     string    `json:"source"`
	Time       time.Time `json:"time"`
}

// Checkout is one machine's checkout.
type Checkout struct {
	Machine  string    `json:"machine"`
	User     string    `json:"user,omitempty"`
	Checkout string    `json:"checkout"`
	LastSeen time.Time `json:"last_seen"`
	// Binary is the hook binary's source hash on the newest record.
	Binary string `json:"binary"`
	// Harnesses are "name version" (the version when known), sorted.
	Harnesses  []string `json:"harnesses"`
	Handlers   []string `json:"handlers"`
	ConfigHash string   `json:"config_hash,omitempty"`
	Scopes     []Scope  `json:"scopes"`
	// Stale is the newest drift record's word on the binary (nil: no
	// doctor run has said).
	Stale     *bool    `json:"stale"`
	Untrusted []string `json:"untrusted"`
	Failures  int      `json:"failures"`
	// LastFailure is the newest health record's text.
	LastFailure string `json:"last_failure,omitempty"`
	Drifted     bool   `json:"drifted"`

	harness map[string]string
	drifts  map[string]record
	stale   *record
	trust   *record
	failure time.Time
}

// Report is the fleet: every checkout, machine then checkout in order.
type Report struct {
	Checkouts []*Checkout
	// Records counts the distinct records read; Duplicates those seen
	// again.
	Records, Duplicates int
}

// Drifted counts the drifted checkouts.
func (r Report) Drifted() int {
	n := 0
	for _, c := range r.Checkouts {
		if c.Drifted {
			n++
		}
	}
	return n
}

// record is one log record with its resource.
type record struct {
	time  time.Time
	res   map[string]any
	attrs map[string]any
	body  string
}

func (r record) str(k string) string {
	if v, ok := r.attrs[k].(string); ok {
		return v
	}
	s, _ := r.res[k].(string)
	return s
}

func (r record) list(k string) []string {
	v, _ := r.attrs[k].([]string)
	if v == nil {
		return []string{}
	}
	return v
}

// Read reads a file the collector's file exporter wrote, or every regular
// file in a directory of them (a rotated export's parts included), and
// builds the report.
func Read(path string) (Report, error) {
	info, err := os.Stat(path)
	if err != nil {
		return Report{}, err
	}
	files := []string{path}
	if info.IsDir() {
		files = nil
		entries, err := os.ReadDir(path)
		if err != nil {
			return Report{}, err
		}
		for _, e := range entries {
			if e.Type().IsRegular() && !strings.HasPrefix(e.Name(), ".") {
				files = append(files, filepath.Join(path, e.Name()))
			}
		}
	}
	b := newBuilder()
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			return Report{}, err
		}
		err = b.read(fh, f)
		fh.Close()
		if err != nil {
			return Report{}, err
		}
	}
	return b.report(), nil
}

type builder struct {
	seen       map[string]bool
	checkouts  map[[2]string]*Checkout
	records    int
	duplicates int
}

func newBuilder() *builder {
	return &builder{seen: map[string]bool{}, checkouts: map[[2]string]*Checkout{}}
}

// The OTLP JSON shapes the file exporter writes (protojson of the OTLP
// export requests).
type (
	anyValue struct {
		StringValue *string  `json:"stringValue"`
		IntValue    *string  `json:"intValue"`
		BoolValue   *bool    `json:"boolValue"`
		DoubleValue *float64 `json:"doubleValue"`
		ArrayValue  *struct {
			Values []anyValue `json:"values"`
		} `json:"arrayValue"`
	}
	keyValue struct {
		Key   string   `json:"key"`
		Value anyValue `json:"value"`
	}
	request struct {
		ResourceLogs []struct {
			Resource struct {
				Attributes []keyValue `json:"attributes"`
			} `json:"resource"`
			ScopeLogs []struct {
				LogRecords []struct {
					TimeUnixNano string     `json:"timeUnixNano"`
					Body         anyValue   `json:"body"`
					Attributes   []keyValue `json:"attributes"`
				} `json:"logRecords"`
			} `json:"scopeLogs"`
		} `json:"resourceLogs"`
	}
)

func (v anyValue) value() any {
	switch {
	case v.StringValue != nil:
		return *v.StringValue
	case v.IntValue != nil:
		n, _ := strconv.ParseInt(*v.IntValue, 10, 64)
		return n
	case v.BoolValue != nil:
		return *v.BoolValue
	case v.DoubleValue != nil:
		return *v.DoubleValue
	case v.ArrayValue != nil:
		out := []string{}
		for _, x := range v.ArrayValue.Values {
			out = append(out, fmt.Sprint(x.value()))
		}
		return out
	}
	// An empty array is written as {"arrayValue":{}}: a list.
	return nil
}

func attrMap(kvs []keyValue) map[string]any {
	m := make(map[string]any, len(kvs))
	for _, kv := range kvs {
		v := kv.Value.value()
		if v == nil && kv.Value.ArrayValue == nil {
			continue
		}
		if v == nil {
			v = []string{}
		}
		m[kv.Key] = v
	}
	return m
}

// read reads one file: a line per export request; lines of other signals
// (metrics) are skipped, a line that is not JSON is an error naming the
// file and line.
func (b *builder) read(r io.Reader, name string) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 1<<20), 256<<20)
	n := 0
	for sc.Scan() {
		n++
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var req request
		if err := json.Unmarshal(line, &req); err != nil {
			return fmt.Errorf("%s:%d: not an OTLP JSON export request: %v (go tool mage fleet reads the file exporter's json format; proto or compressed files do not read)", name, n, err)
		}
		for _, rl := range req.ResourceLogs {
			res := attrMap(rl.Resource.Attributes)
			for _, sl := range rl.ScopeLogs {
				for _, lr := range sl.LogRecords {
					attrs := attrMap(lr.Attributes)
					ns, _ := strconv.ParseInt(lr.TimeUnixNano, 10, 64)
					body, _ := lr.Body.value().(string)
					b.add(record{time: time.Unix(0, ns).UTC(), res: res, attrs: attrs, body: body})
				}
			}
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

func (b *builder) add(r record) {
	kind := r.str("magehook.record.kind")
	if kind == "" {
		return // not magehook's
	}
	if uid := r.str("log.record.uid"); uid != "" {
		if b.seen[uid] {
			b.duplicates++
			return
		}
		b.seen[uid] = true
	}
	b.records++
	machine, _ := r.res["host.name"].(string)
	if machine == "" {
		machine = "(unknown host)"
	}
	checkout, _ := r.res["magehook.checkout"].(string)
	key := [2]string{machine, checkout}
	c := b.checkouts[key]
	if c == nil {
		c = &Checkout{Machine: machine, Checkout: checkout, harness: map[string]string{}, drifts: map[string]record{}}
		b.checkouts[key] = c
	}
	if !r.time.Before(c.LastSeen) {
		c.LastSeen = r.time
		c.Binary, _ = r.res["magehook.binary.hash"].(string)
		c.User, _ = r.res["user.name"].(string)
	}
	if h, _ := r.res["magehook.harness"].(string); h != "" {
		if v, _ := r.res["magehook.harness.version"].(string); v != "" || c.harness[h] == "" {
			c.harness[h] = v
		}
	}
	switch kind {
	case "drift":
		scope := r.str("magehook.settings.scope")
		if old, ok := c.drifts[scope]; !ok || !r.time.Before(old.time) {
			c.drifts[scope] = r
		}
		if _, ok := r.attrs["magehook.binary.stale"]; ok && (c.stale == nil || !r.time.Before(c.stale.time)) {
			rr := r
			c.stale = &rr
		}
		if _, ok := r.attrs["magehook.drift.untrusted"]; ok && (c.trust == nil || !r.time.Before(c.trust.time)) {
			rr := r
			c.trust = &rr
		}
	case "health":
		c.Failures++
		if !r.time.Before(c.failure) {
			c.failure = r.time
			c.LastFailure = r.body
		}
	}
}

func (b *builder) report() Report {
	rep := Report{Records: b.records, Duplicates: b.duplicates}
	for _, c := range b.checkouts {
		for h, v := range c.harness {
			c.Harnesses = append(c.Harnesses, strings.TrimSpace(h+" "+v))
		}
		sort.Strings(c.Harnesses)
		var newest time.Time
		for name, r := range c.drifts {
			s := Scope{Name: name, File: r.str("magehook.settings.file"), Missing: r.list("magehook.drift.missing"),
				Undeclared: r.list("magehook.drift.undeclared"), Local: r.list("magehook.drift.local"),
				Problem: r.str("magehook.drift.problem"), Source: r.str("magehook.drift.source"), Time: r.time}
			s.Present, _ = r.attrs["magehook.settings.present"].(bool)
			c.Scopes = append(c.Scopes, s)
			if len(s.Missing) > 0 || len(s.Undeclared) > 0 || s.Problem != "" {
				c.Drifted = true
			}
			if !r.time.Before(newest) {
				newest = r.time
				c.Handlers = r.list("magehook.handlers")
				c.ConfigHash = r.str("magehook.config.hash")
			}
		}
		sort.Slice(c.Scopes, func(i, j int) bool { return c.Scopes[i].Name < c.Scopes[j].Name })
		if c.stale != nil {
			v, _ := c.stale.attrs["magehook.binary.stale"].(bool)
			c.Stale = &v
			c.Drifted = c.Drifted || v
		}
		c.Untrusted = []string{}
		if c.trust != nil {
			c.Untrusted = c.trust.list("magehook.drift.untrusted")
			c.Drifted = c.Drifted || len(c.Untrusted) > 0
		}
		if c.Handlers == nil {
			c.Handlers = []string{}
		}
		if c.Harnesses == nil {
			c.Harnesses = []string{}
		}
		rep.Checkouts = append(rep.Checkouts, c)
	}
	sort.Slice(rep.Checkouts, func(i, j int) bool {
		a, z := rep.Checkouts[i], rep.Checkouts[j]
		if a.Machine != z.Machine {
			return a.Machine < z.Machine
		}
		return a.Checkout < z.Checkout
	})
	return rep
}

// WriteText prints the report, a block per machine and checkout.
func WriteText(w io.Writer, r Report) {
	for _, c := range r.Checkouts {
		state := "converged"
		if c.Drifted {
			state = "DRIFTED"
		}
		fmt.Fprintf(w, "%s %s: %s\n", c.Machine, c.Checkout, state)
		fmt.Fprintf(w, "  last seen %s, binary %s, harnesses %s\n", c.LastSeen.Format(time.RFC3339), orNone(c.Binary), orNone(strings.Join(c.Harnesses, ", ")))
		for _, s := range c.Scopes {
			var terms []string
			for _, m := range s.Missing {
				terms = append(terms, "-"+m)
			}
			for _, m := range s.Undeclared {
				terms = append(terms, "+"+m)
			}
			for _, m := range s.Local {
				terms = append(terms, "~"+m)
			}
			if s.Problem != "" {
				terms = append(terms, "unreadable: "+s.Problem)
			}
			if len(terms) > 0 {
				fmt.Fprintf(w, "  %s: %s\n", s.Name, strings.Join(terms, " "))
			}
		}
		switch {
		case c.Stale == nil:
			fmt.Fprintln(w, "  binary freshness: not checked (no doctor run exported)")
		case *c.Stale:
			fmt.Fprintln(w, "  binary: stale (built from other sources than the checkout's; go tool mage hook:build)")
		}
		for _, u := range c.Untrusted {
			fmt.Fprintf(w, "  untrusted: %s\n", u)
		}
		if c.Failures > 0 {
			fmt.Fprintf(w, "  failures: %d, the last: %s\n", c.Failures, c.LastFailure)
		}
	}
	fmt.Fprintf(w, "%d of %d checkouts drifted (%d records", r.Drifted(), len(r.Checkouts), r.Records)
	if r.Duplicates > 0 {
		fmt.Fprintf(w, ", %d seen twice and counted once", r.Duplicates)
	}
	fmt.Fprintln(w, ")")
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

// WriteJSON prints the report as one versioned document.
func WriteJSON(w io.Writer, r Report) error {
	if r.Checkouts == nil {
		r.Checkouts = []*Checkout{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(struct {
		Schema     string      `json:"schema"`
		Drifted    int         `json:"drifted"`
		Records    int         `json:"records"`
		Duplicates int         `json:"duplicates"`
		Checkouts  []*Checkout `json:"checkouts"`
	}{Schema, r.Drifted(), r.Records, r.Duplicates, r.Checkouts})
}
