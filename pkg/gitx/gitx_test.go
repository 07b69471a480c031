package gitx

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestRunSerialisesItsLog runs git with output on both streams into a
// plain buffer; under -race this fails when the two copies exec makes
// write to the buffer at once.
func TestRunSerialisesItsLog(t *testing.T) {
	dir := t.TempDir()
	var log bytes.Buffer
	g := Git{Dir: dir, Log: &log}
	ctx := context.Background()
	if err := g.Run(ctx, "init", "-q"); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 5; i++ {
		// status prints on stdout; an unknown option's usage on stderr.
		g.Run(ctx, "status")
		g.Run(ctx, "status", "--no-such-option")
	}
	if !strings.Contains(log.String(), "no-such-option") {
		t.Fatalf("git's stderr is missing from the log:\n%s", log.String())
	}
}
