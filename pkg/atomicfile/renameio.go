//go:build !windows

package atomicfile

import (
	"os"
	"path/filepath"

	"github.com/google/renameio/v2"
)

type pending struct{ *renameio.PendingFile }

func (p pending) Replace() error { return p.CloseAtomicallyReplace() }

func create(path string, perm os.FileMode) (Pending, error) {
	pf, err := renameio.NewPendingFile(path,
		renameio.WithTempDir(filepath.Dir(path)),
		renameio.WithPermissions(perm),
		renameio.WithExistingPermissions())
	if err != nil {
		return nil, err
	}
	return pending{pf}, nil
}
