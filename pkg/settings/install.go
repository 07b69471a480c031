package settings

import (
	"path/filepath"

	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/toolingrc"
)

// Installer writes or removes a checkout's entries in one scope's file.
type Installer struct {
	Config   *toolingrc.Config
	Handlers []hook.Handler
	Scope    Scope
	// Home is the user's home directory, for the user scope; empty means
	// os.UserHomeDir.
	Home   string
	DryRun bool
	// Keep is how many backups to keep (default 10).
	Keep int
}

// Path is the settings file the installer edits.
func (in Installer) Path() string {
	h := in.Home
	if h == "" {
		h = home()
	}
	return in.Scope.Path(in.Config.Root(), h)
}

// Install writes the entries (see Entries) into the scope's file.
func (in Installer) Install() (Outcome, error) {
	entries, err := Entries(in.Config, in.Handlers, in.Scope)
	if err != nil {
		return Outcome{}, err
	}
	root := in.Config.Root()
	return in.rewrite(func(old []byte) ([]byte, error) { return Install(old, entries, root) })
}

// Uninstall removes magehook's entries from the scope's file. A file that
// does not exist is left absent.
func (in Installer) Uninstall() (Outcome, error) {
	root := in.Config.Root()
	return in.rewrite(func(old []byte) ([]byte, error) {
		if old == nil {
			return nil, nil
		}
		return Uninstall(old, root)
	})
}

func (in Installer) rewrite(edit func([]byte) ([]byte, error)) (Outcome, error) {
	state, err := in.Config.Get(toolingrc.KeyStateDir)
	if err != nil {
		return Outcome{}, err
	}
	path := in.Path()
	return Rewrite{
		Path:         path,
		Edit:         edit,
		BackupDir:    filepath.Join(state.Abs(), "backups"),
		BackupPrefix: BackupPrefix(string(in.Scope), path),
		Keep:         in.Keep,
		DryRun:       in.DryRun,
	}.Run()
}
