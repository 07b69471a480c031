package cmdline_test

import (
	"strings"
	"testing"

	"github.com/magehook/magehook/pkg/cmdline"
)

func TestWords(t *testing.T) {
	for in, want := range map[string]string{
		`go test -run 'Test A' "./x y/..."  -v`: "go|test|-run|Test A|./x y/...|-v",
		`  `:                                    "",
		`a''b ""`:                               "ab|",
		"notify-send\t'it''s done'":             "notify-send|its done",
	} {
		if got := strings.Join(cmdline.Words(in), "|"); got != want {
			t.Errorf("Words(%q) = %q, want %q", in, got, want)
		}
	}
}
