package gitcmd

import (
	"fmt"
	"strings"
)

// ProgramTable is the documentation's table of the programs the analysis
// knows (programTable): their names, the options that take a value, what
// their operands and option values are read, written or run as, and how a
// wrapper finds the command it runs. docgen puts it in docs/programs.md;
// it is generated from the specs, so it says what the code does.
func ProgramTable() string {
	var b strings.Builder
	b.WriteString("| Programs | Options taking a value | Reads | Writes | Runs |\n|---|---|---|---|---|\n")
	for i := range programTable {
		s := &programTable[i]
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", codeList(s.names), docCell(valueOptions(s)), docCell(readsDoc(s)), docCell(writesDoc(s)), docCell(runsDoc(s)))
	}
	return b.String()
}

// CmdletTable is the documentation's table of the PowerShell cmdlets the
// analysis knows (cmdletTable).
func CmdletTable() string {
	var b strings.Builder
	b.WriteString("| Cmdlet and aliases | What it does | Path parameters | Judged as |\n|---|---|---|---|\n")
	for i := range cmdletTable {
		s := &cmdletTable[i]
		var paths []string
		for _, p := range s.paths {
			paths = append(paths, "-"+p)
		}
		for _, p := range s.positions {
			paths = append(paths, fmt.Sprintf("position %d", p))
		}
		if s.dest != "" {
			paths = append(paths, "-"+s.dest+" (destination)")
		}
		if s.piped {
			paths = append(paths, "the pipeline, when none is given")
		}
		as := ""
		if s.as != "" {
			as = "`" + s.as + "`"
			for _, f := range s.asFlags {
				p, flag, _ := strings.Cut(f, "=")
				as += fmt.Sprintf(", -%s as `%s`", p, flag)
			}
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", codeList(s.names), cmdletRoleDoc[s.role], docCell(strings.Join(paths, ", ")), as)
	}
	return b.String()
}

var cmdletRoleDoc = [...]string{
	cmNone:        "nothing to files",
	cmWrite:       "writes its paths",
	cmDelete:      "deletes its paths (a directory, or -Recurse: the tree)",
	cmMove:        "moves its paths: both ends change, as trees",
	cmCopy:        "copies its paths to the destination",
	cmRead:        "prints its paths",
	cmLocation:    "changes the directory, as cd does",
	cmPopLocation: "returns to a pushed directory",
	cmAlias:       "makes a name run another command",
	cmEval:        "runs its string as PowerShell",
	cmStart:       "runs a program with its arguments",
	cmList:        "lists files, which a writer it feeds changes",
	cmFilter:      "passes its input on",
}

func codeList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = "`" + docCell(n) + "`"
	}
	return strings.Join(q, " ")
}

func docCell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }

func valueOptions(s *progSpec) string {
	var opts []string
	for _, c := range s.short {
		opts = append(opts, "-"+string(c))
	}
	dashes := "--"
	if s.singleDash {
		dashes = "-"
	}
	for _, l := range s.long {
		opts = append(opts, dashes+l)
	}
	out := strings.Join(opts, " ")
	if len(s.flags) > 0 {
		out += " (long options by any unambiguous prefix)"
	}
	return strings.TrimSpace(out)
}

var readRoleDoc = [...]string{
	rdAll:     "every operand",
	rdPattern: "the operands after the pattern",
	rdScript:  "the operands after the script",
	rdFirst:   "the first operand",
	rdCopy:    "every operand but the destination, copied to it",
	rdArchive: "the members it archives",
	rdValues:  "option values only",
}

func readsDoc(s *progSpec) string {
	var parts []string
	if d := readRoleDoc[s.role]; s.role > 0 && d != "" {
		parts = append(parts, d)
	}
	if len(s.valueReads) > 0 {
		parts = append(parts, "the files of "+strings.Join(s.valueReads, " "))
	}
	if len(s.atReads) > 0 {
		parts = append(parts, "@file values of "+strings.Join(s.atReads, " "))
	}
	switch {
	case s.tree:
		parts = append(parts, "directories as trees")
	case len(s.recursive) > 0:
		parts = append(parts, "directories as trees with "+strings.Join(s.recursive, " "))
	}
	if len(s.quiet) > 0 {
		parts = append(parts, "nothing printed with "+strings.Join(s.quiet, " "))
	}
	return strings.Join(parts, "; ")
}

