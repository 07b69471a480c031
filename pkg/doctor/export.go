package doctor

import (
	"os"
	"strings"
	"time"

	"github.com/magehook/magehook/pkg/drift"
	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/spool"
)

// exportDrift spools the checkout's drift records, one per settings scope,
// when it exports (otel.export yes): the settings compared as at session
// start, with what only the doctor knows, a stale binary and the entries a
// client has not trusted (its trust checks' problems).
func (d *doctor) exportDrift() {
	s := hook.SpoolFor(d.cfg)
	if s == nil {
		return
	}
	if shipper := hook.ShipperFor(d.cfg); !executable(shipper) {
		d.add(Problem, "otel shipper", shipper, "%s is missing: otel.export yes spools records in %s that nothing sends; run go tool mage otel:build", shipper, s.Dir)
	} else {
		d.add(OK, "otel shipper", shipper, "%s ships %s", shipper, s.Dir)
	}
	rep, err := drift.Check(d.cfg, d.Handlers, d.Home)
	if err != nil {
		return // the checks above have said what does not read
	}
	f := drift.Facts{Stale: d.r.Stale, Untrusted: []string{}, Source: "doctor"}
	for _, l := range d.r.Lines {
		if l.Status == Problem && strings.Contains(l.Check, "trust") {
			f.Untrusted = append(f.Untrusted, l.Detail)
		}
	}
	recs := rep.Records(f)
	for i := range recs {
		if d.r.Binary != "" {
			recs[i].Resource = append(recs[i].Resource, spool.String("magehook.binary.hash", d.r.Binary))
		}
	}
	hook.Export(d.cfg, "", time.Now(), recs...)
}

func executable(path string) bool {
	info, err := os.Stat(path)
	return err == nil && info.Mode().IsRegular() && info.Mode()&0o111 != 0
}
