package targets

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/magefile/mage/mg"

	"github.com/magehook/magehook/pkg/drift"
	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/toolingrc"
)

// Otel builds and runs the shipper that sends the spooled records of
// otel.export to an OpenTelemetry collector (docs/fleet.md).
type Otel mg.Namespace

// otelHandlers are the builtin handlers of export: at SessionStart the
// checkout's drift records, and the shipper started for what waits; at
// SessionEnd the shipper started to send the session's last records.
// Both do nothing unless .toolingrc sets otel.export yes.
func otelHandlers() []hook.Handler {
	return []hook.Handler{
		{Name: "otel-session-start", Purpose: "export the checkout's hook drift (otel.export) and start the shipper",
			Events: []string{"SessionStart"}, Policy: hook.Observer, Run: otelSessionStart},
		{Name: "otel-session-end", Purpose: "start the shipper for the session's last exported records (otel.export)",
			Events: []string{"SessionEnd"}, Policy: hook.Observer, Run: otelSessionEnd},
	}
}

func otelSessionStart(c *hook.Call) (hook.Result, error) {
	s := hook.SpoolFor(c.Config)
	if s == nil {
		return hook.Result{}, nil
	}
	rep, err := drift.Check(c.Config, handlers(), c.Getenv("HOME"))
	if err != nil {
		return hook.Result{}, err
	}
	hook.Export(c.Config, c.Harness, c.Now(), rep.Records(drift.Facts{Source: "session-start"})...)
	s.Kick(hook.ShipperFor(c.Config), os.Environ())
	return hook.Result{}, nil
}

func otelSessionEnd(c *hook.Call) (hook.Result, error) {
	if s := hook.SpoolFor(c.Config); s != nil {
		s.Kick(hook.ShipperFor(c.Config), os.Environ())
	}
	return hook.Result{}, nil
}

// Build builds the shipper (the module github.com/magehook/magehook/otel,
// the OpenTelemetry SDK and its exporters, kept out of the hook binary)
// into magehook-ship beside the hook binary, where the hook binary starts
// it.
func (Otel) Build(ctx context.Context) error { return osWorld().otelBuild(ctx) }

// Ship sends the checkout's spooled records to the collector the standard
// OTEL_EXPORTER_OTLP_* variables name, waiting for the shipper (for CI, and
// for a machine whose collector was down), building it first when it is
// missing. Exit 1 when a record could not be sent; it waits in the spool.
func (Otel) Ship(ctx context.Context) error { return osWorld().otelShip(ctx) }

func (w world) otelConfig() (*toolingrc.Config, error) {
	cfg, err := toolingrc.Discover(w.start())
	if err != nil {
		return nil, configErr(err)
	}
	if err := cfg.Validate(); err != nil {
		return nil, configErr(err)
	}
	return cfg, nil
}

func (w world) otelBuild(ctx context.Context) error {
	cfg, err := w.otelConfig()
	if err != nil {
		return err
	}
	out := hook.ShipperFor(cfg)
	if err := buildShipper(ctx, cfg.Root(), out, w.stderr); err != nil {
		return failure(err)
	}
	fmt.Fprintln(w.stderr, "magehook: built", out)
	return nil
}

// buildShipper builds the shipper into out. In magehook's own checkout it
// builds ./otel (whose go.mod replaces magehook with the checkout); in a
// repository that imports magehook it builds the otel module of the same
// magehook version, in a module of its own, so that the repository's
// go.mod never requires the SDK.
func buildShipper(ctx context.Context, root, out string, log interface{ Write([]byte) (int, error) }) error {
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return err
	}
	tmp := fmt.Sprintf("%s.%d.tmp", out, os.Getpid())
	defer os.Remove(tmp)
	dir := filepath.Join(root, "otel")
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); err != nil {
		return fmt.Errorf("%s has no otel module to build the shipper from: in a repository that imports magehook, build it with go build -o %s github.com/magehook/magehook/otel/cmd/magehook-ship from a module that requires github.com/magehook/magehook/otel (docs/fleet.md)", root, out)
	}
	cmd := exec.CommandContext(ctx, "go", "build", "-o", tmp, "./cmd/magehook-ship")
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go build the shipper in %s: %w", dir, err)
	}
	return os.Rename(tmp, out)
}

func (w world) otelShip(ctx context.Context) error {
	cfg, err := w.otelConfig()
	if err != nil {
		return err
	}
	s := hook.SpoolFor(cfg)
	if s == nil {
		return configErr(fmt.Errorf("%s does not set %s yes: nothing is exported", filepath.Join(cfg.Root(), toolingrc.FileName), toolingrc.KeyOtelExport))
	}
	bin := hook.ShipperFor(cfg)
	if _, err := os.Stat(bin); err != nil {
		if err := buildShipper(ctx, cfg.Root(), bin, w.stderr); err != nil {
			return failure(err)
		}
	}
	// -wait: one shipper per spool, so wait for a running one, then ship
	// what it left.
	cmd := exec.CommandContext(ctx, bin, "-spool", s.Dir, "-wait")
	cmd.Stdout, cmd.Stderr = w.stdout, w.stderr
	if err := cmd.Run(); err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return failure(fmt.Errorf("the shipper could not send every record (exit %d); they wait in %s", ee.ExitCode(), s.Dir))
		}
		return failure(err)
	}
	return nil
}
