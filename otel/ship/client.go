package ship

import (
	"context"
	"os/exec"
	"regexp"
	"runtime/debug"
	"time"

	"github.com/magehook/magehook/pkg/harness"
)

var versionRe = regexp.MustCompile(`\d+\.\d+(\.\d+)?([-+][0-9A-Za-z.-]+)?`)

// clientVersion runs the harness's client with --version (off the hot
// path: the shipper runs it once per harness and run) and keeps the first
// version number it prints; "" when the client is not on PATH or says
// nothing in 10 seconds.
func clientVersion(ctx context.Context, agent string) string {
	name := harness.ProgramOf(agent)
	if name == "" {
		return ""
	}
	path, err := exec.LookPath(name)
	if err != nil {
		return ""
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, path, "--version").Output()
	if err != nil {
		return ""
	}
	return versionRe.FindString(string(out))
}

// moduleVersion is magehook's module version as the shipper was built
// with it ("" for a development build).
func moduleVersion() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	for _, d := range info.Deps {
		if d.Path == "github.com/magehook/magehook" {
			if d.Replace != nil || d.Version == "(devel)" {
				return ""
			}
			return d.Version
		}
	}
	return ""
}
