package payload

import "strings"

// The lines of Codex's apply_patch format that name a file. A patch is
// "*** Begin Patch", one or more file sections, "*** End Patch"; a section
// starts with one of the first three and an Update may move the file.
const (
	patchBegin  = "*** Begin Patch"
	patchAdd    = "*** Add File: "
	patchUpdate = "*** Update File: "
	patchDelete = "*** Delete File: "
	patchMove   = "*** Move to: "
)

// PatchFiles returns every file an apply_patch patch changes, in order and
// each once: the files it adds, updates and deletes, and the targets of
// its moves (the moved file is changed too: it is removed). Paths are as
// written, relative to the directory the patch is applied in. Lines are
// read the way Codex reads them, with surrounding blanks ignored. This is
// the one reading of the format: Codex's apply_patch tool, Copilot's, and
// a patch run through a shell (apply_patch <<'EOF').
func PatchFiles(patch string) []string {
	var out []string
	for len(patch) > 0 {
		line := patch
		if i := strings.IndexByte(patch, '\n'); i >= 0 {
			line, patch = patch[:i], patch[i+1:]
		} else {
			patch = ""
		}
		line = strings.TrimSpace(line)
		for _, prefix := range []string{patchAdd, patchUpdate, patchDelete, patchMove} {
			if name, ok := strings.CutPrefix(line, prefix); ok {
				if name = strings.TrimSpace(name); name != "" && !contains(out, name) {
					out = append(out, name)
				}
				break
			}
		}
	}
	return out
}

// HasPatch reports whether text holds an apply_patch patch (its "*** Begin
// Patch" line). A shell command that holds one (apply_patch <<'EOF',
// applypatch "...") is taken to change the patch's files: reading more
// files as changed than a command changes only ever makes a gate stricter.
func HasPatch(text string) bool { return strings.Contains(text, patchBegin) }

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
