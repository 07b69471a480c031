//go:build mage

// This repository's own build. It imports the magehook plugin, as any
// repository would, and adds the targets only this repository needs.
package main

import (
	"context"
	"os"
	"path/filepath"

	"github.com/magefile/mage/sh"

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

// Lint runs gofmt, go vet and the go mod tidy check, as CI does.
func Lint() error {
	root, err := os.Getwd()
	if err != nil {
		return err
	}
	return sh.RunV("sh", filepath.Join(root, ".ci", "lint"))
}