func writesDoc(s *progSpec) string {
	w := s.write
	var parts []string
	switch w.kind {
	case wkUnknown:
		return "not modelled: a gate fails closed when it names a guarded file"
	case wkNone:
		if len(w.values) == 0 && len(w.valueTrees) == 0 && !w.dot && len(w.keyValues) == 0 {
			parts = append(parts, "nothing")
		}
	case wkOperands:
		op := "every operand"
		if w.skip == 1 {
			op = "every operand after the first"
		} else if w.skip > 1 {
			op = fmt.Sprintf("every operand after the first %d", w.skip)
		}
		parts = append(parts, op)
	case wkFirst:
		parts = append(parts, "the first operand")
	case wkSecond:
		parts = append(parts, "the second operand")
	case wkLast:
		parts = append(parts, "the last operand")
	case wkCustom:
		parts = append(parts, "computed from its options (writes.go)")
	}
	if w.local {
		parts[len(parts)-1] += " unless it names another host"
	}
	if w.atLeast > 1 {
		parts = append(parts, fmt.Sprintf("nothing with fewer than %d operands", w.atLeast))
	}
	for _, k := range w.keyValues {
		parts = append(parts, "the file of "+k+"=FILE")
	}
	if len(w.values) > 0 {
		parts = append(parts, "the files of "+strings.Join(w.values, " "))
	}
	if len(w.moves) > 0 {
		parts = append(parts, "the other operands, deleted as trees, with "+strings.Join(w.moves, " "))
	}
	if len(w.valueTrees) > 0 {
		parts = append(parts, "the directories of "+strings.Join(w.valueTrees, " ")+" as trees")
	}
	if w.dot {
		parts = append(parts, "else the directory it runs in, as a tree")
	}
	if len(w.dotWhen) > 0 {
		parts = append(parts, "the directory it runs in with "+strings.Join(w.dotWhen, " "))
	}
	if w.treeAll {
		parts = append(parts, "operands as trees")
	} else if len(w.trees) > 0 {
		parts = append(parts, "as trees with "+strings.Join(w.trees, " "))
	}
	if len(w.skipUnless) > 0 {
		parts = append(parts, "the first operand too with "+strings.Join(w.skipUnless, " "))
	}
	switch {
	case len(w.when) > 0 && len(w.whenSub) > 0:
		parts = append(parts, "only with "+strings.Join(w.when, " ")+" or the subcommand "+strings.Join(w.whenSub, " or "))
	case len(w.when) > 0:
		parts = append(parts, "only with "+strings.Join(w.when, " "))
	}
	if len(w.unless) > 0 {
		parts = append(parts, "nothing with "+strings.Join(w.unless, " "))
	}
	return strings.Join(parts, "; ")
}

func runsDoc(s *progSpec) string {
	r := s.wrap
	if !r.on {
		return ""
	}
	var parts []string
	switch {
	case len(r.subcmds) > 0:
		parts = append(parts, "the command after "+strings.Join(r.subcmds, " or "))
	case r.operands > 0:
		parts = append(parts, fmt.Sprintf("the command after %d operand(s)", r.operands))
	default:
		parts = append(parts, "the command that follows its options")
	}
	if r.assigns {
		parts = append(parts, "NAME=value words first")
	}
	if r.joins {
		parts = append(parts, "its words joined and run by sh -c")
	}
	if r.appends {
		parts = append(parts, "with arguments read at run time appended")
	}
	if r.argLists {
		parts = append(parts, "::: lists as arguments")
	}
	if len(r.chdir) > 0 {
		parts = append(parts, "in the directory of "+strings.Join(r.chdir, " "))
	}
	if len(r.shell) > 0 {
		parts = append(parts, "the shell command of "+strings.Join(r.shell, " "))
	}
	if len(r.shellFlags) > 0 {
		parts = append(parts, "its words as a shell command with "+strings.Join(r.shellFlags, " "))
	}
	if len(r.split) > 0 {
		parts = append(parts, "the value of "+strings.Join(r.split, " ")+" split into words")
	}
	if len(r.printsOnly) > 0 {
		parts = append(parts, "only printed with "+strings.Join(r.printsOnly, " "))
	}
	return strings.Join(parts, "; ")
}
