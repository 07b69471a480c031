package doctor_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/magehook/magehook/pkg/doctor"
	"github.com/magehook/magehook/pkg/spool"
)

// With otel.export yes the doctor spools a drift record per settings
// scope and says whether the shipper is there.
func TestDoctorExportsDrift(t *testing.T) {
	root, opt := setup(t)
	f, _ := os.OpenFile(filepath.Join(root, ".toolingrc"), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("otel.export yes\n")
	f.Close()
	r := doctor.Run(context.Background(), opt)
	if !strings.Contains(statuses(r), "problem otel shipper") {
		t.Errorf("no shipper, yet: %s", statuses(r))
	}
	s := spool.Spool{Dir: filepath.Join(root, ".magehook", "otel")}
	if err := s.Rotate(); err != nil {
		t.Fatal(err)
	}
	segs, _ := s.Segments()
	scopes := map[string]bool{}
	for _, g := range segs {
		data, _ := s.ReadSegment(g)
		for _, line := range bytes.Split(bytes.TrimSpace(data), []byte("\n")) {
			rec, err := spool.Parse(line)
			if err != nil {
				t.Fatal(err)
			}
			if rec.Kind != spool.KindDrift {
				t.Errorf("the doctor spooled a %s record", rec.Kind)
			}
			for _, a := range rec.Attrs {
				switch a.Key {
				case "magehook.settings.scope":
					scopes[a.Value.(string)] = true
				case "magehook.drift.source":
					if a.Value != "doctor" {
						t.Errorf("source %v", a.Value)
					}
				}
			}
		}
	}
	if len(scopes) != 3 || !scopes["project"] || !scopes["local"] || !scopes["user"] {
		t.Errorf("drift records for scopes %v, want project, local and user", scopes)
	}
	shipper := filepath.Join(root, "bin", spool.ShipperName)
	os.WriteFile(shipper, []byte("#!/bin/sh\n"), 0o755)
	if r := doctor.Run(context.Background(), opt); !strings.Contains(statuses(r), "ok otel shipper") {
		t.Errorf("with the shipper: %s", statuses(r))
	}
}
