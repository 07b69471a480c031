package harness

import "github.com/magehook/magehook/pkg/payload"

// patchInput adds the files of an apply_patch call to its tool_input:
// file_path is the first (what an Edit gate reads), file_paths all of them
// (payload.PatchFiles: adds, updates, deletes and move targets). The
// patch text stays where the gates read it (payload.EditedPaths): OpenCode's
// patchText is also copied to patch.
func patchInput(ti map[string]any) {
	if ti == nil {
		return
	}
	patch, _ := ti["command"].(string)
	if patch == "" {
		if pt, ok := ti["patchText"].(string); ok {
			patch = pt
			if _, has := ti["patch"]; !has {
				ti["patch"] = pt
			}
		}
	}
	if patch == "" {
		patch, _ = ti["input"].(string)
	}
	files := payload.PatchFiles(patch)
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
