package spool_test

import (
	"bytes"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/magehook/magehook/pkg/spool"
)

func rec(i int) spool.Record {
	return spool.Record{ID: fmt.Sprint(i), Time: time.Unix(0, int64(i)), Kind: spool.KindCall, Severity: spool.Info,
		Body:     fmt.Sprintf("call %d %0100d", i, i),
		Attrs:    []spool.Attr{spool.Int("n", int64(i)), spool.String("s", "a\"b"), spool.Bool("b", true), spool.Strings("l", []string{"x", "y"})},
		Resource: []spool.Attr{spool.String("magehook.harness", "claude")}}
}

func TestRecordRoundTrip(t *testing.T) {
	r := rec(7)
	got, err := spool.Parse(r.AppendJSON(nil))
	if err != nil {
		t.Fatal(err)
	}
	if got.ID != "7" || got.Body != r.Body || got.Kind != r.Kind || !got.Time.Equal(r.Time) || len(got.Attrs) != 4 || len(got.Resource) != 1 {
		t.Fatalf("round trip: %+v", got)
	}
	want := map[string]any{"n": int64(7), "s": "a\"b", "b": true}
	for _, a := range got.Attrs {
		if w, ok := want[a.Key]; ok && a.Value != w {
			t.Errorf("%s = %#v, want %#v", a.Key, a.Value, w)
		}
		if a.Key == "l" && fmt.Sprint(a.Value) != "[x y]" {
			t.Errorf("l = %#v", a.Value)
		}
	}
	if _, err := spool.Parse([]byte(`{"kind":"call","attrs":{"x":1.5}}`)); err == nil {
		t.Error("a float attribute parsed")
	}
}

// A shipper taking segments while many writers append loses no record and
// sees none twice: appenders write under the shared lock, so no line
// lands in a segment after it was read.
func TestConcurrentAppendAndShipLosesNothing(t *testing.T) {
	s := spool.Spool{Dir: filepath.Join(t.TempDir(), "otel"), SegmentBytes: 4096}
	const writers, each = 8, 60
	seen := map[string]int{}
	var mu sync.Mutex
	take := func() {
		if err := s.Rotate(); err != nil {
			t.Error(err)
		}
		segs, err := s.Segments()
		if err != nil {
			t.Error(err)
		}
		for _, g := range segs {
			data, err := s.ReadSegment(g)
			if err != nil {
				t.Error(err)
				continue
			}
			lines := bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n"))
			if len(lines) != g.Records {
				t.Errorf("segment %s names %d records and holds %d", g.Name, g.Records, len(lines))
			}
			for _, l := range lines {
				r, err := spool.Parse(l)
				if err != nil {
					t.Errorf("segment %s: %v: %q", g.Name, err, l)
					continue
				}
				mu.Lock()
				seen[r.ID]++
				mu.Unlock()
			}
			if err := s.Remove(g); err != nil {
				t.Error(err)
			}
		}
	}
	var wg sync.WaitGroup
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := 0; i < each; i++ {
				if _, err := s.Append(rec(w*1000 + i)); err != nil {
					t.Error(err)
				}
			}
		}(w)
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	for shipping := true; shipping; {
		select {
		case <-done:
			shipping = false
		default:
			take()
		}
	}
	take()
	if len(seen) != writers*each {
		t.Errorf("shipped %d distinct records, want %d", len(seen), writers*each)
	}
	for id, n := range seen {
		if n != 1 {
			t.Errorf("record %s shipped %d times", id, n)
		}
	}
	if d := s.Dropped(); d != 0 {
		t.Errorf("dropped %d within the bound", d)
	}
}

// Past the bound the oldest segments go first, and every record they held
// is counted.
func TestBoundDropsOldestAndCounts(t *testing.T) {
	s := spool.Spool{Dir: filepath.Join(t.TempDir(), "otel"), SegmentBytes: 1024, MaxRecords: 20}
	const total = 200
	for i := 0; i < total; i++ {
		if _, err := s.Append(rec(i)); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Rotate(); err != nil {
		t.Fatal(err)
	}
	segs, _ := s.Segments()
	kept := 0
	first := -1
	for _, g := range segs {
		kept += g.Records
		data, _ := s.ReadSegment(g)
		r, err := spool.Parse(bytes.SplitN(data, []byte("\n"), 2)[0])
		if err != nil {
			t.Fatal(err)
		}
		if first < 0 {
			fmt.Sscan(r.ID, &first)
		}
	}
	if kept > 20+6 { // the bound, plus the live file's last segment
		t.Errorf("kept %d records, bound 20", kept)
	}
	if got := s.Dropped(); got != int64(total-kept) {
		t.Errorf("dropped counts %d, want %d (kept %d of %d)", got, total-kept, kept, total)
	}
	if first != total-kept {
		t.Errorf("the oldest kept record is %d, want %d: the oldest must go first", first, total-kept)
	}
	for i, g := range segs[1:] {
		if g.Seq <= segs[i].Seq {
			t.Errorf("segments out of order: %v", segs)
		}
	}
}

func TestKickNeedsWorkAndAShipper(t *testing.T) {
	s := spool.Spool{Dir: filepath.Join(t.TempDir(), "otel")}
	if s.Kick("/nonexistent", nil) {
		t.Error("kicked an empty spool")
	}
	s.Append(rec(1))
	if s.Kick(filepath.Join(t.TempDir(), "missing"), nil) {
		t.Error("kicked a shipper that does not exist")
	}
	release, ok, err := spool.Claim(s.Dir)
	if err != nil || !ok {
		t.Fatal(ok, err)
	}
	if !spool.Running(s.Dir) {
		t.Error("a claimed spool does not read as running")
	}
	if _, again, _ := spool.Claim(s.Dir); again {
		t.Error("two shippers claimed one spool")
	}
	release()
	if spool.Running(s.Dir) {
		t.Error("a released spool reads as running")
	}
}
