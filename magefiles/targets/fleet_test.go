package targets

import (
	"os"
	"path/filepath"
	"testing"
)

func TestFleetExitCodes(t *testing.T) {
	w, stdout, _ := testWorld(t.TempDir(), nil)
	fixtures := filepath.Join("..", "..", "pkg", "fleet", "testdata", "collector")
	abs, _ := filepath.Abs(fixtures)
	check(t, run(w.fleet(abs, false)), 3, "fleet: 3 checkouts drifted")
	if stdout.Len() == 0 {
		t.Error("fleet printed nothing")
	}
	check(t, run(w.fleet(filepath.Join(abs, "missing.json"), true)), 1, "fleet:", "missing.json")
	converged := filepath.Join(t.TempDir(), "empty.json")
	os.WriteFile(converged, nil, 0o644)
	check(t, run(w.fleet(converged, true)), 0)
}

func TestShipWithoutExportIsAConfigurationError(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, ".toolingrc"), []byte("hook.enable auditlog\n"), 0o644)
	w, _, _ := testWorld(dir, nil)
	check(t, run(w.otelShip(t.Context())), 3, "does not set otel.export yes")
}
