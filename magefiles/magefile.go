//go:build mage

// This repository's own build. It imports the magehook plugin, as any
// repository would, and adds the targets only this repository needs. The
// hook:<event> targets (one per agent event) are what the agents run; go
// tool mage -h <target> tells more of any target.
package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/magefile/mage/mg"
	"github.com/magefile/mage/sh"

	"github.com/magehook/magehook/internal/docgen"
	"github.com/magehook/magehook/internal/live"
	//mage:import
	"github.com/magehook/magehook/magefiles/targets"
)

// Build compiles the hook binary into bin/magehook (same as hook:build).
func Build(ctx context.Context) error {
	return targets.Hook{}.Build(ctx)
}

// Test runs the test suite: go test ./...
func Test() error {
	return sh.RunV("go", "test", "./...")
}

// Bench measures a hook call: CPU, wall, syscalls, threads, page faults
// and instructions of the hook binary against a bare Go program, the same
// as a Mage binary, and a bash+jq hook (go run ./internal/bench; BENCHFLAGS
// passes flags such as -rounds 21 or -quick); docs/performance.md keeps
// the table. strace and valgrind give the deterministic columns: on
// Debian, apt-get install -y strace valgrind (done here when root).
func Bench() error {
	for _, tool := range []string{"strace", "valgrind"} {
		if _, err := exec.LookPath(tool); err != nil && os.Geteuid() == 0 {
			if _, err := exec.LookPath("apt-get"); err == nil {
				sh.RunV("apt-get", "install", "-y", "-q", tool)
			}
		}
	}
	return sh.RunV("go", append([]string{"run", "./internal/bench"}, strings.Fields(os.Getenv("BENCHFLAGS"))...)...)
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
		{"./pkg/payload", "FuzzMapStrings"},
		{"./pkg/payload", "FuzzUnquote"},
		{"./pkg/payload", "FuzzSucceededAsEncodingJSON"},
		{"./pkg/hook", "FuzzDispatch"},
		{"./pkg/settings", "FuzzInstall"},
		{"./pkg/jsontree", "FuzzRoundTrip"},
		{"./pkg/toolingrc", "FuzzParse"},
		{"./pkg/gitcmd", "FuzzAnalyze"},
		{"./pkg/redact", "FuzzString"},
		{"./pkg/redact", "FuzzStringAsEveryRule"},
	}
	for _, t := range targets {
		if err := sh.RunV("go", "test", "-run=^$", "-fuzz=^"+t.name+"$", "-fuzztime="+budget, t.pkg); err != nil {
			return err
		}
	}
	return nil
}

// Docs rewrites the documentation's generated tables (the README's
// catalogue, docs/configuration.md's keys) from the handlers' and keys'
// declarations; internal/docgen's test fails when they drift.
func Docs() error {
	changed, err := docgen.Write(".")
	for _, file := range changed {
		fmt.Fprintln(os.Stderr, "docs: wrote "+file)
	}
	return err
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
	return sh.RunWithV(map[string]string{"MAGEHOOK_LIVE": "require"}, "go", "test", "-count=1", "-timeout=30m", "./internal/live/...")
}

// Bump moves one client to another version: it pins the version, installs
// it, runs that client's scenarios (the tests named Test<Client>...),
// capturing what it sends into testdata/live/<client>/<version>, and
// prints how its payloads and magehook's answers differ from the previous
// version's captures. The old captures stay until you delete them (the
// drift test reminds you).
func (Live) Bump(ctx context.Context, client, version string) error {
	old, err := live.Lookup(client)
	if err != nil {
		return err
	}
	if err := live.SetVersion(filepath.Join("internal", "live", live.ClientsFile), client, version); err != nil {
		return err
	}
	next := old
	next.Version = version
	if err := live.Install(ctx, next, os.Stdout, os.Stderr); err != nil {
		return err
	}
	pattern := "^Test" + strings.ToUpper(client[:1]) + client[1:]
	testErr := sh.RunWithV(map[string]string{"MAGEHOOK_LIVE": "require", "MAGEHOOK_LIVE_CAPTURE": "1"},
		"go", "test", "-count=1", "-run", pattern, "./internal/live/")
	fmt.Printf("\n%s %s -> %s:\n", client, old.Version, version)
	differs, err := live.Compare(os.Stdout, filepath.Join("testdata", "live", client, old.Version), filepath.Join("testdata", "live", client, version))
	if err != nil {
		return err
	}
	if !differs {
		fmt.Println("no payload or answer differences")
	}
	if testErr != nil {
		return fmt.Errorf("%s %s fails its scenarios: %w", client, version, testErr)
	}
	return nil
}
