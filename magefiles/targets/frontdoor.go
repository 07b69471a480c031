package targets

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"regexp"
	"strconv"
	"strings"

	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/toolingrc"
)

// The front door: the command line a person types, read before Mage's
// generated main (which the binary stays: every line it accepts works as
// before). It runs in the plugin's init for every command line but a
// hook:<event> call, and asks this binary's own Mage main (rawEnv) for
// what only the magefile knows — its targets (-l) and one target's
// options (-h <target>):
//
//   - -l lists the commands a person types, and one line for the
//     hook:<event> targets, which are what the agents run;
//   - a target's options are taken as --name=value, -name value and
//     -name=value (Mage reads only -name=value, and -name for a bool);
//   - an unknown option of a target, and a target no list names, get one
//     line naming the nearest name, and exit 2 (a usage error, as Mage's
//     own).
//
// A magefile's Aliases are not in Mage's list: a name the list lacks is
// run by Mage itself, in a child of this process, whose "Unknown target"
// line alone is replaced by the did-you-mean one.

// rawEnv marks a run of this binary by its own front door: Mage's own
// list and help, and a command line passed through as typed.
const rawEnv = "MAGEHOOK_MAGE_RAW"

// frontDoor reads args (os.Args) and returns the command line Mage's main
// is to parse, or an exit code when it answered itself.
func frontDoor(args []string, getenv func(string) string, self func(args ...string) (string, bool), stdout, stderr io.Writer) ([]string, int, bool) {
	if getenv(rawEnv) != "" || hookEvent(args) {
		return args, 0, false
	}
	listing := truthy(getenv("MAGEFILE_LIST"))
	help := truthy(getenv("MAGEFILE_HELP"))
	at := -1 // the first target's index
	for i := 1; i < len(args) && at < 0; i++ {
		a := args[i]
		if a == "--" {
			if i+1 < len(args) {
				at = i + 1
			}
			break
		}
		if len(a) < 2 || a[0] != '-' {
			at = i
			break
		}
		name, _, valued := strings.Cut(strings.TrimPrefix(a[1:], "-"), "=")
		switch name {
		case "l":
			listing = true
		case "h":
			help = true
		case "v":
		case "t":
			if !valued {
				i++
			}
		default:
			return args, 0, false // Mage reports its own options
		}
	}
	if listing {
		list, ok := self("-l")
		if !ok {
			return args, 0, false
		}
		fmt.Fprint(stdout, personList(list))
		return nil, 0, true
	}
	if at < 0 {
		return args, 0, false
	}
	target := args[at]
	list, ok := self("-l")
	if !ok {
		return args, 0, false
	}
	names := listedTargets(list)
	if !listed(names, target) {
		return nil, passThrough(args, target, names, stderr), true
	}
	if help {
		return args, 0, false
	}
	usage, ok := self("-h", target)
	if !ok {
		return args, 0, false
	}
	positional, options := targetUsage(usage, target)
	out := append([]string{}, args[:at+1]...)
	i := at + 1
	for n := 0; n < positional && i < len(args); n++ {
		out = append(out, args[i])
		i++
	}
	for ; i < len(args) && strings.HasPrefix(args[i], "-") && len(args[i]) > 1; i++ {
		a := args[i]
		if strings.HasPrefix(a, "--") {
			a = a[1:]
		}
		name, _, valued := strings.Cut(a[1:], "=")
		kind, known := options[strings.ToLower(name)]
		if !known {
			var all []string
			for o := range options {
				all = append(all, o)
			}
			hint := ""
			if near := toolingrc.Nearest(all, strings.ToLower(name)); near != "" {
				hint = "; did you mean -" + near + "?"
			} else if len(all) == 0 {
				hint = "; it takes none"
			}
			fmt.Fprintf(stderr, "magehook: %s: unknown flag -%s%s (-h %s lists its flags)\n", target, name, hint, target)
			return nil, hook.ExitBlock, true
		}
		if !valued && kind != "bool" && i+1 < len(args) {
			a += "=" + args[i+1]
			i++
		}
		out = append(out, a)
	}
	return append(out, args[i:]...), 0, false
}

func truthy(v string) bool {
	b, err := strconv.ParseBool(v)
	return err == nil && b
}

// listed reports whether names holds target, in any case (as Mage
// matches).
func listed(names []string, target string) bool {
	for _, n := range names {
		if strings.EqualFold(n, target) {
			return true
		}
	}
	return false
}

// nearestTarget is the listed name nearest a misspelt target: within two
// edits in any case, or the event target a bare event name means
// (pretooluse: hook:preToolUse).
func nearestTarget(names []string, target string) string {
	if ev, ok := hook.LookupTarget(target); ok {
		return "hook:" + ev.Target
	}
	lower := make([]string, len(names))
	for i, n := range names {
		lower[i] = strings.ToLower(n)
	}
	near := toolingrc.Nearest(lower, strings.ToLower(target))
	for i, n := range lower {
		if n == near && near != "" {
			return names[i]
		}
	}
	return ""
}

