package worktree

import (
	"os"
	"path/filepath"
	"strings"
)

// The registry records the worktrees magehook made, one file per name in
// <git common dir>/magehook/worktrees/, holding the worktree's path. It is
// written right after the create's branch exists and removed with the
// worktree, so a killed create leaves it behind with its debris.

func registryDir(common string) string { return filepath.Join(common, "magehook", "worktrees") }

func registryFile(common, name string) string {
	return filepath.Join(registryDir(common), strings.ReplaceAll(name, "/", "%"))
}

func record(common, name, path string) error {
	if err := os.MkdirAll(registryDir(common), 0o755); err != nil {
		return err
	}
	return os.WriteFile(registryFile(common, name), []byte(path+"\n"), 0o644)
}

func forget(common, name string) { os.Remove(registryFile(common, name)) }

func recorded(common, name string) bool {
	_, err := os.Stat(registryFile(common, name))
	return err == nil
}

// made lists the names in the registry.
func made(common string) []string {
	entries, _ := os.ReadDir(registryDir(common))
	var names []string
	for _, e := range entries {
		if !e.IsDir() {
			names = append(names, strings.ReplaceAll(e.Name(), "%", "/"))
		}
	}
	return names
}
