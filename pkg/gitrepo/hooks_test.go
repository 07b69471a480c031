package gitrepo_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/magehook/magehook/pkg/gitrepo"
)

// Hooks lists what git would run: executable files, samples left out,
// shell scripts told from other programs; HooksDir follows core.hooksPath.
func TestHooks(t *testing.T) {
	dir := t.TempDir()
	for name, f := range map[string]struct {
		text string
		mode os.FileMode
	}{
		"pre-commit":        {"#!/bin/sh\ngo vet ./...\n", 0o755},
		"post-commit":       {"git push\n", 0o755},
		"pre-push":          {"#!/usr/bin/env python3\nprint(1)\n", 0o755},
		"post-merge":        {"#!/bin/sh\n", 0o644},
		"pre-rebase.sample": {"#!/bin/sh\n", 0o755},
	} {
		os.WriteFile(filepath.Join(dir, name), []byte(f.text), f.mode)
	}
	got := map[string]bool{}
	for _, h := range gitrepo.Hooks(dir) {
		got[filepath.Base(h.Path)] = h.Shell
	}
	want := map[string]bool{"pre-commit": true, "post-commit": true, "pre-push": false}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for k, v := range want {
		if s, ok := got[k]; !ok || s != v {
			t.Errorf("%s: shell %v (listed %v), want %v", k, s, ok, v)
		}
	}
	r := gitrepo.Repo{Root: "/w", CommonDir: "/w/.git"}
	for hp, want := range map[string]string{"": "/w/.git/hooks", "/dev/null": "", ".githooks": "/w/.githooks", "/abs/h": "/abs/h", "~/h": "/home/u/h"} {
		if got := gitrepo.HooksDir(r, hp, "/home/u"); got != filepath.FromSlash(want) {
			t.Errorf("HooksDir(%q) = %q, want %q", hp, got, want)
		}
	}
}
