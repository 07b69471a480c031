package gitcmd

import (
	"path/filepath"
	"strings"
	"testing"
)

// writeForm renders a write for the examples: the path relative to /w,
// "tree:" for a tree, [NAMES] for what find narrows it to, "?" for a path
// only known at run time.
func writeForm(w Write, dir string) string {
	if w.Dynamic != "" {
		return "?"
	}
	s := w.Path
	if x, err := filepath.Rel(dir, s); err == nil && !strings.HasPrefix(x, "..") {
		s = filepath.ToSlash(x)
	}
	if w.Tree {
		s = "tree:" + s
	}
	if w.Match != nil {
		s += "[" + strings.Join(w.Match.Names, ",") + "]"
	}
	return s
}

func exampleOf(t *testing.T, command, dir string) (reads, writes, runs string) {
	t.Helper()
	a, err := Analyze(command, Options{Dir: dir, Home: "/home/u"})
	if err != nil {
		t.Fatalf("%s: %v", command, err)
	}
	reads, _ = readsOf(t, command, dir)
	writes, runs = writesAndRuns(a, dir)
	return reads, writes, runs
}

// writesAndRuns renders what an example checks of an analysis: its writes
// (writeForm, each once) and the argument vector of its last command when
// it has more than one (a wrapper's), with @DIR when that runs elsewhere.
func writesAndRuns(a *Analysis, dir string) (writes, runs string) {
	var got []string
	seen := map[string]bool{}
	for _, w := range a.Writes {
		if f := writeForm(w, dir); !seen[f] {
			seen[f] = true
			got = append(got, f)
		}
	}
	if n := len(a.Commands); n > 1 {
		c := a.Commands[n-1]
		runs = strings.Join(c.Argv(), " ")
		if c.Dir != dir {
			runs += "@" + c.Dir
		}
	}
	return strings.Join(got, " "), runs
}

// TestProgramSpecs runs every spec's examples: each command, analysed in
// /w, reads, writes and (for a wrapper) runs exactly what the example
// says. Every spec has examples, and no program has two specs.
func TestProgramSpecs(t *testing.T) {
	seen := map[string]bool{}
	for _, s := range programTable {
		if len(s.examples) == 0 {
			t.Errorf("the spec of %v has no examples", s.names)
		}
		for _, n := range s.names {
			if seen[n] {
				t.Errorf("%s has two specs", n)
			}
			seen[n] = true
		}
		for _, ex := range s.examples {
			reads, writes, runs := exampleOf(t, ex.command, "/w")
			checkExample(t, ex, reads, writes, runs, s.wrap.on)
		}
	}
}

// checkExample compares what an example's command was found to read,
// write and (when checkRuns) run with what the example says.
func checkExample(t *testing.T, ex example, reads, writes, runs string, checkRuns bool) {
	t.Helper()
	if reads != ex.reads {
		t.Errorf("%s: reads %q, want %q", ex.command, reads, ex.reads)
	}
	if writes != ex.writes {
		t.Errorf("%s: writes %q, want %q", ex.command, writes, ex.writes)
	}
	if checkRuns && runs != ex.runs {
		t.Errorf("%s: runs %q, want %q", ex.command, runs, ex.runs)
	}
}

// TestUnknownProgramsAreNotKnown: a program without a spec, or whose
// writes the spec leaves unmodelled, is not known, so that a gate fails
// closed on it when it names a guarded file; every program with a modelled
// spec is.
func TestUnknownProgramsAreNotKnown(t *testing.T) {
	for _, n := range []string{"frobnicate", "rclone", "my-tool", "ansible-playbook", "terraform"} {
		if Knows(n) {
			t.Errorf("%s should not be known", n)
		}
	}
	for _, s := range programTable {
		for _, n := range s.names {
			if Knows(n) != (s.write.kind != wkUnknown || s.wrap.on) {
				t.Errorf("%s: Knows %v, but its spec says %v", n, Knows(n), s.write.kind)
			}
		}
	}
}

// TestSpecsCoverWhatWasKnown (temporary guard of the move to specs): every
// program the earlier switches knew as a writer or a wrapper is known.
func TestSpecsCoverWhatWasKnown(t *testing.T) {
	for _, n := range strings.Fields(oldKnown) {
		if !Knows(n) {
			t.Errorf("%s was known and is not", n)
		}
	}
}

const oldKnown = `7z 7za 7zr apply_patch applypatch ar aria2c autopep8 awk biome black brotli bsdtar bun bunzip2 bzip2 cargo chattr chcon chgrp chmod chown clang-format cmake compress cp cpio csplit curl dd docker dos2unix dprint ed emacs emacsclient eslint ex fallocate file-rename find gawk gcp gmv go gofmt goimports gpg gpg2 gsed gtar gunzip gzip iconv install isort jar kubectl link ln lz4 lzma mac2unix mage mkdir mkfifo mknod mount mv npm nvim openssl pandoc patch perl-rename pigz pnpm podman prename prettier rcp red rename rm rmdir rsync ruff rustfmt scp script sed setfacl shfmt shred sort split sponge sqlite sqlite3 srm tar tee time touch truncate uncompress uniq unix2dos unix2mac unlink unlzma unpigz unrar unxz unzip unzstd vi vim wget xxd xz yarn yq zstd  env sudo doas run0 nohup command builtin setsid exec caffeinate fakeroot catchsegv unbuffer dbus-run-session proxychains proxychains4 torsocks tsocks pkexec chronic ifne sem gtimeout time nice ionice timeout xargs parallel stdbuf chrt taskset flock watch su runuser script strace ltrace valgrind systemd-run unshare nsenter chroot direnv uv poetry pipenv pdm hatch rye pixi bundle pnpm npm yarn bun busybox toybox npx bunx pnpx nix-shell dotenv `

// TestAbbreviatedLongOptions: a GNU tool reads an unambiguous prefix of a
// long option as the option; an ambiguous or unknown one stays as written.
func TestAbbreviatedLongOptions(t *testing.T) {
	cp := specOf("cp")
	for in, want := range map[string]string{
		"--targ=d a":  "--target-directory=d a",
		"--rec a b":   "--recursive a b",
		"--re a b":    "", // recursive, reflink, remove-destination
		"--no- a b":   "",
		"--preserve":  "", // exact
		"-- --rec a":  "",
		"--frob a b":  "",
		"a --archi b": "a --archive b",
	} {
		var args []Word
		for _, f := range strings.Fields(in) {
			args = append(args, Word{Value: f})
		}
		got := ""
		if out := canonArgs(cp, args); out != nil {
			var vs []string
			for _, w := range out {
				vs = append(vs, w.Value)
			}
			got = strings.Join(vs, " ")
		}
		if got != want {
			t.Errorf("cp %s: %q, want %q", in, got, want)
		}
	}
}
