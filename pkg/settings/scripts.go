package settings

import (
	"errors"
	"path/filepath"
	"strings"

	"github.com/magehook/magehook/pkg/harness"
)

// scriptMarker is the second line of a hook script magehook writes (the
// first is the shebang); a script without it is another tool's and is
// never overwritten or removed.
func scriptMarker(h *harness.Harness) string {
	return "# magehook " + h.Name + " hook: written by go tool mage hook:install -harness=" + h.Name + "; do not edit."
}

// Script is the hook script install writes for one entry of a harness
// with the Scripts layout: a shell script the client runs through its
// shebang, the entry's command its only line of work.
func Script(h *harness.Harness, e Entry) string {
	return "#!/bin/sh\n" + scriptMarker(h) + "\n" + e.Command + "\n"
}

// ScriptPath is the script of one of the harness's native events,
// relative to the checkout root.
func ScriptPath(h *harness.Harness, native string) string {
	return filepath.Join(HarnessFile(h), native)
}

// editScript returns a script's new bytes: want, or nil (removal) when
// want is empty. A file magehook did not write is refused where magehook
// would write, and left as it is where it would remove.
func editScript(h *harness.Harness, old []byte, want string) ([]byte, error) {
	if old != nil && !isOurScript(h, old) {
		if want == "" {
			return old, nil // another tool's hook of an event magehook does not answer
		}
		return nil, errors.New("it exists and magehook did not write it; move it aside or merge magehook's hook into it by hand")
	}
	if want == "" {
		return nil, nil
	}
	return []byte(want), nil
}

func isOurScript(h *harness.Harness, data []byte) bool {
	_, rest, _ := strings.Cut(string(data), "\n")
	return strings.HasPrefix(rest, scriptMarker(h)+"\n")
}

// ScriptsDrift compares the scripts of a checkout with those install
// writes: one line per event whose script differs, is missing or is
// installed but not declared; read reads a file relative to the root
// (exists false when it is absent).
func ScriptsDrift(h *harness.Harness, want []Entry, read func(rel string) ([]byte, bool, error)) ([]string, int, error) {
	var problems []string
	ours := 0
	for _, n := range h.Events() {
		rel := ScriptPath(h, n.Native)
		data, exists, err := read(rel)
		if err != nil {
			return nil, 0, err
		}
		var w *Entry
		for i := range want {
			if want[i].Native == n.Native {
				w = &want[i]
			}
		}
		switch {
		case exists && !isOurScript(h, data):
			if w != nil {
				problems = append(problems, rel+" is not magehook's: "+n.Native+" runs no magehook hook")
			}
		case exists && w == nil:
			ours++
			problems = append(problems, rel+" installed but not declared")
		case exists && string(data) != Script(h, *w):
			ours++
			problems = append(problems, rel+" differs")
		case exists:
			ours++
		case w != nil:
			problems = append(problems, rel+" absent")
		}
	}
	return problems, ours, nil
}
