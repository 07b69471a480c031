package doctor

import (
	"strings"
	"testing"
)

func TestHeavyInitsNamesTheSlowestPackagesOutsideTheRuntime(t *testing.T) {
	trace := `init internal/bytealg @0.004 ms, 0 ms clock, 0 bytes, 0 allocs
init runtime @0.020 ms, 0.090 ms clock, 0 bytes, 0 allocs
init errors @0.35 ms, 0.001 ms clock, 0 bytes, 0 allocs
init internal/godebug @0.40 ms, 0.080 ms clock, 312 bytes, 9 allocs
init mvdan.cc/sh/v3/fileutil @0.52 ms, 0.068 ms clock, 15216 bytes, 110 allocs
init net/http @0.70 ms, 0.210 ms clock, 40960 bytes, 400 allocs
init crypto/tls @0.91 ms, 0.030 ms clock, 2048 bytes, 20 allocs
init example.com/big @1.10 ms, 0.002 ms clock, 65536 bytes, 3 allocs
init unicode @1.12 ms, 0.005 ms clock, 100 bytes, 1 allocs
magehook: something else on stderr
`
	got := strings.Join(heavyInits(trace), ", ")
	want := "net/http (0.210 ms, 40960 bytes), mvdan.cc/sh/v3/fileutil (0.068 ms, 15216 bytes), crypto/tls (0.030 ms, 2048 bytes)"
	if got != want {
		t.Errorf("heavyInits:\n got %s\nwant %s", got, want)
	}
	if got := heavyInits("no trace at all\n"); len(got) != 0 {
		t.Errorf("no trace: %v", got)
	}
}
