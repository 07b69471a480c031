package targets

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/magehook/magehook/hooks/branchguard"
	"github.com/magehook/magehook/pkg/harness"
	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/toolingrc"
)

// Explain shows how the gates read a shell command: how it was split,
// every command and git invocation with its directory, repository, branch
// and effect on refs, the files it writes, and then what every enabled
// gate (branchguard, cmdguard, configguard, the repository's own) decides
// about it and why, as the hook would dispatch it (-cwd=dir: where it
// runs, default the current directory; -harness=name: the words of the
// reason; -powershell: the command is the PowerShell tool's, read into the
// same model).
func (Hook) Explain(command string,
	cwd *string, // where the command runs (default: here)
	harness *string, // whose words the reason takes
	powershell *bool, // the command is PowerShell's
) error {
	return osWorld().explain(command, deref(cwd), deref(harness), derefBool(powershell))
}

func (w world) explain(command, cwd, harnessName string, powershell bool) error {
	dir := cwd
	if dir == "" {
		dir = w.dir
	} else if !filepath.IsAbs(dir) {
		dir = filepath.Join(w.dir, dir)
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		return failure(err)
	}
	protect := []string{"main", "master"}
	typed := ""
	if cfg, err := toolingrc.Discover(dir); err == nil {
		if v, err := cfg.Get(toolingrc.KeyGuardProtect); err == nil {
			protect = v.Values
		}
		typed = (&hook.Call{Config: cfg}).Typed()
	}
	in := branchguard.Input{Command: command, Dir: dir, Home: w.getenv("HOME"), Getenv: w.getenv, Protect: protect, Typed: typed, PowerShell: powershell}
	if err := branchguard.ExplainModel(w.stdout, in, harnessName); err != nil {
		return failure(err)
	}
	agent, ok := harness.Hook(harnessName)
	if !ok {
		return usage(fmt.Errorf("unknown harness %q; use %s", harnessName, strings.Join(harness.Names(), ", ")))
	}
	tool := "Bash"
	if powershell {
		tool = "PowerShell"
	}
	verdicts, err := w.gateVerdicts(command, tool, dir, agent)
	if err != nil {
		return failure(err)
	}
	fmt.Fprintln(w.stdout, "gates")
	var deniers []string
	for _, v := range verdicts {
		fmt.Fprintf(w.stdout, "  %-12s %s\n", v.gate, v.text)
		if v.deny {
			deniers = append(deniers, v.gate)
		}
	}
	if len(verdicts) == 0 {
		fmt.Fprintln(w.stdout, "  (no gate is enabled here)")
	}
	if len(deniers) > 0 {
		fmt.Fprintf(w.stdout, "decision  deny (%s)\n", strings.Join(deniers, ", "))
	} else {
		fmt.Fprintln(w.stdout, "decision  allow: no enabled gate denies it")
	}
	return nil
}

// gateVerdict is what one gate decides about a command.
type gateVerdict struct {
	gate string
	deny bool
	text string
}

// gateVerdicts dispatches the command as a PreToolUse call of the tool to the
// enabled handlers, as the hook binary would, and reads every gate's own
// decision: the dispatcher stops at the first gate that denies, so each
// gate that denied is made to pass and the call dispatched again, until
// none denies. A gate that fails is a deny (the hook fails closed).
func (w world) gateVerdicts(command, tool, dir string, agent hook.Protocol) ([]gateVerdict, error) {
	data, err := json.Marshal(map[string]any{
		"hook_event_name": "PreToolUse", "session_id": "explain", "cwd": dir, "permission_mode": "default",
		"tool_name": tool, "tool_input": map[string]any{"command": command}, "tool_use_id": "toolu_explain",
	})
	if err != nil {
		return nil, err
	}
	hs := handlers()
	gates := map[string]bool{}
	for _, h := range hs {
		if h.Policy == hook.Gatekeeper {
			gates[h.Name] = true
		}
	}
	passed := map[string]bool{}
	var out []gateVerdict
	ran := map[string]bool{}
	var order []string
	for range len(hs) + 1 {
		set := make([]hook.Handler, len(hs))
		for i, h := range hs {
			if passed[h.Name] {
				h.Run = func(*hook.Call) (hook.Result, error) { return hook.Result{}, nil }
			}
			set[i] = h
		}
		r := hook.RunReplay(context.Background(), &hook.Dispatcher{Handlers: set, Harness: agent, Getenv: w.getenv}, "PreToolUse", data)
		decider := ""
		for _, line := range r.Handlers {
			f := strings.Fields(line)
			if len(f) < 2 || !gates[f[0]] || passed[f[0]] {
				continue
			}
			if f[1] != "skipped" && !ran[f[0]] {
				ran[f[0]] = true
				order = append(order, f[0])
			}
			if decider == "" && (f[1] == "deny" || f[1] == "failed") {
				decider = f[0]
			}
		}
		if decider == "" {
			break
		}
		why := strings.Join(r.Model, " ")
		if why == "" {
			why = strings.TrimSpace(r.Stderr)
		}
		if why == "" {
			why = r.Decision
		}
		out = append(out, gateVerdict{gate: decider, deny: true, text: "deny: " + oneLine(why)})
		passed[decider] = true
	}
	for _, g := range order {
		if !passed[g] {
			out = append(out, gateVerdict{gate: g, text: "allow"})
		}
	}
	return out, nil
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
