package gitx_test

import (
	"bytes"
	"context"
	"testing"

	"github.com/magehook/magehook/pkg/gitx"
)

// CLI-PROGRAM-7: in verbose mode every git command is traced on stderr;
// otherwise nothing is.
func TestVerboseTracesEachCommand(t *testing.T) {
	var trace bytes.Buffer
	gitx.Trace = &trace
	defer func() { gitx.Trace = nil }()
	dir := t.TempDir()
	t.Setenv(gitx.VerboseEnv, "0")
	gitx.Git{Dir: dir}.OK(context.Background(), "version")
	if trace.Len() != 0 {
		t.Errorf("traced without -v: %q", trace.String())
	}
	t.Setenv(gitx.VerboseEnv, "1")
	gitx.Git{Dir: dir}.Output(context.Background(), "config", "--get", "user.name with space")
	if want := `magehook: run: git config --get "user.name with space" (in ` + dir + ")\n"; trace.String() != want {
		t.Errorf("trace %q, want %q", trace.String(), want)
	}
}
