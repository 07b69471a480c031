package hook

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// CapEnv names the environment variable that sets the payload size limit
// in bytes (default 64 MiB).
const CapEnv = "MAGEHOOK_PAYLOAD_CAP"

// Main answers one event in the running process: it refuses arguments
// after the target (exit 2), then dispatches the process's stdin to the
// builtin and enabled handlers and returns the exit code. args is os.Args.
// h is the harness that runs the hook (nil: Claude Code).
func Main(ctx context.Context, event string, h Harness, handlers, builtin []Handler, args []string) int {
	ev, ok := Lookup(event)
	if !ok {
		fmt.Fprintf(os.Stderr, "magehook: unknown event %q\n", event)
		return ExitBlock
	}
	if extra := ExtraArgs(args, "hook:"+ev.Target); len(extra) > 0 {
		fmt.Fprintf(os.Stderr, "magehook: hook:%s takes no arguments, got %q; the payload comes on stdin\n", ev.Target, strings.Join(extra, " "))
		return ExitBlock
	}
	d := &Dispatcher{Handlers: handlers, Builtin: builtin, Harness: h, Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}
	if v := os.Getenv(CapEnv); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n <= 0 {
			fmt.Fprintf(os.Stderr, "magehook: %s=%q is not a positive number of bytes\n", CapEnv, v)
			return ExitConfig
		}
		d.Cap = n
	}
	return d.Dispatch(ctx, event)
}

// ExtraArgs returns the command-line arguments after target in a compiled
// Mage binary's argv, but for the -name=value options Mage has already
// parsed for the target: Mage would run them as further targets once the
// event target exits, which it never does. Mage's own flags before the
// target are skipped (-t takes a value).
func ExtraArgs(args []string, target string) []string {
	for i := 1; i < len(args); i++ {
		a := args[i]
		if a == "-t" || a == "--t" {
			i++
			continue
		}
		if strings.HasPrefix(a, "-") {
			continue
		}
		if strings.EqualFold(a, target) {
			rest := args[i+1:]
			for len(rest) > 0 && strings.HasPrefix(rest[0], "-") && strings.Contains(rest[0], "=") {
				rest = rest[1:]
			}
			return rest
		}
	}
	return nil
}
