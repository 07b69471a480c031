package targets_test

import (
	"os/exec"
	"reflect"
	"strings"
	"testing"

	"github.com/magehook/magehook/magefiles/targets"
	"github.com/magehook/magehook/pkg/hook"
)

func TestEveryEventHasATarget(t *testing.T) {
	typ := reflect.TypeOf(targets.Hook{})
	for _, ev := range hook.Events() {
		name := strings.ToUpper(ev.Target[:1]) + ev.Target[1:]
		if _, ok := typ.MethodByName(name); !ok {
			t.Errorf("event %s has no target Hook.%s (hook:%s)", ev.Name, name, ev.Target)
		}
	}
}

// forbidden are packages whose start-up cost or size has no place in the
// hook binary, which starts on every tool call: bitfield/script pulls
// net/http, gojq and mvdan.cc/sh/v3's interpreter, adding about 2 ms.
var forbidden = []string{
	"net/http",
	"github.com/bitfield/script",
	"github.com/itchyny/gojq",
	"mvdan.cc/sh/v3/interp",
	"mvdan.cc/sh/v3/shell",
	"mvdan.cc/sh/v3/expand",
	"testing",
	"github.com/rogpeppe/go-internal/testscript",
	"text/template",
	"html/template",
	"go/types",
	"crypto/sha256", // FIPS module inits on every start; hash/fnv serves
}

func TestHookBinaryStaysLight(t *testing.T) {
	out, err := exec.Command("go", "list", "-tags", "mage", "-deps", "../../magefiles").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	deps := map[string]bool{}
	for _, line := range strings.Fields(string(out)) {
		deps[line] = true
	}
	if !deps["github.com/magehook/magehook/magefiles/targets"] {
		t.Fatalf("the magefiles do not import the plugin; go list said:\n%s", out)
	}
	for _, pkg := range forbidden {
		if deps[pkg] {
			t.Errorf("the hook binary links %s; keep it out of magefiles/ and everything they import", pkg)
		}
	}
}
