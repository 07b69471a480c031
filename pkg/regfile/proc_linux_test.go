package regfile

import (
	"os"
	"testing"
)

// A file whose stat says 0 bytes (as /proc's do) is read to its end, not
// to its stated size.
func TestReadsPastTheStatedSize(t *testing.T) {
	info, err := os.Stat("/proc/self/status")
	if err != nil || info.Size() != 0 {
		t.Skip("no /proc/self/status of stated size 0")
	}
	want, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skip(err)
	}
	got, err := ReadFile("/proc/self/status", 0)
	if err != nil || len(got) < len(want)/2 {
		t.Fatalf("read %d bytes (%v), os.ReadFile %d", len(got), err, len(want))
	}
}
