package main

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"time"
)

// A silent go command is announced at every tick until it returns, each
// tick counted as one interval; its own output comes through, and its
// error is returned. The ticks are injected: no wall clock.
func TestProgressSaysAStepStillRuns(t *testing.T) {
	var out bytes.Buffer
	ticks := make(chan time.Time)
	release := make(chan struct{})
	wantErr := errors.New("exit status 1")
	done := make(chan error)
	go func() {
		done <- progress(&out, "go tool mage -version", 5*time.Second, ticks, func(w io.Writer) error {
			io.WriteString(w, "go: downloading github.com/magefile/mage v1.17.2\n")
			<-release
			return wantErr
		})
	}()
	ticks <- time.Time{}
	ticks <- time.Time{}
	close(release)
	if err := <-done; err != wantErr {
		t.Fatalf("progress returned %v, want %v", err, wantErr)
	}
	got := out.String()
	for _, want := range []string{
		"go: downloading github.com/magefile/mage v1.17.2\n",
		"magehook init: go tool mage -version still running (5s)\n",
		"magehook init: go tool mage -version still running (10s)\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
}

// A step that ends before the first tick says nothing more.
func TestProgressIsQuietForAQuickStep(t *testing.T) {
	var out bytes.Buffer
	if err := progress(&out, "go mod edit", 5*time.Second, make(chan time.Time), func(io.Writer) error { return nil }); err != nil {
		t.Fatal(err)
	}
	if out.Len() != 0 {
		t.Fatalf("output %q, want none", out.String())
	}
}
