package magehook_test

import (
	"bytes"
	"encoding/binary"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// executableMagic are the first bytes of the executable formats a build
// here can produce: ELF, Mach-O (both byte orders, 32 and 64 bits, and
// universal) and WebAssembly. PE is told by its MZ header pointing at a
// PE signature (isPE): two letters alone start ordinary text.
var executableMagic = [][]byte{
	[]byte("\x7fELF"),
	{0xfe, 0xed, 0xfa, 0xce}, {0xce, 0xfa, 0xed, 0xfe},
	{0xfe, 0xed, 0xfa, 0xcf}, {0xcf, 0xfa, 0xed, 0xfe},
	{0xca, 0xfe, 0xba, 0xbe},
	[]byte("\x00asm"),
}

// maxTracked is the largest file kept outside testdata.
const maxTracked = 1 << 20

// TestNoBuildArtefactIsTracked: no tracked file is an executable, and none
// outside a testdata directory is over 1 MB (a committed binary reached
// every clone and the module zip once).
func TestNoBuildArtefactIsTracked(t *testing.T) {
	out, err := exec.Command("git", "ls-files", "-z").Output()
	if err != nil {
		t.Skipf("not a git checkout (%v): nothing is tracked", err)
	}
	for _, name := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		if problem := artefact(name); problem != "" {
			t.Errorf("%s is tracked: %s; remove it (git rm --cached) and ignore it", name, problem)
		}
	}
}

// artefact says why the file at path may not be committed, or "".
func artefact(path string) string {
	info, err := os.Lstat(path)
	if err != nil || !info.Mode().IsRegular() {
		return "" // deleted in the work tree, or a link
	}
	inTestdata := strings.Contains("/"+filepath.ToSlash(path), "/testdata/")
	if info.Size() > maxTracked && !inTestdata {
		return "it is over 1 MB"
	}
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	head := make([]byte, 4096)
	n, _ := io.ReadFull(f, head)
	head = head[:n]
	for _, m := range executableMagic {
		if bytes.HasPrefix(head, m) {
			return "it is an executable"
		}
	}
	if isPE(head) {
		return "it is an executable"
	}
	return ""
}

// isPE reports whether head starts a PE file: "MZ", and at the offset
// the DOS header holds at 0x3c, "PE\0\0".
func isPE(head []byte) bool {
	if len(head) < 0x40 || !bytes.HasPrefix(head, []byte("MZ")) {
		return false
	}
	off := int(binary.LittleEndian.Uint32(head[0x3c:]))
	return off+4 <= len(head) && bytes.Equal(head[off:off+4], []byte("PE\x00\x00"))
}

// The check must see what it is for: a built binary and a large file.
func TestArtefactSeesABinaryAndALargeFile(t *testing.T) {
	dir := t.TempDir()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(exe)
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "magehook")
	os.WriteFile(bin, data[:4096], 0o755)
	if artefact(bin) == "" {
		t.Error("this test's own binary is not seen as an executable")
	}
	big := filepath.Join(dir, "dump.json")
	os.WriteFile(big, bytes.Repeat([]byte("x"), maxTracked+1), 0o644)
	if artefact(big) == "" {
		t.Error("a file over 1 MB is not seen")
	}
	cmd := exec.Command("go", "build", "-o", filepath.Join(dir, "w.exe"), "./cmd/ensure")
	cmd.Env = append(os.Environ(), "GOOS=windows", "GOARCH=amd64")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if artefact(filepath.Join(dir, "w.exe")) == "" {
		t.Error("a Windows executable is not seen")
	}
	text := filepath.Join(dir, "MZ.md")
	os.WriteFile(text, []byte("MZ is a monogram\n"), 0o644)
	if p := artefact(text); p != "" {
		t.Errorf("text starting MZ: %s", p)
	}
	src := filepath.Join(dir, "main.go")
	os.WriteFile(src, []byte("package main\n"), 0o644)
	if p := artefact(src); p != "" {
		t.Errorf("a source file: %s", p)
	}
}
