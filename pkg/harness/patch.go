package harness

import "strings"

// PatchFiles returns every file an apply_patch patch touches, in order and
// once each: the files it adds, updates and deletes, and the targets of
// its moves ("*** Move to:").
func PatchFiles(patch string) []string {
	var out []string
	seen := map[string]bool{}
	for _, line := range strings.Split(patch, "\n") {
		line = strings.TrimRight(line, "\r")
		for _, prefix := range []string{"*** Add File: ", "*** Update File: ", "*** Delete File: ", "*** Move to: "} {
			if rest, ok := strings.CutPrefix(line, prefix); ok {
				if p := strings.TrimSpace(rest); p != "" && !seen[p] {
					seen[p] = true
					out = append(out, p)
				}
			}
		}
	}
	return out
}

// patchInput adds the files of an apply_patch call to its tool_input:
// file_path is the first (what an Edit gate reads), file_paths all of them.
func patchInput(ti map[string]any) {
	if ti == nil {
		return
	}
	patch, _ := ti["command"].(string)
	if patch == "" {
		patch, _ = ti["patchText"].(string)
	}
	if patch == "" {
		patch, _ = ti["input"].(string)
	}
	files := PatchFiles(patch)
	if len(files) == 0 {
		return
	}
	ti["file_path"] = files[0]
	list := make([]any, len(files))
	for i, f := range files {
		list[i] = f
	}
	ti["file_paths"] = list
}
