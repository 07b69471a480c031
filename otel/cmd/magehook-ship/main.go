// Command magehook-ship sends the records a magehook spool holds to the
// OpenTelemetry collector the standard OTEL_EXPORTER_OTLP_* variables
// name, then exits. The hook binary starts it detached (otel.export yes)
// when the spool has work and no shipper runs, and at session end; go tool
// mage otel:ship runs it and waits, for CI.
//
//	magehook-ship -spool <dir> [-wait]
//	magehook-ship -schema
//
// -schema prints the attribute schema as docs/fleet.md's table.
//
// Exit 0 when everything was sent (or another shipper holds the spool and
// -wait is off), 1 when an export failed (the records wait in the spool
// for the next run), 2 for a usage error.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/magehook/magehook/otel/ship"
)

func main() {
	dir := flag.String("spool", "", "the spool directory (<state.dir>/otel)")
	wait := flag.Bool("wait", false, "wait for a running shipper instead of leaving it the work")
	schema := flag.Bool("schema", false, "print the attribute schema table (docs/fleet.md) and exit")
	flag.Parse()
	if *schema {
		fmt.Print(ship.SchemaTable())
		return
	}
	if *dir == "" || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: magehook-ship -spool <dir> [-wait]")
		os.Exit(2)
	}
	res, err := ship.Run(context.Background(), ship.Options{Spool: *dir, Wait: *wait, Stderr: os.Stderr})
	if err != nil {
		fmt.Fprintln(os.Stderr, "magehook-ship:", err)
		os.Exit(1)
	}
	if res.Records > 0 {
		fmt.Fprintf(os.Stderr, "magehook-ship: sent %d records in %d segments from %s\n", res.Records, res.Segments, *dir)
	}
}