// listedTargets are the target names of Mage's list.
func listedTargets(list string) []string {
	var out []string
	in := false
	for _, line := range strings.Split(list, "\n") {
		switch {
		case line == "Targets:":
			in = true
		case in && strings.HasPrefix(line, "  "):
			if f := strings.Fields(line); len(f) > 0 {
				out = append(out, strings.TrimSuffix(f[0], "*"))
			}
		case in:
			in = false
		}
	}
	return out
}

// personList is Mage's list without the hook:<event> targets, with one
// line in their place.
func personList(list string) string {
	var b strings.Builder
	in, events, col := false, 0, 0
	summary := func() {
		if events > 0 {
			fmt.Fprintf(&b, "  %-*s%s\n", max(col-2, len("hook:<event> ")), "hook:<event>", fmt.Sprintf("what the agents run, one per event (%d: hook:preToolUse, hook:sessionStart, ...), payload on stdin; not commands to type: hook:replay tries one by hand, -h hook:<event> tells more", events))
			events = 0
		}
	}
	for _, line := range strings.SplitAfter(list, "\n") {
		trimmed := strings.TrimSuffix(line, "\n")
		switch {
		case trimmed == "Targets:":
			in = true
		case in && strings.HasPrefix(trimmed, "  "):
			f := strings.Fields(trimmed)
			if col == 0 && len(f) > 1 {
				col = strings.Index(trimmed[2+len(f[0]):], f[1]) + 2 + len(f[0])
			}
			name := strings.TrimSuffix(f[0], "*")
			if len(name) > len("hook:") && strings.EqualFold(name[:len("hook:")], "hook:") {
				if _, ok := hook.LookupTarget(name[len("hook:"):]); ok {
					events++
					continue
				}
			}
		case in:
			summary()
			in = false
		}
		b.WriteString(line)
	}
	summary()
	return b.String()
}

// targetUsage reads Mage's help of a target: how many positional
// arguments it takes, and its options (lower case) with their types.
func targetUsage(help, target string) (int, map[string]string) {
	// (Compiled here, not at package level: a hook start pays for no
	// regular expression.) A <name> of the usage line; a -name=<type>.
	usageArg := regexp.MustCompile(`<[^>]+>`)
	flagDoc := regexp.MustCompile(`-([A-Za-z0-9_]+)=<([A-Za-z0-9_.]+)>`)
	positional := 0
	options := map[string]string{}
	for _, line := range strings.Split(help, "\n") {
		t := strings.TrimSpace(line)
		if f := strings.Fields(t); len(f) > 1 && strings.EqualFold(f[1], target) {
			// the usage line: <binary> <target> <arg>... [flags]
			head, _, _ := strings.Cut(strings.Join(f[2:], " "), "[")
			positional = len(usageArg.FindAllString(head, -1))
		}
		for _, m := range flagDoc.FindAllStringSubmatch(t, -1) {
			options[strings.ToLower(m[1])] = m[2]
		}
	}
	return positional, options
}

// passThrough runs a command line whose first target Mage's list lacks (a
// magefile's alias, or a misspelt name) by Mage itself, in a child, and
// replaces Mage's "Unknown target" line with one naming the nearest
// target. It returns the child's exit code.
func passThrough(args []string, target string, names []string, stderr io.Writer) int {
	exe, err := os.Executable()
	if err != nil {
		fmt.Fprintf(stderr, "magehook: %s: %v\n", target, err)
		return 1
	}
	cmd := exec.Command(exe, args[1:]...)
	cmd.Env = append(os.Environ(), rawEnv+"=1")
	cmd.Stdin, cmd.Stdout = os.Stdin, os.Stdout
	pipe, err := cmd.StderrPipe()
	if err == nil {
		err = cmd.Start()
	}
	if err != nil {
		fmt.Fprintf(stderr, "magehook: %s: %v\n", target, err)
		return 1
	}
	// The terminal's interrupt reaches the child too; this process only
	// waits for its end.
	signal.Ignore(os.Interrupt)
	unknown := fmt.Sprintf("Unknown target specified: %q", target)
	sc := bufio.NewScanner(pipe)
	for sc.Scan() {
		line := sc.Text()
		if line == unknown {
			hint := ""
			if near := nearestTarget(names, target); near != "" {
				hint = "; did you mean " + near + "?"
			}
			line = fmt.Sprintf("magehook: unknown target %q%s (-l lists the targets)", target, hint)
		}
		fmt.Fprintln(stderr, line)
	}
	err = cmd.Wait()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	if err != nil {
		return 1
	}
	return 0
}

// selfRaw runs this binary's own Mage main (rawEnv) with args, without
// Mage's variables, and returns its output; false when it failed.
func selfRaw(args ...string) (string, bool) {
	exe, err := os.Executable()
	if err != nil {
		return "", false
	}
	cmd := exec.Command(exe, args...)
	cmd.Env = []string{rawEnv + "=1"}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "MAGEFILE_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	out, err := cmd.Output()
	return string(out), err == nil
}
