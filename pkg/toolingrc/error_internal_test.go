package toolingrc

import (
	"os"
	"syscall"
	"testing"
)

// The tests run as root in some places, where no file is unreadable; the
// message for one is checked here on the error the open returns.
func TestReadErrorNamesPermission(t *testing.T) {
	err := readError("/x/.toolingrc", &os.PathError{Op: "open", Path: "/x/.toolingrc", Err: syscall.EACCES})
	if got := err.Error(); got != "/x/.toolingrc: cannot be read (permission denied); make it readable (chmod a+r) or remove it" {
		t.Errorf("got %q", got)
	}
	if err.Err != nil {
		t.Errorf("an unreadable file must not read as not found: %v", err.Err)
	}
}
