package buildinfo

import (
	"fmt"
	"os"
	"time"
)

// Place puts the binary src at out, written by one write(2) into a file
// next to out and renamed over it, and removes src when it is another
// file. A hook running at that moment runs the old binary or the new one.
//
// Why not rename the linker's output: the linker writes it through a
// memory map, and the page cache then holds it in 4 KiB pages. Written by
// one write, a file system with large folios (ext4 and xfs on Linux 6.x)
// holds it in large ones, and each start of the binary, which maps its
// code in page faults, takes about a sixth fewer faults, costing a
// quarter less CPU (docs/performance.md, "How the binary is written").
// Elsewhere it costs one copy of the file per build.
func Place(src, out string) error {
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	info, err := os.Stat(src)
	if err != nil {
		return err
	}
	// Not atomicfile.WriteFile: its temporary name is not a sidecar, and a
	// build killed mid-write would leave a file hook:install does not
	// ignore.
	tmp := sidecar(out, fmt.Sprintf("%d.whole", os.Getpid()))
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC|os.O_EXCL, info.Mode().Perm())
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, out)
	}
	if err != nil {
		os.Remove(tmp)
		return err
	}
	if src != out {
		os.Remove(src)
	}
	return nil
}

// refresh rewrites out in one write (Place) when it was last written
// before the machine booted: its pages were then read back from disk by
// the faults of its first start, in 4 KiB pages, and stay so for as long
// as it is cached. Once per boot, at a session's start (Ensure with
// fresh); boot is zero where it is not known, and nothing is done.
func refresh(out string, boot time.Time) error {
	info, err := os.Stat(out)
	if err != nil || boot.IsZero() || !info.ModTime().Before(boot) {
		return err
	}
	return Place(out, out)
}
