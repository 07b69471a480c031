//go:build mage

// This repository's own build. It imports the magehook plugin, as any
// repository would, and adds the targets only this repository needs.
package main

import (
	"context"
	"os"
	"path/filepath"

	"github.com/magefile/mage/mg"
	"github.com/magefile/mage/sh"

	"github.com/magehook/magehook/internal/live"
	//mage:import
	"github.com/magehook/magehook/magefiles/targets"
)

// Build compiles the hook binary into bin/magehook (same as hook:build).
func Build(ctx context.Context) {
	targets.Hook{}.Build(ctx)
}

// Test runs the test suite: go test ./...
func Test() error {
	return sh.RunV("go", "test", "./...")
}

// Bench times the hook binary against a bare Go program and a bash+jq hook
// (go run ./internal/bench) and prints the table docs/performance.md keeps.
func Bench() error {
	return sh.RunV("go", "run", "./internal/bench")
}

// Fuzz runs every fuzz target for a short budget each (FUZZTIME, default
// 20s); the seed corpora also run as ordinary tests.
func Fuzz() error {
	budget := os.Getenv("FUZZTIME")
	if budget == "" {
		budget = "20s"
	}
	targets := []struct{ pkg, name string }{
		{"./pkg/payload", "FuzzScan"},
		{"./pkg/payload", "FuzzParse"},
		{"./pkg/hook", "FuzzDispatch"},
		{"./pkg/settings", "FuzzInstall"},
		{"./pkg/toolingrc", "FuzzParse"},
		{"./pkg/gitcmd", "FuzzAnalyze"},
	}
	for _, t := range targets {
		if err := sh.RunV("go", "test", "-run=^$", "-fuzz=^"+t.name+"$", "-fuzztime="+budget, t.pkg); err != nil {
			return err
		}
	}
	return nil
}

// Lint runs gofmt, go vet and the go mod tidy check, as CI does.
func Lint() error {
	root, err := os.Getwd()
	if err != nil {
		return err
	}
	return sh.RunV("sh", filepath.Join(root, ".ci", "lint"))
}

// Live runs the live contract suite: the pinned agent clients
// (internal/live/clients.txt), offline, against a scripted model server.
type Live mg.Namespace

// Install installs every pinned client with npm into
// ${MAGEHOOK_CLIENTS:-$HOME/.cache/magehook/clients}/<package>@<version>,
// reusing what is already there.
func (Live) Install(ctx context.Context) error {
	cs, err := live.Clients()
	if err != nil {
		return err
	}
	for _, c := range cs {
		if err := live.Install(ctx, c, os.Stdout, os.Stderr); err != nil {
			return err
		}
	}
	return nil
}

// Test installs the pinned clients and runs the live suite
// (go test ./internal/live/...) with every client present.
func (l Live) Test(ctx context.Context) error {
	if err := l.Install(ctx); err != nil {
		return err
	}
	return sh.RunWithV(map[string]string{"MAGEHOOK_LIVE": "require"}, "go", "test", "-count=1", "./internal/live/...")
}
