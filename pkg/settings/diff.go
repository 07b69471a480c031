package settings

import (
	"bytes"

	"github.com/rogpeppe/go-internal/diff"
)

// UnifiedDiff returns a unified diff from old to new, labelled with name;
// empty when they are equal. It is go-internal's anchored diff (the one
// cmd/go uses), which runs in O(n log n) on any input, with its "diff a b"
// header line left out.
func UnifiedDiff(name string, old, new []byte) string {
	d := diff.Diff(name, old, name, new)
	if i := bytes.IndexByte(d, '\n'); i >= 0 && bytes.HasPrefix(d, []byte("diff ")) {
		d = d[i+1:]
	}
	return string(d)
}
