package main

import (
	"archive/zip"
	"bytes"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
)

// proxyVersion is the version the on-disk module proxy serves this tree
// as: what `go run github.com/magehook/magehook/cmd/magehook@latest`
// resolves to in published.txtar.
const proxyVersion = "v0.1.0"

// writeProxy lays out a GOPROXY directory (file:// URL) serving the
// working tree of src (its tracked and untracked, not ignored, files) as
// Module@proxyVersion, the way the module proxy would serve a published
// release.
func writeProxy(src, dir string) error {
	names, err := sourceFiles(src)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	z := zip.NewWriter(&buf)
	for _, name := range names {
		data, err := os.ReadFile(filepath.Join(src, filepath.FromSlash(name)))
		if err != nil {
			return err
		}
		w, err := z.Create(Module + "@" + proxyVersion + "/" + name)
		if err != nil {
			return err
		}
		if _, err := w.Write(data); err != nil {
			return err
		}
	}
	if err := z.Close(); err != nil {
		return err
	}
	gomod, err := os.ReadFile(filepath.Join(src, "go.mod"))
	if err != nil {
		return err
	}
	at := filepath.Join(dir, filepath.FromSlash(Module), "@v")
	if err := os.MkdirAll(at, 0o755); err != nil {
		return err
	}
	for name, data := range map[string][]byte{
		"list":                 []byte(proxyVersion + "\n"),
		proxyVersion + ".info": []byte(`{"Version":"` + proxyVersion + `","Time":"2026-01-01T00:00:00Z"}`),
		proxyVersion + ".mod":  gomod,
		proxyVersion + ".zip":  buf.Bytes(),
	} {
		if err := os.WriteFile(filepath.Join(at, name), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// sourceFiles lists the module's files in src, slash-separated: tracked,
// and untracked but not ignored, as the working tree holds them (a file
// deleted there, or a symbolic link, is not one); files below a directory
// with a go.mod of its own belong to another module.
func sourceFiles(src string) ([]string, error) {
	out, err := exec.Command("git", "-C", src, "ls-files", "-z", "--cached", "--others", "--exclude-standard").Output()
	if err != nil {
		return nil, err
	}
	var names []string
	for _, name := range strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00") {
		if name == "" || nested(src, name) {
			continue
		}
		info, err := os.Lstat(filepath.Join(src, filepath.FromSlash(name)))
		if err != nil || !info.Mode().IsRegular() {
			continue
		}
		names = append(names, name)
	}
	return names, nil
}

// nested reports whether name lies below a directory (other than the top)
// holding a go.mod: another module's file.
func nested(src, name string) bool {
	for dir := path.Dir(name); dir != "." && dir != "/"; dir = path.Dir(dir) {
		if _, err := os.Stat(filepath.Join(src, filepath.FromSlash(dir), "go.mod")); err == nil {
			return true
		}
	}
	return false
}
