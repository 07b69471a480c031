//go:build windows

package atomicfile

import (
	"os"
	"path/filepath"
)

type pending struct {
	f    *os.File
	path string
	perm os.FileMode
}

func (p *pending) Write(b []byte) (int, error) { return p.f.Write(b) }

func (p *pending) Replace() error {
	if err := p.f.Sync(); err != nil {
		return err
	}
	if err := p.f.Close(); err != nil {
		return err
	}
	os.Chmod(p.f.Name(), p.perm)
	return os.Rename(p.f.Name(), p.path) // MoveFileEx with REPLACE_EXISTING
}

func (p *pending) Cleanup() error {
	p.f.Close()
	return os.Remove(p.f.Name())
}

func create(path string, perm os.FileMode) (Pending, error) {
	if info, err := os.Stat(path); err == nil && info.Mode().IsRegular() {
		perm = info.Mode().Perm()
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return nil, err
	}
	return &pending{f: f, path: path, perm: perm}, nil
}
