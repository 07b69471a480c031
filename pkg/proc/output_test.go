package proc_test

import (
	"strings"
	"testing"

	"github.com/magehook/magehook/pkg/proc"
)

func TestOutput(t *testing.T) {
	out, err := proc.Output(t.TempDir(), []string{"V=x"}, "sh", "-c", `echo "out $V"; echo noise >&2`)
	if err != nil || string(out) != "out x\n" {
		t.Errorf("%q %v", out, err)
	}
	_, err = proc.Output(t.TempDir(), nil, "sh", "-c", `echo first >&2; echo "fatal: no such ref" >&2; exit 3`)
	if err == nil || !strings.HasSuffix(err.Error(), ": fatal: no such ref") {
		t.Errorf("the error names the last stderr line: %v", err)
	}
	if _, err := proc.Output(t.TempDir(), nil, "no-such-program-xyz"); err == nil {
		t.Error("a missing program")
	}
}
