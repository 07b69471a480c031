package settings

import (
	"fmt"
	"path/filepath"

	"github.com/magehook/magehook/pkg/confined"
	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/toolingrc"
)

// Installer writes or removes a checkout's entries in one scope's file, or
// in another harness's configuration.
type Installer struct {
	Config   *toolingrc.Config
	Handlers []hook.Handler
	Scope    Scope
	// Harness is the agent to configure; the zero value is Claude Code.
	// The other harnesses have one, project, file each.
	Harness hook.Harness
	// Home is the user's home directory, for the user scope; empty means
	// os.UserHomeDir.
	Home   string
	DryRun bool
	// Keep is how many backups to keep (default 10).
	Keep int
}

func (in Installer) claude() bool { return in.Harness.Name == "" || in.Harness.Name == "claude" }

// Path is the settings file the installer edits.
func (in Installer) Path() string {
	if !in.claude() {
		return filepath.Join(in.Config.Root(), HarnessFile(in.Harness.Name))
	}
	h := in.Home
	if h == "" {
		h = home()
	}
	return in.Scope.Path(in.Config.Root(), h)
}

// Install writes the entries (see Entries and EntriesFor) into the file.
func (in Installer) Install() (Outcome, error) {
	root := in.Config.Root()
	if !in.claude() {
		if in.Harness.Name == "opencode" {
			bin, err := in.Config.Get(toolingrc.KeyHookBinary)
			if err != nil {
				return Outcome{}, err
			}
			return in.rewrite(func(old []byte) ([]byte, error) { return EditOpenCodePlugin(old, bin.String(), true) })
		}
		entries, err := EntriesFor(in.Config, in.Handlers, in.Harness)
		if err != nil {
			return Outcome{}, err
		}
		return in.rewrite(func(old []byte) ([]byte, error) { return InstallHarness(old, in.Harness, entries) })
	}
	entries, err := Entries(in.Config, in.Handlers, in.Scope)
	if err != nil {
		return Outcome{}, err
	}
	return in.rewrite(func(old []byte) ([]byte, error) { return Install(old, entries, root) })
}

// Uninstall removes magehook's entries from the file. A file that does not
// exist is left absent.
func (in Installer) Uninstall() (Outcome, error) {
	root := in.Config.Root()
	return in.rewrite(func(old []byte) ([]byte, error) {
		switch {
		case old == nil:
			return nil, nil
		case in.Harness.Name == "opencode":
			return EditOpenCodePlugin(old, "", false)
		case !in.claude():
			return UninstallHarness(old, in.Harness)
		}
		return Uninstall(old, root)
	})
}

func (in Installer) rewrite(edit func([]byte) ([]byte, error)) (Outcome, error) {
	state, err := hook.StateDir(in.Config)
	if err != nil {
		return Outcome{}, err
	}
	backups, err := confined.Dir(state, "backups")
	if err != nil {
		return Outcome{}, err
	}
	path := in.Path()
	if in.claude() && in.Scope == User && !filepath.IsAbs(path) {
		// Without a home the user file's path is relative, and would land
		// in the project: the committed .claude/settings.json.
		return Outcome{}, fmt.Errorf("-scope=user edits $HOME/.claude/settings.json, but HOME is unset or not an absolute path; set HOME to your home directory and run again")
	}
	var normalize func([]byte) []byte
	if in.Harness.Name != "opencode" {
		normalize = sortedJSON
	}
	return Rewrite{
		Path:         path,
		Edit:         edit,
		Normalize:    normalize,
		NotJSON:      in.Harness.Name == "opencode",
		BackupDir:    backups,
		BackupPrefix: BackupPrefix(in.backupName(), path),
		Keep:         in.Keep,
		DryRun:       in.DryRun,
	}.Run()
}

func (in Installer) backupName() string {
	if in.claude() {
		return string(in.Scope)
	}
	return in.Harness.Name
}

// sortedJSON is a JSON document as install writes it (keys sorted,
// two-space indent), or the bytes unchanged when they do not parse.
func sortedJSON(data []byte) []byte {
	tree, err := Parse(data)
	if err != nil {
		return data
	}
	return Encode(tree, true)
}
