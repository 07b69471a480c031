package branchguard

import (
	"fmt"
	"io"
	"strings"
)

// Explain writes how branchguard reads a command: how it was split, every
// command with its directory and what runs it, every git invocation with
// its repository, branch and effect, the files written, and the decision
// with its rule and reason, as the harness's model would read it.
func Explain(w io.Writer, in Input, harness string) error {
	r, err := Check(in)
	if err != nil {
		fmt.Fprintf(w, "decision  deny\nreason    branchguard cannot analyse this command (%v)\n", err)
		return nil
	}
	explainModel(w, in, r)
	explainDecision(w, in, r, harness, "decision ")
	return nil
}

// ExplainModel writes how the shared analysis reads a command (the split,
// every command and git invocation, the files written) and branchguard's
// own finding on one line starting "branchguard"; hook:explain adds every
// other gate's.
func ExplainModel(w io.Writer, in Input, harness string) error {
	r, err := Check(in)
	if err != nil {
		fmt.Fprintf(w, "branchguard deny: it cannot analyse this command (%v)\n", err)
		return nil
	}
	explainModel(w, in, r)
	explainDecision(w, in, r, harness, "branchguard")
	return nil
}

func explainModel(w io.Writer, in Input, r *Report) {
	a := r.Analysis
	fmt.Fprintf(w, "command   %s\n", oneLine(in.Command))
	fmt.Fprintf(w, "cwd       %s\n", in.Dir)
	fmt.Fprintf(w, "protect   %s\n", strings.Join(in.Protect, ", "))
	if a.SyntaxError != nil {
		shell := "bash"
		if in.PowerShell {
			shell = "PowerShell"
		}
		fmt.Fprintf(w, "syntax    %v; %s never runs: %s\n", a.SyntaxError, shell, oneLine(a.Unparsed))
	}
	fmt.Fprintf(w, "commands  %d\n", len(a.Commands))
	for i, c := range a.Commands {
		var words []string
		for _, wd := range c.Args {
			if wd.Dynamic != "" {
				words = append(words, "<"+wd.Value+": "+wd.Dynamic+">")
			} else {
				words = append(words, wd.Value)
			}
		}
		dir := c.Dir
		if c.DirDynamic != "" {
			dir = "? (" + c.DirDynamic + ")"
		}
		fmt.Fprintf(w, "  %2d  %s\n      in %s", i+1, strings.Join(words, " "), dir)
		if len(c.Via) > 0 {
			fmt.Fprintf(w, ", via %s", strings.Join(c.Via, " > "))
		}
		if len(c.After) > 0 {
			var after []string
			for _, j := range c.After {
				after = append(after, fmt.Sprint(j+1))
			}
			fmt.Fprintf(w, ", after %s succeeded", strings.Join(after, ", "))
		}
		fmt.Fprintln(w)
		for _, v := range c.Env {
			switch {
			case v.Unset:
				fmt.Fprintf(w, "      env %s unset\n", v.Name)
			case v.Dynamic != "":
				fmt.Fprintf(w, "      env %s=? (%s)\n", v.Name, v.Dynamic)
			default:
				fmt.Fprintf(w, "      env %s=%s\n", v.Name, v.Value)
			}
		}
		if c.EnvDynamic != "" {
			fmt.Fprintf(w, "      env ? (%s)\n", c.EnvDynamic)
		}
		if c.Cmdlet() != "" {
			line := "      cmdlet " + c.Cmdlet()
			if eq := c.Equivalent(); eq != nil {
				var as []string
				for _, wd := range eq {
					as = append(as, wd.Value)
				}
				line += ", judged as " + strings.Join(as, " ")
			}
			fmt.Fprintln(w, line)
		}
		if c.Opaque != "" {
			fmt.Fprintf(w, "      not followed: %s\n", c.Opaque)
		}
		if g := c.Git; g != nil {
			sub := g.Sub
			switch {
			case g.Exits:
				sub += " (prints and exits)"
			case g.Help:
				sub += " (help)"
			case g.Dynamic != "":
				sub = "? (" + g.Dynamic + ")"
			}
			if len(g.Aliases) > 0 {
				sub += " (alias " + strings.Join(g.Aliases, " > ") + ")"
			}
			if len(g.Guesses) > 0 {
				sub += " (help.autocorrect may run " + strings.Join(g.Guesses, ", ") + ")"
			}
			fmt.Fprintf(w, "      git %s\n", sub)
			for _, s := range r.Steps {
				if s.Index == i {
					repo := s.Repo
					if repo == "" {
						repo = "(none)"
					}
					fmt.Fprintf(w, "      repository %s, branch %s: %s\n", repo, strings.Join(s.Branches, " or "), s.Effect)
				}
			}
		}
	}
	if len(a.Writes) > 0 {
		fmt.Fprintln(w, "writes")
		for _, wr := range a.Writes {
			target := wr.Path
			if wr.Dynamic != "" {
				target = "? (" + wr.Dynamic + ")"
			}
			extra := ""
			if wr.Tree {
				extra += " and everything under it"
			}
			if wr.Command >= 0 {
				extra += fmt.Sprintf(" (command %d)", wr.Command+1)
			}
			fmt.Fprintf(w, "  %s %s%s\n", wr.Op, target, extra)
		}
	}
}

// explainDecision writes branchguard's decision, its rules and reason,
// under the label given.
func explainDecision(w io.Writer, in Input, r *Report, harness, label string) {
	if len(r.Findings) == 0 {
		fmt.Fprintf(w, "%s allow: nothing in it can move a protected branch or change its checkout\n", label)
		return
	}
	fmt.Fprintf(w, "%s deny\n", label)
	for _, f := range r.Findings {
		ref := f.Ref
		if ref == "" {
			ref = "-"
		}
		fmt.Fprintf(w, "  rule %q, ref %s: %s\n", f.Rule, ref, f.Detail)
	}
	fmt.Fprintf(w, "reason    %s\n", Message(harness, in.Typed, r.Findings))
}

func oneLine(s string) string {
	return strings.ReplaceAll(strings.TrimSpace(s), "\n", "\\n")
}
