package confined

import (
	"hash/fnv"
	"strconv"

	"github.com/magehook/magehook/pkg/toolingrc"
)

// MaxSessionName is the longest session id used as written in a file
// name; a longer one is cut and marked with a hash of the whole id, so
// that the name (with the suffixes the logs add) stays well inside a
// file system's 255 bytes and two long ids still name two files.
const MaxSessionName = 100

// SessionName is the file name a per-session log or state entry uses for
// a session id: the id itself when it is a plain token (letters, digits,
// '.', '-', '_', no "..") of at most MaxSessionName bytes, a cut token with
// a hash of the whole id when it is longer, and ok false (no name: the
// caller uses its shared file or keeps nothing) for an id that is empty or
// holds anything else — a path separator, "..", a NUL.
func SessionName(id string) (name string, ok bool) {
	if !toolingrc.IsToken(id) {
		return "", false
	}
	if len(id) <= MaxSessionName {
		return id, true
	}
	h := fnv.New64a()
	h.Write([]byte(id))
	return id[:MaxSessionName-17] + "-" + strconv.FormatUint(h.Sum64()|1<<63, 16), true
}
