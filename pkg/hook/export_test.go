package hook_test

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/magehook/magehook/pkg/hooktest"
	"github.com/magehook/magehook/pkg/spool"
)

// spooled reads every record of a checkout's spool (live file and
// segments), by kind.
func spooled(t *testing.T, root string) map[string][]spool.Record {
	t.Helper()
	s := spool.Spool{Dir: filepath.Join(root, ".magehook", "otel")}
	if err := s.Rotate(); err != nil {
		t.Fatal(err)
	}
	segs, err := s.Segments()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]spool.Record{}
	for _, g := range segs {
		data, _ := s.ReadSegment(g)
		for _, line := range bytes.Split(bytes.TrimSpace(data), []byte("\n")) {
			r, err := spool.Parse(line)
			if err != nil {
				t.Fatalf("%s: %v", g.Name, err)
			}
			out[r.Kind] = append(out[r.Kind], r)
		}
	}
	return out
}

func attr(r spool.Record, key string) any {
	for _, a := range r.Attrs {
		if a.Key == key {
			return a.Value
		}
	}
	return nil
}

func TestExportSpoolsDecisionsCallsAndFailures(t *testing.T) {
	root := hooktest.Checkout(t, append(enable("errgate", "nobash", "editok"), "otel.export yes")...)
	hooktest.Run(t, all, root, "PreToolUse", "PreToolUse/bash", nil)
	got := spooled(t, root)
	if len(got[spool.KindCall]) != 1 {
		t.Fatalf("call records %d, want 1: %v", len(got[spool.KindCall]), got)
	}
	call := got[spool.KindCall][0]
	if attr(call, "magehook.event") != "PreToolUse" || attr(call, "magehook.tool") != "Bash" || attr(call, "magehook.exit_code") != int64(2) {
		t.Errorf("call record %+v", call)
	}
	if d, _ := attr(call, "magehook.call.duration_us").(int64); d < 0 {
		t.Errorf("duration %v", d)
	}
	if times, _ := attr(call, "magehook.handler.times").([]string); len(times) != 2 {
		t.Errorf("handler times %v, want nobash and errgate (editok's matcher misses)", times)
	}
	decisions := map[string]string{}
	for _, r := range got[spool.KindDecision] {
		decisions[attr(r, "magehook.handler").(string)] = attr(r, "magehook.decision").(string)
	}
	if decisions["nobash"] != "deny" || decisions["errgate"] != "failed" || len(decisions) != 2 {
		t.Errorf("decisions %v", decisions)
	}
	if len(got[spool.KindHealth]) != 1 || attr(got[spool.KindHealth][0], "magehook.handler") != "errgate" {
		t.Errorf("health records %+v", got[spool.KindHealth])
	}
	for _, r := range got[spool.KindDecision] {
		res := map[string]any{}
		for _, a := range r.Resource {
			res[a.Key] = a.Value
		}
		if res["magehook.harness"] != "claude" {
			t.Errorf("resource %v", res)
		}
	}
}

func TestExportIsOffByDefault(t *testing.T) {
	root := hooktest.Checkout(t, enable("nobash", "errgate")...)
	hooktest.Run(t, all, root, "PreToolUse", "PreToolUse/bash", nil)
	if got := spooled(t, root); len(got) != 0 {
		t.Errorf("spooled with export off: %v", got)
	}
}
