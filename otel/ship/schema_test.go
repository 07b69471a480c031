package ship_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/magehook/magehook/otel/ship"
)

// docs/fleet.md's schema table is the one Schema makes.
func TestDocsHoldTheSchema(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "fleet.md"))
	if err != nil {
		t.Fatal(err)
	}
	if table := ship.SchemaTable(); !strings.Contains(string(doc), table) {
		t.Errorf("docs/fleet.md lacks the schema table; put this in its place:\n%s", table)
	}
}
